# %% [markdown] slideshow={"slide_type": "slide"}
# # 13 · Relatives of PPCA: factor analysis, ICA and the GPLVM
#
# **Change one assumption of probabilistic PCA and you get a different model: a noise variance per variable
# (factor analysis), non-Gaussian sources (ICA), or latent points with a Gaussian-process map (the GPLVM).**
#
# *Time: about 60 minutes.* *Prerequisites: notebook 07 (PPCA, its likelihood and EM) and notebook 08
# (whitening, kernels).*
#
# **Learning objectives.** After this notebook you can
# 1. write factor analysis as PPCA with a diagonal noise covariance, fit it by EM, and check that its isotropic
#    case is PPCA;
# 2. explain the rotation problem (the likelihood cannot tell $W$ from $WR$) and why factor analysis, unlike PPCA,
#    does not care about the units of each variable;
# 3. explain why whitening cannot unmix a cocktail party, and unmix one with FastICA's fixed point;
# 4. state why ICA needs non-Gaussian sources;
# 5. write the GPLVM as the dual of PPCA, check that with a linear kernel its latent points are PCA's scores up to
#    rotation and scale, and fit a non-linear one that unrolls a curve on which PCA's coordinate folds back;
# 6. place VAEs and GANs in the same family of generative models.
#
# **Notes followed.** WashU A2 notes "USL - Dimensionality Reduction": §2, Table 1 (probabilistic and
# heuristic methods, GPLVM beside PPCA), §6.3 (autoencoders that generate data: VAEs and GANs) and the closing notes
# of §7 (factor analysis, ICA and the GPLVM as relatives of PPCA; GPLVM's marginal likelihood
# $N(\mathbf x\mid 0, X^\top X+\sigma^2 I)$). The notes only name these models; the derivations here follow the
# references below and say so.
#
# **Conventions.** Rows are points ($X$ is $n\times d$); likelihoods use the $1/n$ covariance $S$, as in notebook 07.
# Loadings $W$ ($d\times q$), latent $z\in\mathbb R^q$. Section 6 switches to the GPLVM's own letters (Lawrence
# 2005): there $Y$ is the data and $X$ holds the latent points, and the section says so again.
#
# **References.** D. B. Rubin and D. T. Thayer, "EM algorithms for ML factor analysis", *Psychometrika* 47 (1982);
# C. M. Bishop, *Pattern Recognition and Machine Learning* (2006), §12.2.4 and §12.4.1; A. Hyvärinen and E. Oja,
# "Independent component analysis: algorithms and applications", *Neural Networks* 13 (2000); N. Lawrence,
# "Probabilistic non-linear principal component analysis with Gaussian process latent variable models", *JMLR* 6
# (2005); M. Titsias and N. Lawrence, "Bayesian Gaussian process latent variable model", *AISTATS* (2010).

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np
import matplotlib.pyplot as plt
from scipy.stats import spearmanr

