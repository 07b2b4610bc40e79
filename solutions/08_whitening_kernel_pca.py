# %% [markdown]
# # Solutions 08 · Standardising, whitening and kernel PCA
#
# *Time: about 60 minutes.*
#
# **Objectives.** After this set you can
# 1. whiten a data set and explain why its covariance is the identity (WashU Exercises 4.3-4.4);
# 2. centre a kernel matrix in feature space;
# 3. compute the RBF kernel;
# 4. show that kernel PCA with the linear kernel is PCA;
# 5. scale the dual coefficients so that each feature-space component has unit length;
# 6. choose an RBF width that separates two concentric circles.
#
# Goes with `notebooks/08_whitening_kernel_pca.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random data) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the grader
# restores them. Use NumPy only in your answers (not `dimred_teach.kernel`, which solves them for you).
#
# **Notes.** WashU A2 notes, §4.3 (eq. 14-16, Exercises 4.3 and 4.4) and §5 (kernel MDS and kernel PCA,
# eq. 17-20). Rows are points here; the notes use columns.

# %%
import numpy as np

import dimred_teach as dr
from dimred_teach import check
from dimred_teach.datasets import load_crabs, make_circles

dr.setup_notebook()
X_crabs = load_crabs()[["FL", "RW", "CL", "CW", "BD"]].to_numpy()
X_circles, labels = make_circles(300, noise=0.05, factor=0.3, seed=21)
X_circles = 3.0 * X_circles  # the lecture's kind of rings, measured in another unit: radii 3 and 0.9
print(X_crabs.shape, X_circles.shape)

# %% [markdown]
# ## Exercise 1 · Whitening *(10 min, lecture §2)*
#
# Write `whiten_data(X)` that returns the whitened data $\mathbf Z$ ($n\times p$): centre $X$, and map it linearly so
# that the sample covariance $\mathbf Z^\top\mathbf Z/(n-1)$ is the identity. Use the SVD of the centred data.
# (You may assume $n > p$ and full rank.)

# %%
def whiten_data(X):
    """Whitened data of X (n x p, rows are points): sample covariance I, shape (n, p)."""
    # BEGIN SOLUTION
    Xc = X - X.mean(axis=0)
    U, d, Vt = np.linalg.svd(Xc, full_matrices=False)
    return np.sqrt(X.shape[0] - 1) * U
    # END SOLUTION


# %% points=2
check("08.whiten", whiten_data)

# %% [markdown]
# **Explain** (WashU Exercises 4.3 and 4.4): why does $\mathbf X_c V \Lambda^{-1/2}$ equal $\sqrt{n-1}\,U$, and why is
# its covariance $I$? Which other matrices would also be valid whitened data?

# %% [markdown] tags=["solution"]
# With $\mathbf X_c = UDV^\top$ and $\Lambda = D^2/(n-1)$: $\mathbf X_c V\Lambda^{-1/2} = UD\,V^\top V\,D^{-1}\sqrt{n-1} = \sqrt{n-1}\,U$
# (this is the notes' $D^{-1}U^\top X = V_d^\top$ in their transposed layout). Its covariance is
# $(n-1)U^\top U/(n-1) = I$ because the columns of $U$ are orthonormal. Any $\mathbf Z Q$ with $Q$ orthogonal is also
# whitened: $Q^\top I Q = I$. For example $Q = V^\top$ gives the "ZCA" whitening $\mathbf X_c V\Lambda^{-1/2}V^\top$.
#
# **Rubric.**
#
# - 1 point: From $\mathbf X_c = UDV^\top$ and $\Lambda = D^2/(n-1)$: $\mathbf X_c V\Lambda^{-1/2} = \sqrt{n-1}\,U$.
# - 1 point: Its covariance is $(n-1)U^\top U/(n-1) = I$.
# - 1 point: Any orthogonal rotation $\mathbf ZQ$ is also whitened (for example ZCA, $Q = V^\top$).

# %% [markdown]
# ## Exercise 2 · Centring a kernel matrix in feature space *(10 min, lecture §4)*
#
# Kernel PCA needs the inner products of the *centred* features $\phi(\mathbf x_i) - \bar\phi$, but only has
# $K_{ij} = \phi(\mathbf x_i)^\top\phi(\mathbf x_j)$. Write `center_kernel_matrix(K)` returning the $n\times n$ matrix of
# those centred inner products. (Expand $(\phi_i - \bar\phi)^\top(\phi_j - \bar\phi)$, or use $H = I - \mathbf 1\mathbf 1^\top/n$.)

# %%
def center_kernel_matrix(K):
    """Inner products of the centred features, from the kernel matrix K (n x n)."""
    # BEGIN SOLUTION
    n = K.shape[0]
    H = np.eye(n) - np.ones((n, n)) / n
    return H @ K @ H
    # END SOLUTION


# %% points=2
check("08.center_kernel", center_kernel_matrix)

