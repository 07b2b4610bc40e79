# %% [markdown] slideshow={"slide_type": "slide"}
# # 14 · Neighbour embeddings: t-SNE and UMAP
#
# **t-SNE and UMAP draw a map that keeps each point's neighbours near it and lets everything else go: read
# their pictures for who is next to whom, never for sizes or distances between groups.**
#
# *Time: about 60 minutes.* *Prerequisites: notebook 04 (distances and stress), notebook 11 (neighbour graphs,
# Isomap and Laplacian eigenmaps).*
#
# **Learning objectives.** After this notebook you can
# 1. turn distances into SNE's neighbour probabilities, with a bandwidth per point set by a target perplexity;
# 2. explain the crowding problem and why t-SNE's map uses a heavy-tailed Student-t kernel;
# 3. write t-SNE's gradient, say what early exaggeration does, and measure it;
# 4. say what a t-SNE figure shows (neighbourhoods) and what it does not (cluster sizes, gaps between clusters),
#    and check it with a perplexity sweep and random restarts instead of trusting one picture;
# 5. build UMAP's fuzzy neighbour graph, fit its layout, and compare it with t-SNE and notebook 11's methods.
#
# **Notes followed.** The course's lecture notes stop at Isomap and Laplacian eigenmaps (WashU A2 §5, notebook 11)
# and do not treat t-SNE or UMAP. This notebook follows instead: L. van der Maaten and G. Hinton, "Visualizing data
# using t-SNE", *JMLR* 9 (2008) (probabilities, perplexity, the Student-t kernel, the gradient, the optimiser);
# L. McInnes, J. Healy and J. Melville, "UMAP: uniform manifold approximation and projection for dimension
# reduction", arXiv:1802.03426 (2018) (the fuzzy graph and the layout's curve); and scikit-learn's user guide,
# section "Manifold learning", t-SNE (the defaults used here and the warning about reading the pictures). Also
# cited: L. van der Maaten, "Accelerating t-SNE using tree-based algorithms", *JMLR* 15 (2014) (the defaults'
# origin); D. Kobak and P. Berens, "The art of using t-SNE for single-cell transcriptomics", *Nature
# Communications* 10 (2019) (the PCA start); M. Wattenberg, F. Viégas and I. Johnson, "How to use t-SNE
# effectively", *Distill* (2016); G. Linderman and S. Steinerberger, "Clustering with t-SNE, provably", *SIAM
# Journal on Mathematics of Data Science* 1 (2019).
#
# **Conventions.** Rows are points: $X$ is $n\times p$, the map $Y$ is $n\times 2$. $d_{ij}=\lVert x_i-x_j\rVert$.
# Entropies are in bits. The library's t-SNE is exact ($O(n^2)$ per iteration) and its UMAP optimises the full
# loss over all pairs, both for small $n$; for real data use scikit-learn's Barnes-Hut `TSNE` and the `umap-learn`
# package. umap-learn is not installed with this course: it brings numba, a compiler, and a compile on its first call.

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np
import matplotlib.pyplot as plt

import dimred_teach as dr
from dimred_teach.datasets import load_digits
from dimred_teach.manifold import isomap, laplacian_eigenmaps, neighbourhood_graph
from dimred_teach.mds import squared_distances
from dimred_teach.neighbour_embedding import (conditional_probabilities, fit_ab, fuzzy_simplicial_set,
                                              joint_probabilities, perplexity, tsne, tsne_kl_gradient, umap)