import dimred_teach as dr
from dimred_teach.datasets import load_cocktail_party
from dimred_teach.factor_analysis import fa_em, log_likelihood as fa_log_likelihood
from dimred_teach.gplvm import fit_gplvm, gplvm_linear
from dimred_teach.ica import fastica, negentropy
from dimred_teach.kernel import whiten
from dimred_teach.linalg import subspace_distance
from dimred_teach.pca import pca
from dimred_teach.ppca import ppca_mle

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. One model, three changes
#
# PPCA (notebook 07) says: draw a Gaussian latent $z\sim N(0,I_q)$, map it linearly, add Gaussian noise of the same
# variance in every direction. Each relative changes one of those choices:
#
# | model | latent $z$ | map $z\mapsto x$ | noise | what is optimised |
# | --- | --- | --- | --- | --- |
# | PPCA | Gaussian | linear, $W$ | $\sigma^2 I$ | $W,\sigma^2$ (closed form) |
# | factor analysis | Gaussian | linear, $W$ | $\Psi=\mathrm{diag}(\psi_1,\dots,\psi_d)$ | $W,\Psi$ (EM) |
# | ICA | **non-Gaussian**, independent | linear, square $A$ | none | the unmixing rotation |
# | GPLVM | one point per row, optimised | a Gaussian process | $\sigma^2 I$ | the latent points |
#
# The WashU notes put PPCA and the GPLVM in the probabilistic row of their Table 1 (next to PCA and kernel PCA in
# the heuristic row) and list factor analysis and ICA as relatives at the end of §7. This notebook takes them in
# that order.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Factor analysis: PPCA with a noise variance per variable
#
# Factor analysis keeps PPCA's latent variable and linear map but gives each variable its own noise variance
# $\psi_j$ (its *uniqueness*: the part of variable $j$ the factors do not explain):
#
# $$z\sim N(0,I_q),\qquad x\mid z\sim N(Wz+\mu,\ \Psi),\qquad x\sim N(\mu,\ WW^\top+\Psi).$$
#
# There is no closed form any more: the eigenvectors of $S$ solved PPCA because $\sigma^2 I$ commutes with every
# rotation, and $\Psi$ does not. EM still works: an E step like PPCA's (the Gaussian posterior of $z$ given $x$, with $\Psi$ in place of
# $\sigma^2 I$) and an M step that updates $W$ and then each $\psi_j$ as the variance of variable $j$ that $W$ leaves
# unexplained (Rubin and Thayer 1982; Bishop §12.2.4). We simulate six variables from two factors with very
# different noise levels: the first factor loads mainly on $x_1$-$x_3$, the second on $x_4$-$x_6$.

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(13)
W_true = np.array([[1.5, 0.0], [1.2, 0.3], [1.0, 0.5], [0.3, 1.0], [0.0, 1.2], [0.4, 1.5]])
psi_true = np.array([0.05, 0.1, 0.2, 0.5, 1.0, 2.0])
X = rng.standard_normal((800, 2)) @ W_true.T + rng.standard_normal((800, 6)) * np.sqrt(psi_true)

fa = fa_em(X, 2)
pp = ppca_mle(X, 2)
print(f"EM converged: {fa.converged}, in {'fewer' if fa.n_iter < 1000 else 'more'} than 1000 updates")
print("true psi:     ", dr.rounded(psi_true, 2).tolist())
print("fitted psi:   ", dr.rounded(fa.psi, 2).tolist())
print("PPCA sigma2:  ", dr.rounded(pp.sigma2, 2))
print(f"log-likelihood: factor analysis {fa.log_likelihood:.1f}, PPCA {pp.log_likelihood:.1f}")
assert fa.converged and np.all(np.diff(fa.history) >= -1e-9 * abs(fa.history[-1]))  # EM never goes down
assert np.abs(fa.psi - psi_true).max() < 0.3
assert fa.log_likelihood > pp.log_likelihood + 100

# %% [markdown] slideshow={"slide_type": "subslide"}
# Factor analysis finds the six noise levels (up to sampling error); PPCA can only report their compromise
# $\sigma^2$, and its likelihood is far lower. The figure compares the two fits with the truth.
#
# One failure is worth knowing by name, a *Heywood case*: the likelihood is largest where a variable is explained
# entirely by the factors, at $\psi_j=0$ on the edge of the allowed values (an unconstrained solution would even
# make $\psi_j$ negative). EM then drives that $\psi_j$ towards 0, where $\Psi^{-1}$ blows up. The library stops
# every $\psi_j$ at a floor ($10^{-9}$ times the variable's variance); a fitted $\psi_j$ at that floor signals a
# Heywood case, more often too many factors or too few points than a variable measured without noise.

# %% alt="Bar chart of the noise variance of six simulated variables: the true values rise from 0.05 to 2; the factor-analysis estimates follow them closely; the PPCA estimate is one horizontal line at about 0.57 for every variable." slideshow={"slide_type": "fragment"}
fig, ax = plt.subplots(figsize=(7, 3.5))
positions = np.arange(6)
ax.bar(positions - 0.2, psi_true, width=0.4, color="C0", label="true psi")
ax.bar(positions + 0.2, fa.psi, width=0.4, color="C1", label="factor analysis psi")
ax.axhline(pp.sigma2, color="C2", lw=2, label="PPCA sigma2 (one value)")
ax.set_xticks(positions, [f"x{j + 1}" for j in positions])
ax.set_ylabel("noise variance")
ax.set_title("Factor analysis fits one noise variance per variable")
ax.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# **PPCA is the isotropic case.** Constrain $\Psi=\sigma^2 I$ inside the same EM (the M step then averages the
# $\psi_j$) and it climbs, from a random start, to PPCA's closed form of notebook 07.

