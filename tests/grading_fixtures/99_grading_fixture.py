# %% [markdown]
# # Solutions 99 · Grader fixture (test only)
# A tiny exercise set the grader's tests build and grade; it is not part of the course.
#
# *Time: about 4 minutes.*
#
# **Objectives.** After this set you can
# 1. average columns;
# 2. pick a unit vector;
# 3. centre columns;
# 4. count means.

# %%
import numpy as np

from dimred_teach import check

X = np.random.default_rng(99).normal(size=(30, 3)) + np.array([1.0, -2.0, 3.0])

# %% [markdown]
# ## Exercise 1 · The mean of each column of `X`. *(1 min, lecture §1)*

# %%
means = X.mean(axis=0)  # SOLUTION

# %%
check("99.column_means", means)

# %% [markdown]
# ## Exercise 2 · Any unit vector `w` in three dimensions. *(1 min, lecture §1)*

# %%
# BEGIN SOLUTION
w = np.array([3.0, 0.0, 4.0])
w = w / np.linalg.norm(w)
# END SOLUTION

# %%
check("99.unit_vector", w)

# %% [markdown]
# ## Exercise 3 · A function centring the columns of a matrix (ValueError for 1-D input). *(1 min, lecture §1)*


# %%
def center(X):
    # BEGIN SOLUTION
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError("X must be a 2-D array")
    return X - X.mean(axis=0)
    # END SOLUTION


# %% points=2
check("99.center", center)

# %% [markdown]
# ## Exercise 4 · The length of the vector of column means. *(1 min, lecture §1)*

# %%
norm = float(np.linalg.norm(means))  # SOLUTION

# %%
check("99.norm_of_means", norm)
