"""Low-rank imputation: a fixed number of hard-impute iterations against the same number of
bare thin SVDs of a matrix of the same shape (the physical limit: each iteration is one SVD
plus elementwise work). scikit-learn has no hard impute (IterativeImputer regresses each column
on the others, a different method), so it is not a baseline here."""

import numpy as np

from dimred_teach.datasets import make_ratings
from dimred_teach.imputation import low_rank_impute

from .harness import Benchmark


def benchmarks():
    n_users, n_items, k, iterations = 1000, 400, 5, 20
    ratings, truth = make_ratings(n_users, n_items, rank=k, observed=0.1, seed=0)
    dense = np.where(np.isnan(ratings), 0.0, ratings)

    def bare_svds():
        for _ in range(iterations):
            np.linalg.svd(dense - dense.mean(axis=0), full_matrices=False)

    def accuracy():
        result = low_rank_impute(ratings, k, tol=1e-5)
        error = np.sqrt(np.mean((result.fit - truth) ** 2))
        return (f"to convergence: {result.n_iter} iterations, RMS error against the noise-free truth {error:.3f} "
                f"(noise 0.5, 10% observed)")

    yield Benchmark(
        f"low_rank_impute(k={k}), exactly {iterations} iterations, {n_users} x {n_items} ratings",
        ours=lambda: low_rank_impute(ratings, k, max_iter=iterations, tol=0.0),
        baselines={f"{iterations} x numpy thin SVD alone": bare_svds},
        notes=accuracy,
        repeat=1,
    )