# %% slideshow={"slide_type": "fragment"}
iso = fa_em(X, 2, seed=0, isotropic=True)
print(f"isotropic EM: log-likelihood {iso.log_likelihood:.6f}, sigma2 {iso.psi[0]:.6f}")
print(f"PPCA closed:  log-likelihood {pp.log_likelihood:.6f}, sigma2 {pp.sigma2:.6f}")
print(f"largest |W difference| below 1e-3: {np.abs(iso.W - pp.W).max() < 1e-3}")
assert abs(iso.log_likelihood - pp.log_likelihood) < 1e-6 * abs(pp.log_likelihood)
assert np.abs(iso.W - pp.W).max() < 1e-3

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. The rotation problem, and units
#
# The likelihood depends on $W$ only through $WW^\top$, and $(WR)(WR)^\top=WW^\top$ for every orthogonal $R$: a
# rotated set of loadings fits exactly as well. In factor analysis this is the famous *rotation problem*: the data
# cannot say which basis of the factor space is "the" factors, so practitioners choose one by a further criterion
# (varimax, for instance, prefers loadings with many entries near zero). The library returns one canonical choice,
# the basis in which $W^\top\Psi^{-1}W$ is diagonal.

# %% slideshow={"slide_type": "fragment"}
angle = 0.6
R = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
rotated = fa_log_likelihood(X, fa.W @ R, fa.mean, fa.psi)
print(f"log-likelihood with W: {fa.log_likelihood:.6f}; with W R: {rotated:.6f}")
print("W'Psi^-1 W =", dr.rounded(fa.W.T @ (fa.W / fa.psi[:, None]), 3).tolist())
assert np.isclose(rotated, fa.log_likelihood, rtol=1e-12)

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Units.** Measure variable 4 in other units (multiply it by 10). Factor analysis simply rescales row 4 of $W$
# and $\psi_4$: its model of the other variables does not move. PPCA, like PCA, is not equivariant: a variable with
# a large variance pulls the principal subspace towards itself, and the fitted covariance of the *other* five
# variables changes. We measure that change, relative to its size.

# %% slideshow={"slide_type": "fragment"}
units = np.array([1.0, 1, 1, 10, 1, 1])
others = np.arange(6) != 3


def change_of_the_others(before, after):
    """Relative change of the fitted covariance of the five variables whose units stayed."""
    block = np.ix_(others, others)
    return np.linalg.norm(after.covariance()[block] - before.covariance()[block]) / np.linalg.norm(
        before.covariance()[block])


fa_scaled, pp_scaled = fa_em(X * units, 2), ppca_mle(X * units, 2)
print(f"factor analysis: psi_4 {fa.psi[3]:.4f} -> {fa_scaled.psi[3]:.4f} (x {fa_scaled.psi[3] / fa.psi[3]:.2f})")
print(f"relative change of the other variables' fitted covariance: factor analysis "
      f"{'below 1e-4' if change_of_the_others(fa, fa_scaled) < 1e-4 else 'above 1e-4'}, "
      f"PPCA {change_of_the_others(pp, pp_scaled):.2f}")
assert np.isclose(fa_scaled.psi[3] / fa.psi[3], 100, rtol=1e-3)
assert change_of_the_others(fa, fa_scaled) < 1e-4 and change_of_the_others(pp, pp_scaled) > 0.2

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. A cocktail party: why PCA cannot unmix
#
# Three sounds play at once (a voice, a melody and a mains hum) and three microphones each record a different
# mixture, $x = A s$. The sounds shipped with the course are **synthesised** from stated formulas
# (`data/README.md`), not recorded; what matters here is that they are independent and not Gaussian.

# %% slideshow={"slide_type": "fragment"}
sounds = load_cocktail_party()
S = sounds[["voice", "music", "hum"]].to_numpy()
A = np.array([[1.0, 0.6, 0.4], [0.5, 1.0, 0.7], [0.3, 0.8, 1.0]])
mixtures = S @ A.T
names = ["voice", "music", "hum"]


def best_match(estimates):
    """For each source, the largest |correlation| with any column of ``estimates``."""
    C = np.abs(np.corrcoef(S.T, estimates.T)[:3, 3:])
    return C.max(axis=1)


