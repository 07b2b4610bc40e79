# %% [markdown] slideshow={"slide_type": "slide"}
# # 11 · Manifold learning
#
# **A rolled-up sheet has two dimensions, but no projection shows them. Distances measured along the sheet do:
# Isomap and Laplacian eigenmaps recover them from a graph of nearest neighbours.**
#
# *Time: about 60 minutes, plus about 10 for the optional last section.* *Prerequisites: notebook 04 (classical MDS, Procrustes), notebook 08 (kernel PCA).*
#
# **Learning objectives.** After this notebook you can
# 1. say why PCA and RBF kernel PCA do not unroll the Swiss roll (the notes' 3-D spiral), with numbers, and why
#    Isomap is kernel PCA only in a generalised sense;
# 2. build a k-nearest-neighbour graph and approximate distances along a manifold by shortest paths in it;
# 3. compute Isomap as classical MDS of those geodesic distances and check how well it recovers the flat sheet;
# 4. derive Laplacian eigenmaps as the generalised eigenproblem $\mathbf L y = \lambda\mathbf D y$ and verify it;
# 5. choose the neighbourhood size: too small disconnects the graph, too large short-circuits the roll, and the
#    residual variance tells which without the true sheet;
# 6. place maximum variance unfolding beside these methods.
#
# **Notes followed.** WashU A2 §5 (PCA is linear; Figure 3, the 2-D spiral; Figure 4, non-linear reduction of a
# 3-D spiral) and §5.3 ("Isomap, Laplacian eigenmaps: both use distance of pairs of points", maximum variance
# unfolding); WashU §2 lists Isomap among the non-linear methods; Oxford SC4/SM4 §1.4 (classical MDS, which Isomap
# reuses).
#
# **Conventions.** Rows are points: $\mathbf X$ is $n\times 3$. Each point of the roll has coordinates
# $(s, h)$ on the unrolled sheet: $s$ the arc length along the spiral, $h$ the height along the axis. The WashU
# notes store points in columns.
#
# **References.** WashU "USL - Dimensionality Reduction" lecture A2, §2 and §5; Oxford SC4/SM4 "Dimensionality
# Reduction" notes, §1.4; Tenenbaum, de Silva and Langford (2000), *A global geometric framework for nonlinear
# dimensionality reduction*; Belkin and Niyogi (2003), *Laplacian eigenmaps for dimensionality reduction and data
# representation*; de Silva and Tenenbaum (2003), *Global versus local methods in nonlinear dimensionality
# reduction*; Bengio et al. (2004), *Out-of-sample extensions for LLE, Isomap, MDS, Eigenmaps, and spectral
# clustering*; Samko, Marshall and Rosin (2006), *Selection of the optimal parameter value for the Isomap
# algorithm*; Ham, Lee, Mika and Schölkopf (2004), *A kernel view of the dimensionality reduction of
# manifolds*; Weinberger and Saul (2006), *Unsupervised learning of image manifolds by semidefinite
# programming*.

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np
import matplotlib.pyplot as plt
from scipy.stats import spearmanr

import dimred_teach as dr
from dimred_teach.datasets import make_swiss_roll
from dimred_teach.kernel import kernel_pca
from dimred_teach.manifold import geodesic_distances, isomap, isomap_transform, laplacian_eigenmaps, neighbourhood_graph
from dimred_teach.mds import classical_mds, procrustes, squared_distances
from dimred_teach.pca import pca

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The Swiss roll
#
# `make_swiss_roll` draws 800 points uniformly on a $89\times 20$ rectangle and rolls it up along an
# Archimedean spiral $r = \theta$, for $\theta$ from $3\pi/2$ through one and a half turns: the notes' 3-D spiral
# (WashU Figure 4). It also returns each point's sheet coordinates $(s, h)$, the answer a method should find.

