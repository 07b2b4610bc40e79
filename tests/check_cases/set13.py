"""Variants and mutants of exercise set 13, Relatives of PPCA: factor analysis, ICA and the GPLVM."""

import numpy as np

from . import Mutant, Variant, in_float32, solution

CASES = {
    "13.column_means": (
        [
            Variant("the solution", solution("13.column_means")),
            Variant("float32", lambda: in_float32(solution("13.column_means")())),
            Variant("a loop over the rows", lambda: lambda X: sum(row for row in X) / len(X)),
        ],
        [
            Mutant("row means", lambda: lambda X: X.mean(axis=1), r"shape", "wrong-form"),
            Mutant("divides by n - 1", lambda: lambda X: X.sum(axis=0) / (len(X) - 1), r"divides by n - 1",
                   "divides-by-n-minus-1"),
            Mutant("the column sums", lambda: lambda X: X.sum(axis=0), r"sum to zero", "not-centring"),
        ],
    ),
}
