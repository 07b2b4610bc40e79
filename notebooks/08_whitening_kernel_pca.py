# %% [markdown] slideshow={"slide_type": "slide"}
# # 08 · Standardising, whitening and kernel PCA
#
# **Rescaling data before an analysis, and taking PCA beyond straight lines.**
#
# *Time: about 60 minutes, plus about 10 for the optional last section.* *Prerequisites: notebooks 01, 02 and 04
# (PCA, the Gram matrix, classical MDS).*
#
# **Learning objectives.** After this notebook you can
# 1. tell apart centring, standardising, whitening and min-max scaling, and say what each does to the covariance;
# 2. whiten data with the SVD and check that the whitened covariance is the identity (WashU Exercises 4.3-4.4);
# 3. explain why PCA cannot unroll a spiral or separate two concentric circles;
# 4. compute kernel PCA: a kernel matrix, its centring in feature space, its eigenvectors, and the projection of new points;
# 5. predict how the width of the RBF kernel changes what kernel PCA finds;
# 6. show that kernel PCA with the linear kernel is PCA, and that kernel MDS gives the kernel PCA scores.
# 7. (optional section) say, with numbers, what PCA and kernel PCA make of the notes' 3-D spiral.
#
# **Notes followed.** WashU A2 notes "USL - Dimensionality Reduction", §4.3 (data standardisation and
# whitening, eq. 14-16, Exercises 4.3 and 4.4) and §5 (non-linear dimensionality reduction: the 2-D spiral of
# Figure 3 and the 3-D spiral of Figure 4, kernel MDS §5.1, kernel PCA §5.2, eq. 17-20).
#
# **Conventions.** The WashU notes store points as columns ($X$ is $d\times n$); here rows are points
# ($\mathbf X$ is $n \times p$), so their formulas appear transposed. Variances divide by $n-1$; the notes' kernel PCA
# divides by $n$, which rescales every eigenvalue and changes no component.
#
# **References.** WashU A2 lecture notes, §4.3 and §5; B. Schölkopf, A. Smola and K.-R. Müller, "Nonlinear component
# analysis as a kernel eigenvalue problem", *Neural Computation* 10 (1998) (centring new points); J. Ham, D. D. Lee,
# S. Mika and B. Schölkopf, "A kernel view of the dimensionality reduction of manifolds", ICML 2004.

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np
import matplotlib.pyplot as plt
from scipy.stats import spearmanr

import dimred_teach as dr
from dimred_teach import kernel
from dimred_teach.datasets import load_crabs, make_circles, make_spiral, make_swiss_roll
from dimred_teach.pca import center, covariance, pca, standardize

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. Four ways to rescale data
#
# Two crab measurements make a good example: rear width (RW) and carapace length (CL) are strongly correlated and
# measured on different scales.
#
# * **Centring** subtracts the mean of each column (eq. 14).
# * **Standardising** also divides each column by its standard deviation (eq. 15): every variable gets variance 1,
#   but correlations stay.
# * **Whitening** (eq. 16) rotates onto the principal axes and divides each axis by its standard deviation:
#   the covariance becomes the identity, so the correlation is gone too.
# * **Min-max scaling** maps each column onto $[0, 1]$: $(x - \min)/(\max - \min)$. It is not centred and its
#   variances depend on the extreme points.

# %% slideshow={"slide_type": "fragment"}
crabs = load_crabs()
X = crabs[["RW", "CL"]].to_numpy()
n, p = X.shape
versions = {
    "centred": center(X),
    "standardised": standardize(X),
    "whitened": kernel.whiten(X).whitened,
    "min-max scaled": (X - X.min(axis=0)) / (X.max(axis=0) - X.min(axis=0)),
}
for name, Y in versions.items():
    S = covariance(Y)
    print(f"{name:15s} variances {dr.rounded(np.diag(S))}   covariance {dr.rounded(S[0, 1]):.4f}")

# %% alt="Four scatter plots of the crabs' rear width against carapace length: centred (the cloud moved to the origin), standardised (a thin diagonal cigar on comparable axes), whitened (a round cloud of unit spread in which two bands of crabs, the two sexes, remain visible) and min-max scaled (the cloud squeezed into the unit square)." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 4, figsize=(13, 3.4))
for ax, (name, Y) in zip(axes, versions.items()):
    ax.scatter(Y[:, 0], Y[:, 1], s=8)
    ax.set_title(name)
    ax.set_aspect("equal", adjustable="datalim")
    if name == "whitened":  # whitening rotates onto the principal axes: its axes are no longer RW and CL
        ax.set(xlabel=r"PC1 / $\sqrt{\lambda_1}$", ylabel=r"PC2 / $\sqrt{\lambda_2}$")
    else:
        ax.set(xlabel="RW (transformed)", ylabel="CL (transformed)")
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Centring only moves the cloud; standardising makes both axes comparable but the cloud is still a thin diagonal
# cigar (correlation about 0.89); whitening removes the correlation and gives unit spread in every direction, so
# what stays visible is structure that is not correlation (here two bands of crabs); min-max scaling squeezes the data
# into the unit square without centring it. The two bands are the sexes: for its size a female crab has a wider
# rear (notebook 03's sex contrast), and the whitened second axis, rear width against length, pulls them apart.

