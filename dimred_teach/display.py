"""How numbers are printed in the course, so that every notebook prints the same digits
on every machine (nbval compares printed text exactly).

Call :func:`setup_notebook` in the first code cell of a notebook; use :func:`rounded`
before printing a scalar or an array that is not printed through NumPy's options.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PRECISION", "rounded", "setup_notebook"]

PRECISION = 4
"""Decimals printed everywhere in the course."""


def rounded(value, decimals: int = PRECISION):
    """Round a number or an array to ``decimals``, turning -0.0 into 0.0.

    Scalars come back as Python floats (their repr is short and stable), arrays as
    float arrays of the same shape.
    """
    array = np.round(np.asarray(value, dtype=float), decimals) + 0.0  # + 0.0 maps -0.0 to 0.0
    return float(array) if array.ndim == 0 else array


def _format_float(x: float) -> str:
    return f"{rounded(x):.{PRECISION}f}"


def setup_notebook() -> None:
    """Apply the course's printing and figure conventions.

    NumPy arrays print with 4 fixed decimals and never as -0.0000; pandas uses the same
    precision; matplotlib uses the course style (:func:`dimred_teach.plotting.use_style`).
    """
    import pandas as pd

    from .plotting import use_style

    np.set_printoptions(precision=PRECISION, suppress=True, floatmode="fixed", linewidth=100,
                        formatter={"float_kind": _format_float})
    pd.set_option("display.precision", PRECISION)
    pd.set_option("display.float_format", _format_float)
    pd.set_option("display.width", 100)
    use_style()