print("sources' correlations:", dr.rounded(np.corrcoef(S, rowvar=False)[np.triu_indices(3, 1)], 3).tolist())
print("best |correlation| of each source with a microphone:", dr.rounded(best_match(mixtures), 3).tolist())
assert np.abs(np.corrcoef(S, rowvar=False) - np.eye(3)).max() < 0.02
assert best_match(mixtures).max() < 0.95

# %% [markdown] slideshow={"slide_type": "subslide"}
# Whitening (notebook 08) decorrelates the microphones and scales them to variance 1. It is tempting to think that
# uncorrelated means unmixed; it does not. If $z$ is white, so is $Qz$ for every rotation $Q$: whitening fixes the
# sources only up to a rotation, and PCA picks its rotation by variance, which has nothing to do with independence.

# %% slideshow={"slide_type": "fragment"}
white = whiten(mixtures)
print("covariance of the whitened data:", dr.rounded(np.cov(white.whitened, rowvar=False), 6).tolist())
print("best |correlation| of each source with a whitened component:",
      dr.rounded(best_match(white.whitened), 3).tolist())
assert np.allclose(np.cov(white.whitened, rowvar=False), np.eye(3), atol=1e-10)
assert best_match(white.whitened).min() < 0.9

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. ICA: the rotation that makes the components least Gaussian
#
# The central limit theorem says that a sum of independent variables is closer to Gaussian than its parts. So
# among all rotations of the whitened data, the one whose components are *least* Gaussian should undo the mixing.
# FastICA measures non-Gaussianity by an approximation of *negentropy* (Hyvärinen and Oja 2000, eq. 25), which is
# proportional to $\big(\mathbb E\,G(y)-\mathbb E\,G(\nu)\big)^2$ for a $y$ of mean 0 and variance 1, with
# $G(y)=\log\cosh y$ and $\nu\sim N(0,1)$: zero for a Gaussian and positive for the non-Gaussian signals met here.
# The library's `negentropy` returns the squared difference itself. First a picture in two dimensions: rotate
# whitened mixtures of two sounds by an angle and measure the total negentropy; do the same for two Gaussian sources.

# %% alt="Line plot of total negentropy against the rotation angle of two whitened signals, from 0 to 90 degrees. For two mixed sounds the curve swings from about 0.002 to about 0.02 with a clear peak; for two mixed Gaussian signals it stays flat near zero at every angle." slideshow={"slide_type": "fragment"}
pair = whiten(S[:, [0, 2]] @ np.array([[1.0, 0.6], [0.4, 1.0]]).T).whitened
gauss = whiten(np.random.default_rng(0).standard_normal((len(S), 2)) @ np.array([[1.0, 0.6], [0.4, 1.0]]).T).whitened
angles = np.linspace(0.0, np.pi / 2, 91)


def total_negentropy(Z, theta):
    rotation = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    return negentropy(Z @ rotation).sum()


curve_sounds = np.array([total_negentropy(pair, a) for a in angles])
curve_gauss = np.array([total_negentropy(gauss, a) for a in angles])
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(np.degrees(angles), curve_sounds, color="C0", label="two mixed sounds")
ax.plot(np.degrees(angles), curve_gauss, color="C3", label="two mixed Gaussians")
ax.set_xlabel("rotation angle of the whitened data (degrees)")
ax.set_ylabel("total negentropy")
ax.set_title("Only non-Gaussian sources single out a rotation")
ax.legend()
plt.show()
print(f"sounds: negentropy from {curve_sounds.min():.4f} to {curve_sounds.max():.4f}; "
      f"Gaussians: at most {curve_gauss.max():.5f}")
assert curve_sounds.max() > 5 * curve_sounds.min() and curve_gauss.max() < 0.05 * curve_sounds.max()

# %% [markdown] slideshow={"slide_type": "subslide"}
# For Gaussian sources every rotation is equally (non-)Gaussian: a white Gaussian vector has the same distribution
# after any rotation, so the data cannot reveal the mixing, and ICA is impossible. That is why ICA needs
# non-Gaussian sources (at most one Gaussian among them), and why PPCA and factor analysis, whose latents are
# Gaussian, have their rotation problem.
#
# **FastICA's fixed point.** With whitened data $Z$ and an orthogonal $W$ (rows $w_j$), repeat
# $w_j \leftarrow \mathbb E[z\,g(w_j^\top z)] - \mathbb E[g'(w_j^\top z)]\,w_j$ with $g=\tanh$ for all rows at
# once, then make the rows orthonormal again, $W\leftarrow (WW^\top)^{-1/2}W$ (the *symmetric* variant). This is an
# approximate Newton step for the negentropy criterion and usually converges in a handful of iterations.

