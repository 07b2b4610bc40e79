# %% [markdown] slideshow={"slide_type": "slide"}
# # 04 · Multidimensional scaling
#
# **Points from their distances: classical MDS recovers them up to a rigid motion; stress functions measure the
# rest.**
#
# *Time: about 60 minutes, plus about 20 for the optional last section.* *Prerequisites: notebook 01 (PCA, eigenvectors), notebook 02 (the Gram matrix).*
#
# **Learning objectives.** After this notebook you can
# 1. recover the inner-product matrix $\mathbf B$ from a matrix of squared distances by double centring, and say
#    why the points must be centred (Oxford Exercise 1.1);
# 2. reconstruct a point cloud from its distances up to rotation, reflection and translation, and measure the
#    match with Procrustes alignment;
# 3. explain why classical MDS with $k$ dimensions is PCA, and verify it on data;
# 4. read from the eigenvalues of $\mathbf B$ whether a dissimilarity matrix is Euclidean and how far from it;
# 5. fit metric (Kruskal), Sammon and non-metric MDS by SMACOF and compare them by stress and Shepard diagrams;
# 6. (optional section) connect the triangle inequality with Euclidean embeddability, and fit a map when only some
#    distances are known.
#
# **Notes followed.** Oxford SC4/SM4 notes §1.4 (classical MDS, Exercise 1.1, the stress family); WashU A2 notes
# §4.2 (MDS and PCA are equivalent); Georgia Tech ECE 6254 notes, "Multidimensional Scaling" (dissimilarity
# matrices, metric vs non-metric MDS, the Euclidean embedding $\mathbf B = -\frac12 \mathbf H\mathbf D^2\mathbf H$,
# and MDS when $\mathbf D$ is only partly known, in the optional section).
#
# **Conventions.** Rows are points: $\mathbf X$ is $n\times p$. The Oxford notes write $\mathbf D$ for the matrix of
# *squared* distances; here `D` holds distances and `D2` their squares, $\mathbf D^{(2)}_{ij} = \|x_i - x_j\|^2$
# (the Georgia Tech notes' $\mathbf D^2$). $\mathbf H = \mathbf I - \frac1n \mathbf 1\mathbf 1^\top$ is the centring
# matrix. The WashU notes store points in columns; their $X^\top X$ is our $\mathbf X\mathbf X^\top$.
#
# **References.** Oxford SC4/SM4 "Dimensionality Reduction" notes, §1.4; WashU "USL - Dimensionality Reduction"
# lecture A2, §4.2; Georgia Tech ECE 6254 course notes, "Multidimensional Scaling".

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import time

import numpy as np
import matplotlib.pyplot as plt
import pandas as pd

import dimred_teach as dr
from dimred_teach.datasets import load_eurodist
from dimred_teach.mds import (classical_mds, double_center, metric_mds, nonmetric_mds, procrustes,
                              squared_distances, stress)
from dimred_teach.pca import pca
from dimred_teach.plotting import PALETTE, label_points, procrustes_overlay, shepard_diagram

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. From inner products to distances
#
# Take $n = 12$ points in $\mathbb R^3$, deliberately *not* centred. Their squared distances expand as
# $\|x_i - x_j\|^2 = x_i^\top x_i + x_j^\top x_j - 2x_i^\top x_j$, so with the Gram matrix $\mathbf G =
# \mathbf X\mathbf X^\top$,
# $$\mathbf D^{(2)} = \operatorname{diag}(\mathbf G)\mathbf 1^\top + \mathbf 1\operatorname{diag}(\mathbf G)^\top
# - 2\mathbf G .$$

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(0)
X = rng.normal(size=(12, 3)) * np.array([4.0, 2.0, 1.0]) + np.array([10.0, -5.0, 3.0])
n = X.shape[0]
D2 = squared_distances(X)
G = X @ X.T
g = np.diag(G)
print("D2 = diag(G)1' + 1diag(G)' - 2G:", np.allclose(D2, g[:, None] + g[None, :] - 2 * G))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Distances do not change when every point moves by the same vector, but $\mathbf G$ does. So $\mathbf G$ cannot
# be recovered from $\mathbf D$ alone; only something translation-free can.