# %% [markdown]
# ## Exercise 3 · The RBF kernel *(5 min, lecture §4)*
#
# Write `rbf(X, Y, gamma)` returning the $n\times m$ matrix with entries $\exp(-\gamma\lVert\mathbf x_i - \mathbf y_j\rVert^2)$
# for the rows $\mathbf x_i$ of `X` ($n\times p$) and $\mathbf y_j$ of `Y` ($m\times p$). Avoid Python loops: expand
# $\lVert\mathbf x-\mathbf y\rVert^2 = \lVert\mathbf x\rVert^2 + \lVert\mathbf y\rVert^2 - 2\mathbf x^\top\mathbf y$ or broadcast.

# %%
def rbf(X, Y, gamma):
    """Gaussian kernel matrix between the rows of X (n x p) and Y (m x p), shape (n, m)."""
    # BEGIN SOLUTION
    squared = np.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=2)
    return np.exp(-gamma * squared)
    # END SOLUTION


# %% points=1
check("08.rbf_kernel", rbf)

# %% [markdown]
# ## Exercise 4 · Linear kernel PCA is PCA *(10 min, lecture §4)*
#
# Kernel PCA sees the data only through the kernel matrix. Write `kpca_scores(K, k)`: given a linear kernel matrix
# $K = \mathbf X\mathbf X^\top$ ($n\times n$, not centred; `X` itself is not given), centre it (your Exercise 2), take
# its $k$ leading eigenvectors $\mathbf a_1, \dots, \mathbf a_k$ and eigenvalues $\mu_1\ge\dots\ge\mu_k$, and return the
# $n\times k$ kernel PCA scores: column $j$ is $\sqrt{\mu_j}\,\mathbf a_j$. The check calls it on the kernel matrices of
# fresh data sets and compares the result with the ordinary PCA scores of the data (up to the sign of each column).
# Then, in the cell after the check, compare it with `pca(X_crabs, 2).scores` (from `dimred_teach.pca`) on the crabs.

# %%
def kpca_scores(K, k):
    """Kernel PCA scores (n x k) from the linear kernel matrix K = X X' (n x n, not centred)."""
    # BEGIN SOLUTION
    mu, A = np.linalg.eigh(center_kernel_matrix(K))
    top = np.argsort(mu)[::-1][:k]
    return A[:, top] * np.sqrt(mu[top])
    # END SOLUTION


# %% points=1
check("08.linear_kpca_scores", kpca_scores)

# %%
# BEGIN SOLUTION
from dimred_teach.pca import pca

from_kernel = kpca_scores(X_crabs @ X_crabs.T, 2)
from_pca = pca(X_crabs, 2).scores
print("same scores up to the sign of each column:", np.allclose(np.abs(from_kernel), np.abs(from_pca)))
# END SOLUTION

# %% [markdown]
# ## Exercise 5 · Dual coefficients of unit-length components *(10 min, lecture §4)*
#
# Kernel PCA never forms its feature-space directions $\mathbf u_j = \sum_i a_{ji}\,\tilde\phi(\mathbf x_i)$; it keeps
# the dual coefficient vectors $\mathbf a_j$. Write `dual_coefficients(K, k)` that takes a kernel matrix `K`
# ($n\times n$, not centred) and returns the $n\times k$ matrix whose column $j$ is $\mathbf a_j$: the eigenvector of
# the centred matrix $\tilde K$ for its $j$-th largest eigenvalue $\mu_j = n\lambda_j$ (largest first), scaled so that
# $\mathbf u_j$ has unit length, $\lVert\mathbf u_j\rVert^2 = \mathbf a_j^\top\tilde K\mathbf a_j =
# n\lambda_j\,\mathbf a_j^\top\mathbf a_j = 1$ (notebook 08, §4.3). The check calls it on fresh kernel matrices and
# judges the components: the scores $\tilde K\mathbf a_j$ and the lengths, any sign per column.

# %%
def dual_coefficients(K, k):
    """Dual coefficients (n x k) of the k leading kernel principal components of the kernel matrix K (n x n)."""
    # BEGIN SOLUTION
    mu, V = np.linalg.eigh(center_kernel_matrix(K))
    top = np.argsort(mu)[::-1][:k]
    return V[:, top] / np.sqrt(mu[top])
    # END SOLUTION


# %% points=1
check("08.dual_normalisation", dual_coefficients)

# %% [markdown]
# **Explain**: the check accepts $\mathbf a_j + c\,\mathbf 1$ for any number $c$ as well, although that vector is no
# eigenvector of $\tilde K$ and its $n\lambda_j\,\mathbf a^\top\mathbf a$ is not 1. Why is that right?