# %% slideshow={"slide_type": "fragment"}
ica = fastica(mixtures, seed=0)
print(f"FastICA: {ica.n_iter} iterations, converged: {ica.converged}")
print("best |correlation| of each source with an ICA component:", dr.rounded(best_match(ica.sources), 4))
assert ica.converged and best_match(ica.sources).min() > 0.999

# %% [markdown] slideshow={"slide_type": "subslide"}
# The sources come back up to order, sign and scale, which no method can recover: $As = (APD)(D^{-1}P^\top s)$ for
# any permutation matrix $P$ and invertible diagonal $D$ (signs and scales). The library fixes them by convention: unit variance, decreasing negentropy, and the
# largest entry of each column of the mixing matrix positive. The figure shows 50 ms of each stage.

# %% alt="A grid of three rows and four columns of short waveforms, 50 milliseconds each. Column one: the voice (bursts of a vowel-like wave), the melody (a smooth sine) and the hum (a sawtooth). Column two: the three microphone signals, each a blend of all three. Column three: the whitened signals, still blends. Column four: the ICA components, which look like the voice, the melody and the sawtooth again, possibly flipped or in another order." slideshow={"slide_type": "fragment"}
window = slice(1600, 2000)
time_ms = 1000 * sounds["time"].to_numpy()[window]
order = np.argmax(np.abs(np.corrcoef(S.T, ica.sources.T)[:3, 3:]), axis=1)  # the ICA column matching each source
columns = [("sources", S), ("microphones", mixtures), ("whitened (PCA)", white.whitened),
           ("ICA", ica.sources[:, order])]
fig, axes = plt.subplots(3, 4, figsize=(12, 5.5), sharex=True)
for c, (title, signals) in enumerate(columns):
    for r in range(3):
        axes[r, c].plot(time_ms, signals[window, r], lw=0.8, color=f"C{r}")
        axes[r, c].set_yticks([])
    axes[0, c].set_title(title)
    axes[2, c].set_xlabel("time (ms)")
for r in range(3):
    axes[r, 0].set_ylabel(names[r])
fig.suptitle("The cocktail party: mixed by the room, unmixed by ICA, not by PCA")
plt.show()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. The GPLVM: PPCA turned around
#
# **Notation in this section** (Lawrence's): $Y$ ($n\times D$, rows are points) is the data, the $X$ of sections
# 2-3, and $X$ ($n\times q$) holds the latent points $x_i$, the $z$ of sections 2-3.
#
# PPCA integrates out the latent points and optimises the map $W$. Lawrence's GPLVM does the opposite: put a prior
# on the map, integrate *it* out, and optimise one latent point $x_i\in\mathbb R^q$ per data row. With a Gaussian
# prior on a linear map, each column $y_{:j}$ of the centred data $Y$ (one variable over all $n$ points) is
# Gaussian with an $n\times n$ covariance:
#
# $$y_{:j}\sim N(0,\ XX^\top+\sigma^2 I_n),\qquad
#   L(X)=-\tfrac D2\log|K|-\tfrac12\operatorname{tr}(K^{-1}YY^\top)+\text{const},\quad K = XX^\top+\sigma^2 I.$$
#
# This is the marginal likelihood the WashU notes state in §7 as $N(\mathbf x\mid 0, X^\top X+\sigma^2 I)$, with
# points as columns. Careful with their letters: in their §2 $X$ is the data matrix, but in this formula it must
# hold the latent points (the covariance of a data column is built from the latent points), as our $X$ does.
#
# It is PPCA with the roles of points and variables exchanged, so its maximiser is PPCA's closed form on
# $YY^\top/D$: the latent points are $X=U_q(\Lambda_q-\sigma^2 I)^{1/2}R$, PCA's scores rescaled per component and
# rotated (Lawrence 2005). We check both halves: the closed form is a per-column rescaling of the scores, and
# L-BFGS-B started from random latent points, nowhere near PCA's subspace, climbs to the same likelihood and the
# same subspace.