from dimred_teach.pca import pca

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. From distances to neighbour probabilities
#
# Stochastic neighbour embedding (SNE) asks each point $i$ to pick a neighbour at random, the nearer the likelier:
#
# $$p_{j\mid i}=\frac{\exp(-\beta_i d_{ij}^2)}{\sum_{k\ne i}\exp(-\beta_i d_{ik}^2)},\qquad \beta_i=\frac1{2\sigma_i^2}.$$
#
# One bandwidth for all points would not do: in a dense region every point would have hundreds of likely
# neighbours, in a sparse one none. So $\sigma_i$ is chosen per point so that the **perplexity** $2^{H(P_i)}$, with
# $H(P_i)=-\sum_j p_{j\mid i}\log_2 p_{j\mid i}$, equals a number we set, roughly the number of neighbours each point
# effectively has. The entropy grows as $\beta_i$ falls, so a bisection on $\beta_i$ finds it. The data here: three
# clusters of 50 points in 10 dimensions, one tight (standard deviation 0.3), one wide (3), one medium (1), with
# centres at 0, 10 and 50 along one axis: a gap of 10 between the tight and the wide cluster, of 40 between the wide
# and the medium one.

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(0)
centres = np.zeros((3, 10))
centres[1, 0], centres[2, 0] = 10.0, 50.0
spreads = np.array([0.3, 3.0, 1.0])
X = np.vstack([centres[g] + spreads[g] * rng.standard_normal((50, 10)) for g in range(3)])
labels = np.repeat([0, 1, 2], 50)

conditional, beta = conditional_probabilities(squared_distances(X), 30.0)
sigma = np.sqrt(1 / (2 * beta))
print("perplexity of every row within 0.01 of 30:", bool(np.abs(perplexity(conditional) - 30).max() < 0.01))
for g, name in enumerate(["tight", "wide", "medium"]):
    print(f"{name:6s} cluster: median sigma {np.median(sigma[labels == g]):.1f}")
assert np.abs(perplexity(conditional) - 30).max() < 0.01
assert np.median(sigma[labels == 1]) > 5 * np.median(sigma[labels == 0])

# %% [markdown] slideshow={"slide_type": "subslide"}
# The wide cluster's points get Gaussians about seven times wider than the tight cluster's: each point sees about
# 30 neighbours whatever the density around it. That is the first reason a t-SNE map cannot show density: the
# probabilities have already forgotten it. The joint probabilities symmetrise the two directions,
# $p_{ij}=(p_{j\mid i}+p_{i\mid j})/(2n)$, so that every point, an outlier too, carries at least $1/(2n)$ of the mass.

# %% slideshow={"slide_type": "fragment"}
P = joint_probabilities(X, 30.0)
print("P symmetric:", bool(np.allclose(P, P.T)), "| smallest row sum times 2n:",
      dr.rounded(P.sum(axis=1).min() * 2 * len(X), 2))
assert np.allclose(P, P.T) and P.sum(axis=1).min() * 2 * len(X) > 1 - 1e-9

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. The crowding problem and the Student-t kernel
#
# In ten dimensions a point can have many neighbours all at about the same distance; in a plane it cannot. Measure
# it: for points drawn uniformly in a ball, compare the distance to the 10th nearest point with the median distance
# to all others. In high dimension the two are close (everything is "moderately far"); in two they are not.

# %% slideshow={"slide_type": "fragment"}
def near_to_typical(dimension, n=400, seed=0):
    """Median over points of (distance to the 10th neighbour) / (median distance to the others)."""
    Z = np.random.default_rng(seed).standard_normal((n, dimension))
    Z *= (np.random.default_rng(seed + 1).random(n) ** (1 / dimension) / np.linalg.norm(Z, axis=1))[:, None]
    D = np.sqrt(squared_distances(Z))
    np.fill_diagonal(D, np.nan)
    return float(np.median(np.sort(D, axis=1)[:, 9] / np.nanmedian(D, axis=1)))


ratio_2, ratio_10 = near_to_typical(2), near_to_typical(10)
print(f"10th neighbour / typical distance: 2-D {ratio_2:.2f}, 10-D {ratio_10:.2f}")
assert ratio_10 > 3 * ratio_2

