# %% [markdown]
# # Solutions 01 · PCA from the Lagrangian
#
# *Time: about 55 minutes.*
#
# **Objectives.** After this set you can
# 1. compute a sample covariance;
# 2. find the first component from the Lagrangian's stationarity condition;
# 3. derive PCA from the reconstruction error (WashU notes, Exercise 3.1);
# 4. show that the scores' covariance is $\Lambda$ (CMU slides' exercise);
# 5. compute the proportion of the total variance $\operatorname{tr} S$ explained by the first $k$ components (Oxford
#    notes §1.2.2).
#
# Goes with `notebooks/01_pca_lagrangian.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random data) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the grader
# restores them.
#
# **Notes.** Oxford SC4/SM4 §1.2 (§1.2.2: the total sample variance); CMU 36-467 "Linear dimension reduction";
# WashU A2 §3.

# %%
import numpy as np

import dimred_teach as dr
from dimred_teach import check
from dimred_teach.datasets import load_crabs

dr.setup_notebook()
X = load_crabs()[["FL", "RW", "CL", "CW", "BD"]].to_numpy()
print(X.shape)

# %% [markdown]
# ## Exercise 1 · The sample covariance *(5 min, lecture §1)*
#
# Write `sample_covariance(X)` returning the $p\times p$ matrix $S = \mathbf X_c^\top \mathbf X_c/(n-1)$, where
# $\mathbf X_c$ is $X$ with its column means removed, with matrix products. (`np.cov(X, rowvar=False)` gives
# the same matrix, and the check cannot tell them apart: use it to compare.)

# %%
def sample_covariance(X):
    """Sample covariance of X (n x p, rows are points), shape (p, p)."""
    # BEGIN SOLUTION
    Xc = X - X.mean(axis=0)
    return Xc.T @ Xc / (X.shape[0] - 1)
    # END SOLUTION


# %% points=1
check("01.sample_covariance", sample_covariance)

# %% [markdown]
# ## Exercise 2 · The first component from the Lagrangian *(10 min, lecture §2)*
#
# (a) Write `lagrangian_gradient(S, w, lam)`, the gradient with respect to $w$ of
# $\mathcal L(w, \lambda) = w^\top S w - \lambda (w^\top w - 1)$.

# %%
def lagrangian_gradient(S, w, lam):
    """Gradient of w'Sw - lam (w'w - 1) with respect to w, shape (p,)."""
    return 2 * S @ w - 2 * lam * w  # SOLUTION


# %% points=1
check("01.lagrangian_gradient", lagrangian_gradient)

# %% [markdown]
# (b) The gradient vanishes exactly at eigenpairs of $S$. The lecture found the first component of all 200 crabs;
# find the unit vector `w` that maximises $w^\top S w$ for the 100 orange crabs alone (`X_orange` below), where
# $S$ is their sample covariance.

# %%
species = load_crabs()["species"].to_numpy()
X_orange = X[species == "O"]
# BEGIN SOLUTION
values, vectors = np.linalg.eigh(sample_covariance(X_orange))
w = vectors[:, np.argmax(values)]
# END SOLUTION

# %% points=1
check("01.top_direction", w)

# %% [markdown]
# ## Exercise 3 · PCA from the reconstruction error (WashU Exercise 3.1) *(15 min, lecture §4)*
#
# For an orthonormal $p\times r$ matrix $U$ the reconstruction of a centred point is $\hat x = U U^\top x$.
# Write `best_projection(X, r)` returning the $U$ that minimises $\sum_i \|x_i - U U^\top x_i\|^2$ over the centred
# data, then explain in the markdown cell below why it is the answer.

# %%
def best_projection(X, r):
    """Orthonormal basis (p x r) minimising the squared reconstruction error of centred X."""
    # BEGIN SOLUTION
    values, vectors = np.linalg.eigh(sample_covariance(X))
    return vectors[:, np.argsort(values)[::-1][:r]]
    # END SOLUTION


# %% points=2
check("01.best_projection", best_projection)

