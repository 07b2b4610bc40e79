# %% [markdown]
# # Solutions 12 · Missing values and recommender systems
#
# *Time: about 50 minutes.*
#
# **Objectives.** After this set you can
# 1. build the item-means baseline;
# 2. write one step of iterative low-rank imputation ("hard impute": fill the missing entries with the current fit,
#    refit item means plus a rank-$k$ truncated SVD);
# 3. iterate it to convergence;
# 4. choose the rank by held-out error, and report the error of the chosen rank on data the choice did not see.
#
# Goes with `notebooks/12_missing_values_recommenders.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random ratings matrices) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells:
# the grader restores them. Use NumPy and your own functions (not `dimred_teach.imputation`, which solves these
# exercises; the grader's kernel does not have it).
#
# **Notes.** CMU 36-467/667 "Linear Dimension Reduction", "Netflix and recommender systems" (the three questions
# before using PCA: which are the features, how to predict from scores, how to handle missing values).

# %%
import numpy as np

import dimred_teach as dr
from dimred_teach import check
from dimred_teach.datasets import make_ratings

dr.setup_notebook()

# %% [markdown]
# A ratings matrix: 300 users (rows) by 120 items (columns), about 80% of the entries missing (`NaN`), made by the
# course from a known rank-3 model plus noise of standard deviation 0.5.

# %%
ratings, truth = make_ratings(n_users=300, n_items=120, rank=3, observed=0.2, noise=0.5, seed=0)
print(ratings.shape, "observed:", dr.rounded(np.mean(~np.isnan(ratings))))

# %% [markdown]
# ## Exercise 1 · The baseline: item means *(5 min, lecture §1)*
#
# Write `predict_item_means(R)`: given a ratings matrix `R` with `NaN` for missing entries, return the
# $n\times p$ matrix that predicts every rating of item $j$ by the mean of the **observed** ratings of item $j$.

# %%
def predict_item_means(R):
    """Every entry of column j: the mean of the observed ratings in column j, shape (n, p)."""
    # BEGIN SOLUTION
    return np.zeros_like(R) + np.nanmean(R, axis=0)
    # END SOLUTION


# %% points=1
check("12.item_means", predict_item_means)

# %% [markdown]
# ## Exercise 2 · One step of hard impute *(15 min, lecture §3)*
#
# Write `impute_step(R, fit, k)`: fill the missing entries of `R` with the current `fit` (an $n\times p$ matrix;
# the observed entries keep their ratings), then return the best "column means plus rank $k$" approximation of
# the filled matrix: subtract its column means, keep the $k$ leading terms of the SVD, add the means back.

# %%
def impute_step(R, fit, k):
    """One hard-impute step: the item means plus rank-k SVD of R with its holes filled from fit, shape (n, p)."""
    # BEGIN SOLUTION
    Z = np.where(np.isnan(R), fit, R)
    means = Z.mean(axis=0)
    U, s, Vt = np.linalg.svd(Z - means, full_matrices=False)
    return (U[:, :k] * s[:k]) @ Vt[:k] + means
    # END SOLUTION


# %% points=2
check("12.impute_step", impute_step)

# %% [markdown]
# ## Exercise 3 · Iterate *(10 min, lecture §3)*
#
# Write `my_low_rank_impute(R, k, n_iter)`: start from the item means of Exercise 1 as the fit, apply `impute_step`
# `n_iter` times, and return the **completed** matrix: the observed ratings as they are, the missing ones from the
# final fit.

# %%
def my_low_rank_impute(R, k, n_iter):
    """R with its missing entries filled by n_iter hard-impute steps from the item means, shape (n, p)."""
    # BEGIN SOLUTION
    fit = predict_item_means(R)
    for _ in range(n_iter):
        fit = impute_step(R, fit, k)
    return np.where(np.isnan(R), fit, R)
    # END SOLUTION


# %% points=2
check("12.hard_impute", my_low_rank_impute)