# %% slideshow={"slide_type": "fragment"}
Y = X  # the factor-analysis data: n = 800 points, D = 6 variables
closed = gplvm_linear(Y, 2)
scores = pca(Y, 2).scores
ratios = closed.latent / scores
print("closed form / PCA scores: one ratio per component (spread below 1e-9):",
      bool(np.allclose(ratios, ratios[0], rtol=1e-9)), "| the ratios", dr.rounded(ratios[0], 4))
assert np.allclose(ratios, ratios[0], rtol=1e-9)

first = Y[:100]  # the optimiser costs O(n^3) per step: 100 points
start = np.random.default_rng(1).standard_normal((100, 2))
numeric = fit_gplvm(first, 2, kernel="linear", init=start)
small, first_scores = gplvm_linear(first, 2), pca(first, 2).scores
print(f"random start: subspace distance to the PCA scores {subspace_distance(start, first_scores):.2f}")
print(f"after L-BFGS-B: log-likelihood {numeric.log_likelihood:.6f} vs closed form {small.log_likelihood:.6f}; "
      f"subspace distance below 1e-6: {subspace_distance(numeric.latent, first_scores) < 1e-6}")
assert subspace_distance(start, first_scores) > 0.9 and numeric.converged
assert abs(numeric.log_likelihood - small.log_likelihood) < 1e-8 * abs(small.log_likelihood)
assert subspace_distance(numeric.latent, first_scores) < 1e-6

# %% [markdown] slideshow={"slide_type": "subslide"}
# **A non-linear map.** Replace $XX^\top$ by an RBF kernel, $K_{ik}=\alpha\exp(-\lVert x_i-x_k\rVert^2/2)+
# \sigma^2\delta_{ik}$: the map from latent points to data is now a Gaussian process, any smooth function. There is
# no closed form; we maximise $L$ (plus a standard normal prior on the latent points, which fixes their scale) over
# $X$, $\alpha$ and $\sigma^2$ with L-BFGS-B and the analytic gradient, starting from PCA. The data: 60 points along
# an arc of 288 degrees ($1.6\pi$), embedded in 10 dimensions with noise of standard deviation 0.05. One latent
# dimension should be enough. PCA's first coordinate is not: along the arc it is S-shaped, rising, falling and
# rising again, so each end of the arc folds back onto its own neighbouring stretch.

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(0)
t = np.sort(rng.uniform(0.0, 1.0, 60))
turn = 1.6 * np.pi * t
arc = np.column_stack([np.cos(turn), np.sin(turn), 0.5 * np.cos(2 * turn), 0.5 * np.sin(2 * turn)])
embedding, _ = np.linalg.qr(rng.standard_normal((10, 4)))
Y_arc = arc @ embedding.T + 0.05 * rng.standard_normal((60, 10))

rbf = fit_gplvm(Y_arc, 1, kernel="rbf")
linear = gplvm_linear(Y_arc, 1)
rho_rbf = abs(spearmanr(rbf.latent[:, 0], t)[0])
rho_pca = abs(spearmanr(linear.latent[:, 0], t)[0])
print(f"RBF GPLVM: converged: {rbf.converged} (in {'fewer' if rbf.n_iter < 200 else 'more'} than 200 iterations), "
      f"noise {rbf.params['noise']:.4f} "
      "(true 0.0025)")
print(f"log marginal likelihood: RBF {rbf.log_likelihood:.1f}, linear (PCA) {linear.log_likelihood:.1f}")
print(f"rank correlation of the latent coordinate with the position on the arc: RBF {rho_rbf:.4f}, PCA {rho_pca:.4f}")
assert rbf.converged and rho_rbf > 0.99 > 0.9 > rho_pca
assert rbf.log_likelihood > linear.log_likelihood + 500

pc = linear.latent[:, 0]  # PCA's coordinate (the linear GPLVM's, rescaled), signs fixed by the library
top, bottom = pc.argmax(), pc.argmin()
print(f"PCA's coordinate along the arc: {pc[0]:+.2f} at t = 0, up to {pc[top]:+.2f} at t = {t[top]:.2f}, "
      f"down to {pc[bottom]:+.2f} at t = {t[bottom]:.2f}, back to {pc[-1]:+.2f} at t = 1")