# %% [markdown] tags=["solution"]
# **Why.** For orthonormal $U$, $\hat x \perp x - \hat x$, so
# $\|x - UU^\top x\|^2 = \|x\|^2 - \|U^\top x\|^2$. Summing over points,
# $\sum_i \|x_i - \hat x_i\|^2 = \sum_i\|x_i\|^2 - (n-1)\operatorname{tr}(U^\top S U)$. Minimising the error is
# maximising $\operatorname{tr}(U^\top S U) = \sum_{j} u_j^\top S u_j$ subject to $U^\top U = I$. With one
# multiplier per constraint the stationarity condition is $S U = U M$ with $M$ symmetric, so the columns of $U$ span
# an invariant subspace of $S$ and the trace is a sum of $r$ eigenvalues; the largest sum takes the top $r$. The
# error left is $(n-1)\sum_{j>r}\lambda_j$.
#
# **Rubric.**
#
# - 1 point: Pythagoras for an orthonormal $U$: $\|x - UU^\top x\|^2 = \|x\|^2 - \|U^\top x\|^2$, so minimising the
#   error is maximising $\operatorname{tr}(U^\top S U)$.
# - 1 point: The constrained maximum: stationarity gives $SU = UM$, so the columns of $U$ span an invariant subspace
#   of $S$.
# - 1 point: Concludes that the top $r$ eigenvectors are best, leaving an error of $(n-1)\sum_{j>r}\lambda_j$.

# %% [markdown]
# ## Exercise 4 · $\operatorname{Var}[\text{scores}] = \Lambda$ *(10 min, lecture §5)*
#
# The lecture checked this on all 200 crabs. Do it for the 100 blue crabs alone (`X_blue` below): compute their
# principal components and their $100\times 5$ matrix of scores on *all five* components, `scores` (one row per
# crab). The check tests the covariance of your scores. Then, in the markdown cell, show why that covariance must
# equal $\Lambda$.

# %%
X_blue = X[species == "B"]
# BEGIN SOLUTION
values, vectors = np.linalg.eigh(sample_covariance(X_blue))
order = np.argsort(values)[::-1]
scores = (X_blue - X_blue.mean(axis=0)) @ vectors[:, order]
print(np.round(scores.T @ scores / (len(X_blue) - 1), 6))  # their covariance: Lambda
# END SOLUTION

# %% points=1
check("01.score_covariance", scores)

# %% [markdown] tags=["solution"]
# **Why.** With $Z = \mathbf X_c V$ and $S = V\Lambda V^\top$,
# $\frac{1}{n-1}Z^\top Z = V^\top \frac{\mathbf X_c^\top \mathbf X_c}{n-1} V = V^\top V \Lambda V^\top V = \Lambda$,
# because $V^\top V = I$ for the orthonormal eigenvectors of the symmetric matrix $S$.
#
# **Rubric.**
#
# - 1 point: Writes the covariance of the scores as $V^\top S V$ (from $Z = \mathbf X_c V$ and the centred scores).
# - 1 point: Uses $S = V\Lambda V^\top$ with $V^\top V = I$ (orthonormal eigenvectors of a symmetric matrix) to
#   reach $\Lambda$.


# %% [markdown]
# ## Exercise 5 · The proportion of variance explained *(15 min, lecture §7)*
#
# Write `variance_explained(X, k)`: the proportion of the total variance $\operatorname{tr} S$ of the data `X`
# ($n\times p$, rows are points) that its first `k` principal components explain, a number between 0 and 1
# (notebook 01, section 7). Then say in the markdown cell why it does not matter whether the covariance divides by
# $n - 1$ or by $n$.

# %%
def variance_explained(X, k):
    """Proportion (between 0 and 1) of the total variance of X (n x p) explained by its first k components."""
    # BEGIN SOLUTION
    eigenvalues = np.linalg.eigvalsh(sample_covariance(X))[::-1]  # largest first
    return float(eigenvalues[:k].sum() / eigenvalues.sum())
    # END SOLUTION


# %% points=1
check("01.variance_explained", variance_explained)

# %% [markdown] tags=["solution"]
# **Why $n$ or $n - 1$ does not matter.** Dividing by $n$ instead of $n - 1$ multiplies $S$, and so every
# eigenvalue, by $(n-1)/n$. The proportion $\sum_{j\le k}\lambda_j / \sum_j \lambda_j$ has that factor in its
# top and its bottom, and it cancels. Any other scaling of the data (mm to cm, say) cancels the same way; only
# scaling the variables *differently* (standardising, notebook 03) changes the proportions.
#
# **Rubric.**
#
# - 1 point: Dividing by $n$ instead of $n-1$ multiplies every eigenvalue by the same factor $(n-1)/n$.
# - 1 point: The factor is in the numerator and the denominator of the proportion, and cancels.
