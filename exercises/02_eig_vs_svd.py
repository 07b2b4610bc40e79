# %% [markdown]
# # Exercises 02 · Eigendecomposition versus SVD
#
# *Time: about 55 minutes.*
#
# **Objectives.** After this set you can
# 1. read the covariance eigenvalues off an SVD;
# 2. get the components from the Gram matrix when $p \gg n$ (WashU Exercise 4.1);
# 3. show that the SVD gives the PCA solution (WashU Exercise 4.2);
# 4. write power iteration;
# 5. choose $k$ by a tolerance;
# 6. build the pseudo-inverse from the SVD (WashU notes, use [U1]).
#
# Goes with `notebooks/02_eig_vs_svd.ipynb`.
#
# Every exercise asks for a function; its `check(...)` cell calls your function on fresh random data and prints
# `[passed]` or `[not yet]` with a hint. Do not edit the check cells.
#
# **Layout.** Rows are points here; the WashU notes use columns. Their $X = UDV^\top$ with $X$ of size $d\times n$
# is our $\mathbf X_c^\top$, so their $U$ is our $V$ and their Exercise 4.1, $V_d = X^\top U D_d^{-1}$, reads
# $U = \mathbf X_c V D^{-1}$ here, or, solved for the directions, $V = \mathbf X_c^\top U D^{-1}$.
#
# **Notes.** Oxford SC4/SM4 §1.2.4; WashU A2 §3.4-4.2 (the pseudo-inverse $D^\dagger$ and use [U1]).

# %%
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np

import dimred_teach as dr
from dimred_teach import check

dr.setup_notebook()


# %% [markdown]
# ## Exercise 1 · Eigenvalues from singular values *(5 min, lecture §1)*
#
# Write `eigenvalues_from_svd(X)`: all $p$ eigenvalues of the sample covariance of `X` (largest first), computed
# from the singular values of the centred data, without forming $S$. Assume $n > p$.

# %%
def eigenvalues_from_svd(X):
    """Covariance eigenvalues (p,) of X (n x p, n > p) via the SVD, descending."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("02.eigenvalues_from_svd", eigenvalues_from_svd)


# %% [markdown]
# ## Exercise 2 · Components from the Gram matrix (WashU Exercise 4.1) *(10 min, lecture §2)*
#
# For $p \gg n$ write `components_from_gram(X, k)`: the top `k` principal directions ($p \times k$, orthonormal,
# largest variance first) computed from the $n\times n$ Gram matrix $G = \mathbf X_c \mathbf X_c^\top$ only: never form
# the $p\times p$ covariance. Then show the formula you use in the markdown cell.

# %%
def components_from_gram(X, k):
    """Top-k principal directions (p x k) of X (n x p, p >> n) via the Gram matrix."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("02.components_from_gram", components_from_gram)


# %% [markdown]
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 3 · The SVD solves PCA (WashU Exercise 4.2) *(10 min, lecture §1)*
#
# Write `pca_via_svd(X, k)` returning `(components, scores)` from one SVD of the centred data: the top `k`
# components $p\times k$ (largest variance first) and the scores $n\times k$. The check verifies the PCA property $S V = V\Lambda$. Explain in the markdown cell why the SVD
# must satisfy it.

# %%
def pca_via_svd(X, k):
    """(components (p x k), scores (n x k)) of X from a single SVD."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("02.svd_is_pca", pca_via_svd)


# %% [markdown]
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 4 · Power iteration *(10 min, lecture §4)*
#
# Write `leading_eigenvector(A)` for a symmetric positive semi-definite matrix with a clear gap
# $\lambda_1 > \lambda_2$: return the unit leading eigenvector, found by power iteration (no `eigh`). Use a seeded
# random start and stop when the iterate changes by less than $10^{-12}$.

# %%
def leading_eigenvector(A, max_iter=10_000):
    """Unit leading eigenvector (m,) of a symmetric PSD matrix A by power iteration."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("02.power_iteration", leading_eigenvector)


# %% [markdown]
# ## Exercise 5 · Choosing $k$ by a tolerance *(10 min, lecture §5)*
#
# Write `smallest_k(eigenvalues, tol)`: the smallest $r$ whose relative reconstruction error
# $\sum_{j>r}\lambda_j / \sum_j\lambda_j$ is below `tol` (the eigenvalues come sorted, largest first).

# %%
def smallest_k(eigenvalues, tol):
    """Smallest r with (sum of eigenvalues after r) / (sum of all) < tol."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("02.smallest_k", smallest_k)


# %% [markdown]
# ## Exercise 6 · The pseudo-inverse from the SVD *(10 min, lecture §6)*
#
# Write `pseudo_inverse(A)` for any $m\times n$ matrix `A` (tall or wide, of full rank or not): the $n\times m$
# matrix $A^+ = V D^+ U^\top$, where $D^+$ holds $1/d_j$ for the singular values above the cutoff
# $\max(m, n)\,\varepsilon\, d_1$ and 0 for the others (notebook 02, optional section). Take $\varepsilon$ from
# `np.finfo(d.dtype).eps`, so that float32 input gets a float32 cutoff. Build it from `np.linalg.svd`;
# `np.linalg.pinv` is the reference to compare with afterwards. The check tests the four Penrose conditions on
# random tall and wide matrices, some of them rank-deficient. Then explain in the markdown cell why $x = A^+ b$
# solves the least-squares problem $\min_x \|Ax - b\|$ with the smallest $\|x\|$.

# %%
def pseudo_inverse(A):
    """Moore-Penrose pseudo-inverse (n x m) of A (m x n), from the SVD with a cutoff."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("02.pseudo_inverse", pseudo_inverse)

# %% [markdown]
# **Your answer:** *(write it here)*
