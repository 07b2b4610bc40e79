# %% [markdown]
# # Exercises 01 · PCA from the Lagrangian
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
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

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
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("01.sample_covariance", sample_covariance)


# %% [markdown]
# ## Exercise 2 · The first component from the Lagrangian *(10 min, lecture §2)*
#
# (a) Write `lagrangian_gradient(S, w, lam)`, the gradient with respect to $w$ of
# $\mathcal L(w, \lambda) = w^\top S w - \lambda (w^\top w - 1)$.

# %%
def lagrangian_gradient(S, w, lam):
    """Gradient of w'Sw - lam (w'w - 1) with respect to w, shape (p,)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("01.lagrangian_gradient", lagrangian_gradient)

# %% [markdown]
# (b) The gradient vanishes exactly at eigenpairs of $S$. The lecture found the first component of all 200 crabs;
# find the unit vector `w` that maximises $w^\top S w$ for the 100 orange crabs alone (`X_orange` below), where
# $S$ is their sample covariance.

# %%
species = load_crabs()["species"].to_numpy()
X_orange = X[species == "O"]
# YOUR CODE HERE
values = ...
vectors = ...
w = ...

# %% tags=["check"] points=1
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
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("01.best_projection", best_projection)

# %% [markdown] dimred_teach={"written": {"exercise": "01.best_projection", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 4 · $\operatorname{Var}[\text{scores}] = \Lambda$ *(10 min, lecture §5)*
#
# The lecture checked this on all 200 crabs. Do it for the 100 blue crabs alone (`X_blue` below): compute their
# principal components and their $100\times 5$ matrix of scores on *all five* components, `scores` (one row per
# crab). The check tests the covariance of your scores. Then, in the markdown cell, show why that covariance must
# equal $\Lambda$.

# %%
X_blue = X[species == "B"]
# YOUR CODE HERE
values = ...
vectors = ...
order = ...
scores = ...

# %% tags=["check"] points=1
check("01.score_covariance", scores)


# %% [markdown] dimred_teach={"written": {"exercise": "01.score_covariance", "part": 1}}
# **Your answer:** *(write it here)*

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
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("01.variance_explained", variance_explained)

# %% [markdown] dimred_teach={"written": {"exercise": "01.variance_explained", "part": 1}}
# **Your answer:** *(write it here)*
