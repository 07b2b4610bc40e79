# %% [markdown] slideshow={"slide_type": "slide"}
# # 12 · Missing values and recommender systems
#
# **Most of a ratings matrix is missing. A low-rank model fitted to the ratings that exist predicts the ones that
# do not: PCA with missing values, by iterative imputation.**
#
# *Time: about 65 minutes.* *Prerequisites: notebook 01 (PCA, reconstruction error), notebook 02 (SVD, choosing
# k), notebook 07 (EM for probabilistic PCA).*
#
# **Learning objectives.** After this notebook you can
# 1. state the Netflix problem and the notes' three questions about using PCA on it, and answer each with a check;
# 2. fit a "means plus rank $k$" model to the observed entries only, by filling, truncating the SVD and refilling
#    (hard impute), and show that its error on the observed entries never increases;
# 3. measure predictions honestly on held-out ratings, against the baseline of item means and the noise floor;
# 4. predict a rating from a user's scores and an item's loadings;
# 5. choose the rank by held-out error, and say why the training error cannot.
#
# **Notes followed.** CMU 36-467/667 "Linear Dimension Reduction", "Netflix and recommender systems" (the data, the
# RMSE challenge, and the three questions: are users features for movies or movies features for users? how to use
# the scores for prediction? how to handle missing values?); the same notes' low-rank approximation; WashU A2 §7
# (EM for probabilistic PCA), whose noise-free limit (Roweis 1998) section 3 compares with the algorithm used here.
#
# **Conventions.** Rows are users, columns are items: $\mathbf R$ is $n\times p$ with `NaN` where a user has not
# rated an item; $\Omega$ is the set of observed entries. RMSE is the root mean squared error over the entries
# named.
#
# **References.** CMU 36-467/667 lecture notes, "Linear Dimension Reduction"; WashU "USL - Dimensionality
# Reduction" lecture A2; Rubin (1976), *Inference and missing data*; Dempster, Laird and Rubin (1977), *Maximum
# likelihood from incomplete data via the EM algorithm*; Koren (2009), *The BellKor solution to the Netflix grand
# prize*; Roweis (1998), *EM algorithms for PCA and SPCA*; Mazumder, Hastie and Tibshirani (2010),
# *Spectral regularization algorithms for learning large incomplete matrices*.

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np
import matplotlib.pyplot as plt

import dimred_teach as dr
from dimred_teach.datasets import make_ratings
from dimred_teach.imputation import low_rank_impute, zero_noise_em

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The Netflix problem
#
# The notes' numbers: Netflix released $10^8$ ratings by $4.8\times 10^5$ users of $1.8\times 10^4$ movies, and
# offered a prize for a 10% lower RMSE on a test set. How full was that matrix?