assert pc[0] > 0 > pc[-1] and 0 < top < bottom < len(t) - 1  # S-shaped: each end turns back
assert pc[top] - pc[0] > 0.1 and pc[-1] - pc[bottom] > 0.1
# the stretch each end folds onto: the point past the peak (or before the trough) with the nearest coordinate
twin_of_start = top + np.abs(pc[top:bottom] - pc[0]).argmin()
twin_of_end = top + np.abs(pc[top:bottom] - pc[-1]).argmin()
print(f"the end at t = 0 shares its coordinate with t = {t[twin_of_start]:.2f}, the end at t = 1 with "
      f"t = {t[twin_of_end]:.2f}")
assert 0.3 < t[twin_of_start] < 0.4 and 0.55 < t[twin_of_end] < 0.65

# %% alt="Two scatter plots of the latent coordinate against the true position t along the arc, 60 points. Left, PCA (the linear GPLVM): the coordinate is S-shaped, rising from 0.23 to 0.37 at t = 0.23, falling to -0.31 at t = 0.81 and rising again to -0.12 at t = 1, so each end of the arc shares its values with a stretch further along. Right, the RBF GPLVM: the coordinate rises steadily with t, one value per position." slideshow={"slide_type": "subslide"}
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), sharex=True)
for ax, fit, rho, title in [(left, linear, rho_pca, "PCA (linear GPLVM)"), (right, rbf, rho_rbf, "RBF GPLVM")]:
    ax.scatter(t, fit.latent[:, 0], c=t, cmap="viridis", s=18)
    ax.set_xlabel("position t along the arc")
    ax.set_ylabel("latent coordinate")
    ax.set_title(f"{title}: rank correlation {rho:.3f}")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The first coordinate starts positive at one end of the arc and ends negative at the other: the two ends are not
# folded onto each other; each end turns back, so the points near $t=0$ share their coordinate with points near
# $t\approx 0.36$, and those near $t=1$ with points near $t\approx 0.57$ (printed above). The RBF GPLVM, started
# from this very coordinate, unbends it.
#
# The comparison with kernel PCA (notebook 08) is the one the WashU notes draw, in this section's letters: kernel PCA
# maps data to latent points, $y\mapsto x$, through a kernel on the data; the GPLVM, like PPCA, maps latent points
# to data, $x\mapsto y$, through a kernel on the latent points. That direction is what makes it a *generative*
# model: a new latent point gives a predicted data point (the GP's mean). The price is an optimisation over $nq$
# numbers with $O(n^3)$ work per step and local optima, which is why we start from PCA.
#
# **Other ways to learn these models.** Every model here was fitted by maximising a likelihood (in closed form,
# by EM or by L-BFGS-B). The WashU notes (§7) name three routes for PPCA: the posterior over the latent variables,
# variational Bayes, and maximum likelihood. Variational Bayes maximises a lower bound on the likelihood over an
# approximate posterior; it is how the Bayesian GPLVM integrates out the latent points instead of optimising them
# (Titsias and Lawrence 2010), and it is the training objective of the VAEs of the next section.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 7. Where the family continues: VAEs and GANs
#
# The notes end their section on autoencoders (§6.3) with models that *generate* data: **variational autoencoders
# (VAEs)** and **generative adversarial networks (GANs)**. Both keep the recipe of this notebook, a simple latent
# distribution (usually $N(0,I)$) and a map to the data, but make the map a neural network. A VAE is the closest
# relative of PPCA: a decoder network plays the role of $W$, an encoder network approximates the posterior of $z$
# that PPCA and factor analysis compute exactly, and training maximises a lower bound of the likelihood. A GAN drops
# the likelihood altogether and trains the map against a second network that tries to tell generated points from
# real ones.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * Factor analysis is PPCA with a noise variance per variable: fitted by EM, it recovers unequal noise levels that
#   PPCA averages away; constrained to equal noise it is PPCA. Its fit does not depend on the units of each variable.
# * The likelihood of PPCA and factor analysis cannot tell $W$ from $WR$: the rotation problem.
# * Whitening decorrelates but does not unmix; ICA chooses the rotation of the whitened data whose components are
#   least Gaussian, which works only because the sources are not Gaussian. FastICA's fixed point does it in a few
#   iterations.
# * The GPLVM optimises latent points under a Gaussian-process map; with a linear kernel its points are PCA's scores
#   rescaled (an optimiser started at random finds them too), with an RBF kernel it can unroll a curve on which
#   PCA's coordinate folds back.
# * VAEs and GANs replace the linear map by a neural network.
#
# **Exercises:** `exercises/13_latent_relatives.ipynb`.