# %% slideshow={"slide_type": "fragment"}
band_means = {sex: dr.rounded(versions["whitened"][crabs["sex"].to_numpy() == sex, 1].mean(), 2) for sex in ("F", "M")}
print("mean of the whitened second coordinate, females and males:", band_means)
assert band_means == {"F": 0.86, "M": -0.86}

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Whitening through the SVD (Exercises 4.3 and 4.4)
#
# Take the thin SVD of the centred data, $\mathbf X_c = U D V^\top$. The principal directions are the columns of $V$
# and the variances $\lambda_j = d_j^2/(n-1)$. Whitening multiplies by $W = V\Lambda^{-1/2}$:
#
# $$\mathbf Z = \mathbf X_c V \Lambda^{-1/2} = U D V^\top V\, D^{-1}\sqrt{n-1} = \sqrt{n-1}\, U .$$
#
# So $\mathbf Z^\top \mathbf Z/(n-1) = U^\top U = I$. In the notes' column layout this is Exercise 4.3
# ($D^{-1}U^\top X = V_d^\top$, their $U$ and $V$ swapped with ours) and Exercise 4.4 (the covariance is $I$); the notes
# leave out the normaliser, we keep the factor $\sqrt{n-1}$ so that the *sample* covariance is exactly $I$.

# %% slideshow={"slide_type": "fragment"}
white = kernel.whiten(X)
U, d, Vt = np.linalg.svd(center(X), full_matrices=False)
lam = d**2 / (n - 1)
print("whitened covariance:\n", covariance(white.whitened))
print("covariance is I:", np.allclose(covariance(white.whitened), np.eye(p)))
print("W = V Lambda^(-1/2) up to column signs:", np.allclose(np.abs(white.matrix), np.abs(Vt.T / np.sqrt(lam))))
print("Z = sqrt(n-1) U up to column signs:", np.allclose(np.abs(white.whitened), np.abs(np.sqrt(n - 1) * U)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Whitening is a linear map of the centred data, so a new crab is whitened with the *training* mean and matrix
# (`white.transform`). It is unique only up to a rotation: for any orthogonal $Q$, $\mathbf Z Q$ also has covariance $I$.

# %% slideshow={"slide_type": "fragment"}
new_crab = X[:3] + 0.5
print("transform of new points = (x - mean) W:",
      np.allclose(white.transform(new_crab), (new_crab - white.mean) @ white.matrix))
angle = 0.7
Q = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
print("rotated whitened data still has covariance I:", np.allclose(covariance(white.whitened @ Q), np.eye(p)))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. Where linear PCA fails
#
# PCA finds the best *straight* directions. Two data sets defeat it (notes §5, Fig. 3):
# a spiral, whose points lie on a curve indexed by a position $t$, and two concentric circles with one class each.

# %% slideshow={"slide_type": "fragment"}
X_spiral, t_spiral = make_spiral(300, noise=0.02, seed=8)
X_circles, labels = make_circles(300, noise=0.05, factor=0.3, seed=8)


def separation(z, labels):
    """|difference of the class means| / pooled standard deviation along one coordinate."""
    a, b = z[labels == 0], z[labels == 1]
    return abs(a.mean() - b.mean()) / np.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)


spiral_pca = pca(X_spiral, k=2)
circles_pca = pca(X_circles, k=2)
for j in range(2):
    rho = abs(spearmanr(spiral_pca.scores[:, j], t_spiral)[0])
    print(f"spiral PC{j + 1}: |rank correlation with t| = {dr.rounded(rho)}   "
          f"circles PC{j + 1}: class separation = {dr.rounded(separation(circles_pca.scores[:, j], labels))}")

# %% alt="Three panels. Left: a two-dimensional spiral coloured by the position t along it. Middle: PC1 of the spiral against t, a scatter with no single trend because each score value meets several turns. Right: the PCA scores of two concentric circles, the inner circle still inside the outer one." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
colours = axes[0].scatter(X_spiral[:, 0], X_spiral[:, 1], c=t_spiral, s=10, cmap="viridis")
fig.colorbar(colours, ax=axes[0], label="position t along the curve")
axes[0].set(title="spiral, coloured by position t", xlabel="$x_1$", ylabel="$x_2$")
axes[1].scatter(spiral_pca.scores[:, 0], t_spiral, s=10)
axes[1].set(title="spiral: PC1 against t", xlabel="PC1 score", ylabel="t")
for group, marker in [(0, "o"), (1, "^")]:
    mask = labels == group
    axes[2].scatter(circles_pca.scores[mask, 0], circles_pca.scores[mask, 1], s=10, marker=marker,
                    label=["outer", "inner"][group])
axes[2].set(title="circles: PCA scores", xlabel="PC1", ylabel="PC2")
axes[2].legend()
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# PC1 of the spiral mixes points from different turns (each value of the score meets the curve several times),
# so it barely tracks $t$. For the circles PCA is only a rotation: the inner circle still sits in the middle of the
# outer one and no coordinate separates the classes (separation near 0).

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Kernel PCA
#
# ### 4.1 Kernels
#
# Map each point to features $\phi(\mathbf x)$ and do PCA there. PCA through the Gram matrix (notebook 02, notes §5.1)
# needs only inner products, so we never form $\phi$: a **kernel** $k(\mathbf x, \mathbf y) = \phi(\mathbf x)^\top\phi(\mathbf y)$
# supplies them. The course has three:
#
# * linear $k = \mathbf x^\top\mathbf y$ ($\phi$ is the identity: plain PCA);
# * polynomial $k = (\gamma\,\mathbf x^\top \mathbf y + c)^{\text{degree}}$ (all monomials up to that degree);
# * RBF $k = \exp(-\gamma\lVert \mathbf x - \mathbf y\rVert^2)$ (an infinite-dimensional $\phi$; width $\sigma = 1/\sqrt{2\gamma}$).
#
# For degree 2, $\gamma=1$, $c=1$ and two coordinates the features are explicit:
# $\phi(\mathbf x) = (x_1^2,\ x_2^2,\ \sqrt2 x_1x_2,\ \sqrt2 x_1,\ \sqrt2 x_2,\ 1)$. Check that the kernel is their inner product.

# %% slideshow={"slide_type": "fragment"}
def poly2_features(X):
    x1, x2 = X[:, 0], X[:, 1]
    r2 = np.sqrt(2)
    return np.column_stack([x1**2, x2**2, r2 * x1 * x2, r2 * x1, r2 * x2, np.ones(len(X))])


sample = X_circles[:6]
K_poly = kernel.polynomial_kernel(sample, degree=2, gamma=1.0, coef0=1.0)
Phi = poly2_features(sample)
print("kernel = explicit feature inner products:", np.allclose(K_poly, Phi @ Phi.T))

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### 4.2 Centring in feature space
#
# The notes assume $\sum_i \phi(\mathbf x_i) = 0$. We centre without forming $\phi$: the inner products of the
# centred features are $H K H$ with $H = I - \mathbf 1\mathbf 1^\top/n$, i.e. $K_{ij}$ minus its row mean and column mean
# plus the grand mean. Check it against centring the explicit features:

# %% slideshow={"slide_type": "fragment"}
Phi_c = Phi - Phi.mean(axis=0)
K_centred = kernel.center_kernel(K_poly)
print("H K H = centred features' inner products:", np.allclose(K_centred, Phi_c @ Phi_c.T))
print("rows sum to zero:", np.allclose(K_centred.sum(axis=1), 0))

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### 4.3 The eigenproblem and the scores
#
# Writing each feature-space component as a combination $\mathbf u = \sum_i a_i \phi(\mathbf x_i)$ turns
# $C\mathbf u = \lambda\mathbf u$ into an eigenproblem for the centred kernel matrix, $\tilde K \mathbf a = \mu\mathbf a$
# (the notes' eq. after 19, with $\mu = n\lambda$ for their $1/n$). The component has unit length when
# $\mathbf a^\top \tilde K \mathbf a = 1$, i.e. $\mathbf a$ is a unit eigenvector divided by $\sqrt{\mu}$, and the
# score of point $i$ is $\mathbf u^\top\phi(\mathbf x_i) = (\tilde K\mathbf a)_i$ (eq. 20): the unit eigenvector times
# $\sqrt{\mu}$. `kernel.kernel_pca` does these steps; we verify them on the circles with an RBF kernel.

# %% slideshow={"slide_type": "fragment"}
kpca = kernel.kernel_pca(X_circles, k=3, kernel="rbf", gamma=2.0)
K_tilde = kernel.center_kernel(kernel.rbf_kernel(X_circles, gamma=2.0))
print("scores = K_tilde @ dual_coef:", np.allclose(kpca.scores, K_tilde @ kpca.dual_coef))
print("components have unit length in feature space:",
      np.allclose(kpca.dual_coef.T @ K_tilde @ kpca.dual_coef, np.eye(3)))
print("eigenvalues = variances of the scores:", np.allclose(kpca.eigenvalues, kpca.scores.var(axis=0, ddof=1)))
print("eigenvalues:", kpca.eigenvalues)

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Why one $K$ may be cancelled.** Substituting eq. 19 into eq. 18 and taking the inner product with each
# $\phi(\mathbf x_l)$ gives, in matrix form, $\tilde K^2\mathbf a = n\lambda\,\tilde K\mathbf a$; the notes then
# cancel one $\tilde K$ to reach $\tilde K\mathbf a = n\lambda\,\mathbf a$. But $\tilde K$ is singular: centring alone
# makes $\tilde K\mathbf 1 = \mathbf 0$. Split $\mathbf a = \mathbf a_\parallel + \mathbf a_0$, with $\mathbf a_0$ in
# the null space of $\tilde K$ and $\mathbf a_\parallel$ in its range (spanned by the eigenvectors with $\mu > 0$).
# Both sides of the equation see only $\mathbf a_\parallel$, and on the range $\tilde K$ is invertible, so
#
# $$\tilde K^2\mathbf a = n\lambda\tilde K\mathbf a \iff \tilde K\mathbf a_\parallel = n\lambda\,\mathbf a_\parallel :$$
#
# every solution is an eigenvector of $\tilde K$ plus *any* null-space part. That part is harmless: its
# feature-space vector $\sum_i a_{0i}\tilde\phi(\mathbf x_i)$ has squared length $\mathbf a_0^\top\tilde K\mathbf a_0 = 0$,
# so it adds nothing to the direction $\mathbf u$, and the scores $\tilde K\mathbf a$ do not change. Choosing
# $\mathbf a_0 = \mathbf 0$ gives the eigenvector, and then $\lVert\mathbf u\rVert^2 = \mathbf a^\top\tilde K\mathbf a =
# n\lambda\,\mathbf a^\top\mathbf a$, so a unit component needs $n\lambda\,\mathbf a^\top\mathbf a = 1$. The check:
# the first dual vector, and the same vector plus a multiple of $\mathbf 1$ (relative residuals; 0 means exact).

# %% slideshow={"slide_type": "fragment"}
n_circ = len(X_circles)
mu = (n_circ - 1) * kpca.eigenvalues[0]         # eigenvalue of K_tilde; the notes' lambda is mu / n
a = kpca.dual_coef[:, 0]
a_shifted = a + 0.5 * np.ones(n_circ) / np.sqrt(n_circ)   # plus a null-space vector of K_tilde
print("K_tilde is singular, K_tilde 1 = 0:", np.allclose(K_tilde @ np.ones(n_circ), 0))


def relative(residual, reference):
    return np.linalg.norm(residual) / np.linalg.norm(reference)


print("                     K a = n lam a   K^2 a = n lam K a   change of scores   |u|^2 = a'K a   n lam a'a")
for name, b in [("eigenvector a", a), ("a + null-space part", a_shifted)]:
    rows = [relative(K_tilde @ b - mu * b, mu * b), relative(K_tilde @ (K_tilde @ b) - mu * (K_tilde @ b), K_tilde @ b),
            relative(K_tilde @ b - K_tilde @ a, K_tilde @ a), b @ K_tilde @ b, mu * b @ b]
    print(f"{name:20s}" + "".join(f"{dr.rounded(value, 4):>{width}.4f}" for value, width in zip(rows, (14, 20, 19, 16, 12))))
    assert rows[1] < 1e-10 and rows[2] < 1e-10 and np.isclose(rows[3], 1.0)
assert relative(K_tilde @ a - mu * a, mu * a) < 1e-10 and np.isclose(mu * a @ a, 1.0)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Both vectors solve $\tilde K^2\mathbf a = n\lambda\tilde K\mathbf a$, give the same scores and the same unit-length
# component; only the eigenvector solves $\tilde K\mathbf a = n\lambda\mathbf a$, and only for it does
# $n\lambda\,\mathbf a^\top\mathbf a = 1$ measure the length of $\mathbf u$ (for the shifted vector it counts the
# invisible null-space part too). That is why kernel PCA takes eigenvectors, divided by $\sqrt{n\lambda} = \sqrt\mu$.

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### 4.4 The linear kernel gives PCA
#
# With $k(\mathbf x,\mathbf y) = \mathbf x^\top\mathbf y$, $\tilde K = \mathbf X_c\mathbf X_c^\top$ is the Gram matrix of
# notebook 02, so kernel PCA must reproduce PCA: the same eigenvalues and the same scores up to the sign of each
# column (kernel PCA fixes signs on the $n$-vectors $\mathbf a$, PCA on the $p$-vectors of loadings).

# %% slideshow={"slide_type": "fragment"}
crab_X = crabs[["FL", "RW", "CL", "CW", "BD"]].to_numpy()
linear = kernel.kernel_pca(crab_X, k=3, kernel="linear")
ordinary = pca(crab_X, k=3)
signs = np.sign(np.sum(linear.scores * ordinary.scores, axis=0))
print("same eigenvalues:", np.allclose(linear.eigenvalues, ordinary.eigenvalues))
print("largest score difference after matching signs:",
      dr.rounded(np.abs(linear.scores * signs - ordinary.scores).max(), 10))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Kernel PCA on the circles and the spiral
#
# With an RBF kernel of $\gamma = 2$ (width $\sigma = 0.5$, comparable to the gap of 0.7 between the two rings),
# the first kernel component separates the circles.

# %% slideshow={"slide_type": "fragment"}
circle_scores = kpca.scores
for j in range(2):
    print(f"kernel PC{j + 1}: class separation = {dr.rounded(separation(circle_scores[:, j], labels))}")
outer, inner = circle_scores[labels == 0, 0], circle_scores[labels == 1, 0]
print("a threshold on kernel PC1 splits the classes perfectly:", bool(outer.max() < inner.min() or inner.max() < outer.min()))

# %% alt="Two panels for RBF kernel PCA of two concentric circles with gamma = 2. Left: kernel PC1 against PC2, the outer and inner circles at opposite ends of PC1 with an empty gap between them. Right: histograms of kernel PC1 by class, two separate groups." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
for group, marker in [(0, "o"), (1, "^")]:
    mask = labels == group
    axes[0].scatter(circle_scores[mask, 0], circle_scores[mask, 1], s=10, marker=marker, label=["outer", "inner"][group])
    axes[1].hist(circle_scores[mask, 0], bins=30, alpha=0.7, label=["outer", "inner"][group])
axes[0].set(title="circles: RBF kernel PCA (gamma = 2)", xlabel="kernel PC1", ylabel="kernel PC2")
axes[1].set(title="kernel PC1 by class", xlabel="kernel PC1", ylabel="count")
axes[0].legend()
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The two circles land at opposite ends of kernel PC1 with an empty gap between them: in the RBF feature space the
# rings are far apart, and the direction from one to the other carries the most variance. Kernel PC2 spreads each
# ring along its angle.
#
# **New points.** A new point $\mathbf y$ has no row in $K$, but its kernel values against the training points,
# $K^*_{i\cdot} = (k(\mathbf y_i, \mathbf x_1), \dots, k(\mathbf y_i, \mathbf x_n))$, give its inner products with the
# training features. They must be centred with the *training* mean feature $\bar\phi = \frac1n\sum_l \phi(\mathbf x_l)$:
# $(\phi(\mathbf y) - \bar\phi)^\top(\phi(\mathbf x_j) - \bar\phi)$ expands into four kernel terms. For $m$ new points,
# in matrix form (Schölkopf, Smola and Müller, 1998; scikit-learn's `KernelCenterer` does the same),
#
# $$\tilde K^* = K^* - \tfrac1n \mathbf 1_m \mathbf 1_n^\top K - \tfrac1n K^* \mathbf 1_n \mathbf 1_n^\top
#   + \tfrac1{n^2} \mathbf 1_m \mathbf 1_n^\top K \mathbf 1_n \mathbf 1_n^\top ,$$
#
# and the scores are $\tilde K^* A$, with $A$ the dual coefficients. Written out by hand, against `kpca.transform`:

# %% slideshow={"slide_type": "fragment"}
X_new, labels_new = make_circles(100, noise=0.05, factor=0.3, seed=9)
K_train = kernel.rbf_kernel(X_circles, gamma=2.0)                 # n x n
K_star = kernel.rbf_kernel(X_new, X_circles, gamma=2.0)           # m x n
m_new, n_train = K_star.shape
ones_mn, ones_nn = np.ones((m_new, n_train)) / n_train, np.ones((n_train, n_train)) / n_train  # the 1 1'/n
K_star_centred = K_star - ones_mn @ K_train - K_star @ ones_nn + ones_mn @ K_train @ ones_nn
new_scores = K_star_centred @ kpca.dual_coef
print("by hand = kpca.transform:", np.allclose(new_scores, kpca.transform(X_new)))
print("transform of the training points returns their scores:", np.allclose(kpca.transform(X_circles), kpca.scores))
print("separation of fresh points along kernel PC1:", dr.rounded(separation(new_scores[:, 0], labels_new)))
assert np.allclose(new_scores, kpca.transform(X_new))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The fresh sample of circles is separated just as well, although kernel PCA never saw it. Centring the new rows with
# their *own* means instead would shift every new point by a different amount and break the comparison with the
# training scores.

# %% [markdown] slideshow={"slide_type": "subslide"}
# For the spiral, kernel PCA finds a component that follows the position along the curve, although it is not the
# first: with $\gamma = 2$ the third kernel component has rank correlation 0.98 with $t$, against at most 0.23 for the
# two PCA components.

# %% slideshow={"slide_type": "fragment"}
spiral_kpca = kernel.kernel_pca(X_spiral, k=3, kernel="rbf", gamma=2.0)
for j in range(3):
    print(f"kernel PC{j + 1}: |rank correlation with t| = {dr.rounded(abs(spearmanr(spiral_kpca.scores[:, j], t_spiral)[0]))}")

# %% alt="Two panels for RBF kernel PCA of the spiral with gamma = 2. Left: kernel PC1 against PC2, coloured by the position t, bend the spiral into one big loop. Right: kernel PC3 against t rises with t, with one fold near the outer end." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
colours = axes[0].scatter(spiral_kpca.scores[:, 0], spiral_kpca.scores[:, 1], c=t_spiral, s=10, cmap="viridis")
fig.colorbar(colours, ax=axes[0], label="position t along the curve")
axes[0].set(title="spiral: kernel PC1 and PC2, coloured by t", xlabel="kernel PC1", ylabel="kernel PC2")
axes[1].scatter(spiral_kpca.scores[:, 2], t_spiral, s=10)
axes[1].set(title="spiral: kernel PC3 against t", xlabel="kernel PC3", ylabel="t")
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The first two kernel components bend the spiral into one big loop (the middle of the curve stretched around it, the
# two ends tucked inside), so neither follows $t$; the third rises with $t$, with one fold near the outer end. Kernel
# PCA does not *unroll* the spiral into its first coordinate: that is what the manifold-learning methods of notes §5.3
# (Isomap and friends) are built for.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. The width of the RBF kernel
#
# $\gamma$ sets how far a point "sees": the kernel-induced squared distance is $2 - 2k(\mathbf x,\mathbf y)$, which
# saturates at 2 once $\lVert\mathbf x-\mathbf y\rVert \gg \sigma$. Too wide (small $\gamma$) and
# $e^{-\gamma\|\mathbf x-\mathbf y\|^2} \approx 1 - \gamma\|\mathbf x\|^2 - \gamma\|\mathbf y\|^2 + 2\gamma\,\mathbf x^\top\mathbf y$;
# centring the kernel matrix removes every term that depends on one point only, so what is left is
# $2\gamma\,\mathbf x^\top\mathbf y$, the *linear* kernel: kernel PCA becomes ordinary PCA. Too narrow (large
# $\gamma$) and every point looks equally far from every other.

# %% alt="Four scatter plots of RBF kernel PCA of the two circles, PC1 against PC2, for gamma = 0.1, 2, 10 and 50. At 0.1 it looks like linear PCA, the inner circle inside the outer; at 2 the circles are apart along PC1; at 10 they are no longer apart along PC1 but still along PC2 (separation 3.2); at 50 no leading component separates them." slideshow={"slide_type": "fragment"}
gammas = [0.1, 2.0, 10.0, 50.0]
fig, axes = plt.subplots(1, 4, figsize=(14, 3.5))
for ax, gamma in zip(axes, gammas):
    scores = kernel.kernel_pca(X_circles, k=3, kernel="rbf", gamma=gamma).scores
    for group, marker in [(0, "o"), (1, "^")]:
        mask = labels == group
        ax.scatter(scores[mask, 0], scores[mask, 1], s=8, marker=marker, label=["outer circle", "inner circle"][group])
    ax.set(title=f"gamma = {gamma:g}", xlabel="kernel PC1", ylabel="kernel PC2")
axes[1].legend(loc="center")  # the empty middle of the gamma = 2 panel
fig.tight_layout()
plt.show()

# %% slideshow={"slide_type": "subslide"}
print("gamma   separation along PC1, PC2, PC3")
by_width = {}
for gamma in gammas:
    scores = kernel.kernel_pca(X_circles, k=3, kernel="rbf", gamma=gamma).scores
    by_width[gamma] = [float(dr.rounded(separation(scores[:, j], labels), 2)) for j in range(3)]
    print(f"{gamma:5g}  ", by_width[gamma])
assert by_width[10.0][1] == 3.2 and max(by_width[50.0]) < 0.5
wide, _ = np.linalg.qr(kernel.kernel_pca(X_circles, k=2, kernel="rbf", gamma=0.1).scores)
linear, _ = np.linalg.qr(pca(X_circles, k=2).scores)
print("gamma = 0.1: cosines of the angles between kernel PC1-2 and linear PC1-2:",
      dr.rounded(np.linalg.svd(wide.T @ linear, compute_uv=False)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# With $\gamma = 0.1$ the kernel is so wide that it acts like the linear kernel: the leading two components span
# the same plane as linear PCA's (both cosines printed above are close to 1), and the radius only shows up in the
# third, through the next, quadratic terms of the expansion. At $\gamma = 2$ the ring contrast moves to the first component. At $\gamma = 10$ it
# is spread over several components, and at $\gamma = 50$ it is gone from the first three. With a narrow kernel
# density matters: the inner ring holds as many points as the outer one on a circle 0.3 times as long, so its points
# share many more close neighbours; the leading components then trace the inner ring's shape while the outer ring
# collapses to one spot. The width is a modelling choice; when labels exist for part of the data it is usually tuned
# by cross-validation.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 7. Kernel MDS is kernel PCA
#
# Notes §5.1 kernelise MDS by replacing the Gram matrix with a kernel matrix. Said with distances: a kernel induces
# squared distances $d^2_{ij} = k(\mathbf x_i,\mathbf x_i) + k(\mathbf x_j,\mathbf x_j) - 2k(\mathbf x_i,\mathbf x_j)$ in feature
# space, and classical MDS (notebook 04) double-centres them, $B = -\tfrac12 H D^{(2)} H$. The two diagonal terms are
# constant along a row or a column, so $H$ removes them and $B = H K H$: the matrix kernel PCA decomposes.

# %% slideshow={"slide_type": "fragment"}
D2 = kernel.kernel_squared_distances(kernel.rbf_kernel(X_circles, gamma=2.0))
print("B = -1/2 H D2 H equals H K H:", np.allclose(kernel.center_kernel(-0.5 * D2), K_tilde))
kmds = kernel.kernel_mds(X_circles, k=3, kernel="rbf", gamma=2.0)
print("kernel MDS embedding = kernel PCA scores:", np.allclose(kmds.embedding, kpca.scores))
print("MDS eigenvalues / (n - 1) = kernel PCA eigenvalues:",
      np.allclose(kmds.eigenvalues / (len(X_circles) - 1), kpca.eigenvalues))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * Centring, standardising, whitening and min-max scaling change the covariance to, respectively, the same, a
#   correlation matrix, the identity, and something that depends on the extreme points.
# * Whitening is $\mathbf Z = \mathbf X_c V\Lambda^{-1/2} = \sqrt{n-1}\,U$; it needs full-rank data and is unique up to a rotation.
# * Kernel PCA is PCA of features reached only through a kernel: centre $K$ in feature space ($HKH$), take its leading
#   eigenvectors, scale by $\sqrt{\mu}$; new points are centred with the training means.
# * The linear kernel gives PCA; kernel MDS gives kernel PCA; the RBF width decides which structure comes first.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional)
#
# About 10 minutes: the notes' 3-D spiral.
#
# ### The 3-D spiral: a rolled-up sheet
#
# The notes' Figure 4 shows a spiral in three dimensions: a flat sheet rolled up, which a good method should lay out
# flat again. The course's generator is `make_swiss_roll` (notebook 11 uses the same 800 points): each point comes
# with its position $s$ along the rolled direction of the sheet. As for the 2-D spiral, we ask how well the first
# three components of PCA and of RBF kernel PCA (three widths) follow $s$, by the largest absolute rank correlation.

# %% slideshow={"slide_type": "fragment"}
X_roll, sheet = make_swiss_roll(800, seed=0)
s_roll = sheet[:, 0]


def best_rank_correlation(Z):
    """The largest |Spearman correlation| between a column of Z and the position s, and its column number."""
    rho = np.array([abs(spearmanr(column, s_roll)[0]) for column in Z.T])
    return dr.rounded(rho.max(), 2), int(rho.argmax()) + 1


roll_pca = pca(X_roll, k=3).scores
print("PCA:                       best |rank corr with s|, component:", best_rank_correlation(roll_pca))
roll_kpca = {}
for gamma in (0.01, 0.1, 0.5):
    roll_kpca[gamma] = kernel.kernel_pca(X_roll, k=3, kernel="rbf", gamma=gamma).scores
    print(f"kernel PCA, gamma = {gamma:<4}:      best |rank corr with s|, component:",
          best_rank_correlation(roll_kpca[gamma]))

# %% alt="Three panels of the 800-point Swiss roll coloured by the position s along the sheet. Left: the roll in three dimensions, a sheet rolled up around its axis. Middle: PCA's PC1 and PC2 show the spiral end-on, still rolled up. Right: RBF kernel PCA (gamma = 0.1), PC1 against PC3, pulls single stretches of the roll out as arms." slideshow={"slide_type": "subslide"}
fig = plt.figure(figsize=(14, 4.2))
ax3d = fig.add_subplot(1, 3, 1, projection="3d")
dots = ax3d.scatter(X_roll[:, 0], X_roll[:, 1], X_roll[:, 2], c=s_roll, s=6, cmap="viridis")
ax3d.view_init(elev=12, azim=-70)
ax3d.set_yticks([0, 10, 20])
ax3d.set(title="3-D spiral (Swiss roll), coloured by s", xlabel="$x_1$", ylabel="$x_2$ (axis)", zlabel="$x_3$")
fig.colorbar(dots, ax=ax3d, label="position s along the roll", shrink=0.7, pad=0.1)
panels = [(roll_pca, (0, 1), "PCA: PC1 and PC2", ("PC1", "PC2")),
          (roll_kpca[0.1], (0, 2), "RBF kernel PCA (gamma = 0.1)", ("kernel PC1", "kernel PC3"))]
for position, (Z, (i, j), title, (xlabel, ylabel)) in enumerate(panels, start=2):
    ax = fig.add_subplot(1, 3, position)
    ax.scatter(Z[:, i], Z[:, j], c=s_roll, s=6, cmap="viridis")
    ax.set(title=title + ", coloured by s", xlabel=xlabel, ylabel=ylabel)
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# PCA looks at the roll along its axis: the plane of PC1 and PC2 shows the spiral end-on, still rolled up, so no
# straight coordinate follows $s$ (best rank correlation 0.41). The RBF kernel does not help much: its components
# are smooth functions of the position in space, not along the sheet; at $\gamma = 0.1$ they pick out single
# stretches of the roll (the arms of the right panel), and the best of the three widths reaches 0.55. What unrolls
# the sheet is a notion of distance measured *along* it: notebook 11 builds a neighbourhood graph, and Isomap and
# Laplacian eigenmaps lay this same roll out flat, with rank correlations of 0.999 and more (notebook 11, section 2,
# starts from the numbers above). Section 7 suggests reading Isomap as kernel PCA with the "kernel"
# $-\tfrac12\mathbf H\mathbf G^{(2)}\mathbf H$, built from the squared graph distances $\mathbf G^{(2)}$ rather than
# chosen in advance. That holds only in a generalised sense: graph distances are not Euclidean distances of any point
# set, so the matrix is not positive semidefinite, and no feature map stands behind it. On this roll:

# %% slideshow={"slide_type": "fragment"}
from dimred_teach.manifold import geodesic_distances
from dimred_teach.mds import double_center

G2_roll = geodesic_distances(X_roll, 10) ** 2
B_roll = double_center(G2_roll)
B_graph = np.linalg.eigvalsh(B_roll)[::-1]
negative = B_graph[B_graph < -1e-8 * B_graph[0]]
print("eigenvalues clearly below zero:", negative.size, "of", B_graph.size)
print("most negative / largest:", f"{B_graph[-1] / B_graph[0]:.2%}",
      "| negative share of sum |lambda|:", f"{-negative.sum() / np.abs(B_graph).sum():.1%}")
assert negative.size > 400 and np.isclose(B_graph[-1] / B_graph[0], -0.0088, atol=5e-5)
assert np.isclose(-negative.sum() / np.abs(B_graph).sum(), 0.042, atol=5e-4)

# %% [markdown] slideshow={"slide_type": "subslide"}
# More than half of the 800 eigenvalues are negative, though small: the most negative is 0.88% of the largest, and
# together they make 4.2% of the total size of the spectrum. Isomap does what classical MDS does with non-Euclidean
# distances (notebook 04, section 5, met negative eigenvalues the same way): it keeps the top positive eigenpairs and
# ignores the rest. Ham, Lee, Mika and Schölkopf (2004) make the kernel view exact with a constant shift: add $c$ to
# every off-diagonal squared distance. Since $-\tfrac12\mathbf H(\mathbf 1\mathbf 1^\top - I)\mathbf H = \tfrac12\mathbf H$,
# the matrix becomes $B + \tfrac c2\mathbf H$: the same eigenvectors, every eigenvalue but the constant vector's
# raised by $c/2$, and with $c = -2\lambda_{\min}$ a true (positive semidefinite) kernel.

# %% slideshow={"slide_type": "fragment"}
c = -2 * B_graph[-1]
B_shifted = double_center(G2_roll + c * (1 - np.eye(len(X_roll))))
centring = np.eye(len(X_roll)) - 1 / len(X_roll)
print("shifted = B + c/2 H:", np.allclose(B_shifted, B_roll + c / 2 * centring),
      "| smallest eigenvalue after the shift / largest:", dr.rounded(np.linalg.eigvalsh(B_shifted)[0] / B_graph[0], 8))
assert np.allclose(B_shifted, B_roll + c / 2 * centring) and np.linalg.eigvalsh(B_shifted)[0] > -1e-8 * B_graph[0]

# %% [markdown] slideshow={"slide_type": "subslide"}
# The shifted matrix is a kernel and its leading eigenvectors are Isomap's, so Isomap's embedding directions are kernel
# PCA's for that kernel (the scale of each coordinate changes by the shift). So the lesson is not that kernel PCA
# cannot unroll the roll, but that an RBF kernel does not; a kernel built from the graph does.