# %% slideshow={"slide_type": "fragment"}
print("fraction of the Netflix matrix observed:", dr.rounded(1e8 / (4.8e5 * 1.8e4)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# About 1%: a method that needs a complete matrix cannot even start. For this notebook the course makes its own
# ratings matrix, small enough to compute with and with a known answer: 300 users, 120 items, a true rank-3 model
# (each user has 3 "tastes", each item 3 "features", plus an item mean near 3), noise of standard deviation 0.5,
# and each rating observed with probability 0.2 (`make_ratings`). `truth` holds the noise-free ratings, which a
# real data set never gives us.

# %% slideshow={"slide_type": "fragment"}
ratings, truth = make_ratings(n_users=300, n_items=120, rank=3, observed=0.2, noise=0.5, seed=0)
observed = ~np.isnan(ratings)
print("shape:", ratings.shape, "| observed:", dr.rounded(observed.mean()),
      "| ratings per user: at least", observed.sum(axis=1).min(), "| per item: at least", observed.sum(axis=0).min())
centred_truth = truth - truth.mean(axis=0)
print("singular values of the centred truth / largest:",
      dr.rounded(np.linalg.svd(centred_truth, compute_uv=False)[:5] / np.linalg.norm(centred_truth, 2)))

# %% alt="Image of the observed ratings of the first 60 users for 120 items: scattered coloured cells on a white background, white meaning missing (80% of the entries), with a colour bar giving the rating of each colour." slideshow={"slide_type": "subslide"}
fig, ax = plt.subplots(figsize=(8, 3.5))
image = ax.imshow(ratings[:60], cmap="viridis", aspect="auto", interpolation="nearest")
ax.set_xlabel("item")
ax.set_ylabel("user (first 60)")
ax.set_title("Observed ratings; white = missing (80%)")
fig.colorbar(image, ax=ax, label="rating")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The truth has rank 3 after centring (the fourth singular value is zero), but we only see a fifth of it, with
# noise.
#
# To measure predictions honestly, hide a random tenth of the observed ratings (the *held-out* set), fit on the
# rest, and compare predictions with the hidden ratings: the notes' "RMSE on a testing set".
#
# Everything here assumes that which ratings we see tells nothing about the values we do not see. Rubin's (1976)
# three cases: **missing completely at random** (MCAR: whether an entry is seen depends on nothing), **missing at
# random** (MAR: it may depend on what *is* observed, such as how many films a user rated) and **missing not at
# random** (MNAR: it depends on the missing value itself). Fitting to the observed entries alone is sound under
# MCAR and MAR. The course's ratings are hidden by coin flips: MCAR. Netflix's are MNAR: people rate what they
# chose to watch, and mostly what they liked, so the observed ratings are higher than the missing ones would be.
# A random held-out set drawn from the *observed* ratings then measures how well the model predicts ratings people
# chose to give, and is optimistic about the films nobody would have picked.

# %% slideshow={"slide_type": "fragment"}
rows, cols = np.nonzero(observed)
held = np.random.default_rng(1).permutation(rows.size)[: int(0.1 * rows.size)]
train = ratings.copy()
train[rows[held], cols[held]] = np.nan
target = ratings[rows[held], cols[held]]


def held_out_rmse(prediction):
    """RMSE of an (n, p) prediction on the held-out ratings."""
    return float(np.sqrt(np.mean((prediction[rows[held], cols[held]] - target) ** 2)))


print("held-out ratings:", held.size, "| training ratings:", int(np.sum(~np.isnan(train))))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Two reference numbers. The **baseline** predicts every rating of an item by the item's mean rating. The **noise
# floor** is the error of the true model itself: the held-out ratings contain noise no method can predict, so no
# RMSE can be much below 0.5.

# %% slideshow={"slide_type": "fragment"}
item_means = np.nanmean(train, axis=0)
baseline = held_out_rmse(np.broadcast_to(item_means, ratings.shape))
floor = held_out_rmse(truth)
print("item means: held-out RMSE", dr.rounded(baseline))
print("the truth (noise floor): held-out RMSE", dr.rounded(floor))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The baselines of the Netflix prize also gave every *user* an offset (some people rate everything high):
# $\hat r_{ij} = \mu + b_j + b_i$, the overall mean, an item bias and a user bias, each shrunk towards 0 when it
# rests on few ratings (Koren 2009: $b_j = \sum_i (r_{ij}-\mu)/(25 + n_j)$ over the users who rated item $j$, then
# $b_i = \sum_j (r_{ij} - \mu - b_j)/(10 + n_i)$):

# %% slideshow={"slide_type": "fragment"}
seen = ~np.isnan(train)
mu = np.nanmean(train)
item_bias = np.nansum(train - mu, axis=0) / (25 + seen.sum(axis=0))
user_bias = np.nansum(train - mu - item_bias, axis=1) / (10 + seen.sum(axis=1))
with_biases = held_out_rmse(mu + item_bias + user_bias[:, None])
true_offsets = (truth - truth.mean(axis=0)).mean(axis=1)
print("mean + item and user biases: held-out RMSE", dr.rounded(with_biases), "| item means", dr.rounded(baseline))
print("spread of the true user offsets:", dr.rounded(true_offsets.std()), "| of the estimated ones:",
      dr.rounded(user_bias.std()))
assert 1.08 < with_biases < 1.10 and baseline < with_biases and true_offsets.std() < 0.18

# %% [markdown] slideshow={"slide_type": "subslide"}
# Here the user biases do not help (1.09 against 1.07). The course's users have small offsets (a spread of 0.17),
# and estimating each from about 20 noisy ratings adds more error than it removes. On Netflix the user offsets
# were large and this baseline was the starting point of every team; the lesson is the general one: a term in a
# model pays only when its effect is larger than the noise in estimating it.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Question 1: are users features for items, or items features for users?
#
# Rows are users and columns items, so PCA would describe users by their ratings of the items. But a rank-$k$
# approximation $U_kD_kV_k^\top$ treats rows and columns alike: transposing the matrix transposes the fit. Only
# the centring picks a side: subtracting **column** means removes each item's average rating, the baseline above.
# Check the symmetry without centring:

# %% slideshow={"slide_type": "fragment"}
by_users = low_rank_impute(train, 3, center=False, max_iter=50, tol=0.0)
by_items = low_rank_impute(train.T, 3, center=False, max_iter=50, tol=0.0)
print("rank-3 fit of R' = (rank-3 fit of R)':", np.allclose(by_items.completed, by_users.completed.T))

# %% [markdown] slideshow={"slide_type": "subslide"}
# So the answer to the first question is "both": the user scores and the item loadings come out of the same
# decomposition. The choice that matters is what to subtract first; item means are the natural one here, since
# items differ in average quality.
#
# ## 3. Question 3: how to handle missing values
#
# PCA needs a complete matrix. Filling the holes with item means and running PCA once treats 80% made-up entries
# as data: the fit is pulled towards the means. Instead, fit the model to the observed entries only,
# $$\min_{m,\ \operatorname{rank} A \le k}\ \sum_{(i,j)\in\Omega}\big(R_{ij} - m_j - A_{ij}\big)^2 ,$$
# by alternating two steps:
# 1. **fill** every missing entry with the current fit (observed entries keep their ratings);
# 2. **refit**: column means plus the rank-$k$ truncated SVD of the filled matrix (Eckart-Young, notebook 02).
#
# Why the observed error cannot increase: call the fit $F_t$ and the filled matrix $Z_t$. The refit $F_{t+1}$ is
# the closest mean-plus-rank-$k$ matrix to $Z_t$, so it is at least as close as $F_t$:
# $\|Z_t - F_{t+1}\|^2 \le \|Z_t - F_t\|^2$. On missing entries $Z_t = F_t$, so the right side is just the
# observed error of $F_t$; the left side is at least the observed error of $F_{t+1}$. This is *hard impute*: EM
# (a majorise-minimise algorithm) for a fixed mean-plus-rank-$k$ matrix observed with Gaussian noise, the missing
# entries being the missing data. It is not quite Roweis's (1998) EM for probabilistic PCA (notebook 07) with
# missing data and the noise variance taken to zero: that one fits each user's scores to the user's *observed*
# ratings only, then each item's loadings to the users who rated it (`imputation.zero_noise_em`), an alternating
# least squares. Its steps differ. A fit that hard impute does not change is one that ALS does not change either:
# its residual on the observed entries is orthogonal to the user scores and to the item loadings. The converse
# fails, as the end of this section shows.

# %% slideshow={"slide_type": "fragment"}
hard = low_rank_impute(train, 3, max_iter=5, tol=0.0)
roweis = zero_noise_em(train, 3, max_iter=5, tol=0.0)
print("observed RMSE after 1 and 5 steps: hard impute", dr.rounded(hard.history[[1, 5]]),
      "| Roweis's zero-noise EM", dr.rounded(roweis.history[[1, 5]]))
assert np.all(np.diff(hard.history) <= 1e-12) and np.all(np.diff(roweis.history) <= 1e-12)
assert not np.allclose(hard.history, roweis.history)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Both errors fall at every step, along different paths, and Roweis's is far ahead: 0.4436 after 5 steps, where
# hard impute needs 78. That is the nature of EM: its rate is set by the *fraction of missing information*
# (Dempster, Laird and Rubin 1977). Each hard-impute step recovers the missing entries only through the fit,
# and with 80% of them missing it moves a little each time. ALS solves for each factor from the observed entries
# directly. Vary the fraction observed:

# %% slideshow={"slide_type": "fragment"}
steps = {}
for fraction in (0.2, 0.4, 0.6):
    sample, _ = make_ratings(n_users=300, n_items=120, rank=3, observed=fraction, noise=0.5, seed=0)
    steps[fraction] = (low_rank_impute(sample, 3, max_iter=500, tol=1e-5).n_iter,
                       zero_noise_em(sample, 3, max_iter=500, tol=1e-5).n_iter)
    print(f"observed {fraction}: iterations to converge, hard impute {steps[fraction][0]:3d} | ALS {steps[fraction][1]}")
assert steps[0.2] == (65, 8) and steps[0.4][0] < 25 and steps[0.6][0] < 12

# %% [markdown] slideshow={"slide_type": "subslide"}
# With 80% missing, hard impute needs 65 iterations against 8; with 40% missing, 21 against 4. Why teach it, then?
# Each step is one truncated SVD of a complete matrix, which any SVD routine does (for Netflix's size, a sparse
# plus low-rank one that never forms the filled matrix); it needs no small least-squares problem per user and per
# item; and it is the form that soft impute (Mazumder et al. 2010) regularises: shrink the singular values instead
# of cutting them, and the problem becomes convex. Its fixed points are also the *stable* ones, as we check next.
#
# Hard impute's fixed points are stationary points of ALS, but ALS has more. With nothing missing, take singular
# vectors 2 to 4 of a complete matrix in place of 1 to 3: the scores of those loadings are $U_JD_J$, the loadings of
# those scores are $V_J$ again, so ALS stays put.

# %% slideshow={"slide_type": "fragment"}
Z = low_rank_impute(train, 3, max_iter=100, tol=1e-5).completed
Z = Z - Z.mean(axis=0)  # a complete, centred matrix
U, d, Vt = np.linalg.svd(Z, full_matrices=False)


def als_step(V):
    """Least-squares scores for the loadings V (p, k), then least-squares loadings for those scores."""
    S = np.linalg.lstsq(V, Z.T, rcond=None)[0].T
    return S, np.linalg.lstsq(S, Z, rcond=None)[0].T


def rms(F):
    return float(np.sqrt(np.mean((Z - F) ** 2)))

# %% slideshow={"slide_type": "subslide"}
saddle, best = (U[:, 1:4] * d[1:4]) @ Vt[1:4], (U[:, :3] * d[:3]) @ Vt[:3]
S, V = als_step(Vt[1:4].T)
print("ALS keeps the fit on singular vectors 2-4:", np.allclose(S @ V.T, saddle), "| RMS residual", dr.rounded(rms(saddle)))
print("one hard-impute step (here: the rank-3 SVD) gives the top fit | RMS residual", dr.rounded(rms(best)))
V = Vt[1:4].T + 1e-6 * np.random.default_rng(3).normal(size=(Z.shape[1], 3))
for _ in range(5):
    S, V = als_step(V)
print("ALS from a nudge of 1e-6 off vectors 2-4, after 5 steps | RMS residual", dr.rounded(rms(S @ V.T)))
assert abs(rms(S @ V.T) - rms(best)) < 1e-6 and rms(saddle) > 3 * rms(best)

# %% [markdown] slideshow={"slide_type": "subslide"}
# ALS keeps a fit three times worse than the best, and hard impute leaves it in one step. It is a saddle point: a
# nudge of $10^{-6}$ and ALS leaves it too, reaching the top fit in 5 steps. So the two methods share their stable
# fixed points, the ones an iteration settles in, while ALS alone also has unstable ones; from a reasonable start
# (the item means, as here) neither stops at those.
#
# Hard impute is the method the rest of this notebook uses:

# %% slideshow={"slide_type": "fragment"}
result = low_rank_impute(train, 3, max_iter=100, tol=1e-5)
print("iterations:", result.n_iter, "| converged:", result.converged)
print("training RMSE: start", dr.rounded(result.history[0]), "-> end", dr.rounded(result.history[-1]))
print("never increases:", bool(np.all(np.diff(result.history) <= 0)))
print("observed ratings untouched:", np.array_equal(result.completed[~np.isnan(train)], train[~np.isnan(train)]))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Compare with filling by item means and truncating the SVD once (the first iteration alone):

# %% slideshow={"slide_type": "fragment"}
one_step = low_rank_impute(train, 3, max_iter=1)
print("held-out RMSE: item means", dr.rounded(baseline), "| one fill + SVD", dr.rounded(held_out_rmse(one_step.completed)),
      "| iterated", dr.rounded(held_out_rmse(result.completed)), "| noise floor", dr.rounded(floor))

# %% alt="Training RMSE of hard impute with rank 3 against the iteration: it falls from about 1.08 to 0.44 within about 30 iterations, below the noise level 0.5; dotted and dashed lines mark the held-out RMSE of item means (1.07) and of hard impute at the end (0.60)." slideshow={"slide_type": "subslide"}
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(result.history, label="observed (training) entries")
ax.axhline(baseline, color="grey", linestyle=":", label="held-out RMSE of item means")
ax.axhline(held_out_rmse(result.completed), color="C1", linestyle="--", label="held-out RMSE at the end")
ax.axhline(0.5, color="black", linewidth=0.8, label="noise level 0.5")
ax.set_xlabel("iteration")
ax.set_ylabel("RMSE")
ax.set_title("Hard impute, rank 3: the training error falls monotonically")
ax.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# One fill-and-truncate step already helps; iterating takes the held-out error from 1.07 (item means) to 0.60,
# close to the noise floor 0.51. The training error ends below the noise level: the fit has absorbed some of the
# noise of the ratings it saw, which is why only held-out ratings give an honest number.
#
# Because this data set is made by the course, we can also compare with the truth on **every** entry, including
# the 80% nobody rated:

# %% slideshow={"slide_type": "fragment"}
def rmse_against_truth(prediction):
    return float(np.sqrt(np.mean((prediction - truth) ** 2)))


print("RMSE against the noise-free truth, all entries: item means",
      dr.rounded(rmse_against_truth(np.broadcast_to(item_means, truth.shape))), "| hard impute",
      dr.rounded(rmse_against_truth(result.fit)))
print("sqrt(floor^2 + error^2):", dr.rounded(np.sqrt(floor**2 + rmse_against_truth(result.fit) ** 2)),
      "| measured held-out RMSE:", dr.rounded(held_out_rmse(result.completed)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The recovered ratings are 0.27 from the truth in root mean square (the item means are 0.98 off): an average
# size, not a bound on every entry. The held-out error,
# 0.60, is close to the noise floor and this recovery error added in quadrature (0.58): what remains is mostly
# noise. (The small excess: the held-out entries are among those the fit never saw.)
# (The notes' first PCA entry improved Netflix's RMSE by 3.76%; here the gain over item means is 44%, because this
# matrix really is rank 3 plus noise, which real ratings are not.)
#
# ## 4. Question 2: predicting from the scores
#
# The fit is $m + S V^\top$: item means $m$, user scores $S$ ($n\times k$, the users' coordinates, "tastes") and
# orthonormal item components $V$ ($p\times k$). A user's predicted rating of an item is the item's mean plus the
# inner product of the user's scores with the item's loadings. For user 0, recommend the unrated item with the
# highest prediction:

# %% slideshow={"slide_type": "fragment"}
user = 0
predicted = result.means + result.scores[user] @ result.components.T
print("prediction = m + s_user V':", np.allclose(predicted, result.fit[user]))
unrated = np.flatnonzero(np.isnan(ratings[user]))
best = unrated[np.argmax(predicted[unrated])]
print(f"user {user} rated {np.sum(~np.isnan(ratings[user]))} items; best unrated item {best}: predicted",
      dr.rounded(predicted[best]), "| true", dr.rounded(truth[user, best]),
      "| its mean", dr.rounded(result.means[best]))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The recommendation is well above the item's average, because this user's tastes match the item's features; the
# truth confirms it.
#
# ## 5. Choosing the rank
#
# In practice the rank is unknown. The training error falls as $k$ grows here (more parameters fit the observed
# ratings better; an observation, not a theorem: the iteration is not convex and stops at a tolerance), so it
# cannot choose $k$. An error on ratings the fit did not see can, but not the held-out set of section 3: an error
# used to choose $k$ is no longer an honest estimate for the chosen $k$. So hide a tenth of the *training* ratings
# too (the *validation* set), choose $k$ on it, and only then measure the chosen rank on the held-out (test) ratings.

# %% slideshow={"slide_type": "fragment"}
train_rows, train_cols = np.nonzero(~np.isnan(train))
validation = np.random.default_rng(2).permutation(train_rows.size)[: int(0.1 * train_rows.size)]
fitting = train.copy()
fitting[train_rows[validation], train_cols[validation]] = np.nan
validation_target = train[train_rows[validation], train_cols[validation]]
ranks = np.arange(1, 7)
training, validating = [], []
for k in ranks:
    fit_k = low_rank_impute(fitting, int(k), max_iter=100, tol=1e-5)
    training.append(fit_k.history[-1])
    predicted = fit_k.completed[train_rows[validation], train_cols[validation]]
    validating.append(float(np.sqrt(np.mean((predicted - validation_target) ** 2))))
    print(f"k = {k}: training RMSE {training[-1]:.4f} | validation RMSE {validating[-1]:.4f}")
chosen = int(ranks[np.argmin(validating)])
final = low_rank_impute(train, chosen, max_iter=100, tol=1e-5)  # refitted on all the training ratings
test_rmse = held_out_rmse(final.completed)
print("rank chosen on the validation set:", chosen, "| its test RMSE (ratings used neither to fit nor to choose):",
      dr.rounded(test_rmse))
assert chosen == 3 and np.all(np.diff(training) < 0) and 0.55 < test_rmse < 0.65

# %% alt="Training and validation RMSE against the rank k from 1 to 6: the training error keeps falling, the validation error is smallest at k = 3, the true rank (about 0.59), and grows again beyond it; a line marks the noise level 0.5." slideshow={"slide_type": "subslide"}
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(ranks, training, "o-", label="training (observed) RMSE")
ax.plot(ranks, validating, "s-", label="validation RMSE")
ax.axhline(0.5, color="black", linewidth=0.8, label="noise level")
ax.set_xlabel("rank k")
ax.set_ylabel("RMSE")
ax.set_title("Choosing the rank on a validation set")
ax.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The validation error is smallest at $k = 3$, the true rank, and grows again beyond it as the extra factors fit
# noise, while the training error keeps falling. The test error of the chosen rank, 0.60, is the honest estimate:
# neither the fit nor the choice of $k$ saw those ratings. (Hard impute with a large $k$ also converges slowly;
# soft impute, which shrinks the singular values instead of cutting them, regularises this, Mazumder et al. 2010.)
#
# ## Summary
#
# * The Netflix matrix is about 1% observed; PCA needs a model fitted to the observed entries only.
# * Users or items as features: the low-rank fit is the same either way (transposition); the item means are what
#   to subtract.
# * Missing values: fill, truncate the SVD, refill only the missing entries; the observed error never increases
#   (hard impute: EM for a low-rank matrix with missing entries). Roweis's zero-noise EM (ALS) takes other steps;
#   hard impute's fixed points are stationary points of ALS, the stable ones coincide, and ALS also stops at
#   saddles such as singular vectors 2 to 4. EM's rate is set by the fraction missing: 65 iterations against
#   ALS's 8 with 80% missing.
# * Missingness: MCAR and MAR allow fitting to the observed entries; Netflix's ratings are MNAR. A user-and-item
#   bias baseline helps only when the user offsets exceed the noise in estimating them (here it does not).
# * On the course's rank-3 ratings: held-out RMSE 1.07 with item means, 0.60 with hard impute, against a noise floor
#   of 0.51; the recovered matrix is 0.27 from the truth in root mean square.
# * Predict a rating as item mean plus user scores times item loadings; choose the rank on a validation set and
#   report the error of the chosen rank on a test set that played no part in the choice.
