# %% [markdown]
# # Exercises 04 · Multidimensional scaling
#
# *Time: about 60 minutes.*
#
# **Objectives.** After this set you can
# 1. recover the inner-product matrix $\mathbf B$ from squared distances (Oxford Exercise 1.1);
# 2. implement classical MDS and see it return the points up to a rigid motion;
# 3. align two configurations by orthogonal Procrustes;
# 4. read the spectrum of $\mathbf B$ for the European road distances without Athens;
# 5. tell from the eigenvalues of $\mathbf B$ whether a dissimilarity matrix is Euclidean;
# 6. build a metric that no set of points can realise.
#
# Goes with `notebooks/04_mds.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random configurations) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells:
# the grader restores them. Do not use `dimred_teach.mds`, which solves these exercises.
#
# **Notes.** Oxford SC4/SM4 §1.4 (classical MDS, Exercise 1.1, stress functions); WashU A2 §4.2 (MDS = PCA);
# Georgia Tech ECE 6254 notes, "Multidimensional Scaling" (Euclidean embedding $\mathbf B = -\frac12 \mathbf H
# \mathbf D^2 \mathbf H$).

# %%
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np

import dimred_teach as dr
from dimred_teach import check
from dimred_teach.datasets import load_eurodist

dr.setup_notebook()

# %% [markdown]
# ## Exercise 1 · Recover $\mathbf B$ from $\mathbf D$ (Oxford Exercise 1.1) *(10 min, lecture §2)*
#
# Ten points in $\mathbb R^3$ (deliberately *not* centred) and their squared distances $\mathbf D^{(2)}_{ij} =
# \|x_i - x_j\|^2$:

# %%
X = np.random.default_rng(4).normal(size=(10, 3)) + np.array([3.0, -1.0, 2.0])
D2 = np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1)
print(D2.shape, D2[:3, :3])

# %% [markdown]
# Using **only `D2`**, compute the $10\times 10$ matrix `B` of inner products of the *centred* points,
# $\mathbf B_{ij} = (x_i - \bar x)^\top (x_j - \bar x)$. Then explain in the markdown cell why your formula is
# right: show that for centred points $\mathbf B = -\tfrac12 \mathbf H \mathbf D^{(2)} \mathbf H$ with
# $\mathbf H = \mathbf I - \tfrac1n \mathbf 1 \mathbf 1^\top$. The check verifies that `B` reproduces the
# distances, $\operatorname{diag}(\mathbf B)\mathbf 1^\top + \mathbf 1 \operatorname{diag}(\mathbf B)^\top -
# 2\mathbf B = \mathbf D^{(2)}$, and that $\mathbf B \mathbf 1 = 0$.

# %%
# YOUR CODE HERE
B = ...

# %% tags=["check"] points=2
check("04.recover_b", B)


# %% [markdown] dimred_teach={"written": {"exercise": "04.recover_b", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 2 · Classical MDS *(15 min, lecture §3)*
#
# Write `my_classical_mds(D, k)`: given an $n\times n$ matrix of (unsquared) distances, return the $n\times k$
# configuration $Z = U_k \Lambda_k^{1/2}$ built from the $k$ largest eigenpairs of $\mathbf B$. The check draws
# new random clouds: with $k = p$ your $Z$ must be the cloud up to rotation, reflection and translation; with
# $k < p$ it must be the best $k$-dimensional view (smallest $\|\mathbf B - ZZ^\top\|_F^2$).

# %%
def my_classical_mds(D, k):
    """Classical MDS of distances D (n x n): coordinates, shape (n, k)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=3
check("04.classical_mds", my_classical_mds)


# %% [markdown]
# ## Exercise 3 · Procrustes alignment *(10 min, lecture §3)*
#
# Two maps of the same points rarely come out in the same orientation. Write `align(A, B)` that moves `B` (both
# $n\times p$, row $i$ of each is the same point) onto `A` by a *rigid* motion — an orthogonal matrix $Q$
# (rotation or reflection) and a shift $t$, no scaling — minimising $\|A - (BQ + t)\|_F^2$, and returns the moved
# $BQ + t$. Hint: centre both; the best $Q$ is $UV^\top$ from the SVD $B_c^\top A_c = USV^\top$. (SciPy's
# `scipy.linalg.orthogonal_procrustes` finds the same $Q$: write the SVD yourself, then compare.)

# %%
def align(A, B):
    """B moved rigidly (orthogonal map + shift) as close as possible to A, shape (n, p)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("04.align", align)

# %% [markdown]
# ## Exercise 4 · The spectrum of the road distances without Athens *(10 min, lecture §5)*
#
# `load_eurodist()` gives road distances in km between 21 European cities. The lecture found $\mathbf B$ of all 21
# far from positive semi-definite, and Athens's row holds the impossible Athens-Rome entry. Is Athens the whole
# story? Leave Athens out (drop its row and column: 20 cities) and compute **all 20** eigenvalues of
# $\mathbf B = -\tfrac12 \mathbf H \mathbf D^{(2)}\mathbf H$, largest first, each divided by the largest, as
# `relative_eigenvalues`. Then answer in the markdown cell: how many are clearly negative, and how large is the
# most negative one compared with the second largest? Does leaving Athens out make the distances Euclidean?

# %%
europe = load_eurodist()
D2_west = europe.drop(index="Athens", columns="Athens").to_numpy() ** 2

# YOUR CODE HERE
B_west = ...
eigenvalues = ...
relative_eigenvalues = ...

# %% tags=["check"] points=1
check("04.eurodist_spectrum", relative_eigenvalues)

# %%
# YOUR CODE HERE
pass


# %% [markdown] dimred_teach={"written": {"exercise": "04.eurodist_spectrum", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 5 · Is it Euclidean? *(5 min, lecture §5)*
#
# Write `is_euclidean(D)` that returns `True` when the dissimilarity matrix `D` is the distance matrix of some
# points in a Euclidean space and `False` otherwise, by inspecting the eigenvalues of $\mathbf B$. Rounding
# leaves tiny negative eigenvalues even for exact points: treat eigenvalues above $-10^{-9}\lambda_{\max}$ as zero.

# %%
def is_euclidean(D):
    """True if the eigenvalues of B = -1/2 H D^2 H are all >= -1e-9 times the largest."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("04.is_euclidean", is_euclidean)

# %% [markdown]
# ## Exercise 6 · A metric that is not Euclidean *(10 min, lecture: going further)*
#
# Every Euclidean distance matrix satisfies the triangle inequality, so a violation proves a $\mathbf D$ is not
# Euclidean. The converse fails. Build a small `D_metric` (zero diagonal, symmetric, positive off the diagonal)
# that is **not** Euclidean, although every triangle inequality holds **with room to spare**:
# $D_{ij} + D_{jk} - D_{ik} \ge 0.01\,\max D$ for every three distinct points $i, j, k$ (so no point lies on
# a "segment" between two others). Say in the markdown cell why no points can realise it.

# %%
# YOUR CODE HERE
star = ...
D_metric = ...
H = ...

# %% tags=["check"] points=2
check("04.non_euclidean_metric", D_metric)

# %% [markdown] dimred_teach={"written": {"exercise": "04.non_euclidean_metric", "part": 1}}
# **Your answer:** *(write it here)*