# %% slideshow={"slide_type": "fragment"}
shift = np.array([100.0, 0.0, -50.0])
print("distances unchanged by a shift:", np.allclose(squared_distances(X + shift), D2))
print("Gram matrix unchanged by a shift:", np.allclose((X + shift) @ (X + shift).T, G))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Recovering $\mathbf B$ from $\mathbf D$ (Oxford Exercise 1.1)
#
# Fix the translation by centring: $\mathbf B = \mathbf X_c\mathbf X_c^\top$ with $\mathbf X_c = \mathbf H\mathbf X$.
# The identity above holds for *any* points, so also for the centred ones (their distances are the same):
# $\mathbf D^{(2)}_{ij} = b_i + b_j - 2\mathbf B_{ij}$ with $b = \operatorname{diag}(\mathbf B)$. Centred points sum to
# zero, so every row and column of $\mathbf B$ sums to zero, $\sum_j \mathbf B_{ij} = x_{c,i}^\top \sum_j x_{c,j} = 0$.
# Now average the identity, writing $\bar b$ for the mean of the $b_i$:
#
# * over $j$: the row mean of $\mathbf D^{(2)}$ is $\bar d_{i\cdot} = b_i + \bar b$ (the $\mathbf B$ term averages to 0);
# * over $i$: the column mean is $\bar d_{\cdot j} = \bar b + b_j$;
# * over both: the grand mean is $\bar d_{\cdot\cdot} = 2\bar b$.
#
# So $b_i + b_j = \bar d_{i\cdot} + \bar d_{\cdot j} - \bar d_{\cdot\cdot}$, and putting this back into the identity,
# $$\mathbf B_{ij} = -\tfrac12\big(\mathbf D^{(2)}_{ij} - \bar d_{i\cdot} - \bar d_{\cdot j} + \bar d_{\cdot\cdot}\big):$$
# subtract the row and column means, add back the grand mean, halve and change sign. That is *double centring*, and
# in matrix form it is $\mathbf B = -\tfrac12\mathbf H\mathbf D^{(2)}\mathbf H$ (exercise 1 asks you to prove this
# form directly, with $\mathbf H$). Check every step on the 12 points:

# %% slideshow={"slide_type": "fragment"}
H = np.eye(n) - np.ones((n, n)) / n
Xc = H @ X
B = double_center(D2)
b = np.diag(B)
print("B 1 = 0:", np.allclose(B @ np.ones(n), 0))
print("row means of D2 = b_i + mean(b):", np.allclose(D2.mean(axis=1), b + b.mean()),
      "| grand mean = 2 mean(b):", np.isclose(D2.mean(), 2 * b.mean()))
print("B = -1/2 H D2 H:", np.allclose(B, -0.5 * H @ D2 @ H))
print("B = Xc Xc' (the centred Gram matrix):", np.allclose(B, Xc @ Xc.T))
print("B reproduces D2:", np.allclose(b[:, None] + b[None, :] - 2 * B, D2))

# %% [markdown] slideshow={"slide_type": "subslide"}
# $\mathbf B$ is all that the distances determine: it is the Gram matrix of the points placed with their centroid
# at the origin.
#
# ## 3. From $\mathbf B$ back to points
#
# $\mathbf B$ is symmetric and positive semi-definite, $\mathbf B = U\Lambda U^\top$. The rows of
# $\tilde{\mathbf X} = U\Lambda^{1/2}$ have exactly the inner products $\mathbf B$, hence exactly the distances
# $\mathbf D$. With $\mathbf X_c = U D V^\top$ (SVD), $\Lambda = D^2$ and $\mathbf X_c = \tilde{\mathbf X} V^\top$: the
# reconstruction differs from the centred points only by the orthogonal matrix $V$, a rotation or reflection. The
# eigenvalues show the dimension: three positive, the other nine zero up to rounding.

# %% slideshow={"slide_type": "fragment"}
D = np.sqrt(D2)
result = classical_mds(D, k=3)
print("eigenvalues of B:", result.eigenvalues)
print("Euclidean (no negative eigenvalue):", result.is_euclidean)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Orthogonal Procrustes finds the rigid motion that maps the reconstruction back onto the original points: with
# both centred, $Q = UV^\top$ from the SVD $\tilde{\mathbf X}_c^\top\mathbf X_c = USV^\top$, and a shift by the
# mean. With `scale=False` only rotations, reflections and translations are allowed.

# %% slideshow={"slide_type": "fragment"}
fit = procrustes(X, result.embedding, scale=False)
Q = fit.rotation
print("Q orthogonal:", np.allclose(Q.T @ Q, np.eye(3)), "| det Q =", dr.rounded(np.linalg.det(Q)))
print("translation = the mean of X:", np.allclose(fit.translation, X.mean(axis=0)))
print("relative residual below 1e-20:", fit.relative_residual < 1e-20)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The residual is at the level of rounding error: the distances determine the points completely, except for
# where they sit and how they are turned. In the plane this is easy to see. The raw MDS output (left) is the
# cloud moved to the origin and turned (possibly mirrored); after the rigid alignment (right) every cross sits on
# its dot.