# %% alt="The Swiss roll in three dimensions, 800 points coloured by the position s along the sheet, rolled up along a spiral around its axis, with axis labels and a colourbar." slideshow={"slide_type": "fragment"}
X, sheet = make_swiss_roll(800, seed=0)
s = sheet[:, 0]
print("X:", X.shape, "| sheet size:", dr.rounded(np.ptp(sheet, axis=0), 1))

fig = plt.figure(figsize=(6.5, 5))
ax = fig.add_subplot(projection="3d")
points = ax.scatter(X[:, 0], X[:, 1], X[:, 2], c=s, cmap="viridis", s=8)
ax.view_init(elev=12, azim=-70)
ax.set_yticks([0, 10, 20])
ax.set(xlabel="$x_1$", ylabel="$x_2$ (height)", zlabel="$x_3$")
fig.colorbar(points, ax=ax, shrink=0.6, pad=0.1, label="position s along the sheet")
ax.set_title("Swiss roll, coloured by the position s along the sheet")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Close together, the roll is flat: the straight-line distance between nearby points is their distance on the
# sheet. Far apart, it is not: a straight line cuts through the roll, between its layers.

# %% slideshow={"slide_type": "fragment"}
D = np.sqrt(squared_distances(X))
S = np.sqrt(squared_distances(sheet))
near = (S > 0) & (S < 1.0)
far = S > 30
print("pairs closer than 1 on the sheet: largest |straight / sheet - 1| =", dr.rounded(np.max(np.abs(D[near] / S[near] - 1))))
print("pairs farther than 30: median straight / sheet =", dr.rounded(np.median(D[far] / S[far])))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Nearby pairs agree to 0.1%; far pairs are on median only about a third as far apart in space as on the sheet.
# Any method that starts from straight-line distances (PCA, classical MDS) sees the roll, not the sheet.
#
# ## 2. Linear and kernel PCA on the roll
#
# PCA finds the directions of largest spread of the *rolled-up* cloud. Kernel PCA (notebook 08) maps the points
# into a feature space first; with an RBF kernel its components are smooth functions of position in $\mathbb R^3$,
# which need not follow the sheet. The score is the one notebook 08's optional section used on these same 800
# points: for each of the first three components, the absolute rank (Spearman) correlation with $s$. A rank
# correlation of 1 means the coordinate puts the points in their order along the sheet, whatever it does to the
# lengths; we use it for every method in this notebook, and judge lengths separately (section 5).

# %% slideshow={"slide_type": "fragment"}
def rank_correlation_with_s(Z):
    """|Spearman correlation| of each column of Z, shape (n, k), with the position s along the roll."""
    return np.array([abs(spearmanr(column, s)[0]) for column in Z.T])


pca_scores = pca(X, k=3).scores
kpca_scores = {gamma: kernel_pca(X, 3, "rbf", gamma=gamma).scores for gamma in (0.01, 0.1, 0.5)}
print("PCA:                   |rank corr with s| of PC1-PC3", dr.rounded(rank_correlation_with_s(pca_scores)))
for gamma, scores in kpca_scores.items():
    print(f"kernel PCA, gamma = {gamma:<4}: |rank corr with s| of PC1-PC3", dr.rounded(rank_correlation_with_s(scores)))
best_kernel = max(rank_correlation_with_s(scores).max() for scores in kpca_scores.values())
assert rank_correlation_with_s(pca_scores).max() < 0.42 and best_kernel < 0.56

# %% [markdown] slideshow={"slide_type": "subslide"}
# No coordinate comes near 1: PCA's best is 0.41 and the best of the three kernel widths 0.55 (the same numbers as
# notebook 08). So no linear projection, and no RBF kernel PCA we tried, lays the sheet out flat. That is a
# statement about these kernels, not about kernel PCA: section 5 shows that Isomap, which does unroll the sheet, is
# kernel PCA in a generalised sense, with a matrix learnt from the data in place of a kernel chosen in advance.
#
# ## 3. The neighbourhood graph
#
# Isomap and Laplacian eigenmaps trust only small distances (WashU §5.3: "both use distance of pairs of points").
# Join every point to its $k$ nearest neighbours and keep the edge when either end chose it. The graph must be
# connected, or some points have no path between them. For the roll:

