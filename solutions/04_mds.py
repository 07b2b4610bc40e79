# %% [markdown]
# # Solutions 04 · Multidimensional scaling
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
B = -0.5 * (D2 - D2.mean(axis=0) - D2.mean(axis=1)[:, None] + D2.mean())  # SOLUTION

# %% points=2
check("04.recover_b", B)

# %% [markdown] tags=["solution"]
# **Why.** Write $b = \operatorname{diag}(\mathbf B)$, so $\mathbf D^{(2)} = b\mathbf 1^\top + \mathbf 1 b^\top -
# 2\mathbf B$. For centred points $\mathbf B\mathbf 1 = \mathbf X_c\mathbf X_c^\top\mathbf 1 = 0$ (the columns of
# $\mathbf X_c$ sum to zero), hence $\mathbf H\mathbf B\mathbf H = \mathbf B$, while $\mathbf H\mathbf 1 = 0$ kills
# the other two terms: $\mathbf H (b\mathbf 1^\top)\mathbf H = 0$ and $\mathbf H(\mathbf 1 b^\top)\mathbf H = 0$.
# So $\mathbf H\mathbf D^{(2)}\mathbf H = -2\mathbf B$. Entrywise: $\mathbf B_{ij} = -\tfrac12(\mathbf D^{(2)}_{ij}
# - \bar d_{i\cdot} - \bar d_{\cdot j} + \bar d_{\cdot\cdot})$ with row, column and grand means of
# $\mathbf D^{(2)}$. Translating the points does not change $\mathbf D^{(2)}$, so centring costs nothing.
#
# **Rubric.**
#
# - 1 point: Writes $\mathbf D^{(2)} = b\mathbf 1^\top + \mathbf 1 b^\top - 2\mathbf B$ with $b =
#   \operatorname{diag}(\mathbf B)$.
# - 1 point: $\mathbf H\mathbf 1 = 0$ removes the two terms with $\mathbf 1$; $\mathbf B\mathbf 1 = 0$ for centred
#   points gives $\mathbf H\mathbf B\mathbf H = \mathbf B$.
# - 1 point: Concludes $\mathbf H\mathbf D^{(2)}\mathbf H = -2\mathbf B$ (and that centring costs nothing: distances
#   ignore translation).

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
    # BEGIN SOLUTION
    n = D.shape[0]
    H = np.eye(n) - np.ones((n, n)) / n
    B = -0.5 * H @ (D**2) @ H
    values, vectors = np.linalg.eigh(B)
    top = np.argsort(values)[::-1][:k]
    return vectors[:, top] * np.sqrt(np.clip(values[top], 0.0, None))
    # END SOLUTION


# %% points=3
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
    # BEGIN SOLUTION
    mean_a, mean_b = A.mean(axis=0), B.mean(axis=0)
    U, _, Vt = np.linalg.svd((B - mean_b).T @ (A - mean_a))
    return (B - mean_b) @ (U @ Vt) + mean_a
    # END SOLUTION


# %% points=2
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

# BEGIN SOLUTION
B_west = -0.5 * (D2_west - D2_west.mean(axis=0) - D2_west.mean(axis=1)[:, None] + D2_west.mean())
eigenvalues = np.linalg.eigvalsh(B_west)[::-1]
relative_eigenvalues = eigenvalues / eigenvalues[0]
# END SOLUTION

# %% points=1
check("04.eurodist_spectrum", relative_eigenvalues)

# %%
# BEGIN SOLUTION
print("clearly negative:", int(np.sum(relative_eigenvalues < -1e-9)))
print("most negative / second largest:", dr.rounded(relative_eigenvalues[-1] / relative_eigenvalues[1], 2))
# END SOLUTION

# %% [markdown] tags=["solution"]
# **Reading.** Eight eigenvalues are clearly negative and one is zero, because $\mathbf B\mathbf 1 = 0$ always. The
# most negative is 7.7% of the largest and nearly a quarter of the second largest, larger than the third positive
# one: leaving Athens out removes one negative eigenvalue but not the problem. No configuration of points in any
# Euclidean space has these distances, because $\mathbf B$ would then be a Gram matrix, which is positive
# semi-definite. Road distances follow roads, around mountains and seas; they are not straight lines, and no
# single bad entry explains that away. A 2-D map is still a good picture of the large distances.
#
# **Rubric.**
#
# - 1 point: Eight clearly negative eigenvalues, the most negative about a quarter of the second largest.
# - 1 point: Not Euclidean without Athens either: a Gram matrix would be positive semi-definite; road distances are
#   not straight lines.

# %% [markdown]
# ## Exercise 5 · Is it Euclidean? *(5 min, lecture §5)*
#
# Write `is_euclidean(D)` that returns `True` when the dissimilarity matrix `D` is the distance matrix of some
# points in a Euclidean space and `False` otherwise, by inspecting the eigenvalues of $\mathbf B$. Rounding
# leaves tiny negative eigenvalues even for exact points: treat eigenvalues above $-10^{-9}\lambda_{\max}$ as zero.

# %%
def is_euclidean(D):
    """True if the eigenvalues of B = -1/2 H D^2 H are all >= -1e-9 times the largest."""
    # BEGIN SOLUTION
    n = D.shape[0]
    H = np.eye(n) - np.ones((n, n)) / n
    values = np.linalg.eigvalsh(-0.5 * H @ D**2 @ H)
    return bool(values[0] >= -1e-9 * values[-1])
    # END SOLUTION


# %% points=2
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
# BEGIN SOLUTION
star = np.array([[0.0, 1.0, 1.0, 1.0],
                 [1.0, 0.0, 2.0, 2.0],
                 [1.0, 2.0, 0.0, 2.0],
                 [1.0, 2.0, 2.0, 0.0]])
D_metric = star + 0.1 * (1 - np.eye(4))
H = np.eye(4) - 0.25
print("eigenvalues of B:", np.linalg.eigvalsh(-0.5 * H @ D_metric**2 @ H))
# END SOLUTION

# %% points=2
check("04.non_euclidean_metric", D_metric)

# %% [markdown] tags=["solution"]
# **Why.** Start from a star: point 0 at distance 1 from three points that are 2 apart. For points 1 and 2,
# $D_{12} = D_{10} + D_{02}$: equality in the triangle inequality forces $x_0$ to be the midpoint of $x_1$ and
# $x_2$, i.e. $x_2 = 2x_0 - x_1$. The same argument for points 1 and 3 gives $x_3 = 2x_0 - x_1 = x_2$, but
# $D_{23} = 2 \neq 0$. Adding the same $c = 0.1$ to every distance keeps the triangle inequality, now with $c$ to
# spare ($D_{ij} + c + D_{jk} + c \ge D_{ik} + c + c$). The smallest eigenvalue of $\mathbf B$ depends
# continuously on the distances, and it was clearly negative for the star ($-0.11$ of the largest at $c = 0.05$,
# $-0.09$ at $c = 0.1$): a small change leaves it negative, so no points realise $\mathbf D$ either. (At
# $c \approx 0.4$ it reaches zero: large enough a constant makes any metric Euclidean.)
#
# **Rubric.**
#
# - 1 point: An argument from equality in the triangle inequality (the star: point 0 must be the midpoint of two
#   pairs, a contradiction).
# - 1 point: Why the answer's room to spare keeps it non-Euclidean: a constant added keeps the triangle inequality,
#   and the negative eigenvalue changes continuously.
