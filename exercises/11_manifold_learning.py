# %% [markdown]
# # Exercises 11 · Manifold learning
#
# *Time: about 50 minutes.*
#
# **Objectives.** After this set you can
# 1. build the k-nearest-neighbour graph that Isomap and Laplacian eigenmaps share;
# 2. find how many neighbours it takes to connect a cloud;
# 3. implement Isomap (graph shortest paths, then classical MDS);
# 4. implement Laplacian eigenmaps (the generalised eigenproblem $\mathbf L y = \lambda \mathbf D y$).
#
# Goes with `notebooks/11_manifold_learning.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random data) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the grader
# restores them. Use NumPy, `scipy.linalg.eigh` and `scipy.sparse.csgraph` (not `dimred_teach.manifold`, which
# solves these exercises).
#
# **Notes.** WashU A2 §5 (Figure 4, the 3-D spiral) and §5.3 (Isomap and Laplacian eigenmaps use distances of
# pairs of points); Oxford SC4/SM4 §1.4 (classical MDS, used by Isomap).

# %%
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np
import scipy.linalg
from scipy.sparse.csgraph import connected_components, shortest_path

import dimred_teach as dr
from dimred_teach import check
from dimred_teach.datasets import make_swiss_roll

dr.setup_notebook()


# %% [markdown]
# ## Exercise 1 · The neighbourhood graph *(10 min, lecture §3)*
#
# Write `knn_graph(X, n_neighbors)`: for the $n$ rows of `X`, return the symmetric $n\times n$ matrix `W` with
# $W_{ij} = \|x_i - x_j\|$ when $x_j$ is among the `n_neighbors` nearest points of $x_i$ **or** $x_i$ among those
# of $x_j$, and $W_{ij} = 0$ otherwise (no edge). A point is not its own neighbour. The check compares your graph
# with the course's on fresh random clouds.

# %%
def knn_graph(X, n_neighbors):
    """Symmetric k-nearest-neighbour graph of the rows of X: edge lengths, 0 for no edge, shape (n, n)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("11.knn_graph", knn_graph)


# %% [markdown]
# ## Exercise 2 · How many neighbours connect a cloud? *(10 min, lecture §8)*
#
# With too few neighbours the graph breaks into pieces, and points in different pieces have no geodesic distance
# at all. Write `smallest_connected(X)`: the **smallest** `n_neighbors` for which the graph of Exercise 1 on the
# rows of `X` is connected (one component; `connected_components(W, directed=False)` counts them). The check calls
# it on fresh noisy rolls, some with a far-away cluster. Then use it on the roll below (300 points with noise:
# sparser than the lecture's).

# %%
def smallest_connected(X):
    """The smallest n_neighbors whose knn_graph of the rows of X is connected (an int)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("11.smallest_connected", smallest_connected)

# %%
X_roll, sheet_roll = make_swiss_roll(300, noise=0.5, seed=11)  # a sparser, noisier roll than the lecture's
# YOUR CODE HERE
pass


# %% [markdown]
# ## Exercise 3 · Isomap *(15 min, lecture §5)*
#
# Write `my_isomap(X, n_neighbors, k)`: the graph of Exercise 1, its shortest-path distances $G$
# (`shortest_path(W, directed=False)`; a zero in `W` means "no edge"), then classical MDS of $G$: $\mathbf B =
# -\tfrac12 \mathbf H G^{(2)} \mathbf H$ and $Z = U_k\Lambda_k^{1/2}$ from its $k$ largest eigenpairs. Return the
# $n\times k$ embedding. The check runs it on fresh Swiss rolls and compares up to rotation and reflection.

# %%
def my_isomap(X, n_neighbors, k):
    """Isomap embedding of the rows of X, shape (n, k)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=3
check("11.isomap", my_isomap)

# %% [markdown]
# How well does your Isomap unroll a roll without noise, `X_clean` below? Compare the first coordinate with the
# position along the roll (`sheet_clean[:, 0]`) for 10 and for 40 neighbours, and say in the markdown cell what
# happens with 40.

# %%
X_clean, sheet_clean = make_swiss_roll(800, seed=5)

# YOUR CODE HERE
pass


# %% [markdown] dimred_teach={"written": {"exercise": "11.isomap", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 4 · Laplacian eigenmaps *(15 min, lecture §6)*
#
# Given the symmetric weights `W` ($n\times n$, zero diagonal, a connected graph), write
# `my_laplacian_eigenmaps(W, k)`: with the degree matrix $\mathbf D = \operatorname{diag}(W\mathbf 1)$ and the
# Laplacian $\mathbf L = \mathbf D - W$, solve $\mathbf L y = \lambda\mathbf D y$, drop the constant eigenvector
# (eigenvalue 0) and return the next $k$ eigenvectors as columns, shape $(n, k)$. The check compares the subspace
# they span.

# %%
def my_laplacian_eigenmaps(W, k):
    """The k generalised eigenvectors of L y = lambda D y after the constant one, shape (n, k)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("11.laplacian", my_laplacian_eigenmaps)

# %% [markdown]
# Why the *generalised* problem? Answer in the markdown cell: what does the constraint $y^\top\mathbf D y = 1$
# do that $y^\top y = 1$ does not?

# %% [markdown] dimred_teach={"written": {"exercise": "11.laplacian", "part": 1}}
# **Your answer:** *(write it here)*