# %% [markdown] slideshow={"slide_type": "subslide"}
# A map that kept the 10-D neighbours at their distances would have to squeeze all the moderately distant points
# into the little room a plane has at those radii: they crowd together and pull the clusters into one blob. t-SNE's
# cure is to measure similarity in the map with a **heavier-tailed** kernel, the Student-t with one degree of
# freedom,
#
# $$q_{ij}=\frac{(1+\lVert y_i-y_j\rVert^2)^{-1}}{\sum_{k\ne l}(1+\lVert y_k-y_l\rVert^2)^{-1}}.$$
#
# A pair with a small $p_{ij}$ can then be placed far away at little cost. How far? To make a pair 100 times less
# similar than a pair at distance 0, a Gaussian $e^{-d^2/2}$ needs $d=\sqrt{2\ln 100}\approx 3.0$; the Student-t
# kernel needs $d=\sqrt{99}\approx 9.9$, more than three times as far.

# %% slideshow={"slide_type": "fragment"}
gaussian_d, student_d = np.sqrt(2 * np.log(100)), np.sqrt(99)
print(f"distance for similarity 1/100: Gaussian {gaussian_d:.2f}, Student-t {student_d:.2f}")
assert np.isclose(np.exp(-gaussian_d**2 / 2), 0.01) and np.isclose(1 / (1 + student_d**2), 0.01)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. The gradient and the optimiser
#
# t-SNE minimises $C=\mathrm{KL}(P\,\|\,Q)=\sum_{i\ne j}p_{ij}\log(p_{ij}/q_{ij})$. Its gradient has a simple form
# (van der Maaten and Hinton, 2008, appendix A):
#
# $$\frac{\partial C}{\partial y_i}=4\sum_j (p_{ij}-q_{ij})\,(1+\lVert y_i-y_j\rVert^2)^{-1}\,(y_i-y_j):$$
#
# a spring between every pair, attracting when the map makes the pair less similar than the data ($p>q$) and
# repelling otherwise. We check it against finite differences.

# %% slideshow={"slide_type": "fragment"}
Y0 = np.random.default_rng(1).standard_normal((len(X), 2))
kl0, gradient = tsne_kl_gradient(Y0, P)
h = 1e-6
numeric = np.zeros(4)
for index, (i, c) in enumerate([(0, 0), (0, 1), (75, 0), (149, 1)]):
    step = np.zeros_like(Y0)
    step[i, c] = h
    numeric[index] = (tsne_kl_gradient(Y0 + step, P)[0] - tsne_kl_gradient(Y0 - step, P)[0]) / (2 * h)
analytic = gradient[[0, 0, 75, 149], [0, 1, 0, 1]]
print("gradient matches finite differences:", bool(np.allclose(analytic, numeric, rtol=1e-5, atol=1e-9)))
assert np.allclose(analytic, numeric, rtol=1e-5, atol=1e-9)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The optimiser is gradient descent with momentum and a gain per coordinate that grows while the gradient keeps
# its sign. Two tricks from the paper shape the start. The map starts tiny, and in the first iterations **early
# exaggeration** multiplies $P$ by a factor: attractions dominate, points of a cluster pull together into tight
# groups that can move past each other, and only then does the real objective take over. Van der Maaten and Hinton
# (2008) drew the start from a Gaussian of variance $10^{-4}$ and exaggerated by 4 for the first 50 iterations. The
# numbers used here are scikit-learn's defaults, which follow van der Maaten (2014): exaggeration 12 for the first
# 250 iterations, and a start of standard deviation $10^{-4}$ (by default the PCA scores scaled to it, section 4).
# The library's `tsne` takes the same steps as scikit-learn's `TSNE(method="exact")`: the tests
# check ten iterations against it to $10^{-10}$. After that the two runs drift apart: the iteration is chaotic, and
# rounding differences grow about tenfold every three iterations. This is why the cells below print no digits of
# a map and only facts that survive a rerun on another machine.


# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. What a t-SNE figure shows, and what it does not
#
# Run t-SNE on the three clusters of section 1 at perplexities 5, 10 and 30, and measure, in the data and in each
# map, each cluster's size (root mean squared distance to its centre) and the two gaps between the centres: the near
# gap (tight to wide) and the far gap (wide to medium), whose ratio is about 4 in the data.

