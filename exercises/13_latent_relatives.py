# %% [markdown]
# # Exercises 13 · Relatives of PPCA: factor analysis, ICA and the GPLVM
#
# *Time: about 10 minutes.*
#
# **Objectives.** After this set you can
# 1. compute the mean of each column of a data matrix.
#
# Goes with `notebooks/13_latent_relatives.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random data) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the grader
# restores them.

# %%
import numpy as np

import dimred_teach as dr
from dimred_teach import check

dr.setup_notebook()


# %% [markdown]
# ## Exercise 1 · The mean of each column *(10 min, lecture §1)*
#
# Write `column_means(X)` returning the length-$p$ vector of the column means of the $n\times p$ matrix `X`
# (rows are points): $\bar x_j = \frac1n \sum_i x_{ij}$.

# %%
def column_means(X):
    """The mean of each column of X, shape (p,), for X of shape (n, p)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("13.column_means", column_means)
