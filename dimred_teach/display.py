"""How the course shows things: numbers that print the same digits on every machine
(nbval compares printed text exactly), and figures driven by sliders.

Call :func:`setup_notebook` in the first code cell of a notebook; use :func:`rounded`
before printing a scalar or an array that is not printed through NumPy's options; use
:func:`figure_with_sliders` for an interactive figure.
"""

from __future__ import annotations

import numpy as np
from numpy._core import arrayprint as _arrayprint

from ._validation import check_int

__all__ = ["PRECISION", "rounded", "setup_notebook", "figure_with_sliders"]

PRECISION = 4
"""Decimals printed everywhere in the course."""
MAX_DECIMALS = 15
"""The most decimals :func:`rounded` takes either way. A float64 keeps about 16 significant
digits, so more change nothing a printout shows, while NumPy scales by 10^decimals (inf or NaN
for a number above 1 at 309 decimals) and takes seconds for a million."""


def rounded(value, decimals: int = PRECISION):
    """Round a number or an array to ``decimals``, turning -0.0 into 0.0.

    Scalars come back as Python floats (their repr is short and stable), arrays as
    float arrays of the same shape.
    """
    decimals = check_int(decimals, "decimals", -MAX_DECIMALS, MAX_DECIMALS)
    array = np.round(np.asarray(value, dtype=float), decimals) + 0.0  # + 0.0 maps -0.0 to 0.0
    return float(array) if array.ndim == 0 else array


def _format_float(x: float) -> str:
    return f"{rounded(x):.{PRECISION}f}"


class _RoundedFloatFormat(_arrayprint.FloatingFormat):
    """NumPy's own float format (columns aligned) applied to values rounded to the printed
    precision, so that a tiny negative number prints as 0.0000, never -0.0000."""

    def _rounded(self, data):
        return np.round(data, self.precision) + 0 if self.precision is not None else data  # + 0 maps -0.0 to 0.0

    def fillFormat(self, data):
        super().fillFormat(self._rounded(data))

    def __call__(self, x):
        return super().__call__(self._rounded(x))


def setup_notebook() -> None:
    """Apply the course's printing and figure conventions.

    NumPy arrays print with 4 fixed decimals in aligned columns and never as -0.0000;
    pandas uses the same precision; matplotlib uses the course style
    (:func:`dimred_teach.plotting.use_style`).
    """
    import pandas as pd

    from .plotting import use_style

    _arrayprint.FloatingFormat = _RoundedFloatFormat  # NumPy looks the class up at every print
    np.set_printoptions(precision=PRECISION, suppress=True, floatmode="fixed", linewidth=100)
    pd.set_option("display.precision", PRECISION)
    pd.set_option("display.float_format", _format_float)
    pd.set_option("display.width", 100)
    use_style()


def figure_with_sliders(draw, **sliders) -> None:
    """Show the figure ``draw`` makes, under sliders that redraw it in place.

    The figure is an ordinary image output, drawn at the sliders' initial values, so a
    stored notebook shows it (the sliders themselves need a live kernel, and
    ``dimred-teach execute`` leaves their views out of the stored outputs). Moving a
    slider replaces the image.

    Parameters
    ----------
    draw : callable
        ``draw(**values)`` returns a matplotlib Figure; ``values`` maps each keyword of
        ``sliders`` to that slider's current value.
    **sliders : ipywidgets value widgets
        One per keyword argument of ``draw``.
    """
    import ipywidgets
    import matplotlib.pyplot as plt
    from IPython.display import display

    if not sliders:
        raise ValueError("sliders must name at least one widget, e.g. alpha=FloatSlider(...)")

    def render():
        figure = draw(**{name: slider.value for name, slider in sliders.items()})
        plt.close(figure)  # shown through the display handle only, not again at the end of the cell
        return figure

    display(ipywidgets.VBox(list(sliders.values())))
    handle = display(render(), display_id=True)
    for slider in sliders.values():
        slider.observe(lambda _change: handle.update(render()), names="value")
