# %% [markdown] slideshow={"slide_type": "slide"}
# # 01 · PCA from the Lagrangian
#
# **Maximum variance and minimum reconstruction error are the same problem.**
#
# *Time: about 60 minutes, plus about 15 for the optional last section.* *Prerequisites: matrix products, eigenvectors, partial derivatives.*
#
# **Learning objectives.** After this notebook you can
# 1. set up the first principal component as a constrained maximisation and solve it with a Lagrange multiplier;
# 2. check numerically that the stationarity condition holds at the top eigenvector (and at no other unit vector that is not an eigenvector);
# 3. derive the second component, including why its extra multiplier $\gamma_2$ is zero;
# 4. show that the direction of maximum variance is the direction of minimum reconstruction error;
# 5. reconstruct data from $k$ components and predict the error from the dropped eigenvalues;
# 6. show that the total variance $\operatorname{tr} S$ is the sum of the eigenvalues, and compute the proportion of it
#    explained by the first $k$ components (the $R^2$ of the CMU slides);
# 7. explain why a Lagrange multiplier is not the same as a squared penalty;
# 8. (optional section) find all $k$ components at once: the best $(\mu, A, \theta_i)$, and why the top $k$
#    eigenvectors maximise $\operatorname{tr}(A^\top S A)$.
#
# **Notes followed.** Oxford SC4/SM4 notes §1.2 (eq. 1.3-1.13, the total sample variance $\operatorname{Tr}(S)$ and the
# proportion explained); CMU 36-467 slides, "Linear dimension reduction" (minimising MSE, the Lagrange multiplier trick, properties of the scores,
# the backup proofs on orthogonal eigenvectors); WashU A2 notes §3 (eq. 1-10); MML lecture 9 §10.2-10.3; Georgia Tech
# ECE 6254 notes, "PCA" (the argmin over $\mu$, $A$, $\theta_i$ and the linear program, in the optional section).
#
# **Conventions.** Rows are points: $\mathbf X$ is $n \times p$. The sample covariance is
# $S = \mathbf X_c^\top \mathbf X_c/(n-1)$ as in the Oxford and WashU notes; the CMU and MML notes divide by $n$,
# which rescales every eigenvalue by $(n-1)/n$ and changes no direction.

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np
import matplotlib.pyplot as plt

import dimred_teach as dr
from dimred_teach.datasets import load_crabs
from dimred_teach.linalg import sorted_eigh
from dimred_teach.pca import center, covariance, pca, reconstruction_error

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The data matrix and centring
#
# We use five body measurements (mm) of 200 crabs; notebook 03 studies them in depth. PCA works with the
# centred matrix $\mathbf X_c$, whose columns have mean zero.

