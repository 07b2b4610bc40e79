"""Checks of exercise set 13, Relatives of PPCA: factor analysis, ICA and the GPLVM."""

from __future__ import annotations

import numpy as np

from . import register
from .properties import answer_array, expect, expect_close, in_random_order, is_close

FORBIDS = ()
"""What this set's answers may not use (modules or functions of the library)."""

MISTAKES = {
    "divides-by-n-minus-1": "divided by n - 1 instead of n",
    "not-centring": "means that do not centre the columns",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


def _data(rng: np.random.Generator) -> np.ndarray:
    """A fresh data set with more rows than columns and columns far from zero, shape (n, p)."""
    n, p = int(rng.integers(5, 30)), int(rng.integers(2, 5))
    return rng.normal(loc=rng.uniform(-10, 10, size=p), scale=rng.uniform(0.5, 3.0, size=p), size=(n, p))


@register("13.column_means", hint="sum each column over the rows and divide by the number of rows n")
def _column_means(answer, rng):
    for X in in_random_order(rng, [_data(rng) for _ in range(int(rng.integers(4, 7)))]):
        n, p = X.shape
        means = answer_array(answer(X.copy()), "column_means(X)", shape=(p,))
        expect(not is_close(means, X.sum(axis=0) / (n - 1), 1e-9),
               "column_means(X) divides by n - 1: a mean divides the column's sum by the number of rows n",
               mistake="divides-by-n-minus-1")
        expect_close((X - means).sum(axis=0), np.zeros(p),
                     "subtracting column_means(X) from every row should leave columns that sum to zero",
                     scale=float(np.abs(X).sum(axis=0).max()), mistake="not-centring")
