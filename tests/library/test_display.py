"""The course's printing: aligned 4-decimal columns, never -0.0000."""

import os
import subprocess
import sys

import numpy as np
import pytest

import dimred_teach as dr


@pytest.fixture
def course_printing():
    saved = np.get_printoptions()
    dr.setup_notebook()
    yield
    np.set_printoptions(**saved)


def test_matrix_columns_align_and_negative_zero_is_zero(course_printing):
    text = str(np.array([[1.0, -0.00001, 12.5], [-3.25, 100.0, -0.0]]))
    assert text == "[[  1.0000   0.0000  12.5000]\n [ -3.2500 100.0000   0.0000]]"
    assert "-0.0000" not in str(np.array([-4e-5, 1e-9, -0.0]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rounding_follows_the_printed_precision(course_printing, dtype):
    assert repr(np.array([0.12346, -0.00004], dtype=dtype)).startswith("array([0.1235, 0.0000]")
    with np.printoptions(precision=2):
        assert str(np.array([1.005, -0.001], dtype=dtype)) in ("[1.00 0.00]", "[1.01 0.00]")


def test_non_finite_values_print(course_printing):
    assert str(np.array([np.nan, -np.inf, 1.0])) == "[   nan   -inf 1.0000]"


def test_setup_notebook_styles_figures_without_importing_pyplot():
    """Every notebook's set-up cell, and so every grading kernel, leaves pyplot (about 0.2 s of
    CPU) to the first figure; the figures drawn then still have the course's style."""
    code = ("import sys\nimport dimred_teach as dr\ndr.setup_notebook()\n"
            "print('matplotlib.pyplot' in sys.modules)\n"
            "from dimred_teach.plotting import scree_plot\nfigure = scree_plot([3.0, 2.0, 1.0]).figure\n"
            "print(figure.get_size_inches().tolist(), figure.dpi, figure.axes[0].spines['top'].get_visible())")
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "MPLBACKEND": "Agg"}).stdout
    assert printed.splitlines() == ["False", "[6.4, 4.0] 100.0 False"]


def test_figure_with_sliders_redraws_on_every_move(capsys):
    import ipywidgets
    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell

    InteractiveShell.instance()  # display() needs an IPython shell, as in a notebook
    plt.close("all")  # figures an earlier test of this worker left open are not this test's

    calls = []

    def draw(alpha, k):
        calls.append((alpha, k))
        figure, _ = plt.subplots()
        return figure

    alpha, k = ipywidgets.FloatSlider(value=0.5), ipywidgets.IntSlider(value=2)
    dr.display.figure_with_sliders(draw, alpha=alpha, k=k)
    alpha.value = 0.75
    k.value = 3
    assert calls == [(0.5, 2), (0.75, 2), (0.75, 3)]
    assert plt.get_fignums() == [], "every figure is closed after it is shown"
    with pytest.raises(ValueError, match="sliders"):
        dr.display.figure_with_sliders(draw)


def test_rounded_names_a_number_of_decimals_it_cannot_honour():
    """``rounded`` takes -15 to 15 decimals: beyond, NumPy's scaling by 10^decimals gives inf or
    NaN in silence (and a million decimals took 0.3 s per call in the policy scan)."""
    assert dr.rounded(1234.5678, 15) == 1234.5678 and dr.rounded(1234.5, -2) == 1200.0
    with np.errstate(all="ignore"):
        assert np.isnan(np.round(1e10, 309))  # what an unchecked call gives
    with pytest.raises(ValueError, match="decimals must be at most 15, got 309"):
        dr.rounded(1e10, 309)
    with pytest.raises(TypeError, match="decimals must be an integer, got float 2.0"):
        dr.rounded(1.0, 2.0)