# %% alt="Two panels of 15 points in the plane, each shown as a dot, with the classical MDS configuration as crosses. Left: the MDS output as it comes is the same shape moved to the origin and turned. Right: after a rigid Procrustes alignment every cross sits on its dot." slideshow={"slide_type": "fragment"}
X_plane = rng.normal(size=(15, 2)) * np.array([3.0, 1.0]) + np.array([6.0, 4.0])
Z_plane = classical_mds(np.sqrt(squared_distances(X_plane)), k=2).embedding
plane_fit = procrustes(X_plane, Z_plane, scale=False)
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
procrustes_overlay(X_plane, Z_plane, ax=axes[0], title="MDS output as it comes", names=("points", "MDS"))
procrustes_overlay(X_plane, plane_fit.aligned, ax=axes[1], title="after a rigid Procrustes alignment",
                   names=("points", "MDS, aligned"))
for ax in axes:
    ax.set(xlabel="coordinate 1", ylabel="coordinate 2")
plt.show()

# %% slideshow={"slide_type": "subslide"}
determinant = np.linalg.det(plane_fit.rotation)
print("det Q =", dr.rounded(determinant), "so the MDS output was", "mirrored" if determinant < 0 else "rotated")
print("relative residual below 1e-20:", plane_fit.relative_residual < 1e-20)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Fewer dimensions: classical MDS is PCA
#
# Keeping only the $k$ largest eigenpairs, $Z = U_k\Lambda_k^{1/2}$, gives the best $k$-dimensional view: it
# minimises the *strain* $\|\mathbf B - ZZ^\top\|_F^2$ over all $n\times k$ configurations (Eckart-Young), and the
# minimum is the sum of the squared dropped eigenvalues. And $U_k\Lambda_k^{1/2} = U_k D_k$ are exactly the PCA
# scores $\mathbf X_c V_k$ (WashU §4.2), with $\lambda_j(\mathbf B) = d_j^2 = (n-1)\,\lambda_j(S)$. Signs of
# eigenvectors are arbitrary, so we compare column by column up to sign.

