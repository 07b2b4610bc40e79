"""MDS: classical MDS against scikit-learn's ClassicalMDS and the bare LAPACK calls; SMACOF
against scikit-learn's MDS on the same dissimilarities (time, and the stress reached)."""

import numpy as np
import scipy.linalg
from sklearn.manifold import MDS, ClassicalMDS

from dimred_teach.datasets import load_eurodist
from dimred_teach.mds import classical_mds, double_center, metric_mds, squared_distances

from .harness import Benchmark


def benchmarks():
    rng = np.random.default_rng(0)
    n, k = 2000, 2
    X = rng.standard_normal((n, 10)) @ rng.standard_normal((10, 10))
    D = np.sqrt(squared_distances(X))
    B = double_center(D**2)

    def agreement():
        ours = classical_mds(D, k=k)
        theirs = ClassicalMDS(n_components=k, metric="precomputed").fit(D)
        signs = np.sign(np.sum(ours.embedding * theirs.embedding_, axis=0))
        return (f"max |embedding difference| vs sklearn (up to sign) "
                f"{np.abs(ours.embedding - theirs.embedding_ * signs).max():.1e}; ours also reports all "
                f"{ours.eigenvalues.size} eigenvalues, sklearn only {theirs.eigenvalues_.size}")

    yield Benchmark(
        f"classical_mds(k={k}), n={n} (all eigenvalues + {k} vectors)",
        ours=lambda: classical_mds(D, k=k),
        baselines={
            "sklearn ClassicalMDS (precomputed)": lambda: ClassicalMDS(n_components=k, metric="precomputed").fit(D),
            "numpy.linalg.eigh(B) (all pairs, as ours reports all eigenvalues)": lambda: np.linalg.eigh(B),
        },
        floor=("LAPACK dsyevr subset top-k on B", lambda: scipy.linalg.eigh(B, subset_by_index=(n - k, n - 1))),
        notes=agreement,
        repeat=1,
    )

    noisy = rng.standard_normal((300, 3)) * [5.0, 2.0, 1.0]
    D_noisy = np.sqrt(squared_distances(noisy)) * rng.uniform(0.8, 1.2, size=(300, 300))
    D_noisy = (D_noisy + D_noisy.T) / 2
    np.fill_diagonal(D_noisy, 0.0)
    D_europe = load_eurodist().to_numpy()

    def sklearn_mds(dissimilarities):
        return MDS(n_components=2, metric="precomputed", init="classical_mds", n_init=1, max_iter=300,
                   normalized_stress=False).fit(dissimilarities)

    def stress_comparison():
        parts = []
        for name, dissimilarities in (("noisy n=300", D_noisy), ("eurodist", D_europe)):
            ours = metric_mds(dissimilarities, k=2)
            theirs = sklearn_mds(dissimilarities)
            # the notes (and metric_mds) sum over ordered pairs i != j, sklearn over i < j
            parts.append(f"{name}: raw stress (i<j) ours {ours.stress / 2:.6g} in {ours.n_iter} iterations, "
                         f"sklearn {theirs.stress_:.6g} in {theirs.n_iter_}")
        return "; ".join(parts)

    yield Benchmark(
        "metric_mds (SMACOF, classical start), noisy distances n=300",
        ours=lambda: metric_mds(D_noisy, k=2),
        baselines={"sklearn MDS(init='classical_mds', n_init=1)": lambda: sklearn_mds(D_noisy)},
        notes=stress_comparison,
        repeat=1,
    )

    iterations = 100

    def fixed_iterations():
        ours = metric_mds(D_noisy, k=2, max_iter=iterations, tol=0.0)
        theirs = MDS(n_components=2, metric="precomputed", init="classical_mds", n_init=1, max_iter=iterations,
                     eps=1e-300, normalized_stress=False).fit(D_noisy)
        return f"iterations run: ours {ours.n_iter}, sklearn {theirs.n_iter_}"

    yield Benchmark(
        f"metric_mds, exactly {iterations} SMACOF iterations, n=300 (cost per iteration)",
        ours=lambda: metric_mds(D_noisy, k=2, max_iter=iterations, tol=0.0),
        baselines={f"sklearn MDS(max_iter={iterations}, eps=1e-300)": lambda: MDS(
            n_components=2, metric="precomputed", init="classical_mds", n_init=1, max_iter=iterations, eps=1e-300,
            normalized_stress=False).fit(D_noisy)},
        notes=fixed_iterations,
        repeat=1,
    )
