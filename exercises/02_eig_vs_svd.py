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
# from the singular values of the centred data. Assume $n > p$. (The eigenvalues of $S$ itself are the same numbers,
# so the check cannot tell the routes apart: use them to compare.)

# %%
def eigenvalues_from_svd(X):
    """Covariance eigenvalues (p,) of X (n x p, n > p) via the SVD, descending."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("02.eigenvalues_from_svd", eigenvalues_from_svd)


# %% [markdown]
# ## Exercise 2 · Components from the Gram matrix (WashU Exercise 4.1) *(10 min, lecture §2)*
#
# For $p \gg n$ the $n\times n$ Gram matrix $G = \mathbf X_c \mathbf X_c^\top$ is all PCA needs. Write
# `components_from_gram(G, k)`: given only $G$ (the check never hands you the data), return the scores of the top
# `k` principal components, $Z = \mathbf X_c V_k$ ($n \times k$, largest variance first). Then show in the markdown
# cell how the directions $V_k$ follow from $Z$ and $\mathbf X_c$, without the $p\times p$ covariance.

# %%
def components_from_gram(G, k):
    """Scores (n x k) of the top-k principal components, from the centred Gram matrix G (n x n) alone."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("02.components_from_gram", components_from_gram)


# %% [markdown] dimred_teach={"written": {"exercise": "02.components_from_gram", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 3 · The SVD solves PCA (WashU Exercise 4.2) *(10 min, lecture §1)*
#
# Write `pca_via_svd(X, k)` returning `(components, scores)` from one SVD of the centred data (an eigendecomposition
# of $S$ would pass the check too: the point is to see the SVD give both at once): the top `k`
# components $p\times k$ (largest variance first) and the scores $n\times k$. The check verifies the PCA property $S V = V\Lambda$. Explain in the markdown cell why the SVD
# must satisfy it.

# %%
def pca_via_svd(X, k):
    """(components (p x k), scores (n x k)) of X from a single SVD."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("02.svd_is_pca", pca_via_svd)


# %% [markdown] dimred_teach={"written": {"exercise": "02.svd_is_pca", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 4 · Power iteration *(10 min, lecture §4)*
#
# Write `leading_eigenvector(A)` for a symmetric positive semi-definite matrix with a clear gap
# $\lambda_1 > \lambda_2$: return the unit leading eigenvector, found by power iteration. Use a seeded
# random start and stop when the iterate changes by less than $10^{-12}$. The check hands you large sparse
# matrices (`scipy.sparse`, $12\,000\times 12\,000$, four nonzeros a row): `A @ v` costs a fraction of a
# millisecond, while a dense copy for `np.linalg.eigh` needs more memory and time than the grader gives.

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
# ## Exercise 6 · The pseudo-inverse and the null space from the SVD *(10 min, lecture: going further)*
#
# Write `pseudo_inverse(A)` for any $m\times n$ matrix `A` (tall or wide, of full rank or not), returning a pair
# `(A_plus, null_basis)`:
# * `A_plus`, the $n\times m$ matrix $A^+ = V D^+ U^\top$, where $D^+$ holds $1/d_j$ for the singular values above
#   the cutoff $\max(m, n)\,\varepsilon\, d_1$ and 0 for the others (notebook 02, optional section). Take
#   $\varepsilon$ from `np.finfo(d.dtype).eps`, so that float32 input gets a float32 cutoff;
# * `null_basis`, an orthonormal basis of the null space of `A` ($n\times(n - r)$, with $r$ the number of singular
#   values above the cutoff): the directions $x$ can move in without changing $Ax$.
#
# One SVD gives both (`np.linalg.pinv` gives the first, to compare with). The check tests the four Penrose
# conditions and the null space on random tall and wide matrices, some of them rank-deficient, some in float32.
# Then explain in the markdown cell why $x = A^+ b$ solves the least-squares problem $\min_x \|Ax - b\|$ with the
# smallest $\|x\|$, and what adding a vector of the null space to it does.

# %%
def pseudo_inverse(A):
    """(A_plus (n x m), null_basis (n x (n - rank))) of A (m x n), from one SVD with a cutoff."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("02.pseudo_inverse", pseudo_inverse)

# %% [markdown] dimred_teach={"written": {"exercise": "02.pseudo_inverse", "part": 1}}
# **Your answer:** *(write it here)*