# %% slideshow={"slide_type": "fragment"}
k = 2
mds_2 = classical_mds(D, k=k)
pca_2 = pca(X, k=k)
same_up_to_sign = all(
    np.allclose(mds_2.embedding[:, j], pca_2.scores[:, j]) or np.allclose(mds_2.embedding[:, j], -pca_2.scores[:, j])
    for j in range(k)
)
print("MDS embedding = PCA scores up to sign:", same_up_to_sign)
print("lambda_j(B) = (n - 1) * PCA eigenvalue:", np.allclose(mds_2.eigenvalues[:k], (n - 1) * pca_2.eigenvalues))
strain = stress(D, mds_2.embedding, kind="strain")
print("strain:", dr.rounded(strain), "| sum of squared dropped eigenvalues:",
      dr.rounded(np.sum(mds_2.eigenvalues[k:] ** 2)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# So when the data matrix exists, classical MDS and PCA give the same picture; MDS needs only the distances.
# Computing it costs an $n\times n$ eigenproblem, while PCA costs a $p\times p$ one: the WashU notes' rule, MDS
# when $p > n$ and PCA when $n > p$. (The optional last section times the eigenproblem.)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Road distances between European cities
#
# `load_eurodist()` holds road distances in km between 21 cities (R's `eurodist`, see `data/README.md`). Nothing
# says these numbers are Euclidean distances of points in a plane: roads bend and the Earth is curved.

# %% slideshow={"slide_type": "fragment"}
europe = load_eurodist()
cities = list(europe.index)
D_europe = europe.to_numpy()
print(europe.iloc[:5, :5])
europe_mds = classical_mds(D_europe, k=2)
values = europe_mds.eigenvalues
print("eigenvalues / largest:")
print(dr.rounded(values / values[0], 4))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Nine eigenvalues are negative, from $-0.0005$ to $-0.115$ times the largest (and one is zero: $\mathbf B\mathbf 1 = 0$
# always). A Gram matrix is positive
# semi-definite, so **no set of points in any Euclidean space has these distances**. How much does it matter? Two
# summaries: the most negative eigenvalue against the largest, and the share of $\sum_j|\lambda_j|$ that sits on
# negative eigenvalues.

# %% slideshow={"slide_type": "fragment"}
negative = values[values < -1e-9 * values[0]]
print("Euclidean:", europe_mds.is_euclidean, "| negative eigenvalues:", negative.size)
print("most negative / largest:", dr.rounded(values[-1] / values[0]))
print("negative share of sum |lambda|:", dr.rounded(np.abs(negative).sum() / np.abs(values).sum()))
print("share of the two leading ones:", dr.rounded(values[:2].sum() / np.abs(values).sum()))

# %% alt="Bar chart of the 21 eigenvalues of B for the European road distances, in km squared: two large positive eigenvalues dominate, a few small positive ones follow, and nine are negative (vermillion bars); the three closest to zero (0.0005 to 0.0068 times the first) are too short to see, and the most negative is about a tenth of the first." slideshow={"slide_type": "subslide"}
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.bar(np.arange(1, values.size + 1), values, color=[PALETTE[0] if v >= 0 else PALETTE[1] for v in values])
ax.axhline(0, color="black", linewidth=0.8)
ax.set_xticks(np.arange(1, values.size + 1))
ax.set_xlabel("eigenvalue number")
ax.set_ylabel(r"$\lambda_j(\mathbf{B})$ (km$^2$)")
ax.set_title("Spectrum of B for the road distances (vermillion: negative)")
plt.show()
too_short = np.abs(negative) < 0.01 * values[0]  # under 1% of the tallest bar: not visible at this scale
print("negative eigenvalues under 1% of the largest:", int(too_short.sum()), "of", negative.size)
assert negative.size == 9 and too_short.sum() == 3

# %% [markdown] slideshow={"slide_type": "subslide"}
# The two leading eigenvalues dominate, so a flat map is a fair summary; but the negative part is not small
# (about an eighth of the total), so some distances cannot be drawn faithfully in *any* number of dimensions.
#
# **Orienting the map.** MDS fixes the map only up to rotation and reflection, and the course's sign rule for
# eigenvectors has nothing to do with compass directions. We use geography to choose the reflection: Athens lies
# east of Lisbon and Stockholm lies north of Athens. Flipping an axis is a reflection, which changes no distance.

# %% slideshow={"slide_type": "fragment"}
Z_europe = np.array(europe_mds.embedding)
athens, lisbon, stockholm = (cities.index(c) for c in ("Athens", "Lisbon", "Stockholm"))
flip = np.array([
    1.0 if Z_europe[athens, 0] > Z_europe[lisbon, 0] else -1.0,
    1.0 if Z_europe[stockholm, 1] > Z_europe[athens, 1] else -1.0,
])
Z_europe = Z_europe * flip
print("axis flips:", flip)
print("distances unchanged by the flips:", np.allclose(squared_distances(Z_europe),
                                                      squared_distances(europe_mds.embedding)))

# %% alt="Map of 21 European cities from classical MDS of their road distances, labelled by name, axes west-east and south-north in km: the Iberian cities lie in the south-west, Stockholm and Copenhagen in the north, Athens and Rome in the south-east." slideshow={"slide_type": "subslide"}
fig, ax = plt.subplots(figsize=(7, 6))
ax.scatter(Z_europe[:, 0], Z_europe[:, 1], s=18)
ax.set_aspect("equal")
label_points(ax, Z_europe, cities, fontsize=8)
ax.set_xlabel("west - east (km)")
ax.set_ylabel("south - north (km)")
ax.set_title("Classical MDS of the road distances")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Both flips are $+1$ here: the sign rule happened to give the right orientation. Another convention (scikit-learn's,
# R's) could mirror the map, and the same two lines would then undo it.
#
# The map is recognisably Europe: the Iberian cities in the south-west, Stockholm and Copenhagen in the north,
# Athens and Rome in the south-east. Only distances are used, so the map is a best fit, not a projection of the
# globe: its axes are the two leading eigenvectors, not meridians.
#
# How far off is the map? Compare its distances with the road distances, pair by pair (only $i < j$).

# %% slideshow={"slide_type": "fragment"}
pairs = np.triu_indices(len(cities), k=1)
map_distances = np.sqrt(squared_distances(Z_europe))
relative_error = np.abs(map_distances - D_europe)[pairs] / D_europe[pairs]
worst = np.argmax(relative_error)
print("median relative error:", dr.rounded(np.median(relative_error)))
print("worst pair:", cities[pairs[0][worst]], "-", cities[pairs[1][worst]],
      "| road", dr.rounded(D_europe[pairs][worst]), "km, map", dr.rounded(map_distances[pairs][worst]), "km")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The median error is about 7%. The worst pair is a surprise: the table says Copenhagen - Hook of Holland is
# 269 km, less than half their straight-line distance (about 690 km). That entry is an error in the table, and the
# map, which has to agree with all the other distances too, puts the two cities much further apart. Fitting all
# pairs at once averages out a single bad entry.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. The stress family
#
# Classical MDS fits inner products. Other members of the family fit the distances themselves, each with its own
# *stress* (Oxford §1.4; $d_{ij} = \|z_i - z_j\|$; the three distance stresses sum over ordered pairs $i\ne j$,
# while the strain sums over all $n^2$ entries, diagonal included, because that is what classical MDS minimises
# exactly; the notes leave out the diagonal):
#
# | method | stress | what it favours |
# | --- | --- | --- |
# | classical (Torgerson) | strain $\|\mathbf B - Z_cZ_c^\top\|_F^2$ | large inner products: the big picture |
# | metric (Shepard-Kruskal) | $\sum (D_{ij} - d_{ij})^2$ | all distances, in absolute km, so long ones dominate |
# | Sammon | $\sum (D_{ij} - d_{ij})^2/D_{ij}$ | relative errors: short distances count more |
# | non-metric (Kruskal) | $\min_{g\uparrow}\sum (g(D_{ij}) - d_{ij})^2 / \sum d_{ij}^2$ | only the order of the $D_{ij}$ |
#
# Metric and Sammon stress have no closed-form minimiser. SMACOF minimises them by repeatedly minimising a
# quadratic function that lies above the stress and touches it at the current configuration (the Guttman
# transform), so the stress can only go down. Non-metric MDS alternates such a step with an isotonic regression
# that finds the best increasing $g$. All three start from the classical solution.

# %% slideshow={"slide_type": "fragment"}
fits = {
    "metric (Kruskal)": metric_mds(D_europe, k=2, kind="kruskal"),
    "Sammon": metric_mds(D_europe, k=2, kind="sammon"),
    "non-metric": nonmetric_mds(D_europe, k=2),
}
for name, fitted in fits.items():
    never_up = bool(np.all(np.diff(fitted.history) <= 1e-12 * fitted.history[0]))
    print(f"{name:17s} converged within 300 iterations: {fitted.converged} | never increased: {never_up}")

# %% alt="The objective of SMACOF divided by its starting value against the iteration, for metric (Kruskal), Sammon and non-metric MDS of the road distances: every curve only goes down and levels off after a few dozen iterations." slideshow={"slide_type": "subslide"}
fig, ax = plt.subplots(figsize=(7, 3.5))
for name, fitted in fits.items():
    ax.plot(fitted.history / fitted.history[0], label=name)
ax.set_xlabel("SMACOF iteration")
ax.set_ylabel("objective / its starting value")
ax.set_title("SMACOF never increases its objective")
ax.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Now score every map under every criterion. To compare numbers across criteria, each stress is normalised by
# its natural scale (strain by $\|\mathbf B\|_F^2$, metric stress by $\sum D_{ij}^2$, Sammon's by
# $\sum D_{ij}$, as Sammon did; the non-metric stress is already free of units).

# %% slideshow={"slide_type": "fragment"}
maps = {"classical": europe_mds.embedding, **{name: fitted.embedding for name, fitted in fits.items()}}
table = pd.DataFrame(
    {kind: [stress(D_europe, Z, kind=kind, normalized=True) for Z in maps.values()]
     for kind in ("strain", "kruskal", "sammon", "nonmetric")},
    index=list(maps),
)
print(table)
print("each method is best at its own criterion:",
      [table[kind].idxmin() for kind in table.columns] == ["classical", "metric (Kruskal)", "Sammon", "non-metric"])

# %% [markdown] slideshow={"slide_type": "subslide"}
# Each method wins its own column here. That is not guaranteed: classical MDS is the exact minimiser of the strain,
# but SMACOF only reaches a local minimum near its start (the classical map), and another start could end higher
# or lower. The differences are modest: for this table all four maps tell the same story. Where they differ shows
# up in the Shepard diagrams, map distance against road distance for every pair. Classical MDS fits inner
# products, not distances, and scatters most around the diagonal; metric MDS hugs the diagonal across the whole
# range; Sammon keeps the short distances tight and lets the longest ones fall below the line, because an error
# of 200 km on a 4000 km distance costs it little. Non-metric MDS only needs the dots to climb with $D$; its
# fitted increasing $g$ (the step line) stays close to a straight line, a sign that the road distances are
# meaningful as numbers, not just as an order. The pairs farthest above and below the line are printed under the
# figure: in every panel they are Athens-Rome (817 km in the table, less than the straight line between the
# cities, about 1050 km) and Cologne-Geneva (1662 km in the table, three times their straight-line distance of
# about 530 km). Both entries must be wrong, and every map disagrees with them.

# %% alt="Four Shepard diagrams, one per map (classical, metric, Sammon, non-metric): map distance against road distance for every pair of cities. The points hug the diagonal (or, for non-metric, an increasing step line); the farthest outliers are Athens-Rome above the line and Cologne-Geneva below it." slideshow={"slide_type": "fragment"}
fig, axes = plt.subplots(2, 2, figsize=(10, 8.5))
for ax, (name, Z) in zip(axes.ravel(), maps.items()):
    shepard_diagram(D_europe, Z, ax=ax, fit="isotonic" if name == "non-metric" else "identity", title=name)
fig.tight_layout()
plt.show()
pairs = np.triu_indices(len(cities), k=1)
for name, Z in maps.items():
    excess = np.sqrt(squared_distances(Z))[pairs] - D_europe[pairs]  # map distance minus road distance
    above, below = np.argmax(excess), np.argmin(excess)
    print(f"{name:17s} farthest above: {cities[pairs[0][above]]}-{cities[pairs[1][above]]} "
          f"({excess[above]:+.0f} km) | farthest below: {cities[pairs[0][below]]}-{cities[pairs[1][below]]} "
          f"({excess[below]:+.0f} km)")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# - Squared distances determine the centred Gram matrix, $\mathbf B = -\frac12\mathbf H\mathbf D^{(2)}\mathbf H$,
#   and nothing more: the points come back up to rotation, reflection and translation.
# - Classical MDS keeps the $k$ leading eigenpairs of $\mathbf B$; for Euclidean data it is PCA, and the strain
#   left over is the sum of the squared dropped eigenvalues.
# - A non-Euclidean $\mathbf D$ is legal: it shows up as negative eigenvalues, whose share measures how far the
#   table is from any arrangement of points (the optional section: a violated triangle inequality guarantees
#   them, and a metric can still be non-Euclidean).
# - Metric, Sammon and non-metric MDS trade the fit of long distances, short distances and order; SMACOF lowers
#   each stress monotonically (to a local minimum), and Shepard diagrams show where each one bends.
#
# **Next:** notebook 05 applies the same eigen-machinery to documents (latent semantic indexing). Exercises:
# `exercises/04_mds.ipynb`.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional)
#
# Four extensions, about 20 minutes: the cost of classical MDS, the triangle inequality and Euclidean
# embeddability, how far the cities move from one map to another, and a map from an incomplete table.

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### How fast is classical MDS?
#
# The library computes all $n$ eigenvalues of $\mathbf B$ but only the $k$ wanted eigenvectors, from one
# tridiagonal reduction, instead of all $n$ eigenvectors. How much time that saves depends on the machine and its
# LAPACK: compare the two timings below (they vary from run to run; `tests/benchmarks/bench_mds.py` compares with
# scikit-learn). The next cell checks that the spectrum is the same.

# %% slideshow={"slide_type": "fragment"} tags=["nbval-ignore-output"]
big = np.random.default_rng(1).normal(size=(1000, 5))
D_big = np.sqrt(squared_distances(big))
start = time.perf_counter()
big_result = classical_mds(D_big, k=2)
ours = time.perf_counter() - start
start = time.perf_counter()
full_values, _ = np.linalg.eigh(double_center(D_big**2))
full = time.perf_counter() - start
print(f"classical_mds (all eigenvalues, 2 vectors): {ours:.3f} s | full numpy eigh: {full:.3f} s")

# %% slideshow={"slide_type": "subslide"}
print("same spectrum as the full solver:", np.allclose(big_result.eigenvalues, full_values[::-1], atol=1e-8))

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### The triangle inequality
#
# Euclidean distances obey $D_{ij} \le D_{ik} + D_{kj}$. So a single violated triple already proves that
# $\mathbf D$ is not Euclidean. The road table has many:

# %% slideshow={"slide_type": "fragment"}
slack = D_europe[:, :, None] + D_europe[None, :, :] - D_europe[:, None, :]  # D_ik + D_kj - D_ij at [i, k, j]
i_idx, k_idx, j_idx = np.nonzero(slack < 0)
upper = i_idx < j_idx
print("violated (pair, via) combinations:", int(upper.sum()))
worst = np.argmin(slack[i_idx[upper], k_idx[upper], j_idx[upper]])
i, k_via, j = i_idx[upper][worst], k_idx[upper][worst], j_idx[upper][worst]
print(f"worst: {cities[i]}-{cities[j]} {D_europe[i, j]:.0f} km > {cities[i]}-{cities[k_via]} "
      f"{D_europe[i, k_via]:.0f} km + {cities[k_via]}-{cities[j]} {D_europe[k_via, j]:.0f} km")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Athens-Rome is listed as 817 km, less than the straight line between the cities (about 1050 km): it cannot be a
# road distance (a ferry crossing, perhaps). Going "via Rome" then makes Athens closer to western Europe than its own row says, and no flat or
# curved arrangement of points can honour both.
#
# The converse fails: satisfying the triangle inequality does **not** make $\mathbf D$ Euclidean. A centre at
# distance 1 from three points that are 2 apart is a perfectly good metric (path lengths in a star), yet
# $\mathbf B$ has a negative eigenvalue (exercise 6 asks why):

# %% slideshow={"slide_type": "fragment"}
star = np.array([[0.0, 1.0, 1.0, 1.0],
                 [1.0, 0.0, 2.0, 2.0],
                 [1.0, 2.0, 0.0, 2.0],
                 [1.0, 2.0, 2.0, 0.0]])
star_slack = star[:, :, None] + star[None, :, :] - star[:, None, :]
print("triangle inequality holds:", bool(np.all(star_slack >= 0)))
print("eigenvalues of B:", classical_mds(star, k=1).eigenvalues)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Non-metric MDS (section 6) only uses the *order* of the dissimilarities, so it is free to apply any increasing
# function to them. Concave ones such as $D^{a}$, $a < 1$, shrink long distances more than short ones and repair
# violated triangles; for these road distances $a = 1/4$ already gives a Euclidean matrix:

# %% slideshow={"slide_type": "fragment"}
for a in (1.0, 0.75, 0.5, 0.25):
    D_a = D_europe**a
    slack_a = D_a[:, :, None] + D_a[None, :, :] - D_a[:, None, :]
    spectrum = classical_mds(D_a, k=2).eigenvalues
    print(f"a = {a:4}: violated triples {int(np.sum(slack_a < -1e-9) // 2):3d} | "
          f"most negative / largest {dr.rounded(spectrum[-1] / spectrum[0]):7.4f} | "
          f"Euclidean: {classical_mds(D_a, k=2).is_euclidean}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### How far the cities move between maps
#
# Aligning each map onto the (north-up) classical one, by Procrustes with scale, shows how much the cities actually
# move:

# %% slideshow={"slide_type": "fragment"}
for name, fitted in fits.items():
    moved = procrustes(Z_europe, fitted.embedding, scale=True)
    shift_km = np.linalg.norm(moved.aligned - Z_europe, axis=1)
    print(f"{name:17s} relative residual {dr.rounded(moved.relative_residual):.4f} | "
          f"largest move {shift_km.max():6.0f} km ({cities[int(np.argmax(shift_km))]})")

# %% [markdown] slideshow={"slide_type": "subslide"}
# In the Sammon map Athens, whose row holds the impossible Athens-Rome entry, moves most: about 330 km towards the
# rest (its long distances matter little to Sammon). The metric and non-metric maps move Cherbourg most, for a
# reason that has nothing to do with Sammon's weights. Its road distances are long for its place among the Channel
# cities, and the classical map, which fits inner products and (like any projection) shortens what two dimensions
# cannot show, draws it too close to everyone. Every map that fits the distances themselves pushes it outwards:

# %% slideshow={"slide_type": "fragment"}
cherbourg = cities.index("Cherbourg")
others = np.arange(len(cities)) != cherbourg
aligned = {name: procrustes(Z_europe, Z, scale=True).aligned for name, Z in maps.items()}  # km, as above
shortfall = {name: dr.rounded(np.mean(D_europe[cherbourg, others]
                                      - np.sqrt(squared_distances(Z))[cherbourg, others]), 0)
             for name, Z in aligned.items()}
print("Cherbourg: mean road distance minus map distance (km):", shortfall)
assert shortfall["classical"] > 150 and max(shortfall[name] for name in fits) < 60

# %% [markdown] slideshow={"slide_type": "subslide"}
# On the classical map Cherbourg's distances fall short of the table by about 180 km on average; the three stress
# maps cut the shortfall to a third or less, Sammon's too (it moves Cherbourg nearly as far, but Athens further). The
# overlay shows the Sammon map against the classical one:

# %% alt="The classical map of the 21 cities overlaid with the Sammon map after a Procrustes alignment, each city joined to its two positions: most cities move little, Athens moves most (about 330 km towards the rest)." slideshow={"slide_type": "fragment"}
fig, ax = plt.subplots(figsize=(7, 6))
sammon_aligned = procrustes(Z_europe, fits["Sammon"].embedding, scale=True).aligned
procrustes_overlay(Z_europe, sammon_aligned, labels=cities, ax=ax, title="Classical and Sammon maps",
                   names=("classical", "Sammon, aligned"))
ax.set(xlabel="west - east (km)", ylabel="south - north (km)")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### When only some distances are known
#
# The Georgia Tech notes list a second axis along which MDS methods differ: whether $\mathbf D$ is known completely.
# Often it is not (a survey asks each person about a few pairs; a sensor network measures only nearby pairs).
# Classical MDS needs every entry, but a stress is a sum over pairs, so it can simply leave the unknown pairs out:
# $\sum_{(i,j)\ \text{known}} (D_{ij} - d_{ij})^2$. We hide a random 44% of the road distances and fit a map to the
# rest in two steps. First a start: fill each gap with the shortest route through known entries (graph shortest
# paths, the idea Isomap uses in notebook 11) and run classical MDS on the filled table. Then minimise the stress over
# the known pairs only, with SciPy's L-BFGS and the stress's gradient
# $\partial/\partial z_i = 2\sum_{j\ \text{known}} (d_{ij} - D_{ij})(z_i - z_j)/d_{ij}$.

# %% slideshow={"slide_type": "fragment"}
from scipy.optimize import minimize
from scipy.sparse.csgraph import shortest_path

n_cities = len(cities)
upper_pairs = np.triu_indices(n_cities, k=1)
hidden = np.random.default_rng(0).random(upper_pairs[0].size) < 0.5
known = np.ones((n_cities, n_cities), dtype=bool)
known[upper_pairs[0][hidden], upper_pairs[1][hidden]] = known[upper_pairs[1][hidden], upper_pairs[0][hidden]] = False
filled = shortest_path(np.where(known, D_europe, 0.0), method="D", directed=False)  # 0 = no edge
start = classical_mds(filled, k=2).embedding
pair_weights = known & ~np.eye(n_cities, dtype=bool)
print("hidden pairs:", int(hidden.sum()), "of", hidden.size)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The fit: L-BFGS from the classical map of the filled table, on the stress over the known pairs.

# %% slideshow={"slide_type": "fragment"}


def known_stress(z):
    """Stress over the known pairs (each once) and its gradient, for a flattened (n, 2) map z."""
    Z = z.reshape(n_cities, 2)
    diff = Z[:, None, :] - Z[None, :, :]
    d = np.sqrt(np.sum(diff**2, axis=-1)) + np.eye(n_cities)  # the 1 on the diagonal avoids 0 / 0
    residual = np.where(pair_weights, d - D_europe, 0.0)
    return 0.5 * np.sum(residual**2), (2 * np.sum((residual / d)[:, :, None] * diff, axis=1)).ravel()


partial_fit = minimize(known_stress, start.ravel(), jac=True, method="L-BFGS-B")
Z_partial = partial_fit.x.reshape(n_cities, 2)
gaps = ~known
print("L-BFGS converged:", partial_fit.success)

# %% [markdown] slideshow={"slide_type": "subslide"}
# How well does the map predict the distances it never saw?

# %% slideshow={"slide_type": "fragment"}


def median_relative_error(distances):
    """Median |distance - road distance| / road distance over the hidden pairs."""
    return dr.rounded(np.median(np.abs(distances[gaps] - D_europe[gaps]) / D_europe[gaps]), 3)


print("median relative error on the hidden pairs: filled table", median_relative_error(filled),
      "| map from the known pairs", median_relative_error(np.sqrt(squared_distances(Z_partial))),
      "| classical map from all pairs", median_relative_error(np.sqrt(squared_distances(Z_europe))))
residual_to_full = procrustes(fits["metric (Kruskal)"].embedding, Z_partial, scale=True).relative_residual
print("relative Procrustes residual to the metric map from all pairs:", dr.rounded(residual_to_full, 3))
assert hidden.sum() == 93 and partial_fit.success
assert [median_relative_error(M) for M in (filled, np.sqrt(squared_distances(Z_partial)),
                                           np.sqrt(squared_distances(Z_europe)))] == [0.166, 0.065, 0.073]
assert median_relative_error(np.sqrt(squared_distances(Z_partial))) < median_relative_error(filled) / 2
assert residual_to_full < 0.02

# %% [markdown] slideshow={"slide_type": "subslide"}
# The shortest routes through known entries are poor guesses for the hidden distances (a median error of 17%: a
# detour is longer than the road), but they give a good enough start. The map fitted to the 117 known pairs predicts
# the 93 hidden ones with a median error of 6.5%, as well as the classical map that saw every pair, and it is nearly
# the same map as metric MDS on the full table. Distances constrain each other: with 21 cities in the plane there are
# only $2 \cdot 21 - 3 = 39$ free coordinates, far fewer than the 117 known pairs. With much sparser or very uneven
# patterns (a city with only one known distance) parts of the map stop being determined; that is the graph-rigidity
# question studied for sensor-network localisation.