# %% slideshow={"slide_type": "fragment"}
crabs = load_crabs()
measurements = ["FL", "RW", "CL", "CW", "BD"]
X = crabs[measurements].to_numpy()
Xc = center(X)
n, p = X.shape
print("shape:", X.shape)
print("column means before:", dr.rounded(X.mean(axis=0)))
print("column means after: ", dr.rounded(Xc.mean(axis=0)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The sample covariance is $S = \mathbf X_c^\top \mathbf X_c / (n-1)$. It is symmetric and positive
# semi-definite; NumPy's `np.cov` (which expects variables in rows) agrees with it.

# %% slideshow={"slide_type": "fragment"}
S = covariance(X)
print(S)
print("equals np.cov:", np.allclose(S, np.cov(X, rowvar=False)))
print("symmetric:", np.allclose(S, S.T), "| smallest eigenvalue >= 0:", np.linalg.eigvalsh(S).min() >= 0)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. The first component: a constrained maximisation
#
# The score of point $i$ on a unit direction $w$ is $z_i = w^\top x_i$, and the sample variance of the scores is
# $w^\top S w$. The first principal component solves
#
# $$\max_w \; w^\top S w \quad \text{subject to} \quad w^\top w = 1 .$$
#
# Without the constraint the maximum is infinite (double $w$, quadruple the variance). The Lagrangian adds the
# constraint with a multiplier $\lambda$:
#
# $$\mathcal L(w,\lambda) = w^\top S w - \lambda\,(w^\top w - 1), \qquad
#   \frac{\partial \mathcal L}{\partial w} = 2 S w - 2\lambda w, \qquad
#   \frac{\partial \mathcal L}{\partial \lambda} = -(w^\top w - 1).$$
#
# Setting both to zero gives back the constraint and the eigenvector equation $S w = \lambda w$. At such a point
# $w^\top S w = \lambda\, w^\top w = \lambda$: the variance *is* the multiplier, so the best stationary point is the
# eigenvector with the largest eigenvalue.
#
# Let us check this numerically. We compute all eigenpairs, largest first.

# %% slideshow={"slide_type": "fragment"}
eigenvalues, V = sorted_eigh(S)
print("eigenvalues:", eigenvalues)


def lagrangian_gradient(w, lam):
    """d L / d w = 2 S w - 2 lam w for the crabs' covariance."""
    return 2 * S @ w - 2 * lam * w


v1, lam1 = V[:, 0], eigenvalues[0]
print("|gradient| at (v1, lambda1):", dr.rounded(np.linalg.norm(lagrangian_gradient(v1, lam1)), 10))

# %% [markdown] slideshow={"slide_type": "subslide"}
# At a unit vector that is not an eigenvector no multiplier makes the gradient vanish. The best a multiplier can do
# is the least-squares choice $\lambda = w^\top S w$, and the gradient is still far from zero:

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(1)
for trial in range(3):
    w = rng.standard_normal(p)
    w /= np.linalg.norm(w)
    best_lam = w @ S @ w
    print(f"random unit w #{trial}: w'Sw = {dr.rounded(best_lam)}, smallest |gradient| = "
          f"{dr.rounded(np.linalg.norm(lagrangian_gradient(w, best_lam)))}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Every eigenvector is a stationary point, but they are not equally good: the objective at $v_j$ equals $\lambda_j$,
# and the constrained *maximum* is the first one.

# %% slideshow={"slide_type": "fragment"}
for j in range(p):
    vj = V[:, j]
    print(f"v{j + 1}: |gradient| = {dr.rounded(np.linalg.norm(lagrangian_gradient(vj, eigenvalues[j])), 8)}, "
          f"w'Sw = {dr.rounded(vj @ S @ vj)}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Finally, the multiplier is a variance: the sample variance of the scores $\mathbf X_c v_1$ equals $\lambda_1$.

# %% slideshow={"slide_type": "fragment"}
scores_1 = Xc @ v1
print("variance of the PC1 scores:", dr.rounded(scores_1.var(ddof=1)), "| lambda_1:", dr.rounded(lam1))
assert np.isclose(scores_1.var(ddof=1), lam1)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. The second component and $\gamma_2 = 0$
#
# The second component maximises $w^\top S w$ over unit vectors orthogonal to $v_1$. Two constraints, two multipliers:
#
# $$\mathcal L(w,\lambda_2,\gamma_2) = w^\top S w - \lambda_2 (w^\top w - 1) - \gamma_2\, v_1^\top w,
#   \qquad 2 S w - 2\lambda_2 w - \gamma_2 v_1 = 0 .$$
#
# Multiplying the stationarity condition on the left by $v_1^\top$ and using $v_1^\top w = 0$ gives
# $\gamma_2 = 2 v_1^\top S w$. Because $S$ is symmetric and $S v_1 = \lambda_1 v_1$, this is
# $2\lambda_1 v_1^\top w = 0$. So the extra multiplier vanishes and $w$ is again an eigenvector: the one with the
# second largest eigenvalue.

# %% slideshow={"slide_type": "fragment"}
v2 = V[:, 1]
gamma2 = 2 * v1 @ S @ v2
print("gamma_2 = 2 v1' S v2 =", dr.rounded(gamma2, 10))
print("|2 S v2 - 2 lambda2 v2 - gamma2 v1| =", dr.rounded(np.linalg.norm(2 * S @ v2 - 2 * eigenvalues[1] * v2 - gamma2 * v1), 10))

# %% [markdown] slideshow={"slide_type": "subslide"}
# A brute-force check that $v_2$ is the best direction orthogonal to $v_1$: project 5000 random directions onto the
# orthogonal complement of $v_1$ and compare their variances with $\lambda_2$.

# %% slideshow={"slide_type": "fragment"}
directions = rng.standard_normal((5000, p))
directions -= np.outer(directions @ v1, v1)  # remove the v1 part
directions /= np.linalg.norm(directions, axis=1, keepdims=True)
variances = np.einsum("ij,jk,ik->i", directions, S, directions)
print("largest variance found:", dr.rounded(variances.max()), "<= lambda_2 =", dr.rounded(eigenvalues[1]))
assert variances.max() <= eigenvalues[1] + 1e-12

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Why the eigenvectors can be taken orthonormal** (the CMU slides' backup proofs). For a symmetric $S$ with
# $S w_i = \lambda_i w_i$ and $S w_j = \lambda_j w_j$, compute $w_i^\top S w_j$ twice:
# $\lambda_j\, w_i^\top w_j = w_i^\top S w_j = (S w_i)^\top w_j = \lambda_i\, w_i^\top w_j$. If $\lambda_i \ne \lambda_j$
# the only way out is $w_i^\top w_j = 0$. If $\lambda_i = \lambda_j = \lambda$, every combination of $w_i$ and $w_j$
# is again an eigenvector for $\lambda$, so $u = w_j - (w_i^\top w_j)\, w_i$ (with $\|w_i\| = 1$) is one, and it is
# orthogonal to $w_i$: one Gram-Schmidt step. We check both on a matrix built with a repeated eigenvalue.

# %% slideshow={"slide_type": "fragment"}
Q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
C = Q @ np.diag([3.0, 1.0, 1.0]) @ Q.T  # eigenvalue 1 twice
w_i, w_j = Q[:, 1], (Q[:, 1] + Q[:, 2]) / np.sqrt(2)  # two eigenvectors for 1, at 45 degrees
u = w_j - (w_i @ w_j) * w_i
u /= np.linalg.norm(u)
print("w_i'w_j =", dr.rounded(w_i @ w_j), "| after one step: w_i'u =", dr.rounded(w_i @ u, 12),
      "| |C u - u| =", dr.rounded(np.linalg.norm(C @ u - u), 12))
print("top eigenvector against the other two:", dr.rounded(Q[:, 0] @ w_i, 12), dr.rounded(Q[:, 0] @ w_j, 12))
assert np.isclose(w_i @ w_j, np.sqrt(0.5)) and np.isclose(w_i @ u, 0) and np.allclose(C @ u, u)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Maximum variance = minimum reconstruction error
#
# Project a centred point on a unit direction $w$ and map it back: $\hat x_i = w w^\top x_i$. By Pythagoras
# ($\hat x_i$ is orthogonal to $x_i - \hat x_i$),
#
# $$\|x_i - \hat x_i\|^2 = \|x_i\|^2 - (w^\top x_i)^2
#   \quad\Longrightarrow\quad
#   \sum_i \|x_i - \hat x_i\|^2 = \sum_i \|x_i\|^2 - (n-1)\, w^\top S w .$$
#
# The first sum on the right does not depend on $w$, so *minimising the reconstruction error and maximising the
# variance pick the same $w$*. We see it on two-dimensional data by sweeping the angle of $w$.

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(0)
cloud = rng.multivariate_normal([0, 0], [[3.0, 1.2], [1.2, 1.0]], size=300)
cloud_c = center(cloud)
S2 = covariance(cloud)
angles = np.linspace(0, np.pi, 361)
W = np.column_stack([np.cos(angles), np.sin(angles)])  # one unit direction per row
variance = np.einsum("ij,jk,ik->i", W, S2, W)
errors = np.array([np.sum((cloud_c - np.outer(cloud_c @ w, w)) ** 2) for w in W])
identity_gap = np.abs(errors - (np.sum(cloud_c**2) - (len(cloud) - 1) * variance)).max()
print("largest violation of the identity over all angles:", dr.rounded(identity_gap, 8))

# %% alt="Two panels. Left: a centred cloud of two-dimensional points with a line through the origin along its direction of largest variance, at about 25 degrees. Right: as the angle of a unit direction w sweeps from 0 to 180 degrees, the variance of the scores peaks and the reconstruction error divided by n - 1 bottoms out at the same angle, marked by a dotted line." slideshow={"slide_type": "subslide"}
best_variance, best_error = angles[np.argmax(variance)], angles[np.argmin(errors)]
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
left.scatter(*cloud_c.T, s=8, alpha=0.5)
top = pca(cloud, k=1).components[:, 0]
left.axline((0, 0), top, color="C1", label="direction of max variance")
left.set_aspect("equal")
left.set_xlabel("$x_1$ (centred)")
left.set_ylabel("$x_2$ (centred)")
left.legend()
left.set_title("centred data")
right.plot(np.degrees(angles), variance, label="variance of scores  $w^T S w$")
right.plot(np.degrees(angles), errors / (len(cloud) - 1), label="reconstruction error / (n-1)")
right.axvline(np.degrees(best_variance), color="k", ls=":")
right.set_xlabel("angle of w (degrees)")
right.set_ylabel("variance, error / (n-1)")
right.legend()
right.set_title("one maximum, one minimum, same angle")
plt.show()
print("angle of max variance:", dr.rounded(np.degrees(best_variance), 1),
      "| angle of min error:", dr.rounded(np.degrees(best_error), 1))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The variance curve peaks exactly where the error curve bottoms out: the two are mirror images, offset by the
# constant total sum of squares.
#
# ## 5. The scores are uncorrelated: $\operatorname{Var}[\text{scores}] = \Lambda$
#
# With all components, $Z = \mathbf X_c V$ and
# $\frac{1}{n-1} Z^\top Z = V^\top S V = V^\top V \Lambda V^\top V = \Lambda$: the scores are uncorrelated and the
# variance of the $j$-th is $\lambda_j$. (The CMU slides prove the same with $1/n$.)

# %% slideshow={"slide_type": "fragment"}
Z = Xc @ V
print(dr.rounded(Z.T @ Z / (n - 1)))
assert np.allclose(Z.T @ Z / (n - 1), np.diag(eigenvalues))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Uncorrelated is not independent** (the CMU slides' historical-complexity example makes the same point).
# Correlation only measures a straight-line relation. The crabs' PC2 scores are uncorrelated with PC1, yet their
# spread grows with PC1: the larger half of the crabs (by PC1 score) spreads about twice as widely on PC2 as the smaller
# half, and $|z_2|$ correlates clearly with $z_1$.

# %% slideshow={"slide_type": "fragment"}
larger = Z[:, 0] > np.median(Z[:, 0])
spread_small, spread_large = Z[~larger, 1].std(ddof=1), Z[larger, 1].std(ddof=1)
print("corr(z1, z2):", dr.rounded(np.corrcoef(Z[:, 0], Z[:, 1])[0, 1], 10),
      "| corr(z1, |z2|):", dr.rounded(np.corrcoef(Z[:, 0], np.abs(Z[:, 1]))[0, 1], 2))
print("sd of z2, smaller half:", dr.rounded(spread_small, 2), "| larger half:", dr.rounded(spread_large, 2))
assert abs(np.corrcoef(Z[:, 0], Z[:, 1])[0, 1]) < 1e-10 and np.corrcoef(Z[:, 0], np.abs(Z[:, 1]))[0, 1] > 0.5
assert 1.9 < spread_large / spread_small < 2.0

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. Reconstruction and low-rank approximation
#
# Keeping $k$ components, the reconstruction is $\hat{\mathbf X} = \bar x + \mathbf X_c V_k V_k^\top$. Writing each
# centred point in the full eigenbasis, the error is the part along the dropped components, and summing over points
# (WashU notes, eq. 10):
#
# $$\sum_i \|x_i - \hat x_i\|^2 = (n-1) \sum_{j>k} \lambda_j .$$

# %% slideshow={"slide_type": "fragment"}
full = pca(X, k=p)
print(" k | squared error | (n-1) * sum of dropped eigenvalues")
for k in range(1, p + 1):
    model = pca(X, k=k)
    print(f" {k} | {dr.rounded(reconstruction_error(X, model)):13.4f} | {dr.rounded((n - 1) * full.eigenvalues[k:].sum()):.4f}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The table shows how much the first component dominates: one direction (overall size) leaves only a few percent of the
# squared error. No other rank-$k$ projection does better (the Eckart-Young theorem); for instance, random
# two-dimensional subspaces all lose more:

# %% slideshow={"slide_type": "fragment"}
rank2_error = reconstruction_error(X, pca(X, k=2))
random_errors = []
for _ in range(200):
    basis, _ = np.linalg.qr(rng.standard_normal((p, 2)))
    random_errors.append(np.sum((Xc - Xc @ basis @ basis.T) ** 2))
print("PCA rank-2 error:", dr.rounded(rank2_error), "| best of 200 random planes:", dr.rounded(min(random_errors)))
assert rank2_error <= min(random_errors)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 7. Total variance and the proportion explained
#
# How much of the data does a component carry? The Oxford notes (§1.2.2) measure it against the **total sample
# variance**, the trace of $S$. Three sums turn out to be the same number:
#
# * the diagonal entry $S_{jj}$ is the variance of variable $j$, so $\operatorname{tr} S = \sum_j S_{jj}$ is the
#   sum of the variances of the original variables;
# * the trace does not change under a cyclic shift of a product, so with $S = V\Lambda V^\top$ and $V^\top V = I$,
#   $\operatorname{tr} S = \operatorname{tr}(\Lambda V^\top V) = \operatorname{tr}\Lambda = \lambda_1 + \dots + \lambda_p$;
# * by section 5 the variance of the $j$-th score is $\lambda_j$, so the same sum is the sum of the variances of
#   all $p$ scores.
#
# PCA redistributes the total variance over new axes; it neither creates nor loses any. Check it on the crabs:

# %% slideshow={"slide_type": "fragment"}
total_variance = np.trace(S)
print("trace of S:                        ", dr.rounded(total_variance))
print("sum of the eigenvalues:            ", dr.rounded(eigenvalues.sum()))
print("sum of the variances of FL..BD:    ", dr.rounded(X.var(axis=0, ddof=1).sum()))
print("sum of the variances of the scores:", dr.rounded(Z.var(axis=0, ddof=1).sum()))
assert np.allclose([eigenvalues.sum(), X.var(axis=0, ddof=1).sum(), Z.var(axis=0, ddof=1).sum()], total_variance)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The **proportion of variance explained** by component $j$ is $\lambda_j / \operatorname{tr} S$, and by the
# first $k$ components together
#
# $$\frac{\lambda_1 + \dots + \lambda_k}{\lambda_1 + \dots + \lambda_p}
#   = 1 - \frac{\sum_{j>k}\lambda_j}{\operatorname{tr} S}
#   = 1 - \frac{\sum_i \|x_i - \hat x_i\|^2}{\sum_i \|x_i - \bar x\|^2},$$
#
# where the last step multiplies the top and bottom of the middle fraction by $n-1$ and uses section 6 for the
# top and $\sum_i \|x_i - \bar x\|^2 = (n-1)\operatorname{tr} S$ for the bottom. So "95% of the variance explained"
# says "the rank-$k$ reconstruction leaves 5% of the squared distances to the mean". A $1/n$ covariance (the CMU
# and MML notes) rescales every $\lambda_j$ by the same factor, which cancels in the ratio. We compute the table
# both ways and compare it with the relative reconstruction error:

# %% slideshow={"slide_type": "fragment"}
proportion = eigenvalues / total_variance
cumulative = np.cumsum(proportion)
lam_over_n = np.linalg.eigvalsh(covariance(X, ddof=0))[::-1]
total_squares = np.sum(Xc**2)
relative_error = np.array([reconstruction_error(X, pca(X, k=k)) for k in range(1, p + 1)]) / total_squares
print(" k | proportion of k-th | first k together | same with 1/n | 1 - relative reconstruction error")
for k in range(1, p + 1):
    print(f" {k} | {proportion[k - 1]:18.4f} | {cumulative[k - 1]:16.4f} | "
          f"{lam_over_n[:k].sum() / lam_over_n.sum():13.4f} | {1 - relative_error[k - 1]:.4f}")
assert np.allclose(cumulative, np.cumsum(lam_over_n) / lam_over_n.sum())
assert np.allclose(cumulative, 1 - relative_error)
assert np.allclose(proportion, pca(X).explained_variance_ratio)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The first component alone explains 98.2% of the crabs' variance: the five measurements mostly grow together with
# the size of the crab. The figure shows the proportions on the usual linear scale (left) and, because the last four
# are so small, the unexplained share $1 - \text{cumulative}$ on a logarithmic scale (right), where the measured
# relative reconstruction errors fall on the curve.

# %% alt="Two panels for the crabs. Left: bars of the proportion of variance of each of the five components (98.2% for the first, then 0.91%, 0.70%, 0.094% and 0.054%) with the cumulative proportion as a line near 1. Right, on a log scale: the unexplained share 1 minus the cumulative proportion for 1 to 4 components kept, with the measured relative reconstruction errors as crosses falling on the curve." slideshow={"slide_type": "fragment"}
index = np.arange(1, p + 1)
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
left.bar(index, proportion, color="C0", alpha=0.8, label="proportion of component k")
left.plot(index, cumulative, "o-", color="C1", label="cumulative proportion (first k)")
bar_labels = [f"{100 * share:.1f}%" if share > 0.5 else f"{100 * share:#.2g}%" for share in proportion]
for k, share, label in zip(index, proportion, bar_labels):  # small bars: label above; the tall one: label inside
    inside = share > 0.5
    left.annotate(label, (k, share / 2 if inside else share), xytext=(0, 0 if inside else 3),
                  textcoords="offset points", ha="center", fontsize=8, color="white" if inside else "black")
left.set_xticks(index)
left.set_ylim(0, 1.12)
left.set_xlabel("component k")
left.set_ylabel("proportion of total variance")
left.set_title("crabs: proportion of variance explained")
left.legend(loc="center right")
right.semilogy(index[:-1], 1 - cumulative[:-1], "o-", color="C1", label="1 - cumulative proportion")
right.semilogy(index[:-1], relative_error[:-1], "x", color="k", markersize=9,
               label="relative reconstruction error (measured)")
right.set_xticks(index[:-1])
right.set_xlabel("number of components kept k")
right.set_ylabel("unexplained share (log scale)")
right.set_title("what k components leave out")
right.legend(loc="lower left")
plt.show()
assert bar_labels == ["98.2%", "0.91%", "0.70%", "0.094%", "0.054%"]

# %% [markdown] slideshow={"slide_type": "subslide"}
# Two components keep 99.2% and three keep 99.9%. Whether that is "enough" is a modelling decision; notebook 02
# (section 5) turns this proportion into rules for choosing $k$.
#
# **The cumulative proportion is an $R^2$.** The CMU slides (backup example, "the axis of historical complexity")
# plot the cumulative proportion against $k$ under the name $R^2$ and draw guide lines at 75% and 90%. The name
# fits: the identity above says the cumulative proportion is $1 - \text{RSS}/\text{TSS}$, where the residual sum
# of squares is what the rank-$k$ reconstruction misses and the total sum of squares is measured from the mean,
# exactly the $R^2$ of a regression, with the $k$ scores as the fitted predictors of every variable at once. On
# the crabs the curve is above both lines from $k = 1$, which makes a dull picture; the 64 pixels of the
# handwritten digits (notebook 10, section 7) spread their variance over many components, and there the lines
# matter. Both curves, with the notes' lines:

# %% alt="Two panels of R squared, the cumulative proportion of variance, against the number of components k, with a dashed line at 0.75 and a dotted line at 0.9. Left, the five crab measurements: the curve starts at 0.98 and is above both lines from k = 1. Right, the 64 pixels of the digits: the curve rises slowly and crosses 0.75 at k = 11 and 0.9 at k = 21." slideshow={"slide_type": "fragment"}
from dimred_teach.datasets import load_digits


def components_to_reach(r_squared, level):
    """Smallest k whose cumulative proportion reaches `level` (compared at 10 decimals)."""
    return int(np.argmax(np.round(r_squared, 10) >= level)) + 1


digits, _ = load_digits()
curves = {"crabs (5 measurements)": cumulative,
          "digits (64 pixels)": np.cumsum(pca(digits).explained_variance_ratio)}
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
for ax, (name, r_squared) in zip(axes, curves.items()):
    k_values = np.arange(1, r_squared.size + 1)
    ax.plot(k_values, r_squared, "o-", markersize=3)
    ax.axhline(0.75, color="k", lw=0.8, ls="--", label="75%")
    ax.axhline(0.90, color="k", lw=0.8, ls=":", label="90%")
    ax.set_xticks(k_values if r_squared.size <= 10 else np.arange(0, r_squared.size + 1, 8))
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("number of components used k")
    ax.set_ylabel("$R^2$ (cumulative proportion)")
    ax.set_title(name)
    ax.legend(loc="lower right")
plt.show()
reach = {name: [components_to_reach(r_squared, level) for level in (0.75, 0.90)] for name, r_squared in curves.items()}
for name, (k75, k90) in reach.items():
    print(f"{name}: R^2 first reaches 75% at k = {k75} and 90% at k = {k90}")
assert reach == {"crabs (5 measurements)": [1, 1], "digits (64 pixels)": [11, 21]}

# %% [markdown] slideshow={"slide_type": "subslide"}
# The digits need 11 components for 75% and 21 for 90%: a third of the 64 pixels to keep nine tenths of the
# variance, against one of five measurements for the crabs. A high $R^2$ with one component, as for the crabs, says
# the variables move together; it does not say the remaining components are noise. Notebook 03 (section 5) shows
# that once the five measurements are standardised, the crabs' second component separates the sexes and the third
# the species; on the raw measurements used here, PC2 and PC3 each mix the two contrasts.

# %% [markdown] slideshow={"slide_type": "subslide"}
# **The components depend on what you measure.** Each component is a combination of the coordinates you chose to
# record, so adding or removing coordinates changes them. The CMU slides' warning: put in a thousand measures of
# education and the first component will be education. On the crabs, record body depth BD again and again (exact
# copies, the extreme case) and watch PC1 turn towards it:

# %% slideshow={"slide_type": "fragment"}
print("copies of BD | share of PC1's squared weights on the BD columns")
bd_share = {}
for copies in [0, 1, 5, 20]:
    X_more = np.column_stack([X] + [X[:, [4]]] * copies)
    pc1 = sorted_eigh(covariance(X_more))[1][:, 0]
    bd_share[copies] = dr.rounded(np.sum(pc1[4:] ** 2), 2)
    print(f"{copies:12d} | {bd_share[copies]:.2f}")
assert bd_share == {0: 0.08, 1: 0.15, 5: 0.35, 20: 0.66}

# %% [markdown] slideshow={"slide_type": "subslide"}
# Body depth carries 8% of PC1's weight as measured once and two thirds of it with twenty copies, though the crabs
# did not change. Before reading a component as "a thing", ask whether the choice of variables put it there.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 8. Why a multiplier and not a squared penalty
#
# One might try to enforce $w^\top w = 1$ by penalising violations instead:
# $\max_w\; w^\top S w - \mu (w^\top w - 1)^2$ with a large constant $\mu > 0$. Its stationarity condition is
# $2 S w - 4\mu (w^\top w - 1)\, w = 0$, so $w$ is still an eigenvector, but its squared length is
# $1 + \lambda/(2\mu)$: **the constraint fails for every finite $\mu$**, and the maximised "variance" is inflated.
# The multiplier of a Lagrangian is not a fixed weight but an unknown solved for together with $w$; the condition
# $\partial \mathcal L / \partial \lambda = 0$ gives back the constraint exactly.
#
# The CMU slides also ask why one should not square the constraint *inside* the Lagrangian,
# $\mathcal L(w, \lambda) = L(w) + \lambda (f(w) - c)^2$. The derivative in $\lambda$ is $(f(w) - c)^2$, so setting it
# to zero still gives the constraint $f(w) = c$. The trouble is the derivative in $w$,
# $\partial L/\partial w + 2\lambda (f(w) - c)\, \partial f/\partial w$: on the constraint its second term vanishes,
# so it reduces to $\partial L / \partial w = 0$, the *unconstrained* condition, and $\lambda$ drops out and is left
# undetermined. For PCA that condition is $2 S w = 0$, which has no unit-length solution: all eigenvalues of $S$
# printed above are positive, so $S w = 0$ only for $w = 0$. The squared form can never produce $S w = \lambda w$.
#
# We maximise the penalised objective numerically, starting from $v_1$ itself.

# %% slideshow={"slide_type": "fragment"}
from scipy.optimize import minimize

print("   mu | |w|^2 found | 1 + lambda1/(2 mu)")
for mu in [1.0, 10.0, 100.0, 1000.0]:
    found = minimize(lambda w: -(w @ S @ w - mu * (w @ w - 1) ** 2), v1, method="BFGS", options={"gtol": 1e-10}).x
    print(f"{mu:5.0f} | {dr.rounded(found @ found):11.4f} | {dr.rounded(1 + lam1 / (2 * mu)):.4f}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The squared length approaches 1 only as $\mu \to \infty$, where the problem becomes badly conditioned. The Lagrange
# multiplier gets the exact answer in one step.
#
# ## Summary
#
# * The first principal component is the top eigenvector of $S$; its eigenvalue is the variance of the scores.
# * Each later component is the next eigenvector; the orthogonality multipliers vanish because $S$ is symmetric.
# * Maximising variance and minimising squared reconstruction error are one problem; the error of a rank-$k$
#   reconstruction is $(n-1)$ times the sum of the dropped eigenvalues.
# * The total variance $\operatorname{tr} S$ equals the sum of the eigenvalues, of the variances of the variables
#   and of the variances of the scores; the first $k$ components explain the fraction
#   $\sum_{j\le k}\lambda_j / \operatorname{tr} S$ of it, which is one minus the relative reconstruction error: an
#   $R^2$ (crabs: above 90% at $k = 1$; digits: 75% at $k = 11$, 90% at $k = 21$).
# * The scores are uncorrelated with variances $\Lambda$, but uncorrelated is not independent; and the components
#   depend on which variables were recorded.
#
# **Exercises:** `exercises/01_pca_lagrangian.ipynb`.
#
# **References.** D. Sejdinovic, *Dimensionality Reduction*, Oxford SC4/SM4 lecture notes (2017), §1.2;
# C. Shalizi, *Linear Dimension Reduction*, CMU 36-467/667 slides; WashU lecture A2, *USL - Dimensionality
# Reduction*, §3; Stellenbosch *Mathematics for Machine Learning* lecture 9 (Deisenroth, Faisal and Ong, *MML*, ch. 10).

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional): all $k$ components at once
#
# Sections 2 and 3 found the components one at a time. The Georgia Tech ECE 6254 notes ("PCA") pose the whole
# problem in one go: find a centre $\mu$, a $p \times k$ matrix $A$ with orthonormal columns ($A^\top A = I_k$) and a
# code $\theta_i \in \mathbb R^k$ for each point that minimise
#
# $$J(\mu, A, \theta_1, \dots, \theta_n) = \sum_i \|x_i - \mu - A\theta_i\|^2 .$$
#
# We solve for one block of unknowns at a time, each time holding the others fixed, and check every step on the
# crabs with $k = 2$.

# %% [markdown] slideshow={"slide_type": "subslide"}
# **The code, for a fixed basis.** With $\mu$ and $A$ fixed, each $\theta_i$ is a least-squares problem with design
# matrix $A$. Its normal equations are $A^\top A\,\theta_i = A^\top (x_i - \mu)$, and $A^\top A = I_k$ leaves
# $\theta_i = A^\top (x_i - \mu)$. So for a given orthonormal basis the best encoding is the orthogonal projection onto
# it, the statement of the Stellenbosch notes and MML §10.3. We take a random orthonormal $A$ (nothing special about
# it), compare with a least-squares solver and try nudging the codes.

# %% slideshow={"slide_type": "fragment"}
k = 2
rng = np.random.default_rng(2)
A, _ = np.linalg.qr(rng.standard_normal((p, k)))  # a random orthonormal basis of a plane
mean = X.mean(axis=0)


def J(mu, codes):
    """The Georgia Tech objective for the basis A: sum_i |x_i - mu - A theta_i|^2."""
    return np.sum((X - mu - codes @ A.T) ** 2)


theta = (X - mean) @ A  # row i is theta_i = A'(x_i - mu)
solver = np.linalg.lstsq(A, (X - mean).T, rcond=None)[0].T
nudged = min(J(mean, theta + 0.01 * rng.standard_normal(theta.shape)) for _ in range(100))
print("largest gap to the least-squares codes:", dr.rounded(np.abs(solver - theta).max(), 10))
print("J at the projection:", dr.rounded(J(mean, theta), 2), "| best of 100 nudged codes:", dr.rounded(nudged, 2))
assert np.allclose(solver, theta) and nudged > J(mean, theta)

# %% [markdown] slideshow={"slide_type": "subslide"}
# **The centre.** Put the best codes back: $J = \sum_i \|(I - AA^\top)(x_i - \mu)\|^2$, which depends on $\mu$ only
# through $(I - AA^\top)\mu$. Its gradient, $-2 (I - AA^\top)\sum_i (x_i - \mu)$, vanishes at the mean. The mean is a
# minimiser but not the only one: a shift of $\mu$ along the columns of $A$ is absorbed by the codes and leaves $J$
# unchanged, while a shift $\delta$ orthogonal to them adds exactly $n\|\delta\|^2$. The notes' "$\mu$ is the mean"
# is the natural choice among equals.

# %% slideshow={"slide_type": "fragment"}
along = 0.7 * A[:, 0]  # a shift inside the plane
across = (np.eye(p) - A @ A.T) @ rng.standard_normal(p)
across *= 0.5 / np.linalg.norm(across)  # a shift of length 0.5 orthogonal to the plane
base = J(mean, theta)
change_along = J(mean + along, (X - mean - along) @ A) - base
change_across = J(mean + across, (X - mean - across) @ A) - base
print("change of J, shift along A:", dr.rounded(change_along, 8), "| shift across A:", dr.rounded(change_across, 8),
      "| n * 0.5^2 =", n * 0.25)
assert np.isclose(change_along, 0, atol=1e-8) and np.isclose(change_across, n * 0.25)

# %% [markdown] slideshow={"slide_type": "subslide"}
# **The basis: a linear program.** With $\mu = \bar x$ and $\theta_i = A^\top x_i$ (centred $x_i$), the error is
# $\sum_i \|x_i\|^2 - (n-1)\operatorname{tr}(A^\top S A)$, so we maximise the trace. Write $S = V\Lambda V^\top$ and let
# $h_j = \|A^\top v_j\|^2$, the squared length of the projection of the $j$-th eigenvector onto the columns of $A$. Then
#
# $$\operatorname{tr}(A^\top S A) = \operatorname{tr}(A^\top V \Lambda V^\top A) = \sum_j \lambda_j \|A^\top v_j\|^2
#   = \sum_j h_j \lambda_j ,$$
#
# and the weights $h_j$ obey two constraints:
#
# $$0 \le h_j \le \|v_j\|^2 = 1, \qquad \sum_j h_j = \operatorname{tr}(A^\top V V^\top A) = \operatorname{tr}(I_k) = k .$$

# %% [markdown] slideshow={"slide_type": "subslide"}
# Whatever $A$ is, its $h$ lies in this box-and-plane set, so the trace is at most the largest value of the linear
# objective $\sum_j h_j \lambda_j$ over the set: put weight 1 on the $k$ largest $\lambda_j$ and 0 elsewhere, which gives
# $\lambda_1 + \dots + \lambda_k$. The top $k$ eigenvectors attain it, so they are a maximiser. (The notes get
# $h_j \le 1$ from completing $U^\top A$ to a square orthogonal matrix and ask whether its rows or its columns are
# meant: a square matrix with orthonormal columns has orthonormal rows too, so both are, and the projection argument
# above avoids the question.)

# %% slideshow={"slide_type": "fragment"}
from scipy.optimize import linprog

h_values, traces = [], []
for _ in range(2000):
    B, _ = np.linalg.qr(rng.standard_normal((p, k)))
    h_values.append(np.sum((B.T @ V) ** 2, axis=0))
    traces.append(np.trace(B.T @ S @ B))
h_values, traces = np.array(h_values), np.array(traces)
program = linprog(-eigenvalues, A_eq=np.ones((1, p)), b_eq=[k], bounds=[(0, 1)] * p)
print(f"2000 random planes: h_j from {h_values.min():.4f} to {h_values.max():.4f}, "
      f"largest |sum h_j - k| = {dr.rounded(np.abs(h_values.sum(axis=1) - k).max(), 10)}")
print("largest trace found:", dr.rounded(traces.max()), "<= lambda_1 + lambda_2 =", dr.rounded(eigenvalues[:k].sum()))
print("the linear program's solution h:", dr.rounded(program.x) + 0.0, "| its value:", dr.rounded(-program.fun))
assert np.allclose(h_values @ eigenvalues, traces) and traces.max() <= eigenvalues[:k].sum()
assert np.allclose(program.x, [1, 1, 0, 0, 0]) and np.isclose(-program.fun, eigenvalues[:k].sum())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The random planes stay inside the box and on the plane $\sum_j h_j = 2$, their traces stay below
# $\lambda_1 + \lambda_2$, and the linear program picks the first two eigenvectors. Because the objective is linear in
# $h$, the maximum sits at a corner of the feasible set; when $\lambda_k > \lambda_{k+1}$ that corner is unique, so
# every maximising $A$ spans the same subspace as the top $k$ eigenvectors (one-at-a-time and all-at-once agree).