# %% [markdown] tags=["solution"]
# Centring makes $\tilde K\mathbf 1 = \mathbf 0$: the constant vector lies in the null space of $\tilde K$. Adding it
# changes the feature-space vector by $c\sum_i\tilde\phi(\mathbf x_i) = \mathbf 0$ (the centred features add up to
# zero), so $\mathbf u_j$, its length $\mathbf a^\top\tilde K\mathbf a$ and the scores $\tilde K\mathbf a$ are
# unchanged. This is the notes' step $\tilde K^2\mathbf a = n\lambda\tilde K\mathbf a \Rightarrow \tilde K\mathbf a =
# n\lambda\mathbf a$ seen from the other side: solutions differ from eigenvectors only by null-space parts, which do
# not matter. Only for the eigenvector itself (no null-space part) does $n\lambda\,\mathbf a^\top\mathbf a$ equal
# the squared length of $\mathbf u$.
#
# **Rubric.**
#
# - 1 point: Centring gives $\tilde K\mathbf 1 = 0$: the constant vector is in the null space.
# - 1 point: So adding $c\mathbf 1$ changes neither the feature-space direction nor the scores $\tilde K\mathbf a$.

# %% [markdown]
# ## Exercise 6 · An RBF width that separates the circles *(15 min, lecture §6)*
#
# `X_circles` (300 points, `labels` 0 for the outer and 1 for the inner circle) cannot be separated by PCA. They are
# rings like the lecture's, but three times larger (radii 3 and 0.9), so the lecture's width need not work. Write
# `separating_gammas(X, labels, gammas)`: the values of the list `gammas` (in their order) at which the **first**
# RBF kernel PCA component of `X` separates the two classes perfectly, every score of one class above every score
# of the other (either class may lie above). Use your functions from Exercises 2-3 (`first_kernel_component` below
# gives the scores). The check calls it on fresh rings of other sizes. Then find which of 0.02, 0.1, 0.25, 0.5, 1,
# 2, 10 and 50 separate `X_circles`.

# %%
def first_kernel_component(X, gamma):
    """Scores of X (n x p) on the first RBF kernel PCA component, shape (n,)."""
    # BEGIN SOLUTION
    mu, A = np.linalg.eigh(center_kernel_matrix(rbf(X, X, gamma)))
    return A[:, -1] * np.sqrt(mu[-1])
    # END SOLUTION


def separating_gammas(X, labels, gammas):
    """The gammas (a list, in the given order) at which the first RBF kernel PCA component separates the classes."""
    # BEGIN SOLUTION
    separating = []
    for gamma in gammas:
        z = first_kernel_component(X, gamma)
        one, other = z[labels == 1], z[labels == 0]
        if one.min() > other.max() or one.max() < other.min():
            separating.append(gamma)
    return separating
    # END SOLUTION


# %% points=1
check("08.circle_gamma", separating_gammas)

# %%
# BEGIN SOLUTION
print(separating_gammas(X_circles, labels, [0.02, 0.1, 0.25, 0.5, 1.0, 2.0, 10.0, 50.0]))
# END SOLUTION

# %% [markdown]
# **Explain** what goes wrong with a much larger $\gamma$ (try 50) and with a much smaller one (try 0.02), and why
# the lecture's $\gamma = 2$ does not work here.

# %% [markdown] tags=["solution"]
# Of the eight values, 0.25 and 0.5 separate `X_circles`: widths $\sigma = 1/\sqrt{2\gamma}$ of 1.4 and 1, comparable to
# the gap of 2.1 between the rings. Multiplying the data by 3 multiplies every squared distance by 9, so the width that worked in the lecture's units
# must shrink by the same factor: $\gamma = 2$ there corresponds to $2/9 \approx 0.22$ here, and $\gamma = 2$ here
# is as narrow as $\gamma = 18$ was on the lecture's rings. With $\gamma = 0.02$ the kernel is much wider than the
# data ($\sigma = 5$ against an outer radius of 3); $\exp(-\gamma d^2)\approx 1-\gamma d^2$
# $= 1 - \gamma\|x\|^2 - \gamma\|y\|^2 + 2\gamma x^\top y$, and centring the kernel matrix removes the terms that
# depend on one point only, leaving $2\gamma x^\top y$: the linear kernel. So kernel PCA is close to ordinary PCA,
# the leading components are the plane's two directions, and the radius, which separates the classes, only appears
# in a later component. With $\gamma = 50$ ($\sigma = 0.1$) each point's kernel
# row is almost zero except for its close neighbours, and most feature-space distances are close to the maximum
# $\sqrt 2$. The inner ring is denser (as many points on a circle 0.3 times as long), so its points share far more
# neighbours: the leading components trace the inner ring's shape, the outer ring collapses to one spot, and the
# contrast between the rings no longer comes first.
#
# **Rubric.**
#
# - 1 point: Large $\gamma$: each point sees only its close neighbours; the denser inner ring dominates the leading
#   components.
# - 1 point: Small $\gamma$: the kernel is nearly linear after centring, so kernel PCA is close to ordinary PCA.
# - 1 point: The lecture's $\gamma$ fails because the data are 3 times larger: $\gamma$ must shrink by 9.