# %% [markdown]
# ## Exercise 4 · Choose the rank by held-out error *(20 min, lecture §5)*
#
# Write `choose_rank(train, rows, cols, values, ranks)`. `train` is a ratings matrix from which some observed
# ratings were hidden (set to `NaN`): the hidden ones sit at `(rows[i], cols[i])` and were `values[i]`. For each
# $k$ in `ranks`, complete `train` with your `my_low_rank_impute(train, k, 100)` (Exercise 3), measure the root
# mean squared error of the completed matrix on the hidden entries, and return the $k$ with the smallest. The check
# calls your function on fresh ratings matrices of other ranks.
#
# Then use it on `ratings_4` below (200 users, 80 items, 70% missing, made from a rank-4 model): the cell hides a
# tenth of the observed ratings as a **validation** set, to choose $k$, and another tenth as a **test** set, to
# report the error of the chosen $k$. Say in the markdown cell how the training error behaves with $k$, why it
# cannot choose $k$, and why the test error, not the smallest validation error, is the one to report.

# %%
def choose_rank(train, rows, cols, values, ranks):
    """The k in ranks whose hard-impute completion of train has the smallest RMSE on the hidden entries (an int)."""
    # BEGIN SOLUTION
    def held_out_rmse(k):
        completed = my_low_rank_impute(train, k, 100)
        return np.sqrt(np.mean((completed[rows, cols] - values) ** 2))
    return min(ranks, key=held_out_rmse)
    # END SOLUTION


# %% points=1
check("12.best_rank", choose_rank)

# %%
ratings_4, _ = make_ratings(n_users=200, n_items=80, rank=4, observed=0.3, noise=0.4, seed=4)
rows, cols = np.nonzero(~np.isnan(ratings_4))
order = np.random.default_rng(2).permutation(rows.size)
tenth = rows.size // 10
validation, test = order[:tenth], order[tenth : 2 * tenth]
train = ratings_4.copy()
train[rows[order[: 2 * tenth]], cols[order[: 2 * tenth]]] = np.nan  # both hidden sets

# BEGIN SOLUTION
validation_rmse = {}
observed = ~np.isnan(train)
for k in range(1, 7):
    completed = my_low_rank_impute(train, k, 100)
    refit = impute_step(train, completed, k)  # the converged fit, seen on the training ratings
    training = np.sqrt(np.mean((refit[observed] - train[observed]) ** 2))
    validation_rmse[k], test_error = [
        np.sqrt(np.mean((completed[rows[part], cols[part]] - ratings_4[rows[part], cols[part]]) ** 2))
        for part in (validation, test)]
    print(f"k = {k}: training RMSE {training:.4f}, validation RMSE {validation_rmse[k]:.4f}, "
          f"test RMSE {test_error:.4f}")
best_k = choose_rank(train, rows[validation], cols[validation], ratings_4[rows[validation], cols[validation]],
                     range(1, 7))
chosen = my_low_rank_impute(train, best_k, 100)
test_rmse = np.sqrt(np.mean((chosen[rows[test], cols[test]] - ratings_4[rows[test], cols[test]]) ** 2))
print("chosen rank:", best_k, "| its validation RMSE:", dr.rounded(validation_rmse[best_k]), "| its test RMSE:",
      dr.rounded(test_rmse))
assert best_k == 4 and round(validation_rmse[4], 2) == 0.48 and round(test_rmse, 2) == 0.47
# END SOLUTION

# %% [markdown] tags=["solution"]
# **Reading.** The training error falls with every extra rank (each one adds parameters to fit the observed
# ratings, noise included), so it would always pick the largest $k$. The validation error falls until $k = 4$, the
# rank of the model that made these ratings, and rises after it: the extra factors fit noise and predict hidden
# ratings worse. The smallest validation error is an optimistic estimate in general, because $k$ was chosen to make
# it small (lecture §5: no longer an honest estimate); the test ratings played no part in the choice, so their
# RMSE, about 0.47, is the one to report. Here the validation error of $k = 4$ (about 0.48) is not below it: with
# one clear minimum among six ranks the choice gains little, less than the difference between two random tenths
# of the ratings. Both sit just above the noise level 0.4, the error even the true model would make.
#
# **Rubric.**
#
# - 1 point: The training error falls with every extra rank, so it would always choose the largest $k$.
# - 1 point: The validation error is smallest near the true rank 4 and rises after: the extra factors fit noise.
# - 1 point: The chosen $k$'s validation error is optimistic (it was chosen to be small); the test ratings played no
#   part, so their error is the one to report.