# %% slideshow={"slide_type": "fragment"}
for n_neighbors in (1, 2, 3, 4):
    graph = neighbourhood_graph(X, n_neighbors)
    print(f"n_neighbors = {n_neighbors}: {graph.n_components} connected component(s)")

# %% [markdown] slideshow={"slide_type": "subslide"}
# With one neighbour each, the points pair off into hundreds of small pieces; four neighbours connect all 800.
# Asking for geodesic distances on a disconnected graph is an error that says so:

# %% slideshow={"slide_type": "fragment"}
try:
    geodesic_distances(X, 3)
except ValueError as error:
    print(error)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Geodesic distances
#
# A path along graph edges stays on the sheet, so the shortest path (Dijkstra's algorithm,
# `scipy.sparse.csgraph.shortest_path`) approximates the distance *along the manifold*. With 10 neighbours:

# %% slideshow={"slide_type": "fragment"}
G = geodesic_distances(X, 10)
print("pairs farther than 30: median graph / sheet =", dr.rounded(np.median(G[far] / S[far])))
print("95% of far pairs within", dr.rounded(np.percentile(np.abs(G[far] / S[far] - 1), 95) * 100, 1),
      "% of the sheet distance")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Where straight lines were a third of the true distance, graph paths are within a few percent (on median 3%
# longer, since a path zigzags from point to point).
#
# ## 5. Isomap = classical MDS of the geodesic distances
#
# Isomap (Tenenbaum et al. 2000) is notebook 04 with the distances replaced: $\mathbf B = -\tfrac12\mathbf H
# \mathbf G^{(2)}\mathbf H$ and $Z = U_k\Lambda_k^{1/2}$. Read with notebook 08 (section 7, kernel MDS is kernel
# PCA), $\mathbf B$ plays the part of a kernel matrix, learnt from the neighbourhood graph where the RBF kernel of
# section 2 was fixed in advance (whether it *is* one, we check below). The library's `isomap` is exactly that:

# %% slideshow={"slide_type": "fragment"}
result = isomap(X, k=2, n_neighbors=10)
by_hand = classical_mds(G, k=2)  # isomap itself computes only the k eigenpairs it needs; this gives all eigenvalues
print("isomap = classical_mds(geodesic distances) up to sign:",
      np.allclose(np.abs(result.embedding), np.abs(by_hand.embedding)))
values = by_hand.eigenvalues
print("eigenvalues of B / largest:", dr.rounded(values[:4] / values[0]))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Two eigenvalues stand out: the geodesic distances are nearly those of a flat 2-D sheet. Nearly: a kernel matrix
# is positive semi-definite, and $\mathbf B$ is not. Count its negative eigenvalues as notebook 04 §5 did for the
# road distances:

# %% slideshow={"slide_type": "fragment"}
negative = values[values < -1e-9 * values[0]]
print("negative eigenvalues of B:", negative.size, "of", values.size)
print("most negative / largest:", dr.rounded(values[-1] / values[0]))
print("negative share of sum |lambda|:", dr.rounded(np.abs(negative).sum() / np.abs(values).sum()))
assert negative.size == 425 and -0.0090 < values[-1] / values[0] < -0.0086
assert 0.041 < np.abs(negative).sum() / np.abs(values).sum() < 0.043

# %% [markdown] slideshow={"slide_type": "subslide"}
# Graph paths are not the Euclidean distances of any set of points: 425 of the 800 eigenvalues are negative. They
# are small (the most negative is 0.9% of the largest, and together they hold 4% of $\sum_j|\lambda_j|$) but they
# make $\mathbf B$ indefinite, so it is not a kernel matrix. Isomap is kernel PCA only in a generalised sense: it
# keeps the top *positive* eigenpairs and drops the rest, exactly as classical MDS did for the European roads.
# Ham, Lee, Mika and Schölkopf (2004) make it a kernel method proper: adding one suitable constant to every
# off-diagonal geodesic distance (the constant-shift of classical scaling) makes $\mathbf B$ positive semi-definite.
#
# How close is the embedding to the true sheet, up to a rigid motion (Procrustes, notebook 04)?

# %% slideshow={"slide_type": "fragment"}
fit = procrustes(sheet, result.embedding, scale=False)
print("squared misfit / squared spread (relative_residual):", dr.rounded(fit.relative_residual))
print("RMS misfit / RMS spread:", dr.rounded(np.sqrt(fit.relative_residual)))
print("|rank corr with s| per coordinate:", dr.rounded(rank_correlation_with_s(result.embedding)))
print("extent of the aligned embedding:", dr.rounded(np.ptp(fit.aligned, axis=0), 1), "| of the sheet:",
      dr.rounded(np.ptp(sheet, axis=0), 1))
assert np.sqrt(fit.relative_residual) < 0.06 and np.all(np.abs(np.ptp(fit.aligned, axis=0) / np.ptp(sheet, axis=0) - 1) < 0.07)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The misfit is 5% of the sheet's spread in root mean square (`relative_residual`, 0.0027, is a ratio of *squared*
# norms: its square root is the RMS misfit over the RMS spread), and the first coordinate *is* the position along
# the roll: Isomap has unrolled it, with lengths a few percent too long (92.7 by 21.2 against 89.3 by 20): shortest
# paths in the graph zigzag a little.
#
# ## 6. Laplacian eigenmaps
#
# Instead of preserving all distances, keep neighbours together. With weights $W_{ij} > 0$ on graph edges
# (here 1 when both points chose each other, $\tfrac12$ when one did), degrees $d_i = \sum_j W_{ij}$,
# $\mathbf D = \operatorname{diag}(d)$ and the graph Laplacian $\mathbf L = \mathbf D - W$,
# $$\tfrac12\sum_{ij} W_{ij}(y_i - y_j)^2 = y^\top\mathbf L y .$$
# Minimise it under $y^\top\mathbf D y = 1$ (to rule out $y = 0$). A Lagrange multiplier, as for PCA in notebook 01,
# gives $\mathbf L y = \lambda\mathbf D y$, and the cost of a solution is $y^\top\mathbf L y = \lambda$. The constant
# vector has $\lambda = 0$ and says nothing; the next eigenvectors, $\mathbf D$-orthogonal to it, are the embedding
# (Belkin and Niyogi 2003). Check all of this:

# %% slideshow={"slide_type": "fragment"}
eigenmap = laplacian_eigenmaps(X, k=2, n_neighbors=10)
W = eigenmap.weights.toarray()
degrees = W.sum(axis=1)
L = np.diag(degrees) - W
Y = eigenmap.embedding
print("eigenvalues (smallest first):", dr.rounded(eigenmap.eigenvalues, 6))
print("L y = lambda D y:", np.allclose(L @ Y, degrees[:, None] * Y * eigenmap.eigenvalues[1:]))
print("Y' D Y = I:", np.allclose(Y.T @ (degrees[:, None] * Y), np.eye(2)))
print("Y' D 1 = 0 (orthogonal to the constant):", np.allclose(Y.T @ degrees, 0))
costs = [0.5 * np.sum(W * (y[:, None] - y[None, :]) ** 2) for y in Y.T]
print("cost of each eigenvector = its eigenvalue:", np.allclose(costs, eigenmap.eigenvalues[1:]))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Laplacian eigenmaps keep the *order* along the roll, not the lengths, which is what the rank correlation of
# section 2 measures:

# %% slideshow={"slide_type": "fragment"}
print("Laplacian eigenmaps: |rank corr with s|", dr.rounded(rank_correlation_with_s(Y)))
print("Isomap:              |rank corr with s|", dr.rounded(rank_correlation_with_s(result.embedding)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The first eigenmap coordinate orders the points along the roll as well as Isomap does, but the second is not
# the height $h$. On a long strip of length $\ell$ the smoothest functions (those of smallest cost) are the
# vibration modes $\cos(\pi m s/\ell)$ along its length; one across its height, $\cos(\pi h/20)$, costs as much
# as $m = \ell/20 \approx 4.5$ and comes much later. The coordinates are these modes:

# %% slideshow={"slide_type": "fragment"}
length = np.ptp(s)
modes = {"cos(pi s / l)": np.cos(np.pi * (s - s.min()) / length),
         "cos(2 pi s / l)": np.cos(2 * np.pi * (s - s.min()) / length), "h": sheet[:, 1]}
for name, mode in modes.items():
    print(f"|corr| with {name:16s}", dr.rounded(np.array([abs(np.corrcoef(y, mode)[0, 1]) for y in Y.T])))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The eigenvalues tell the same story. A mode $\cos(\pi m s/\ell)$ changes $m$ times as fast as the first, so its cost
# $\sum W_{ij}(y_i-y_j)^2$ grows like $m^2$: the eigenvalues over the first should be near 1, 4, 9, 16. Across the
# height, $\cos(\pi h/20)$ should cost $(\ell/20)^2 \approx 20$ times the first. Six more eigenpairs:

# %% slideshow={"slide_type": "fragment"}
more = laplacian_eigenmaps(X, k=6, n_neighbors=10)
ratios = more.eigenvalues[1:] / more.eigenvalues[1]
across = np.cos(np.pi * sheet[:, 1] / 20)
print("eigenvalue / first:", dr.rounded(ratios, 1), "| (l / 20)^2 =", dr.rounded((length / 20) ** 2, 1))
with_height = np.abs(np.corrcoef(more.embedding.T, across)[-1, :-1])
print("|corr| with cos(pi h / 20):", dr.rounded(with_height))
assert np.allclose(ratios[:4], [1, 4, 9, 16], rtol=0.05) and np.argmax(with_height) >= 4

# %% [markdown] slideshow={"slide_type": "subslide"}
# The first four ratios are 1, 4.0, 9.3 and 15.4, the squares of 1 to 4; only the fifth and sixth eigenvectors
# follow the height, at about 17 to 19 times the first (below the ideal 20, since there they mix with the $s$ modes).
# So Laplacian eigenmaps keep neighbourhoods and order, but a 2-D plot of them bends the strip into an arc
# (the curve $(\cos t, \cos 2t)$) instead of showing its width.
#
# ## 7. Four methods, one figure
#
# The WashU notes' Figures 3 and 4 in one picture: each panel colours the points by $s$. A method that unrolls
# the sheet shows the colours in order from one side to the other.

# %% alt="Four panels of two-dimensional embeddings of the Swiss roll, coloured by the position s along the sheet and drawn with equal axes. PCA shows the roll end-on, still rolled up; RBF kernel PCA pulls stretches out as arms and piles layers together; Isomap shows a rectangle of about 93 by 21 with the colours in order and faint horizontal bands; Laplacian eigenmaps order the colours along an arc." slideshow={"slide_type": "fragment"}
panels = [("PCA (PC1, PC2)", pca_scores), ("RBF kernel PCA, gamma = 0.1 (PC1, PC3)", kpca_scores[0.1][:, [0, 2]]),
          ("Isomap (10 neighbours)", result.embedding), ("Laplacian eigenmaps (10 neighbours)", Y)]
fig, axes = plt.subplots(2, 2, figsize=(10, 8), layout="constrained")
for ax, (title, Z) in zip(axes.ravel(), panels):
    points = ax.scatter(Z[:, 0], Z[:, 1], c=s, cmap="viridis", s=6)
    ax.set_title(title)
    ax.set_aspect("equal", adjustable="datalim")  # Isomap's 93 x 21 rectangle looks like one
    ax.set(xlabel="coordinate 1", ylabel="coordinate 2")
    ax.locator_params(nbins=5)
fig.colorbar(points, ax=axes, shrink=0.6, label="position s along the sheet")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# PCA shows the roll seen end-on, still rolled up: it only drops the height. RBF kernel PCA (the components of
# notebook 08's figure) pulls a few single stretches of the roll out as arms and piles the rest near the
# origin, points from different layers side by side (dark among green and yellow). Isomap shows a rectangle of 93 by 21
# (the sheet: 89 by 20, section 5; equal axes show its shape) with the colours in order; Laplacian eigenmaps
# order the colours along an arc (their coordinates are not lengths: the scale of each panel is its own).
#
# The Isomap panel also shows faint horizontal bands, rows where points crowd and gaps where they thin out. The
# heights $h$ are uniform, so the bands are Isomap's. Cut the sheet into ten strips of height 2 and see where each
# strip lands on the aligned coordinate 2 (the Procrustes fit of section 5):

# %% slideshow={"slide_type": "fragment"}
def height_steps(sheet_coordinates, aligned):
    """Mean aligned coordinate 2 in each of ten strips of height 2, differences between neighbouring strips."""
    strip = np.minimum(sheet_coordinates[:, 1] // 2, 9)
    return np.diff([aligned[strip == b, 1].mean() for b in range(10)])


steps = height_steps(sheet, fit.aligned)
print("800 points, 10 neighbours: steps between strips", dr.rounded(steps, 2), "(ideal 2)")
X_dense, sheet_dense = make_swiss_roll(3200, seed=0)
dense = procrustes(sheet_dense, isomap(X_dense, 2, 15).embedding, scale=False).aligned
dense_steps = height_steps(sheet_dense, dense)
print("3200 points, 15 neighbours: steps between strips", dr.rounded(dense_steps, 2))
assert steps.min() < 1.5 and steps.max() > 2.85 and 1.9 < dense_steps.min() and dense_steps.max() < 2.25

# %% [markdown] slideshow={"slide_type": "subslide"}
# Coordinate 2 stretches the height unevenly: a strip of height 2 becomes 1.5 in one place and 2.9 in another.
# Where it is squeezed the points crowd into a band; where it is stretched they thin out. The cause is the graph:
# its zigzag paths overestimate distances by a few percent (section 4), errors that are small next to the sheet's
# length of 89 but not next to its height of 20, the weak direction (eigenvalue 6% of the first). Four times as
# many points with 15 neighbours zigzag less, and the steps even out to between 1.9 and 2.2.
#
# ## 8. How many neighbours?
#
# Too few and the graph falls apart (section 3). Too many and an edge can jump between two layers of the roll,
# which are $2\pi \approx 6.3$ apart in space but far apart on the sheet: a *short circuit*. One such edge makes
# all paths through it much too short. Count the edges whose length on the sheet is more than twice their
# straight length, and watch what happens to Isomap:

# %% slideshow={"slide_type": "fragment"}
print(" k | components | short-circuit edges | Isomap |rank corr| with s | RMS misfit / spread")
rows, fits = [], {}
for n_neighbors in (3, 4, 6, 10, 12, 15, 20, 25):
    graph = neighbourhood_graph(X, n_neighbors)
    i, j = graph.distances.nonzero()
    shortcuts = int(np.sum(S[i, j] > 2 * D[i, j]) // 2)
    if not graph.is_connected:
        print(f"{n_neighbors:2d} | {graph.n_components:10d} | {shortcuts:19d} | {'(no embedding)':>26s} |")
        continue
    fits[n_neighbors] = isomap(X, 2, n_neighbors)
    Z = fits[n_neighbors].embedding
    correlation = rank_correlation_with_s(Z)[0]
    residual = np.sqrt(procrustes(sheet, Z, scale=False).relative_residual)  # RMS misfit / RMS spread
    rows.append((n_neighbors, correlation, residual))
    print(f"{n_neighbors:2d} | {1:10d} | {shortcuts:19d} | {correlation:26.4f} | {residual:.4f}")

# %% alt="Isomap on the Swiss roll against the number of neighbours, from 4 to 25: the rank correlation of the first coordinate with s stays above 0.999 up to 12 neighbours and drops after; the RMS misfit after rigid alignment falls from 19% at 4 to 4% at 12 and jumps to 45% at 15, where the first short circuits appear. The legend sits below the axes." slideshow={"slide_type": "subslide"}
ks, correlations, residuals = map(np.array, zip(*rows))
assert np.all(correlations[ks <= 12] > 0.999) and residuals[ks == 4][0] > 0.18 and residuals[ks == 12][0] < 0.04
assert residuals[ks == 15][0] > 0.45 and correlations[ks == 20][0] < 0.9
fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
ax.plot(ks, correlations, "o-", label="|rank corr(first coordinate, s)|")
ax.plot(ks, residuals, "s--", label="RMS misfit / spread, after a rigid alignment to the sheet")
ax.set_xlabel("n_neighbors")
ax.set_title("Isomap on the Swiss roll: the neighbourhood size")
fig.legend(loc="outside lower center", ncols=1)  # below the axes, clear of both curves
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Between 4 and 12 neighbours there is no short circuit, and Isomap recovers the sheet (rank correlation above 0.999;
# the RMS misfit falls from 19% of the spread at 4 neighbours, whose paths zigzag most, to 4% at 12). At 15
# neighbours the first short circuits appear and the misfit jumps to 45%; at 20 the rank correlation is down to
# 0.89. The usable range depends on the sampling density and on the gap between the layers.
#
# All of this used the true sheet, which real data do not come with. Tenenbaum et al. (2000) judge an embedding by
# its *residual variance*, $1 - R^2$ between the graph distances and the distances in the embedding: the share of
# the geodesic distances' variation that the $k$-dimensional picture does not reproduce. They used it to choose the
# dimension; Samko, Marshall and Rosin (2006) use it to choose the neighbourhood size too. It needs no truth:

# %% slideshow={"slide_type": "fragment"}
pairs = np.triu_indices(len(X), 1)


def residual_variance(fitted):
    """1 - R^2 between the geodesic distances of an Isomap fit and the distances in its embedding."""
    embedded = np.sqrt(squared_distances(fitted.embedding))
    return 1 - np.corrcoef(fitted.geodesic_distances[pairs], embedded[pairs])[0, 1] ** 2


variances = {n_neighbors: residual_variance(fitted) for n_neighbors, fitted in fits.items()}
for n_neighbors, value in variances.items():
    print(f"{n_neighbors:2d} neighbours: residual variance {value:.4f}")
assert min(variances, key=variances.get) == 12 and variances[15] > 20 * variances[12]

# %% [markdown] slideshow={"slide_type": "subslide"}
# The residual variance falls as the zigzags shorten, is smallest at 12 neighbours (0.0005) and jumps more than
# twentyfold at 15, where the short circuits start: it picks the same size as the sheet did, without seeing it. A
# short circuit gives distances that no flat 2-D picture can reproduce, and that is what the criterion detects. It
# is a heuristic, not a guarantee: with sparser sampling the zigzags and the short circuits can set in at the same
# size.
#
# ## 9. A word on maximum variance unfolding
#
# The WashU notes (§5.3) also list *maximum variance unfolding* (Weinberger and Saul 2006). It keeps the same
# graph but asks a different question: find points $y_i$ that keep every edge length exactly,
# $\|y_i - y_j\| = \|x_i - x_j\|$ for neighbours, and are otherwise spread out as far as possible (maximum
# variance), like pulling the roll flat by its ends. Written for the Gram matrix $\mathbf K = YY^\top$ this is a
# semidefinite program: maximise $\operatorname{trace}\mathbf K$ subject to $\mathbf K \succeq 0$,
# $\sum_{ij}K_{ij} = 0$ and linear constraints $K_{ii} + K_{jj} - 2K_{ij} = \|x_i - x_j\|^2$ on the edges; the
# embedding is then kernel PCA of the learnt $\mathbf K$. It avoids Isomap's zigzag paths but needs an SDP solver,
# which grows quickly with $n$, so the course does not compute it. The notes list one more method of this family,
# *topology-constrained embedding* (topologically constrained isometric embedding, Rosman et al. 2010): like
# Isomap it estimates geodesic distances in the neighbourhood graph, but it detects the manifold's boundary, drops
# the pairs whose shortest path runs along that boundary (on a manifold that is not convex such a path is not the
# geodesic), and fits the embedding to the remaining distances only, by a weighted stress as in notebook 04. The
# course does not compute it either.
#
# ## Summary
#
# * Straight-line distances see the roll, not the sheet: far pairs are about a third as far in space as on the sheet,
#   and PCA and RBF kernel PCA do not unroll it (best rank correlations with $s$: 0.41 and 0.55, as in notebook 08).
# * Isomap is kernel PCA only in a generalised sense: $-\tfrac12\mathbf H\mathbf G^{(2)}\mathbf H$ is learnt from
#   the graph but is not positive semi-definite (425 of 800 eigenvalues negative, as for notebook 04's roads), and
#   Isomap keeps its top positive eigenpairs.
# * Shortest paths in a $k$-nearest-neighbour graph approximate distances along the sheet within a few percent;
#   classical MDS of them (Isomap) recovers the sheet up to a rigid motion (an RMS misfit of 5% of its spread).
# * Laplacian eigenmaps solve $\mathbf L y = \lambda\mathbf D y$: they keep neighbours together and the order along
#   the roll (the modes $\cos(\pi m s/\ell)$), not the lengths.
# * The neighbourhood size is a real choice: 3 neighbours leave 2 pieces, 4 to 12 work, 15 or more short-circuit
#   the layers. The residual variance of the embedding picks 12 without seeing the sheet.
#
# ## Going further (optional): new points without refitting
#
# Isomap embeds the points it was fitted on; a new point should not force a refit of all of them. Reach the
# training points through the new point's own nearest neighbours, $g_j = \min_i(\|x - x_i\| + G_{ij})$ over its
# `n_neighbors` nearest training points $i$, and reuse classical MDS's formula for a row. Row $i$ of $\mathbf B$
# times an eigenvector $u$ (whose entries sum to 0) gives $\lambda u_i = \tfrac12 u^\top(m - G^{(2)}_{\cdot i})$,
# with $m_j$ the mean of row $j$ of $\mathbf G^{(2)}$. Put $g^{(2)}$ in place of $G^{(2)}_{\cdot i}$ and the new
# point's coordinates are $z = (m - g^{(2)})^\top Z / (2\lambda)$: the Nyström extension (de Silva and Tenenbaum
# 2003; Bengio et al. 2004), the library's `isomap_transform`. A training point gets its own row back:

# %% slideshow={"slide_type": "fragment"}
print("training points placed = their fitted rows:", np.allclose(isomap_transform(X, result, X), result.embedding))
X_new, sheet_new = make_swiss_roll(200, seed=1)
placed = isomap_transform(X, result, X_new) @ fit.rotation + fit.translation  # section 5's alignment, not a new one
spread = np.sqrt(np.mean(np.sum((sheet_new - sheet_new.mean(axis=0)) ** 2, axis=1)))
new_misfit = np.sqrt(np.mean(np.sum((placed - sheet_new) ** 2, axis=1))) / spread
print("200 new points: RMS misfit / RMS spread", dr.rounded(new_misfit), "| the 800 fitted:",
      dr.rounded(np.sqrt(fit.relative_residual)))
assert abs(new_misfit - np.sqrt(fit.relative_residual)) < 0.005

# %% [markdown] slideshow={"slide_type": "subslide"}
# Two hundred points the fit never saw land on the sheet as well as the 800 it was fitted on (an RMS misfit of 5%
# of the spread, with the rigid motion found for the training points). This is what scikit-learn's
# `Isomap.transform` does; the same formula extends kernel PCA (notebook 08) and Laplacian eigenmaps, each with
# its own kernel row. It assumes the new point lies on the sampled sheet: far from it, its nearest neighbours say
# nothing about where it belongs.
