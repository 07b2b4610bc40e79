# %% [markdown]
# # Solutions 14 · Neighbour embeddings: t-SNE and UMAP
#
# *Time: about 55 minutes.*
#
# **Objectives.** After this set you can
# 1. compute SNE's neighbour probabilities of one point from its squared distances and precision;
# 2. compute the perplexity of a probability vector, zero entries included;
# 3. compute t-SNE's Student-t similarities in the map, and say what a map's cluster sizes do not tell you;
# 4. compute t-SNE's gradient;
# 5. merge UMAP's directed memberships by the fuzzy union.
#
# Goes with `notebooks/14_neighbour_embeddings.ipynb`.
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
# ## Exercise 1 · One point's neighbour probabilities *(10 min, lecture §1)*
#
# `d2` holds the squared distances $d_{ij}^2$ from a point $i$ to the $m$ other points, and `beta` is the point's
# precision $\beta_i=1/(2\sigma_i^2)$. Write `neighbour_probabilities(d2, beta)` returning the length-$m$ vector of
# $p_{j\mid i}=\exp(-\beta_i d_{ij}^2)/\sum_k \exp(-\beta_i d_{ik}^2)$.

# %%
def neighbour_probabilities(d2, beta):
    """SNE's p_{j|i}, shape (m,), from the squared distances d2 (m,) to the other points and the precision beta."""
    # BEGIN SOLUTION
    weights = np.exp(-beta * (d2 - d2.min()))  # shifting by the smallest distance changes nothing after dividing
    return weights / weights.sum()
    # END SOLUTION


# %%
check("14.neighbour_probabilities", neighbour_probabilities)

# %% [markdown]
# ## Exercise 2 · Perplexity *(10 min, lecture §1)*
#
# Write `perplexity_of(p)` returning the perplexity $2^{H}$ of a probability vector `p`, with the entropy in bits,
# $H=-\sum_j p_j\log_2 p_j$. Some entries of `p` may be exactly 0; they contribute nothing to $H$ (the limit of
# $p\log p$ as $p\to0$ is 0).

# %%
def perplexity_of(p):
    """2 ** H(p), H the entropy in bits of the probability vector p (m,), zero entries allowed."""
    # BEGIN SOLUTION
    positive = p[p > 0]
    return float(2.0 ** -(positive * np.log2(positive)).sum())
    # END SOLUTION


# %%
check("14.perplexity_of", perplexity_of)

# %% [markdown]
# ## Exercise 3 · t-SNE's similarities in the map, and what cluster sizes say *(10 min, lecture §2)*
#
# Write `student_t_similarities(Y)` returning the $n\times n$ matrix $Q$ of the map's points `Y` ($n\times m$: a map
# may have any number $m$ of columns, and the check draws maps of 1 to 5):
#
# $$q_{ij}=\frac{(1+\lVert y_i-y_j\rVert^2)^{-1}}{\sum_{k\ne l}(1+\lVert y_k-y_l\rVert^2)^{-1}}\quad(i\ne j),
#   \qquad q_{ii}=0.$$

# %%
def student_t_similarities(Y):
    """t-SNE's Q, shape (n, n), of the map's points Y (n, m): zero diagonal, entries summing to 1."""
    # BEGIN SOLUTION
    kernel = 1.0 / (1.0 + ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(kernel, 0.0)
    return kernel / kernel.sum()
    # END SOLUTION


# %%
check("14.student_t_similarities", student_t_similarities)

# %% [markdown]
# **Explain**: a colleague shows you a t-SNE map of cells in which the cluster of T cells covers three times the
# area of the cluster of B cells, and concludes that T cells are three times as varied. What does the lecture's
# section 4 say about this reading, why (which step of t-SNE is responsible), and what would you check instead?

# %% [markdown] tags=["solution"]
# The reading is not supported. Each point's bandwidth $\sigma_i$ is chosen so that its neighbour distribution has
# the same perplexity, about the same number of effective neighbours, whatever the density around it: a point in a
# tight cluster gets a narrow Gaussian, a point in a spread-out one a wide Gaussian. After this calibration the
# probabilities no longer carry the density, and the map equalises cluster sizes (in the lecture, a cluster nine
# times wider than another came out less than twice as wide). The size of a cluster in the map also changes with
# the perplexity and with the random start. To compare how varied two groups are, measure it in the data: the
# spread of each group around its mean (or its distances to its neighbours) in the original variables, or in a
# linear projection such as PCA that keeps distances' scale.
#
# **Rubric.**
#
# - 1 point: The reading is not supported: t-SNE does not keep cluster sizes.
# - 1 point: Names the calibration: each point's bandwidth is set to a fixed perplexity, so the density is lost.
# - 1 point: Proposes a check in the data itself (spread around the group's mean, or a linear projection such as
#   PCA).

# %% [markdown]
# ## Exercise 4 · t-SNE's gradient *(15 min, lecture §3)*
#
# Write `kl_gradient(Y, P)` returning t-SNE's gradient for the map's points `Y` ($n\times m$, any number $m$ of
# columns; the check draws 1 to 5) and a symmetric `P` ($n\times n$, zero diagonal, non-negative): the $n\times m$
# array whose row $i$ is
#
# $$\frac{\partial C}{\partial y_i}=4\sum_j (p_{ij}-q_{ij})\,(1+\lVert y_i-y_j\rVert^2)^{-1}\,(y_i-y_j).$$
#
# When $P$ sums to 1 this is the derivative of $C=\mathrm{KL}(P\,\|\,Q)$. During early exaggeration t-SNE puts the
# exaggerated $P$ (the probabilities times a factor, so that $P$ sums to that factor) into the same formula, and so
# does the check: use `P` as given. The formula is then no longer the slope of $\sum p_{ij}\log(p_{ij}/q_{ij})$,
# so finite differences of that sum do not give it. Write it with NumPy (scikit-learn's private t-SNE functions are
# not available in this set); you may call your `student_t_similarities` from exercise 3.

# %%
def kl_gradient(Y, P):
    """t-SNE's gradient 4 sum_j (p_ij - q_ij) k_ij (y_i - y_j), shape (n, m), for the map Y (n, m) and P (n, n) as given."""
    # BEGIN SOLUTION
    kernel = 1.0 / (1.0 + ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(kernel, 0.0)
    W = (P - kernel / kernel.sum()) * kernel
    return 4.0 * (W.sum(axis=1)[:, None] * Y - W @ Y)
    # END SOLUTION


# %%
check("14.kl_gradient", kl_gradient)

# %% [markdown]
# ## Exercise 5 · UMAP's fuzzy union *(10 min, lecture §5)*
#
# `A` ($n\times n$) holds UMAP's directed memberships $w_{i\to j}$ (row $i$: the strengths point $i$ gives its
# neighbours, entries in $[0,1]$, zero diagonal). Write `fuzzy_union(A)` returning the symmetric memberships
# $w_{ij}=w_{i\to j}+w_{j\to i}-w_{i\to j}\,w_{j\to i}$.

# %%
def fuzzy_union(A):
    """UMAP's symmetric memberships, shape (n, n), from the directed ones A (n, n)."""
    return A + A.T - A * A.T  # SOLUTION


# %%
check("14.fuzzy_union", fuzzy_union)
