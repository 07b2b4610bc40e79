# %% [markdown] slideshow={"slide_type": "slide"}
# # 07 · Probabilistic PCA
#
# **PCA as the maximum-likelihood fit of a Gaussian latent-variable model.**
#
# *Time: about 60 minutes, plus about 25 for the optional last section.* *Prerequisites: notebooks 01-02 (PCA, eigendecompositions), the multivariate normal
# density, the idea of maximum likelihood.*
#
# **Learning objectives.** After this notebook you can
# 1. write down the generative model of probabilistic PCA (PPCA) and sample from it;
# 2. derive its marginal distribution $N(\mu, WW^\top + \sigma^2 I)$ and check it on samples;
# 3. evaluate the log-likelihood in $O(ndq)$ with Woodbury's identity and the matrix determinant lemma;
# 4. state the closed-form maximum-likelihood estimates (WashU eq. 24-26), including which covariance (1/n) they use;
# 5. run the EM algorithm, see its log-likelihood rise monotonically to the closed form, and explain why it can be slow;
# 6. show that as $\sigma^2 \to 0$ PPCA becomes PCA, and read the posterior mean as a shrunk PCA projection;
# 7. (optional section) draw EM's iterations for a line in the plane, and choose the latent dimension $q$ by
#    held-out log-likelihood, on simulated data and on the crabs.
#
# **Notes followed.** WashU A2 notes "USL - Dimensionality Reduction", §7 *Probabilistic PCA* (eq. 21-27) and the
# appendix §8 (affine maps of Gaussians). The notes defer the derivations to Tipping and Bishop (1999); where they
# leave a step out, this notebook fills it in and says so.
#
# **Notation.** The notes write $U$ for the loadings, $r$ for the latent dimension, $\mathbf v$ for the latent
# variable and $W$ for the matrix of eigenvectors. Here, as in Tipping and Bishop and in the library: loadings $W$
# ($d\times q$), latent $z\in\mathbb R^q$, eigenvectors $V$. Rows are points ($X$ is $n\times d$; the notes store
# points as columns). The number of variables is $d$ here, as in the WashU notes and Tipping and Bishop; notebooks
# 01-03 call it $p$.
#
# **References.** WashU A2 notes §7-8; M. E. Tipping and C. M. Bishop, "Probabilistic principal
# component analysis", *J. R. Statist. Soc. B* 61 (1999), eq. 29-30 and appendix A; S. Roweis, "EM algorithms for
# PCA and SPCA", *NIPS* 10 (1998); N. D. Lawrence, "Probabilistic non-linear principal component analysis with
# Gaussian process latent variable models", *JMLR* 6 (2005); C. M. Bishop, *Pattern Recognition and Machine Learning* (2006), §12.2.2 and
# Figure 12.12 (EM drawn for a line in the plane, which the optional section redraws in its own way).

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np
import matplotlib.pyplot as plt
import pandas as pd
from scipy.stats import multivariate_normal

import dimred_teach as dr
from dimred_teach import ppca
from dimred_teach.datasets import load_crabs
from dimred_teach.linalg import projector, subspace_distance
from dimred_teach.pca import pca
from dimred_teach.plotting import score_scatter

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The generative model
#
# PPCA explains each $d$-dimensional point by a $q$-dimensional latent variable ($q<d$), a linear map and isotropic
# noise (WashU eq. 21):
#
# $$z \sim N(0, I_q), \qquad x = W z + \mu + \varepsilon, \qquad \varepsilon \sim N(0, \sigma^2 I_d),
#   \quad z \text{ and } \varepsilon \text{ independent}.$$
#
# To generate a point: draw $z$, map it to $Wz + \mu$ (a point of a $q$-dimensional affine subspace), then add noise.
# The smallest example has $d=2$, $q=1$: the subspace is a line.

# %% alt="Two panels for a PPCA model with one latent dimension in the plane. Left: a histogram of 200 latent values z drawn from a standard normal. Right: the points W z + mu lie on a line through (1, -1) in the direction (2, 1), and the observed points are scattered around it by round Gaussian noise, a few joined to their noise-free positions." slideshow={"slide_type": "fragment"}
toy = ppca.PPCAModel(W=np.array([[2.0], [1.0]]), mean=np.array([1.0, -1.0]), sigma2=0.25)
X_toy, z_toy = ppca.sample(toy, 200, seed=0, return_latent=True)
on_line = z_toy @ toy.W.T + toy.mean

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), gridspec_kw={"width_ratios": [1, 2]})
left.hist(z_toy[:, 0], bins=20, color="C0", alpha=0.8)
left.set_xlabel("latent z")
left.set_ylabel("count")
left.set_title("1. draw z ~ N(0, 1)")
right.plot(on_line[:, 0], on_line[:, 1], ".", color="C2", label="W z + mu (on the line)")
right.scatter(X_toy[:, 0], X_toy[:, 1], s=12, color="C0", label="x = W z + mu + noise")
for i in range(12):
    right.plot([on_line[i, 0], X_toy[i, 0]], [on_line[i, 1], X_toy[i, 1]], color="C1", lw=0.8)
