# %% [markdown]
# # Solutions 07 · Probabilistic PCA
#
# *Time: about 50 minutes.*
#
# **Objectives.** After this set you can
# 1. estimate the noise variance from the eigenvalues (WashU eq. 25);
# 2. write one EM update and see that it never lowers the likelihood;
# 3. check the marginal covariance $WW^\top + \sigma^2 I$ against samples;
# 4. compare subspaces through their projectors;
# 5. read the posterior mean as a shrunk PCA projection.
#
# Goes with `notebooks/07_ppca.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random data) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the grader
# restores them.
#
# **Notes.** WashU A2 notes §7 (eq. 21-26) and its appendix §8; Tipping and Bishop (1999), *Probabilistic principal
# component analysis*, eq. 29-30 for EM. Conventions: rows are points ($X$ is $n\times d$) and, as in the maximum
# likelihood, $S = X_c^\top X_c / n$ (divide by $n$, not $n-1$).

# %%
import numpy as np

import dimred_teach as dr
from dimred_teach import check
from dimred_teach import ppca
from dimred_teach.datasets import load_crabs

dr.setup_notebook()
X = load_crabs()[["FL", "RW", "CL", "CW", "BD"]].to_numpy()
print(X.shape)

# %% [markdown]
# ## Exercise 1 · $\sigma^2$ from the eigenvalues *(5 min, lecture §4)*
#
# Write `noise_variance(X, q)`: the maximum-likelihood noise variance of a PPCA model with $q$ latent dimensions,
# the mean of the $d-q$ smallest eigenvalues of $S = X_c^\top X_c / n$ (WashU eq. 25).

# %%
def noise_variance(X, q):
    """Maximum-likelihood sigma^2 of PPCA with q latent dimensions for X (n x d)."""
    # BEGIN SOLUTION
    Xc = X - X.mean(axis=0)
    eigenvalues = np.linalg.eigvalsh(Xc.T @ Xc / X.shape[0])  # ascending
    return float(eigenvalues[: X.shape[1] - q].mean())
    # END SOLUTION


# %% points=1
check("07.noise_variance", noise_variance)

# %% [markdown]
# ## Exercise 2 · One EM step *(15 min, lecture §5)*
#
# Write `em_step(X, W, sigma2)` returning the pair `(W_new, sigma2_new)` of one EM update (Tipping and Bishop
# eq. 29-30; the mean stays at the column means). With $S = X_c^\top X_c/n$ and $M = W^\top W + \sigma^2 I_q$:
#
# $$W_{\text{new}} = S W\,(\sigma^2 I_q + M^{-1} W^\top S W)^{-1}, \qquad
#   \sigma^2_{\text{new}} = \tfrac1d \operatorname{tr}\!\big(S - S W M^{-1} W_{\text{new}}^\top\big).$$
#
# Compute $SW$ as $X_c^\top (X_c W)/n$ and $\operatorname{tr} S$ as $\|X_c\|_F^2/n$, so that no $d\times d$ matrix is
# formed. The check calls your function on fresh data and random starting points: the log-likelihood must not go
# down, and the result must agree with the two equations. Its last call has $d = 3000$, where $S$ would take 72 MB:
# it measures the memory your function allocates.

# %%
def em_step(X, W, sigma2):
    """One EM update of PPCA for data X (n x d) from loadings W (d x q) and noise variance sigma2."""
    # BEGIN SOLUTION
    n, d = X.shape
    q = W.shape[1]
    Xc = X - X.mean(axis=0)
    XW = Xc @ W
    SW = Xc.T @ XW / n
    M = W.T @ W + sigma2 * np.eye(q)
    W_new = SW @ np.linalg.inv(sigma2 * np.eye(q) + np.linalg.solve(M, XW.T @ XW / n))
    sigma2_new = (np.sum(Xc**2) / n - np.trace(np.linalg.solve(M, W_new.T @ SW))) / d
    return W_new, float(sigma2_new)
    # END SOLUTION


# %% points=2
check("07.em_step", em_step)

# %% [markdown]
# Twenty steps of your `em_step` on the crabs with $q=2$, from a random start (`ppca.log_likelihood` gives the
# log-likelihood, with the column means as $\mu$): it climbs and never goes down.

# %%
# BEGIN SOLUTION
W, sigma2 = np.random.default_rng(0).normal(size=(X.shape[1], 2)), 1.0
climb = [ppca.log_likelihood(X, W, X.mean(axis=0), sigma2)]
for _ in range(20):
    W, sigma2 = em_step(X, W, sigma2)
    climb.append(ppca.log_likelihood(X, W, X.mean(axis=0), sigma2))
print("never decreases:", bool(np.all(np.diff(climb) >= 0)))
print("log-likelihood: start", dr.rounded(climb[0]), "| after 20 steps", dr.rounded(climb[-1]))
# END SOLUTION

# %% [markdown]
# ## Exercise 3 · The marginal covariance *(10 min, lecture §2)*
#
# Write `marginal_covariance(W, sigma2)`, the covariance of $x = Wz + \mu + \varepsilon$ with
# $z\sim N(0, I_q)$ and $\varepsilon \sim N(0,\sigma^2 I_d)$ independent. Then, in the cell after the check, compare
# it with the sample covariance of 20 000 draws of `ppca.sample` from the model `toy` defined there.