# %% slideshow={"slide_type": "fragment"}
def sizes_and_gaps(Z):
    """Each cluster's RMS distance to its centre, shape (3,); the near (tight-wide) and far (wide-medium) gaps."""
    means = np.array([Z[labels == g].mean(axis=0) for g in range(3)])
    sizes = np.array([np.sqrt(((Z[labels == g] - means[g]) ** 2).sum(axis=1).mean()) for g in range(3)])
    return sizes, np.linalg.norm(means[0] - means[1]), np.linalg.norm(means[1] - means[2])


blob_maps = {p: tsne(X, float(p), max_iter=500).embedding for p in (5, 10, 30)}
data_sizes, data_near, data_far = sizes_and_gaps(X)
width, gap_ratio = {}, {}
for p, Z in blob_maps.items():
    sizes, near, far = sizes_and_gaps(Z)
    width[p], gap_ratio[p] = sizes[1] / sizes[0], far / near
print(f"wide / tight cluster size: data {data_sizes[1] / data_sizes[0]:.1f}; below 2 in every map:",
      all(w < 2 for w in width.values()))
print(f"far gap / near gap: data {data_far / data_near:.1f}; in the maps below 2.7 at perplexities 5 and 10:",
      max(gap_ratio[5], gap_ratio[10]) < 2.7, "| between 2.7 and 6 at perplexity 30:", 2.7 < gap_ratio[30] < 6)
assert data_sizes[1] / data_sizes[0] > 9 and all(w < 2 for w in width.values())
assert 4 < data_far / data_near < 4.2 and max(gap_ratio[5], gap_ratio[10]) < 2.7 < gap_ratio[30] < 6

# %% [markdown] slideshow={"slide_type": "subslide"}
# A cluster about nine times wider than another comes out less than twice as wide, at every perplexity: sizes are
# (nearly) equalised, because each point was given the same number of neighbours whatever the density. The gaps
# depend on the perplexity. At 30 the map keeps the data's ratio of the two gaps roughly (between 2.7 and 6,
# against 4.1); at 10 and at 5 the ratio drops below 2.7 and the far cluster moves in. No single map says which of
# these pictures is the data's: only the sweep, or a measurement in the data, does. At small perplexities t-SNE
# can even draw clumps in structureless data: random noise does not always look random in a t-SNE map
# (Wattenberg, Viégas and Johnson 2016).

# %% alt="Four scatter plots of the same 150 points in three groups of 50. Left, the first two principal components of the data: a tiny tight group, a wide cloud near it and a medium group far to the right. Then the t-SNE maps at perplexity 5, 10 and 30: in each, three round groups of similar size, the tight group no longer tiny; the medium group sits about as far from the wide one as the tight one does at perplexity 5 and 10, and clearly farther at 30." slideshow={"slide_type": "fragment"}
fig, axes = plt.subplots(1, 4, figsize=(15, 3.8))
panels = [("data: first two principal components", pca(X, 2).scores)]
panels += [(f"t-SNE, perplexity {p}", Z) for p, Z in blob_maps.items()]
for ax, (title, Z) in zip(axes, panels):
    for g, name in enumerate(["tight", "wide", "medium"]):
        ax.scatter(Z[labels == g, 0], Z[labels == g, 1], s=10, label=name)
    ax.set_title(title, fontsize=10)
    ax.set_aspect("equal", "datalim")
axes[0].legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Perplexity sweeps.** Perplexity is a choice, and the picture changes with it. A fair reading runs several values
# and keeps what they agree on. We measure, on the digits, how many of each point's 10 nearest neighbours in the
# data are among its 10 nearest in the map (the *neighbour recall*), and how often a point's nearest map neighbour
# is the same digit. The data: 200 handwritten digits, 20 of each, 64 pixels.

