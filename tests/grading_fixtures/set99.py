"""Checks of the grader's test-only exercise set 99 (never part of the course).

Made importable as ``dimred_teach.checks.set99`` by adding this folder to the checks
package's path (``GradingOptions(extra_check_dirs=...)``).
"""

import numpy as np

from dimred_teach.checks import register
from dimred_teach.checks.properties import answer_array, expect, expect_close, expect_unit_columns


def fixture_data() -> np.ndarray:
    """The data the fixture notebook loads: 30 points in 3 dimensions."""
    return np.random.default_rng(99).normal(size=(30, 3)) + np.array([1.0, -2.0, 3.0])


@register("99.column_means", hint="average each column: X.mean(axis=0)")
def _column_means(answer, rng):
    means = answer_array(answer, "the column means", shape=(3,))
    expect_close(means, fixture_data().mean(axis=0), "mean of each column")


@register("99.unit_vector", hint="divide a vector by its length")
def _unit_vector(answer, rng):
    expect_unit_columns(answer_array(answer, "w", shape=(3,)), "w")


@register("99.center", hint="subtract the column means from every row; 1-D input is an error")
def _center(answer, rng):
    for _ in range(3):
        X = rng.normal(size=(int(rng.integers(4, 9)), 3)) * 5 + rng.normal(size=3)
        centered = answer_array(answer(X), "center(X)", shape=X.shape)
        expect_close(centered.mean(axis=0), np.zeros(3), "the column means of center(X) are 0")
        expect_close(X - centered, np.tile(X.mean(axis=0), (len(X), 1)), "X - center(X) repeats the mean row")
    try:
        answer(np.ones(3))
    except ValueError:
        return
    expect(False, "center(x) should raise ValueError for a 1-D x")


@register("99.norm_of_means", hint="np.linalg.norm of the column means")
def _norm_of_means(answer, rng):
    value = answer_array(answer, "the norm", shape=())
    expect_close(value, np.linalg.norm(fixture_data().mean(axis=0)), "the norm of the column means")
