# %% [markdown]
# # Exercises 13 · Relatives of PPCA: factor analysis, ICA and the GPLVM
#
# *Time: about 65 minutes.*
#
# **Objectives.** After this set you can
# 1. evaluate the log-likelihood of a factor-analysis model;
# 2. carry out one EM update of factor analysis;
# 3. carry out one step of FastICA's symmetric fixed point, and explain why whitening cannot unmix and why ICA
#    needs non-Gaussian sources;
# 4. compute the latent points of the linear GPLVM from an eigendecomposition;
# 5. match estimated sources to true ones despite ICA's ambiguity of order, sign and scale.
#
# Goes with `notebooks/13_latent_relatives.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random data) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the grader
# restores them. The library's `factor_analysis`, `ica` and `gplvm` modules are not available here: write each step
# with NumPy.

# %%
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np

import dimred_teach as dr
from dimred_teach import check

dr.setup_notebook()


# %% [markdown]
# ## Exercise 1 · The log-likelihood of factor analysis *(10 min, lecture §2)*
#
# Write `fa_log_likelihood(X, W, mean, psi)` returning the total log-likelihood (natural log, summed over the $n$
# rows, with the $2\pi$ constant) of the rows of `X` ($n\times d$) under $x\sim N(\mu,\ WW^\top+\Psi)$, where `W` is
# $d\times q$, `mean` has length $d$ and `psi` holds the $d$ noise **variances** (the diagonal of $\Psi$). Forming
# the $d\times d$ covariance is fine here.

# %%
def fa_log_likelihood(X, W, mean, psi):
    """Total log-likelihood of the rows of X (n, d) under N(mean, W W' + diag(psi))."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("13.fa_log_likelihood", fa_log_likelihood)


# %% [markdown]
# ## Exercise 2 · One EM update of factor analysis *(15 min, lecture §2)*
#
# With $S = X_c^\top X_c/n$ (the maximum-likelihood covariance), $G = (I + W^\top\Psi^{-1}W)^{-1}$ and
# $B = G W^\top\Psi^{-1}$ (so that $\mathbb E[z\mid x] = B(x-\mu)$), the EM update is
#
# $$W_{\text{new}} = S B^\top\,(G + B S B^\top)^{-1},\qquad
#   \psi_{\text{new}} = \operatorname{diag}\big(S - W_{\text{new}} B S\big).$$
#
# Write `fa_em_step(X, W, psi)` returning the pair `(W_new, psi_new)`, shapes $(d, q)$ and $(d,)$. (The check
# compares $W_{\text{new}}W_{\text{new}}^\top$, so any rotation of $W_{\text{new}}$ is accepted.)

# %%
def fa_em_step(X, W, psi):
    """One EM update (W_new, psi_new) of factor analysis for the data X (n, d)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("13.fa_em_step", fa_em_step)


# %% [markdown]
# ## Exercise 3 · One step of FastICA, and why whitening is not enough *(20 min, lecture §5)*
#
# `Z` ($n\times k$) is whitened data and `W` ($k\times k$) an orthogonal matrix whose rows are the current unmixing
# directions, so the current components are $Y = ZW^\top$. One step of the symmetric fixed point with $g=\tanh$ is
#
# $$W_1 = \tfrac1n\, g(Y)^\top Z - \operatorname{diag}\big(\overline{g'(Y)}\big)\,W, \qquad
#   W_{\text{new}} = (W_1W_1^\top)^{-1/2}\,W_1,$$
#
# where $\overline{g'(Y)}$ holds the column means of $g'(Y) = 1-\tanh^2(Y)$. Write `fastica_step(Z, W)` returning
# $W_{\text{new}}$, with NumPy: scikit-learn's private FastICA functions are not available in this set. (Hint: with
# the SVD $W_1 = U\Sigma V^\top$, $(W_1W_1^\top)^{-1/2}W_1 = UV^\top$.)

# %%
def fastica_step(Z, W):
    """One symmetric FastICA step (logcosh) from the orthogonal W (k, k) for the whitened Z (n, k)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("13.fastica_step", fastica_step)


# %% [markdown]
# **Explain**: after whitening, the microphone signals of the cocktail party are uncorrelated with variance 1, yet
# they are still mixtures. Why is decorrelating not enough, and what extra information does ICA use? What would go
# wrong if the three sources were Gaussian, and what can ICA never recover even for non-Gaussian sources?

# %% [markdown] dimred_teach={"written": {"exercise": "13.fastica_step", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 4 · The linear GPLVM's latent points *(10 min, lecture §6)*
#
# For data `Y` ($n$ points, $D$ variables), centre the columns, let $\lambda_1\ge\dots\ge\lambda_n$ and $u_1,\dots,u_n$
# be the eigenvalues and unit eigenvectors of the $n\times n$ matrix $Y_cY_c^\top/D$, and
# $\sigma^2 = (\lambda_{q+1}+\dots+\lambda_n)/(n-q)$. The maximum-likelihood latent points of the linear GPLVM are
# $X = U_q(\Lambda_q-\sigma^2 I)^{1/2}$ (up to a rotation). Write `linear_gplvm_latent(Y, q)` returning $X$,
# shape $(n, q)$.

# %%
def linear_gplvm_latent(Y, q):
    """Latent points (n, q) of the maximum-likelihood linear GPLVM for the data Y (n, D)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("13.linear_gplvm_latent", linear_gplvm_latent)


# %% [markdown]
# ## Exercise 5 · Matching sources up to order, sign and scale *(10 min, lecture §5)*
#
# ICA returns its components in an arbitrary order, with arbitrary signs and scales. To compare them with known
# sources, write `match_sources(estimated, true)` for two $n\times k$ arrays returning a pair `(order, signs)`:
# `order` a length-$k$ integer array and `signs` a length-$k$ array of $\pm1$ such that column `order[j]` of
# `estimated`, multiplied by `signs[j]`, is the estimated column most correlated (in absolute value) with column
# `j` of `true`, and correlated positively with it. The columns come with means and scales of their own, as
# recordings and ICA's estimates do: the correlation is blind to both.

# %%
def match_sources(estimated, true):
    """For each true source j: the estimated column order[j] that matches it, and the sign signs[j] that aligns it."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("13.match_sources", match_sources)