# %%
def marginal_covariance(W, sigma2):
    """Covariance matrix (d x d) of the PPCA model with loadings W (d x q) and noise variance sigma2."""
    return W @ W.T + sigma2 * np.eye(W.shape[0])  # SOLUTION


# %% points=1
check("07.marginal_covariance", marginal_covariance)

# %%
toy = ppca.PPCAModel(W=np.array([[2.0, 0.0], [1.0, 1.0], [0.0, 1.5], [0.5, -0.5]]), mean=np.zeros(4), sigma2=0.3)
# BEGIN SOLUTION
draws = ppca.sample(toy, 20000, seed=7)
gap = np.abs(np.cov(draws, rowvar=False) - marginal_covariance(toy.W, toy.sigma2)).max()
print("largest entry difference:", dr.rounded(gap))
# END SOLUTION

# %% [markdown] tags=["solution"]
# **What it shows.** The largest entry difference is a few hundredths, the size of the sampling error of a
# covariance from 20 000 points (about $\sqrt{2/n}$ times the entries, a few hundredths here). Doubling the sample
# divides it by about $\sqrt2$; it does not vanish because the sample covariance is random.
#
# **Rubric.**
#
# - 1 point: The largest difference is a few hundredths.
# - 1 point: Explains it as sampling error of a covariance from 20 000 points (about $\sqrt{2/n}$ relative), which
#   shrinks with more draws.

# %% [markdown]
# ## Exercise 4 · Comparing subspaces through projectors *(10 min, lecture §6)*
#
# Write `projector_distance(A, B)` for two $m\times k$ matrices whose columns are bases (not necessarily
# orthonormal): the spectral norm $\|P_A - P_B\|_2$ of the difference of the orthogonal projectors onto their
# column spaces. It must not depend on which basis is given, must be $\sin\theta$ for two planes that share a line
# and are tilted by $\theta$, and $1$ for orthogonal subspaces. Use NumPy, not `scipy.linalg.subspace_angles` (the
# checks and the grader refuse it).

# %%
def projector_distance(A, B):
    """Spectral-norm distance between the column spaces of A and B (both m x k)."""
    # BEGIN SOLUTION
    QA, QB = np.linalg.qr(A)[0], np.linalg.qr(B)[0]
    return float(np.linalg.norm(QA @ QA.T - QB @ QB.T, ord=2))
    # END SOLUTION


# %% points=1
check("07.projector_distance", projector_distance)

# %% [markdown]
# Use it: after 20 steps of your `em_step` from a random start, how far is the fitted subspace of the crabs from
# the principal subspace (the two leading eigenvectors of $S$), which the maximum likelihood spans?

# %%
# BEGIN SOLUTION
W, sigma2 = np.random.default_rng(0).normal(size=(X.shape[1], 2)), 1.0
for _ in range(20):
    W, sigma2 = em_step(X, W, sigma2)
leading = np.linalg.eigh(np.cov(X, rowvar=False, ddof=0))[1][:, ::-1][:, :2]
print("distance after 20 steps:", dr.rounded(projector_distance(W, leading)))
# END SOLUTION

# %% [markdown]
# ## Exercise 5 · The posterior mean shrinks the PCA projection *(10 min, lecture §7)*
#
# For the crabs with $q=2$, the reconstruction from the posterior mean, $\hat x = \mu + W\,\mathbb E[z\mid x]
# = \mu + W M^{-1} W^\top (x-\mu)$, equals $\mu + V_2 \operatorname{diag}(f_1, f_2) V_2^\top (x-\mu)$ where $V_2$
# holds the first two principal directions. Find the two shrinkage factors `shrink` $=(f_1, f_2)$ from the
# eigenvalues of $S$ (with $1/n$) and the maximum-likelihood $\sigma^2$ (your `noise_variance`), then explain in the markdown cell why they
# take that form and what happens as $\sigma^2\to 0$.

# %%
# BEGIN SOLUTION
lam = np.linalg.eigvalsh(np.cov(X, rowvar=False, ddof=0))[::-1][:2]
shrink = (lam - noise_variance(X, 2)) / lam
# END SOLUTION
print(shrink)

# %% points=1
check("07.shrinkage", shrink)

# %% [markdown] tags=["solution"]
# **Why.** At the maximum, $W = V_2(\Lambda_2-\sigma^2 I)^{1/2}$, so $W^\top W = \Lambda_2 - \sigma^2 I$ and
# $M = W^\top W + \sigma^2 I = \Lambda_2$. Then $W M^{-1} W^\top = V_2 (\Lambda_2-\sigma^2 I)^{1/2}\Lambda_2^{-1}
# (\Lambda_2-\sigma^2 I)^{1/2} V_2^\top = V_2 \operatorname{diag}\big((\lambda_j-\sigma^2)/\lambda_j\big) V_2^\top$.
# Each factor is below 1: the posterior pulls the reconstruction towards the mean, more along weak components
# (where the noise is a larger share of the variance). As $\sigma^2 \to 0$ both factors tend to 1 and the map
# becomes the orthogonal projector $V_2V_2^\top$ of PCA.
#
# **Rubric.**
#
# - 1 point: At the maximum $W^\top W = \Lambda_2 - \sigma^2 I$, so $M = \Lambda_2$ and the factors are $(\lambda_j
#   - \sigma^2)/\lambda_j$.
# - 1 point: Each factor is below 1: the posterior shrinks towards the mean, more along weak components.
# - 1 point: As $\sigma^2\to 0$ the factors tend to 1: the orthogonal projector of PCA.