# %% slideshow={"slide_type": "fragment"}
images, digit = load_digits()
keep = np.concatenate([np.flatnonzero(digit == d)[:20] for d in range(10)])
D64, y64 = images[keep], digit[keep]  # 200 handwritten digits, 20 of each, 64 pixels


def neighbours(Z, k=10):
    D = squared_distances(Z)
    np.fill_diagonal(D, np.inf)
    return np.argsort(D, axis=1, kind="stable")[:, :k]


data_neighbours = neighbours(D64)


def recall(Z):
    return float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(data_neighbours, neighbours(Z))]))


def same_digit(Z):
    return float(np.mean(y64[neighbours(Z, 1)[:, 0]] == y64))


sweep = {p: tsne(D64, float(p), max_iter=500).embedding for p in (5, 30, 60)}
print("every perplexity: neighbour recall above 0.7 and nearest neighbour of the same digit for over 95% of points:",
      all(recall(Z) > 0.7 and same_digit(Z) > 0.95 for Z in sweep.values()))
assert all(recall(Z) > 0.7 and same_digit(Z) > 0.95 for Z in sweep.values())

# %% alt="Three scatter plots of 200 handwritten digits coloured by digit, t-SNE with perplexity 5, 30 and 60. At perplexity 5 the digits form about ten small, tight groups, a few of them stretched or split in two; at 30 and 60 they form about ten rounder groups, one per digit, placed differently in each panel." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 3, figsize=(12, 4))
for ax, (p, Z) in zip(axes, sweep.items()):
    ax.scatter(Z[:, 0], Z[:, 1], c=y64, cmap="tab10", s=10)
    ax.set_title(f"perplexity {p}: recall {recall(Z):.2f}")
    ax.set_xticks([]), ax.set_yticks([])
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Every perplexity keeps about three quarters of the ten nearest neighbours (the panel titles; the smallest
# perplexity a little fewer) and puts almost every digit next to its own kind: that is what the pictures agree on.
# Where the groups sit, and how far apart, changes from panel to panel.
#
# **Random restarts.** The starting point is a choice too. Six random starts at perplexity 30: do they agree on
# neighbourhoods, and on which digit groups sit next to each other? For each digit we take the digit whose group
# centre is nearest to its own, in each map and in the data (the mean images in 64 dimensions), and count how often
# two restarts name the same nearest group, and how often a restart names the data's.

# %% slideshow={"slide_type": "fragment"}
restarts = [tsne(D64, 30.0, init="random", seed=s, max_iter=500).embedding for s in range(6)]


def nearest_group(Z):
    """For each digit, the digit whose centre (the mean of its rows of Z) is nearest to its own, shape (10,)."""
    means = np.array([Z[y64 == d].mean(axis=0) for d in range(10)])
    D = squared_distances(means)
    np.fill_diagonal(D, np.inf)
    return D.argmin(axis=1)


recalls = [recall(Z) for Z in restarts]
groups = [nearest_group(Z) for Z in restarts]
pairs_of_restarts = [(a, b) for i, a in enumerate(groups) for b in groups[i + 1:]]
agreement = np.mean([np.mean(a == b) for a, b in pairs_of_restarts])  # over the digits and the 15 pairs
as_in_data = np.mean([np.sum(g == nearest_group(D64)) for g in groups])  # digits per restart, out of 10
print("neighbour recall of the six restarts within 0.05 of each other:", max(recalls) - min(recalls) < 0.05)
print("two restarts name the same nearest group for 40% to 95% of the digits, on average:", 0.4 < agreement < 0.95)
print("a restart names the data's nearest group for more than half of the digits, on average:", as_in_data > 5)
assert max(recalls) - min(recalls) < 0.05 and 0.4 < agreement < 0.95 and as_in_data > 5

# %% [markdown] slideshow={"slide_type": "subslide"}
# The neighbourhoods survive a restart (the recall hardly moves). The arrangement of the groups survives in part:
# many digits keep their nearest group from one restart to the next, and on average more than half get the group
# that is nearest in the data, but some change from restart to restart. Which group sits next to which is a weaker
# fact than who is next to whom; where the groups sit in the plane, and how far apart, is not a fact about the data.
#
# These restarts start at random to show what the start can change. The library's default, like scikit-learn's,
# starts from the first two principal-component scores scaled to a tiny spread: the map then inherits PCA's global
# layout, which Kobak and Berens (2019) recommend to keep more of the global structure, and one machine reproduces
# the same map. It does not make the layout a measurement: check it against the data. Read a t-SNE map for *who is
# next to whom*; do not read the sizes of its clusters, the widths of its gaps or the layout of its groups without
# checking them against the data.

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Early exaggeration, measured.** During the exaggerated phase the attractions win: the map stays tiny while its
# clusters gather. On these 200 digits, with two random starts each, compare the map's root-mean-square radius
# after those 250 iterations, and the neighbour recall after 500, with exaggeration 12 and without (1).

# %% slideshow={"slide_type": "fragment"}
def radius(Z):
    return float(np.sqrt(((Z - Z.mean(axis=0)) ** 2).sum(axis=1).mean()))


after_phase = {e: [radius(tsne(D64, 30.0, init="random", seed=s, early_exaggeration=e, max_iter=250).embedding)
                   for s in range(2)] for e in (1.0, 12.0)}
final_recall = {e: [recall(tsne(D64, 30.0, init="random", seed=s, early_exaggeration=e, max_iter=500).embedding)
                    for s in range(2)] for e in (1.0, 12.0)}
print("map after 250 iterations at least 10 times smaller with exaggeration:",
      max(after_phase[12.0]) * 10 < min(after_phase[1.0]))
print("final neighbour recall within 0.05 with and without:",
      abs(np.mean(final_recall[12.0]) - np.mean(final_recall[1.0])) < 0.05)
assert max(after_phase[12.0]) * 10 < min(after_phase[1.0])
assert abs(np.mean(final_recall[12.0]) - np.mean(final_recall[1.0])) < 0.05

# %% [markdown] slideshow={"slide_type": "subslide"}
# On 200 points exaggeration changes the path, not the result: the final maps keep the same neighbourhoods. It
# was introduced for larger data sets, where clusters spread over a big map must find each other before the
# repulsions freeze them in place; during the exaggerated phase t-SNE behaves much like spectral clustering of the
# neighbour graph (Linderman and Steinerberger, 2019). Keep the default; do not expect to see its effect at this size.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. UMAP: a fuzzy neighbour graph and a layout
#
# UMAP starts, like Isomap and Laplacian eigenmaps (notebook 11), from the $k$-nearest-neighbour graph. Each point
# $i$ gives its neighbours a membership strength
#
# $$w_{i\to j}=\exp\!\Big(-\frac{d_{ij}-\rho_i}{\sigma_i}\Big),\qquad \rho_i=\text{distance to the nearest
# neighbour},\qquad \sum_{j\in\mathrm{kNN}(i)} w_{i\to j}=\log_2 k,$$
#
# so each point's nearest neighbour has strength 1 (every point is connected, however isolated), and $\sigma_i$ is
# found by bisection, the counterpart of t-SNE's perplexity. The two directions are merged by the **fuzzy union**
# $w_{ij}=w_{i\to j}+w_{j\to i}-w_{i\to j}w_{j\to i}$, the probability that at least one of two independent edges
# exists. The graph stays sparse: $n$ points choose $nk$ directed edges, so the union has at most $nk$ edges, an
# average of at most $2k$ per point (a "hub" that many points choose can have more).

# %% slideshow={"slide_type": "fragment"}
graph = fuzzy_simplicial_set(D64, 10)
row_sums = np.exp(-(graph.distances - graph.rho[:, None]) / graph.sigma[:, None]).sum(axis=1)
print("every point's nearest neighbour has strength 1:", bool(np.all(graph.directed.max(axis=1) == 1.0)))
print("every row of strengths sums to log2(10):", bool(np.allclose(row_sums, np.log2(10))))
degree = (graph.graph > 0).sum(axis=1)
print(f"edges per point after the union: {degree.mean():.1f} on average (the average is at most 2k = 20); "
      f"the most-chosen point has {degree.max()}")
A = graph.directed
assert np.allclose(row_sums, np.log2(10)) and np.allclose(graph.graph, A + A.T - A * A.T)
assert degree.mean() <= 20

# %% [markdown] slideshow={"slide_type": "subslide"}
# The layout gives a pair at distance $d$ in the map the similarity $v=1/(1+a\,d^{2b})$, a Student-t-like curve
# whose $a$ and $b$ are fitted by least squares, over $0\le d\le 3$, to a target that is 1 up to
# $d_{\min}$ = `min_dist` and decays exponentially after it, $e^{-(d-d_{\min})}$: `min_dist` controls how tightly
# neighbours may pack. The fitted curve itself does not decay exponentially: for large $d$ it falls off as a power,
# $v\approx d^{-2b}/a$, so far pairs keep much more similarity than the target gives them (below: more than four
# times as much at $d=5$). The map minimises the fuzzy cross-entropy over all pairs,
#
# $$\sum_{i<j} w_{ij}\log\frac{w_{ij}}{v_{ij}}+(1-w_{ij})\log\frac{1-w_{ij}}{1-v_{ij}},$$
#
# whose first term attracts neighbours and second repels non-neighbours. Unlike t-SNE's $Q$, the $v_{ij}$ are not
# normalised over all pairs. umap-learn samples a few non-neighbour pairs per edge instead of summing all of them
# (stochastic gradient descent), which weakens the repulsion; the library sums all pairs (full-batch gradient
# descent, deterministic), which is affordable only for small $n$; its pictures need not match umap-learn's in
# detail.

# %% slideshow={"slide_type": "fragment"}
a, b = fit_ab(0.1)
print(f"min_dist 0.1: a = {a:.3f}, b = {b:.3f}")
assert abs(a - 1.577) < 1e-3 and abs(b - 0.895) < 1e-3  # umap-learn's values for its defaults
curve, target = 1 / (1 + a * 5.0 ** (2 * b)), np.exp(-(5.0 - 0.1))
print(f"at d = 5: the fitted curve {curve:.4f}, the exponential target {target:.4f}")
assert curve > 4 * target

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. UMAP, t-SNE and notebook 11's methods on the same digits
#
# The same 200 digits, five maps, the two measures of section 4 (printed for the three deterministic methods;
# the figure's titles give all five: the neighbour-embedding maps' last digits move with the machine).
#
# Isomap and Laplacian eigenmaps need a neighbourhood size. We choose it by notebook 11's rule: among the sizes
# whose graph is connected, the one with the smallest *residual variance* of Isomap's two-dimensional picture
# ($1-R^2$ between the graph's geodesic distances and the picture's distances), and give Laplacian eigenmaps the
# same graph.

# %% slideshow={"slide_type": "fragment"}
pairs = np.triu_indices(len(D64), 1)


def residual_variance(fitted):
    """1 - R^2 between the geodesic distances of an Isomap fit and the distances in its embedding (notebook 11)."""
    embedded = np.sqrt(squared_distances(fitted.embedding))
    return 1 - np.corrcoef(fitted.geodesic_distances[pairs], embedded[pairs])[0, 1] ** 2


connected = [k for k in range(2, 41) if neighbourhood_graph(D64, k).is_connected]
variances = {k: residual_variance(isomap(D64, 2, k)) for k in connected}
k_graph = min(variances, key=variances.get)
print(f"the digits' graph is connected from k = {min(connected)} on; the residual variance is smallest at "
      f"k = {k_graph} ({variances[k_graph]:.2f}; {variances[40]:.2f} at k = 40)")
assert min(connected) == 9 and k_graph == 9 and variances[40] > 4 * variances[9]

# %% slideshow={"slide_type": "subslide"}
manifold_names = ["PCA", f"Isomap (k={k_graph})", f"Laplacian eigenmaps (k={k_graph})"]
maps = {
    "PCA": pca(D64, 2).scores,
    manifold_names[1]: isomap(D64, 2, k_graph).embedding,
    manifold_names[2]: laplacian_eigenmaps(D64, 2, k_graph).embedding,
    "t-SNE (perplexity 30)": sweep[30],
    "UMAP (k=10)": umap(D64, 10).embedding,
}
scores = {name: recall(Z) for name, Z in maps.items()}
for name in manifold_names:
    print(f"{name:27s} neighbour recall {scores[name]:.2f}, nearest neighbour same digit {same_digit(maps[name]):.1%}")
print("t-SNE and UMAP: neighbour recall above 0.7 and nearest neighbour same digit above 0.95:",
      all(scores[name] > 0.7 and same_digit(maps[name]) > 0.95 for name in ["t-SNE (perplexity 30)", "UMAP (k=10)"]))
assert min(scores["t-SNE (perplexity 30)"], scores["UMAP (k=10)"]) > 0.08 + max(scores[name] for name in manifold_names)
assert min(same_digit(maps["t-SNE (perplexity 30)"]), same_digit(maps["UMAP (k=10)"])) > 0.95 > max(
    same_digit(maps[name]) for name in manifold_names)

# %% alt="Five scatter plots of the same 200 handwritten digits coloured by digit: PCA shows overlapping clouds in which only a few digits stand apart; Isomap with 9 neighbours puts a few digits in separate arms around a mixed centre; Laplacian eigenmaps with 9 neighbours squeezes most points onto a thin curve at the left edge, the digits in short runs along it, with one small group far to the right; t-SNE and UMAP show about ten separate groups, one per digit." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 5, figsize=(17, 3.6))
for ax, (name, Z) in zip(axes, maps.items()):
    ax.scatter(Z[:, 0], Z[:, 1], c=y64, cmap="tab10", s=8)
    ax.set_title(f"{name}\nrecall {scores[name]:.2f}", fontsize=9)
    ax.set_xticks([]), ax.set_yticks([])
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# With the neighbourhood size notebook 11's rule picks (9, the smallest connected graph), Isomap and Laplacian
# eigenmaps keep more neighbourhoods than PCA, but fewer than t-SNE and UMAP, and put a point next to its own
# digit less often. They need two coordinates to carry a global structure (geodesic distances, or the smoothest
# functions on the graph), and ten digits do not fit in two such coordinates. t-SNE and UMAP only promise
# neighbourhoods, and keep more of them. The price is the one section 4 measured: sizes, gaps and the arrangement
# of groups carry no promise. UMAP's graph is sparse (on average at most $2k$ edges per point, section 5), which is
# what lets umap-learn's sampled layout scale to large $n$; on these 200 points the two pictures say the same thing.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * SNE turns distances into neighbour probabilities with a bandwidth per point, set by bisection to a target
#   perplexity; density is forgotten on the way.
# * A plane has no room for many equidistant neighbours (crowding); t-SNE's Student-t kernel lets dissimilar
#   points go far away. Its gradient is a sum of springs; early exaggeration lets clusters form first.
# * A t-SNE map shows neighbourhoods. Cluster sizes, gaps and the layout of the groups change with perplexity and
#   with the random start: check them with a sweep and restarts.
# * UMAP builds a fuzzy $k$-neighbour graph ($\rho_i$, $\sigma_i$, fuzzy union) and lays it out with a fitted
#   curve and a cross-entropy; on these digits it keeps neighbourhoods as t-SNE does, better than PCA, Isomap or
#   Laplacian eigenmaps (with the neighbourhood size notebook 11's rule picks).
#
# **Exercises:** `exercises/14_neighbour_embeddings.ipynb`.