right.set_aspect("equal")
right.set_xlabel("x1")
right.set_ylabel("x2")
right.set_title("2. map to the line, 3. add isotropic noise")
right.legend(loc="upper left")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The green points lie exactly on the line through $\mu=(1,-1)$ in the direction $W=(2,1)$; the noise (vermillion
# segments for a few points) moves each one off the line by a round Gaussian step of variance $\sigma^2=0.25$ in every
# direction. Fitting PPCA means going backwards: from the blue cloud alone, find the line and the noise level.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. The marginal distribution
#
# The notes marginalise $z$ out (eq. 22) and cite the appendix for the result. The one step they leave implicit is
# independence. Stack $u = (z, \varepsilon)$, a Gaussian vector with covariance $\operatorname{diag}(I_q, \sigma^2
# I_d)$ *because* $z$ and $\varepsilon$ are independent. Then $x = [W \;\; I_d]\,u + \mu$ is an affine map of a
# Gaussian, hence Gaussian (appendix §8), with
#
# $$\mathbb E[x] = \mu, \qquad
#   \operatorname{Cov}(x) = [W \;\; I_d]\begin{bmatrix} I_q & 0\\ 0 & \sigma^2 I_d\end{bmatrix}
#   \begin{bmatrix} W^\top \\ I_d\end{bmatrix} = W W^\top + \sigma^2 I_d =: C .$$
#
# (Without independence a cross term $W\operatorname{Cov}(z,\varepsilon) + \operatorname{Cov}(\varepsilon, z)W^\top$
# would appear.) We check this on 40 000 draws from a model with $d=4$, $q=2$.

# %% slideshow={"slide_type": "fragment"}
model = ppca.PPCAModel(W=np.array([[1.5, 0.5], [0.5, -1.0], [1.0, 1.0], [0.0, 2.0]]),
                       mean=np.array([0.0, 2.0, -1.0, 1.0]), sigma2=0.5)
draws = ppca.sample(model, 40000, seed=1)
C = model.covariance()
covariance_gap = np.abs(np.cov(draws, rowvar=False) - C).max()
print("C = W W' + sigma2 I:")
print(C)
print("largest |sample covariance - C|:", dr.rounded(covariance_gap))
print("largest |sample mean - mu|:     ", dr.rounded(np.abs(draws.mean(axis=0) - model.mean).max()))
print("largest |C_ij| * sqrt(2/n):     ", dr.rounded(np.abs(C).max() * np.sqrt(2 / len(draws))))
assert covariance_gap < 2 * np.abs(C).max() * np.sqrt(2 / len(draws))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Both differences are of the size of the sampling error (the largest entry of $C$ times $\sqrt{2/n}$, printed
# last), not a systematic gap. The structure of $C$ is worth seeing through its eigenvalues: in the
# $d-q$ directions orthogonal to the columns of $W$ the model has only noise, so $d-q=2$ eigenvalues equal
# $\sigma^2$ exactly; the other $q$ are the squared singular values of $W$ plus $\sigma^2$.

# %% slideshow={"slide_type": "fragment"}
print("eigenvalues of C:            ", np.linalg.eigvalsh(C)[::-1])
print("singular values of W^2 + s2: ", np.linalg.svd(model.W, compute_uv=False) ** 2 + model.sigma2)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. The log-likelihood without a $d\times d$ matrix
#
# For $n$ points the log-likelihood (WashU eq. 23) is
#
# $$\ell(W,\mu,\sigma^2) = -\frac n2\Big[d\log(2\pi) + \log|C| + \operatorname{tr}(C^{-1} S_\mu)\Big],\qquad
#   S_\mu = \frac1n\sum_{i=1}^n (x_i-\mu)(x_i-\mu)^\top .$$
#
# (The notes write $r$ for $d$ in the constant; the density lives in $\mathbb R^d$. $S_\mu$ divides by $n$ and is
# taken about $\mu$: it becomes the $1/n$ sample covariance once $\mu$ is estimated.)
#
# Forming and inverting the $d\times d$ matrix $C$ costs $O(d^3)$. The structure "low rank plus a multiple of the
# identity" avoids it. With the small $q\times q$ matrix $M = W^\top W + \sigma^2 I_q$:
#
# * **Woodbury:** $C^{-1} = \sigma^{-2}\big(I_d - W M^{-1} W^\top\big)$;
# * **determinant lemma:** $|C| = \sigma^{2d}\,|I_q + W^\top W/\sigma^2| = \sigma^{2(d-q)}\,|M|$.
#
# So $\operatorname{tr}(C^{-1}S_\mu) = \sigma^{-2}\big(\operatorname{tr}S_\mu - \operatorname{tr}(M^{-1}W^\top S_\mu W)\big)$,
# and $W^\top S_\mu W = (RW)^\top (RW)/n$ with $R$ the residuals $x_i - \mu$ in rows: everything costs $O(ndq)$.
# First the two identities:

# %% slideshow={"slide_type": "fragment"}
W, s2, d, q = model.W, model.sigma2, model.d, model.q
M = W.T @ W + s2 * np.eye(q)
print("Woodbury holds:         ", np.allclose(np.linalg.inv(C), (np.eye(d) - W @ np.linalg.solve(M, W.T)) / s2))
print("determinant lemma holds:", np.isclose(np.linalg.det(C), s2 ** (d - q) * np.linalg.det(M)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Then the library's `log_likelihood`, built on them, against SciPy's density with the full $C$:

# %% slideshow={"slide_type": "fragment"}
few = draws[:500]
fast = ppca.log_likelihood(few, model.W, model.mean, model.sigma2)
naive = multivariate_normal(model.mean, C).logpdf(few).sum()
print("O(ndq) log-likelihood:", dr.rounded(fast), "| scipy with the d x d C:", dr.rounded(naive))
assert np.isclose(fast, naive, rtol=1e-12)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The likelihood depends on $W$ only through $WW^\top$, so any rotation $WR$ ($R$ orthogonal) fits equally well:
# $W$ is identified only up to a rotation. The library reports the rotation with orthogonal columns of decreasing
# length (and the course's sign rule).

# %% slideshow={"slide_type": "fragment"}
angle = 0.7
R = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
print("same likelihood after rotating W:",
      np.isclose(ppca.log_likelihood(few, W @ R, model.mean, s2), fast, rtol=1e-12))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. The closed-form maximum-likelihood estimate
#
# Setting the derivatives of $\ell$ to zero gives (WashU eq. 24-26), with $\lambda_1\ge\dots\ge\lambda_d$ the
# eigenvalues and $V_q$ the top $q$ eigenvectors of the **1/n** sample covariance $S$:
#
# $$\hat\mu = \bar x,\qquad \hat\sigma^2 = \frac{1}{d-q}\sum_{j=q+1}^{d}\lambda_j,\qquad
#   \hat W = V_q(\Lambda_q - \hat\sigma^2 I)^{1/2} R \;\;(R \text{ any rotation}).$$
#
# The notes skip the derivation; its outline (Tipping and Bishop, appendix A) is:
# 1. $\partial\ell/\partial\mu = 0$ gives $\hat\mu = \bar x$ whatever $W$ and $\sigma^2$ are; then $S_\mu = S$.
# 2. $\partial\ell/\partial W = n\,(C^{-1} S C^{-1} W - C^{-1} W) = 0$, i.e. $S C^{-1} W = W$. Writing
#    $W = U A R^\top$ (an SVD, $A = \operatorname{diag}(a_j)$) and using Woodbury, $C^{-1}W = U A (A^2 + \sigma^2 I)^{-1}
#    R^\top$, so the condition becomes $S u_j = (a_j^2 + \sigma^2) u_j$ for every $j$ with $a_j > 0$: the columns of $U$
#    are eigenvectors of $S$ with $\lambda_j = a_j^2 + \sigma^2$, i.e. $a_j = (\lambda_j - \sigma^2)^{1/2}$ (or $a_j = 0$).
# 3. Substituting back, $\ell$ depends on which eigenvalues were kept; it is largest when they are the $q$ largest.
# 4. $\partial\ell/\partial\sigma^2 = 0$ then gives the average of the discarded eigenvalues: the noise variance is
#    the variance "left over" per discarded direction.
#
# **The covariance normaliser.** The likelihood is a sum over the $n$ points, so $S$ divides by $n$, not by the
# $n-1$ of `pca()`; `ppca_mle` rescales `pca()`'s eigenvalues by $(n-1)/n$. We fit a model to data drawn from a known one ($d=10$, $q=3$).

# %% slideshow={"slide_type": "fragment"}
truth = ppca.PPCAModel(W=np.random.default_rng(2).normal(0.0, 1.5, (10, 3)), mean=np.arange(10.0), sigma2=0.5)
X = ppca.sample(truth, 1000, seed=3)
n = X.shape[0]
fit = ppca.ppca_mle(X, 3)
eig_pca = pca(X).eigenvalues                      # 1/(n-1) covariance, all 10
eig_mle = eig_pca * (n - 1) / n                   # 1/n covariance
print("sigma2_MLE:", dr.rounded(fit.sigma2), "| mean of the 7 discarded 1/n eigenvalues:", dr.rounded(eig_mle[3:].mean()),
      "| true sigma2:", truth.sigma2)
print("distance between the fitted and the true subspace:", dr.rounded(subspace_distance(fit.W, truth.W)))
assert np.isclose(fit.sigma2, eig_mle[3:].mean())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The estimate is close to the true noise variance and the fitted 3-dimensional subspace is close to the true one
# (projector distance 0 means equal, 1 means some direction is orthogonal). With the $1/(n-1)$ eigenvalues the
# "estimate" would be larger by the factor $n/(n-1)$: harmless at $n=1000$, not at $n=10$.
#
# Now the derivation's claims, checked at the fitted parameters: the stationarity condition $S C^{-1} W = W$, the
# column lengths $\|w_j\|^2 = \lambda_j - \sigma^2$, and a consequence worth knowing, $\operatorname{tr}(C^{-1}S) = d$
# at the maximum (the $q$ kept directions contribute $1$ each, the $d-q$ others $\lambda_j/\sigma^2$, which
# average to $1$). It gives the maximum in closed form: $\ell_{\max} = -\frac n2[d\log 2\pi + \log|C| + d]$.

# %% slideshow={"slide_type": "fragment"}
S = np.cov(X, rowvar=False, ddof=0)
C_fit = fit.covariance()
print("S C^-1 W = W:               ", np.allclose(S @ np.linalg.solve(C_fit, fit.W), fit.W))
print("|w_j|^2:                    ", (fit.W**2).sum(axis=0))
print("lambda_j - sigma2:          ", eig_mle[:3] - fit.sigma2)
print("tr(C^-1 S):                 ", dr.rounded(np.trace(np.linalg.solve(C_fit, S))))
closed = -n / 2 * (10 * np.log(2 * np.pi) + np.linalg.slogdet(C_fit)[1] + 10)
print("log-likelihood, fit | formula:", dr.rounded(fit.log_likelihood), "|", dr.rounded(closed))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Which normaliser, and scikit-learn's.** Plugging the $1/(n-1)$ eigenvalues into eq. 25-26 instead gives a
# $\sigma^2$ and a $C$ that are $c = n/(n-1)$ times the maximum-likelihood ones. Using $\operatorname{tr}(C^{-1}S) = d$
# at the maximum, such a model falls short of it by exactly $\frac{nd}{2}(\log c + 1/c - 1)$, a small positive
# number. This is the convention of scikit-learn: `PCA(n_components=q).score(X)` is the average PPCA
# log-likelihood at the $1/(n-1)$ parameters (`tests/library/test_ppca.py` checks both statements against it).

# %% slideshow={"slide_type": "fragment"}
eig_q, V_q = eig_pca[:3], pca(X, 3).components
sigma2_unbiased = eig_pca[3:].mean()
W_unbiased = V_q * np.sqrt(eig_q - sigma2_unbiased)
c = n / (n - 1)
print("sigma2 with 1/(n-1) / sigma2_MLE:", dr.rounded(sigma2_unbiased / fit.sigma2), "| c =", dr.rounded(c))
print("its log-likelihood:", dr.rounded(ppca.log_likelihood(X, W_unbiased, fit.mean, sigma2_unbiased)),
      "| predicted:", dr.rounded(fit.log_likelihood - n * 10 / 2 * (np.log(c) + 1 / c - 1)))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. EM: the same maximum by iteration
#
# The notes name the two steps of EM and cite Tipping and Bishop's appendix B for the rest. Here it is, with
# $\hat\mu = \bar x$ fixed and $x_c = x - \bar x$.
#
# * **E-step.** By Bayes' rule for Gaussians the posterior of the latent variable is
#   $z\mid x \sim N\big(M^{-1}W^\top x_c,\; \sigma^2 M^{-1}\big)$, so
#   $\mathbb E[z_i] = M^{-1}W^\top x_{c,i}$ and $\mathbb E[z_iz_i^\top] = \sigma^2M^{-1} + \mathbb E[z_i]\mathbb E[z_i]^\top$.
# * **M-step.** Maximise the expected complete-data log-likelihood (eq. 27), a least-squares problem in $W$:
#   $W_{\text{new}} = \big[\sum_i x_{c,i}\mathbb E[z_i]^\top\big]\big[\sum_i \mathbb E[z_iz_i^\top]\big]^{-1}$, and
#   $\sigma^2_{\text{new}} = \frac{1}{nd}\sum_i\big(\|x_{c,i}\|^2 - 2\,\mathbb E[z_i]^\top W_{\text{new}}^\top x_{c,i}
#   + \operatorname{tr}(\mathbb E[z_iz_i^\top]W_{\text{new}}^\top W_{\text{new}})\big)$.
# * **Combined**, the sums collapse onto $S$:
#   $W_{\text{new}} = SW(\sigma^2 I + M^{-1}W^\top SW)^{-1}$ and
#   $\sigma^2_{\text{new}} = \frac1d\operatorname{tr}(S - SWM^{-1}W_{\text{new}}^\top)$.
#
# $SW = X_c^\top(X_cW)/n$ costs $O(ndq)$, which is why the notes call EM cheaper than an eigendecomposition. EM
# never decreases the likelihood; the library records it at every iteration.

# %% slideshow={"slide_type": "fragment"}
em = ppca.ppca_em(X, 3, seed=0, tol=1e-12)
print("converged:", em.converged, "| never decreases:", bool(np.all(np.diff(em.history) >= 0)))
print("log-likelihood, EM | closed form:", dr.rounded(em.log_likelihood), "|", dr.rounded(fit.log_likelihood))
print("sigma2, EM | closed form:", dr.rounded(em.sigma2), "|", dr.rounded(fit.sigma2))
print("subspace distance EM vs closed form:", dr.rounded(subspace_distance(em.W, fit.W)))
print("largest |W_EM - W_closed| (both in canonical rotation):", dr.rounded(np.abs(em.W - fit.W).max()))

# %% slideshow={"slide_type": "subslide"} tags=["nbval-ignore-output"]
print("EM updates:", em.n_iter)

# %% slideshow={"slide_type": "subslide"}
assert 10 < em.n_iter < 5000

# %% [markdown] slideshow={"slide_type": "subslide"}
# EM reaches the closed form: the same likelihood, noise variance, subspace and (after rotating to the canonical
# form) the same $W$. The picture shows how.

# %% alt="Two panels for EM on the 3-dimensional PPCA example. Left: the log-likelihood over 60 iterations rises monotonically to the dashed closed-form maximum. Right, on a log scale: the gap to the maximum shrinks by a constant factor per step, while the distance between the EM subspace and the closed-form one falls below one in a million within 5 iterations." slideshow={"slide_type": "fragment"}
steps = [1, 2, 3, 5, 7, 10, 15, 20]
distances = [subspace_distance(ppca.ppca_em(X, 3, seed=0, max_iter=t).W, fit.W) for t in steps]
gap = fit.log_likelihood - em.history

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
left.plot(em.history[:60], ".-")
left.axhline(fit.log_likelihood, color="C1", ls="--", label="closed-form maximum")
left.set_xlabel("EM iteration")
left.set_ylabel("log-likelihood")
left.set_title("log-likelihood rises monotonically")
left.legend()
right.semilogy(np.arange(gap.size - 1), gap[:-1], label="likelihood gap to the maximum")
right.semilogy(steps, distances, "o", label="subspace distance to the closed form")
right.set_xlabel("EM iteration")
right.set_ylabel("gap or distance (log scale)")
right.set_title("the subspace settles long before the scale")
right.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The big gains come in the first few iterations, and the subspace is right (distance below $10^{-6}$) after five
# and exact to rounding after ten. The remaining gap then shrinks by a constant factor per step: linear convergence, driven by the *lengths*
# of the columns of $W$. A short calculation beyond the notes (one column, direction already an eigenvector,
# $\sigma^2$ held fixed) gives the update $a \mapsto \lambda a(a^2+\sigma^2)/(\sigma^2(a^2+\sigma^2)+\lambda a^2)$ for
# the length $a$, whose slope at the fixed point $a^2 = \lambda - \sigma^2$ is
# $\rho = 1 - 2\sigma^2(\lambda-\sigma^2)/\lambda^2$. The likelihood gap is quadratic in the parameter error, so it
# should shrink by $\rho^2$ per step, with the slowest column setting the pace once the faster ones have settled.
# It does:

# %% slideshow={"slide_type": "fragment"}
lam = eig_mle[:3]
rho = 1 - 2 * fit.sigma2 * (lam - fit.sigma2) / lam**2
increments = np.diff(em.history)
print("predicted rate rho^2 per column:", dr.rounded(rho**2, 3))
print("measured ratio of successive increments at iterations 100 and 280:",
      dr.rounded(increments[100] / increments[99], 2), dr.rounded(increments[280] / increments[279], 2))

# %% [markdown] slideshow={"slide_type": "subslide"}
# When the noise is small compared with the kept eigenvalues, $\rho$ is close to 1 and EM needs many steps: the
# notes' "EM is more efficient" holds per iteration ($O(ndq)$ against $O(nd^2)$), not necessarily in total
# (see `tests/benchmarks/bench_ppca.py`: at $d=2000$, $n=5000$, $q=5$ the closed form wins). The optional section
# draws the iterations for a line in the plane.
#
# ## 6. $\sigma^2 \to 0$: back to PCA
#
# The notes end with "for $\sigma^2\to0$ we get standard PCA". In what sense? The maximum-likelihood $W$ spans the
# principal subspace for *every* $\sigma^2$; what changes is how a point is mapped to the subspace. The posterior
# mean gives the reconstruction $\hat x = \mu + W\,\mathbb E[z\mid x] = \mu + P_{\sigma^2}(x-\mu)$ with the linear map
# $P_{\sigma^2} = W M^{-1} W^\top$. Hold $\sigma^2$ fixed at smaller and smaller values (`ppca_mle(X, q, sigma2=...)`
# maximises over $W$ for that $\sigma^2$) and compare $P_{\sigma^2}$ with the orthogonal projector $V_qV_q^\top$ of PCA.

# %% slideshow={"slide_type": "fragment"}
V3 = pca(X, 3).components
pca_projector = projector(V3)
print(" sigma2  | subspace distance | ||P - V V'||_2 | sigma2 / lambda_3")
for s in [1.0, 0.1, 0.01, 0.001, 0.0001]:
    held = ppca.ppca_mle(X, 3, sigma2=s)
    P = held.W @ np.linalg.solve(held.W.T @ held.W + s * np.eye(3), held.W.T)
    print(f" {s:<7} | {dr.rounded(subspace_distance(held.W, V3)):<17} | "
          f"{dr.rounded(np.linalg.norm(P - pca_projector, 2)):<14} | {dr.rounded(s / lam[2])}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The fitted subspace is always the PCA subspace (distance 0), and the posterior-mean map converges to the PCA
# projector at the rate $\sigma^2/\lambda_q$. Also $W \to V_q\Lambda_q^{1/2}$: the loadings become the PCA
# loadings scaled by the standard deviations of the scores. In the limit, EM becomes the EM algorithm for PCA
# of Roweis (1998).
#
# ## 7. The posterior mean is a shrunk PCA projection
#
# At the maximum-likelihood estimate $W^\top W = \Lambda_q - \sigma^2 I$, so $M = \Lambda_q$ is diagonal and
#
# $$\mathbb E[z\mid x] = \Lambda_q^{-1}(\Lambda_q-\sigma^2 I)^{1/2}\,V_q^\top(x-\bar x),\qquad
#   W\,\mathbb E[z\mid x] = V_q\operatorname{diag}\Big(\frac{\lambda_j-\sigma^2}{\lambda_j}\Big)V_q^\top(x-\bar x).$$
#
# The latent coordinates are the PCA scores, rescaled; the reconstruction is the PCA projection pulled towards the
# mean by the factor $(\lambda_j-\sigma^2)/\lambda_j < 1$: where a component's variance is mostly noise, the model
# trusts it less.

# %% slideshow={"slide_type": "fragment"}
scores = pca(X, 3).scores                        # (X - mean) @ V_3
factors = np.sqrt(lam - fit.sigma2) / lam
print("E[z|x] = factors * PCA scores:", np.allclose(ppca.posterior_mean(fit, X), scores * factors))
print("reconstruction shrinkage (lambda_j - sigma2)/lambda_j:", (lam - fit.sigma2) / lam)

# %% [markdown] slideshow={"slide_type": "subslide"}
# In two dimensions the effect is visible. We take a noisier toy model than in section 1 ($W=(1, 0.5)$,
# $\sigma^2 = 0.5$), so that the factor is far from 1. The PCA projections (vermillion) are where the perpendiculars from
# the data meet the fitted line; the PPCA reconstructions (green) are the same points moved along the line towards
# the mean (grey segments) by the factor $(\lambda_1-\sigma^2)/\lambda_1$.

# %% alt="Noisy points in the plane with two reconstructions each: the PCA projections lie on the fitted line where perpendiculars from the data meet it, and the PPCA posterior-mean reconstructions lie on the same line moved towards the mean, joined by grey segments; the title gives the shrinkage factor (lambda - sigma2) / lambda." slideshow={"slide_type": "fragment"}
noisy = ppca.PPCAModel(W=np.array([[1.0], [0.5]]), mean=np.array([1.0, -1.0]), sigma2=0.5)
X_noisy = ppca.sample(noisy, 150, seed=5)
noisy_fit = ppca.ppca_mle(X_noisy, 1)
v = pca(X_noisy, 1).components
pca_points = noisy_fit.mean + (X_noisy - noisy_fit.mean) @ v @ v.T
ppca_points = noisy_fit.mean + ppca.posterior_mean(noisy_fit, X_noisy) @ noisy_fit.W.T
noisy_lam = (noisy_fit.W**2).sum() + noisy_fit.sigma2

fig, ax = plt.subplots(figsize=(7, 4.5))
ax.scatter(X_noisy[:, 0], X_noisy[:, 1], s=10, color="C0", alpha=0.4, label="data")
for a, b in zip(pca_points, ppca_points):
    ax.plot([a[0], b[0]], [a[1], b[1]], color="grey", lw=0.6)
ax.scatter(pca_points[:, 0], pca_points[:, 1], s=12, color="C1", label="PCA projection")
ax.scatter(ppca_points[:, 0], ppca_points[:, 1], s=12, color="C2", label="PPCA posterior-mean reconstruction")
ax.set_aspect("equal")
ax.set(xlabel="x1", ylabel="x2")
ax.set_title(f"shrinkage factor (lambda - sigma2) / lambda = {dr.rounded(1 - noisy_fit.sigma2 / noisy_lam)}")
ax.legend(loc="upper left")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Summary.** PPCA is PCA with a likelihood: the maximum-likelihood subspace is the principal subspace, the noise
# variance is the average discarded eigenvalue (of the $1/n$ covariance), EM reaches the same answer by cheap but
# possibly many steps, and the posterior mean is the PCA projection shrunk towards the mean, with no shrinkage in
# the limit $\sigma^2\to0$. The likelihood is the new tool: it compares models, picks $q$ on held-out data and
# generates new samples (the optional section uses it to choose $q$).
#
# **Relatives.** The WashU notes (§7) name three. *Factor analysis* keeps the model but lets each variable have its
# own noise variance ($\Psi$ diagonal instead of $\sigma^2 I$); there is no closed form, and EM fits it. *Independent
# component analysis* replaces the Gaussian latent variable by independent non-Gaussian ones, which removes the
# rotation freedom of section 3 (a standard Gaussian looks the same in every rotation; a non-Gaussian one does not).
# The *Gaussian process latent variable model* (GPLVM; Lawrence, 2005) integrates out $W$ instead of $z$ and
# optimises the latent points; with a linear kernel its maximum is again PCA, with a nonlinear kernel it gives a
# nonlinear map from latent to data space, the generative counterpart of kernel PCA (notebook 08), which maps the
# other way.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional)
#
# About 25 minutes: EM drawn step by step for a line in the plane, then the likelihood as a tool for choosing $q$.
#
# ### EM in pictures: a poor line finds PC1
#
# In two dimensions with $q = 1$ every step of EM can be drawn. Bishop's PRML (Figure 12.12) draws it in the limit
# $\sigma^2\to0$, Roweis's EM for PCA, where the steps read most simply. The model's line through the mean has
# direction $W$ ($2\times1$).
#
# * **E-step**: each centred point $x_{c,i}$ gets its latent position $z_i = W^\top x_{c,i}/W^\top W$, so that
#   $Wz_i$ is the foot of its perpendicular on the line (an orthogonal projection).
# * **M-step**: the positions are held fixed and the line is refitted by least squares,
#   $W_{\text{new}} = \sum_i x_{c,i} z_i / \sum_i z_i^2$: each point pulls the line towards itself, like a spring
#   attached at its foot.
#
# PPCA's E-step (section 5) gives the same feet pulled towards the mean by the factor $W^\top W/(W^\top W + \sigma^2)$;
# its M-step moves the line to the same new direction, as we check below. We start `ppca_em` from a deliberately
# poor line, $85°$ away from PC1 (its `start` argument), on centred data from a model with one clear direction, and
# record the angle to PC1 after each update.

# %% slideshow={"slide_type": "fragment"}
plane_model = ppca.PPCAModel(W=np.array([[1.5], [1.0]]), mean=np.zeros(2), sigma2=0.6)
X_plane = ppca.sample(plane_model, 120, seed=6)
X_plane = X_plane - X_plane.mean(axis=0)
plane_pca = pca(X_plane, 2)
pc1, pc2 = plane_pca.components.T
lam_plane = plane_pca.eigenvalues * (len(X_plane) - 1) / len(X_plane)   # 1/n eigenvalues
poor_angle = np.deg2rad(85.0)
rotate = np.array([[np.cos(poor_angle), -np.sin(poor_angle)], [np.sin(poor_angle), np.cos(poor_angle)]])
W_start = (rotate @ pc1)[:, None]


def em_state(t):
    """(W, sigma2) after t EM updates of ppca_em from W_start (t = 0: the start, sigma2 = tr(S) / d)."""
    if t == 0:
        return W_start, lam_plane.sum() / 2
    state = ppca.ppca_em(X_plane, 1, max_iter=t, start=W_start)
    assert state.n_iter == t
    return state.W, state.sigma2


def angle_to_pc1(W):
    """Angle in degrees between the line spanned by W and PC1 (0 to 90), accurate also when tiny."""
    return np.degrees(np.arctan2(abs(W[:, 0] @ pc2), abs(W[:, 0] @ pc1)))


iterations = np.arange(11)
angles = np.array([angle_to_pc1(em_state(t)[0]) for t in iterations])
print("lambda_2 / lambda_1:", dr.rounded(lam_plane[1] / lam_plane[0]))
for t in iterations:
    print(f"after {t:2d} updates: angle to PC1 = {angles[t]:.4g} degrees")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The angle drops from $85°$ to under $2°$ in three updates and keeps falling by a constant factor. The factor is no
# accident. With $q = 1$, $M$ and $\sigma^2 I + M^{-1}W^\top SW$ are numbers, so the update
# $W_{\text{new}} = SW(\sigma^2 I + M^{-1}W^\top SW)^{-1}$ points along $SW$: **the direction of the line follows
# power iteration** (notebook 02), whatever $\sigma^2$ is. Writing $W = c_1v_1 + c_2v_2$ in the eigenvectors of $S$,
# $SW = \lambda_1c_1v_1 + \lambda_2c_2v_2$, so the tangent of the angle to PC1 is multiplied by exactly
# $\lambda_2/\lambda_1$ at every step. Roweis's M-step points along $\sum_i x_{c,i}x_{c,i}^\top W = nSW$ too, so
# both versions draw the same lines:

# %% slideshow={"slide_type": "fragment"}
ratios = np.tan(np.deg2rad(angles[1:])) / np.tan(np.deg2rad(angles[:-1]))
print("tan(angle after t + 1) / tan(angle after t), t = 0..9:", dr.rounded(ratios, 6))
assert np.allclose(ratios, lam_plane[1] / lam_plane[0], rtol=1e-6)
assert np.all(np.diff(angles) < 0)


def roweis_step(W):
    """One EM step for PCA in the limit sigma2 -> 0: feet of the perpendiculars, then least squares."""
    z = X_plane @ W / (W.T @ W)                  # E-step: latent positions, shape (n, 1)
    return X_plane.T @ z / (z.T @ z), z          # M-step: the new line, and the positions


gaps = [subspace_distance(roweis_step(em_state(t)[0])[0], em_state(t + 1)[0]) for t in range(6)]
print("largest distance between the sigma2 -> 0 line and ppca_em's next line:", dr.rounded(max(gaps), 12))
length2 = np.array([(em_state(t)[0] ** 2).sum() for t in range(4)])
sigma2_early = np.array([em_state(t)[1] for t in range(4)])
print("after 0-3 updates: W'W =", dr.rounded(length2, 3), "| sigma2 =", dr.rounded(sigma2_early, 3))
print("PPCA's pull of the feet towards the mean, W'W / (W'W + sigma2):", dr.rounded(length2 / (length2 + sigma2_early), 3))
converged = ppca.ppca_em(X_plane, 1, start=W_start, tol=1e-14)
print("at convergence:", converged.n_iter, "updates, angle to PC1 =", dr.rounded(angle_to_pc1(converged.W), 10),
      "degrees; sigma2 =", dr.rounded(converged.sigma2), "= lambda_2 =", dr.rounded(lam_plane[1]))
assert max(gaps) < 1e-12
assert converged.converged and angle_to_pc1(converged.W) < 1e-6

# %% [markdown] slideshow={"slide_type": "subslide"}
# The lines agree to rounding. PPCA's own E-step positions are bunched near the mean early on (the factor is 0.31
# at the start and about 0.03 after one and two updates: from this start EM first shrinks $W$ and only then grows
# it, the scale settling after the direction, as in section 5), so the picture draws the $\sigma^2\to0$ positions. In each of the first three panels: the current
# line (solid), the E-step feet on it (vermillion, each joined to its point), and the line the M-step moves to (dashed),
# which is the next panel's current line. The last panel lays the converged line over PC1.

# %% alt="Four panels of EM for a line through centred points in the plane, as the noise goes to zero. The first three show the current line, the E-step positions on it joined to their points, and the dashed line the M-step moves to: from nearly perpendicular to the cloud, the line swings 27 degrees in the first update and lies along the cloud's long axis after three. The last panel lays the converged line over PC1." slideshow={"slide_type": "fragment"}
fig, axes = plt.subplots(1, 4, figsize=(14, 4.8), sharex=True, sharey=True)
reach = 1.1 * np.abs(X_plane).max()
ends = np.array([-reach, reach])
for t, ax in enumerate(axes[:3]):
    W_t = em_state(t)[0]
    W_next, z = roweis_step(W_t)
    feet = z @ W_t.T
    for x, y in zip(X_plane, feet):
        ax.plot([x[0], y[0]], [x[1], y[1]], color="grey", lw=0.4, zorder=1)
    u, u_next = W_t[:, 0] / np.linalg.norm(W_t), W_next[:, 0] / np.linalg.norm(W_next)
    ax.plot(ends * u[0], ends * u[1], color="k", lw=1.2, zorder=2, label="current line W")
    ax.plot(ends * u_next[0], ends * u_next[1], color="C3", lw=1.8, ls="--", zorder=2, label="M-step: new line")
    ax.scatter(X_plane[:, 0], X_plane[:, 1], s=9, color="C0", zorder=3, label="data (centred)")
    ax.scatter(feet[:, 0], feet[:, 1], s=9, color="C1", zorder=4, label="E-step: positions W z on the line")
    ax.set_title(f"update {t + 1}: from {dr.rounded(angles[t], 1)}° to {dr.rounded(angles[t + 1], 1)}°")
last = axes[3]
last.scatter(X_plane[:, 0], X_plane[:, 1], s=9, color="C0")
u = converged.W[:, 0] / np.linalg.norm(converged.W)
last.plot(ends * pc1[0], ends * pc1[1], color="C2", lw=5, alpha=0.5, label="PC1")
last.plot(ends * u[0], ends * u[1], color="k", lw=1.2, label=f"after {converged.n_iter} updates")
last.set_title("converged: the line is PC1")
last.legend(loc="lower right", fontsize=8)
for ax in axes:
    ax.set_aspect("equal")
    ax.set(xlim=(-reach, reach), ylim=(-reach, reach), xlabel="x1 (centred)")
axes[0].set_ylabel("x2 (centred)")
handles, texts = axes[0].get_legend_handles_labels()
fig.legend(handles, texts, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=4, frameon=False)
fig.suptitle("EM for a line in the plane (angles to PC1), from a start 85° off")
fig.tight_layout(rect=(0, 0.08, 1, 0.96))
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# In the first panel the line is nearly perpendicular to the cloud: the feet crowd near the centre, but the points
# sit far off the line on either side in a tilted pattern, and the least-squares refit already swings the line by
# $27°$. Two more updates and the dashed line lies along the cloud's long axis. At convergence $\sigma^2 = \lambda_2$,
# as eq. 25 says for $d - q = 1$. With $q > 1$ the columns of $W$ mix within the subspace and EM behaves like the
# block (subspace) version of power iteration; the subspace, not each column, converges at the rate set by
# $\lambda_{q+1}/\lambda_q$.
#
# ### Choosing $q$ by held-out log-likelihood
#
# A likelihood gives a principled way to choose $q$: fit on training points, evaluate the log-likelihood of points
# the fit has not seen. The training likelihood always rises with $q$ (the models are nested); the held-out one
# rises while the extra dimension captures structure and falls once it only fits noise. We draw new test points
# from the same true model ($q=3$).

# %% alt="Log-likelihood per point against the latent dimension q from 1 to 9, on the training data and on held-out data from the same model: the held-out curve jumps up to q = 3, the true dimension, and then flattens and dips slightly, while the training curve keeps creeping up." slideshow={"slide_type": "fragment"}
X_test = ppca.sample(truth, 1000, seed=4)
qs = np.arange(1, 10)
train_ll, test_ll = [], []
for k in qs:
    fitted = ppca.ppca_mle(X, int(k))
    train_ll.append(fitted.log_likelihood / n)
    test_ll.append(ppca.log_likelihood(X_test, fitted.W, fitted.mean, fitted.sigma2) / len(X_test))
print("held-out log-likelihood per point:", dr.rounded(np.array(test_ll)))
print("best q:", int(qs[np.argmax(test_ll)]))

fig, ax = plt.subplots()
ax.plot(qs, train_ll, "o-", label="training")
ax.plot(qs, test_ll, "s-", label="held out")
ax.set_xlabel("latent dimension q")
ax.set_ylabel("log-likelihood per point")
ax.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The held-out curve jumps up to $q=3$ and then flattens and dips slightly; the true dimension wins. Beyond it the
# training curve keeps creeping up (extra parameters always help on the data they were fitted to).
#
# ### PPCA on the crabs
#
# The five body measurements (mm) of the 200 Leptograpsus crabs (notebooks 01 and 03). Their covariance has one
# huge eigenvalue (overall size) and four small ones. Which $q$ does the likelihood prefer? With only 200 crabs we
# use 5-fold cross-validation: each crab is held out once.

# %% slideshow={"slide_type": "fragment"}
crabs = load_crabs()
Xc = crabs[["FL", "RW", "CL", "CW", "BD"]].to_numpy()
print("eigenvalues of the 1/n covariance:", pca(Xc).eigenvalues * (len(Xc) - 1) / len(Xc))
folds = np.array_split(np.random.default_rng(0).permutation(len(Xc)), 5)
for k in range(1, 5):
    total = 0.0
    for fold in folds:
        train = np.setdiff1d(np.arange(len(Xc)), fold)
        fitted = ppca.ppca_mle(Xc[train], k)
        total += ppca.log_likelihood(Xc[fold], fitted.W, fitted.mean, fitted.sigma2)
    print(f"q = {k}: held-out log-likelihood per crab {dr.rounded(total / len(Xc))}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The big step is from $q=2$ to $q=3$; $q=3$ and $q=4$ are nearly tied. PPCA assumes the discarded eigenvalues are
# equal (isotropic noise); the crabs' small eigenvalues are not, so the likelihood keeps asking for more
# dimensions. This is a lesson about the model, not a failure of the method: PPCA's $\sigma^2 I$ is a strong
# assumption, and factor analysis (a diagonal noise covariance) relaxes it.
#
# With $q=2$ the latent posterior means are a shrunk, rescaled version of the first two PCA scores of the raw
# measurements: the first coordinate is overall size; the second puts the females above the males within each
# species, and also the orange crabs above the blue ones within each sex. Like the raw PC2 of notebook 03 (section 7),
# it is a mixture of the sex and species contrasts, not the sex axis.

# %% alt="Posterior means of the two latent variables of a q = 2 PPCA of the crabs, coloured by species and sex: the first coordinate is overall size; the second puts the females above the males within each species and the orange crabs above the blue ones within each sex, a mixture of the two contrasts." slideshow={"slide_type": "fragment"}
crab_fit = ppca.ppca_mle(Xc, 2)
print("sigma2:", dr.rounded(crab_fit.sigma2), "| column lengths^2 of W:", (crab_fit.W**2).sum(axis=0))
groups = (crabs["species"].map({"B": "blue", "O": "orange"}).astype(str) + " "
          + crabs["sex"].map({"F": "female", "M": "male"}).astype(str))
score_scatter(ppca.posterior_mean(crab_fit, Xc), groups=groups.to_numpy(), labels=("E[z1 | x]", "E[z2 | x]"),
              title="crabs: PPCA posterior means, q = 2")
plt.show()
second = pd.Series(ppca.posterior_mean(crab_fit, Xc)[:, 1]).groupby(groups.to_numpy()).mean()
print("group means of E[z2 | x]:", second.map(dr.rounded).to_dict())
assert second["blue female"] > second["blue male"] and second["orange female"] > second["orange male"]
assert second["orange female"] > second["blue female"] and second["orange male"] > second["blue male"]
