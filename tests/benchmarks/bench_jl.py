"""Random projections: the course's sparse projection against scikit-learn's SparseRandomProjection
on a wide sparse matrix, with the bare sparse product as a floor."""

import numpy as np
import scipy.sparse
from sklearn.random_projection import SparseRandomProjection

from dimred_teach.jl import jl_min_dim, random_projection

from .harness import Benchmark


def benchmarks():
    n, p = 2000, 100_000
    X = scipy.sparse.random_array((n, p), density=0.001, format="csr", rng=np.random.default_rng(0))
    q = jl_min_dim(n, 0.2, 0.05)
    fixed = random_projection(X, q, kind="sparse", seed=0).matrix
    fixed_transposed = fixed.T.tocsr()

    def notes():
        ours = random_projection(X, q, kind="sparse", seed=0)
        theirs = SparseRandomProjection(n_components=q, random_state=0).fit(X)
        return (f"q = jl_min_dim(2000, 0.2, 0.05) = {q}; X has {X.nnz} non-zeros; non-zeros of U: ours "
                f"{ours.matrix.nnz}, sklearn {theirs.components_.nnz} (both density 1/sqrt(p)); both outputs sparse: "
                f"{scipy.sparse.issparse(ours.embedding) and scipy.sparse.issparse(theirs.transform(X))}")

    yield Benchmark(
        f"random_projection(kind='sparse'), n={n} p={p} (0.1% non-zero), q={q}",
        ours=lambda: random_projection(X, q, kind="sparse", seed=0),
        baselines={
            "sklearn SparseRandomProjection.fit_transform": lambda: SparseRandomProjection(
                n_components=q, random_state=0).fit_transform(X),
        },
        floor=("sparse X @ U.T, U drawn beforehand", lambda: X @ fixed_transposed),
        notes=notes,
    )
