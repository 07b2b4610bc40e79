# %% [markdown]
# # Exercises 09 · Feature selection versus feature extraction
#
# *Time: about 65 minutes.*
#
# **Objectives.** After this set you can
# 1. compute the two-sample t statistic;
# 2. compute the mutual information of two discrete variables from a table of counts;
# 3. take one step of the incremental mutual-information criterion;
# 4. write the nearest-centroid classifier;
# 5. use a wrapper to find the best pair of features;
# 6. take one coordinate step of the LASSO;
# 7. rank features by recursive feature elimination.
#
# **Follows:** lecture notebook `09_feature_selection`; WashU lecture A2
# section 1; Georgia Tech ECE 6254 notes, "Filtering", "Avoiding redundant
# features" and "Solutions" (wrapper and embedded methods).
#
# **References:** M. Neumann, *USL: Dimensionality Reduction*, lecture A2, WashU; ECE 6254 course notes,
# *Dimensionality Reduction*, Georgia Tech.
#
# Each exercise is followed by a check cell: run it to see whether your answer has the
# properties it needs. Your functions are tested on fresh random data each time.
# `dimred_teach.selection` may help you explore, but its functions that answer an exercise
# (`t_statistic`, `discrete_mutual_information`, `fit_nearest_centroid`, `soft_threshold`, `lasso_path`,
# `recursive_feature_elimination`) are refused inside your answers by the checks and the grader, and
# so are the helpers built on them (`select_incremental_mi`, `cross_val_accuracy`, ...): where an
# exercise needs what they compute, it says which of your own functions to use instead.

# %%
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import itertools

import numpy as np

import dimred_teach as dr
from dimred_teach import check, datasets, pca, selection

dr.setup_notebook()


# %% [markdown]
# ## Exercise 1 · The two-sample t statistic *(10 min, lecture §2)*
#
# Write `two_sample_t(a, b)` for two 1-D samples: the difference of the means divided by
# its standard error under a common variance,
#
# $$ t = \frac{\bar a - \bar b}{s \sqrt{1/n_a + 1/n_b}}, \qquad
#    s^2 = \frac{(n_a - 1) s_a^2 + (n_b - 1) s_b^2}{n_a + n_b - 2}, $$
#
# with $s_a^2, s_b^2$ the sample variances (divide by $n - 1$). Write it from the formula with NumPy: the check
# compares your function with `scipy.stats.ttest_ind` on random samples, so that one-liner would pass too and teach
# nothing (use it to test yours).

# %%
def two_sample_t(a, b):
    """Pooled two-sample t statistic of the 1-D samples a and b (a float)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("09.t_statistic", two_sample_t)


# %% [markdown]
# ## Exercise 2 · Mutual information from a table of counts *(10 min, lecture §4)*
#
# Write `mi_from_counts(counts)`: given a table `counts[u, v]` of how often the discrete
# values $u$ and $v$ occur together, return
#
# $$ I = \sum_{u, v:\, p(u, v) > 0} p(u, v) \log \frac{p(u, v)}{p(u)\, p(v)} $$
#
# in nats (natural logarithm), with $p(u, v)$ the relative frequencies and $p(u)$,
# $p(v)$ the row and column sums of $p$.

# %%
def mi_from_counts(counts):
    """Mutual information (nats) of the joint distribution given by a 2-D table of counts."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("09.mi_from_counts", mi_from_counts)


# %% [markdown]
# ## Exercise 3 · One step of the incremental criterion *(10 min, lecture §4)*
#
# Features $j_1, \dots, j_{m-1}$ (the list `selected`) are already chosen. Write
# `next_feature(relevance, redundancy, selected, beta)` returning the index $j$ of the
# feature, among those not yet selected, that maximises
#
# $$ \text{relevance}[j] - \beta \sum_{i \in \text{selected}} \text{redundancy}[j, i]. $$
#
# `relevance` has shape (p,) (the $I(x_j; y)$), `redundancy` shape (p, p) (the
# $I(x_j; x_l)$).

# %%
def next_feature(relevance, redundancy, selected, beta):
    """Index of the next feature chosen by the incremental mutual-information criterion."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("09.incremental_step", next_feature)

# %% [markdown]
# Now compute the relevance and the redundancy of the lecture's demo data yourself, as the
# lecture does: cut every column into 10 equal-width bins (`codes` below), count how often
# each pair of values occurs with `selection.contingency_table(a, b)` (a table of counts, rows
# the values of `a`), and apply your `mi_from_counts` from Exercise 2 to each table: the
# relevance of column $j$ from the table of `codes[:, j]` and `y`, its redundancy with column
# $l$ from the table of `codes[:, j]` and `codes[:, l]`. Starting from `strong` (column 0),
# your step should not choose its copy (column 1) when $\beta = 1$:

# %%
demo = datasets.make_selection_demo(seed=0)
X = demo.drop(columns="label").to_numpy()
y = demo["label"].to_numpy()
codes = selection.discretize(X, bins=10)
# YOUR CODE HERE
relevance = ...
redundancy = ...


# %% [markdown]
# ## Exercise 4 · The nearest-centroid classifier *(10 min, lecture §3)*
#
# Write `nearest_centroid_predict(X_train, y_train, X_test)`: compute the mean of the
# training rows of each class, and give every test row the label of the closest mean
# (Euclidean distance). Labels may be any integers; return an array of shape
# `(len(X_test),)`. Use NumPy only.

# %%
def nearest_centroid_predict(X_train, y_train, X_test):
    """Labels of the rows of X_test by the nearest class mean of (X_train, y_train)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("09.nearest_centroid", nearest_centroid_predict)


# %% [markdown]
# ## Exercise 5 · The best pair of features *(10 min, lecture §3)*
#
# Do Exercise 4 first: this one uses your classifier. Write `best_pair(X, y)`: the pair of
# columns `(i, j)` of `X` on which your `nearest_centroid_predict` has the highest
# cross-validated accuracy, `selection.kfold_accuracy(X[:, [i, j]], y, nearest_centroid_predict)`
# (5 folds, seed 0). The check calls it on fresh samples of the demo data with the columns in
# a random order. Then apply it to `X_pairs`, `y_pairs` below, a new sample of the demo data
# with the columns in another order and their names hidden. Is the best pair the pair of the
# two best single features (by $|t|$)?

# %%
def best_pair(X, y):
    """The pair (i, j), i < j, of columns of X (n x p) with the best cross-validated accuracy."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("09.best_pair", best_pair)

# %%
pairs_demo = datasets.make_selection_demo(n=250, seed=3)
X_pairs = pairs_demo[["pair_a", "strong_copy", "noise", "strong", "pair_b"]].to_numpy()
y_pairs = pairs_demo["label"].to_numpy()
# YOUR CODE HERE
pass


# %% [markdown] dimred_teach={"written": {"exercise": "09.best_pair", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 6 · One coordinate step of the LASSO *(10 min, lecture §8)*
#
# The LASSO minimises $\frac{1}{2n}\lVert y - Xb \rVert^2 + \alpha \lVert b \rVert_1$. Write
# `lasso_coordinate_step(X, y, b, j, alpha)` returning the new value of $b_j$ that minimises
# this objective over $b_j$ alone, the other coefficients fixed at `b`:
#
# $$ b_j^{\text{new}} = \frac{S\!\left(\tfrac1n x_j^\top r_j,\ \alpha\right)}{\tfrac1n x_j^\top x_j},
#    \qquad r_j = y - \sum_{k \ne j} x_k b_k, \qquad S(z, \alpha) = \operatorname{sign}(z)\max(|z| - \alpha, 0), $$
#
# where $r_j$ is the residual *without* feature $j$. Do not assume the columns are
# standardised. Return a single number. Use NumPy only (not `selection.soft_threshold` or `selection.lasso_path`).

# %%
def lasso_coordinate_step(X, y, b, j, alpha):
    """The LASSO-optimal b_j with the other coefficients of b (shape (p,)) fixed (a float)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("09.lasso_coordinate_step", lasso_coordinate_step)

# %% [markdown]
# Sweeping this step over $j = 0, 1, \dots$ until nothing moves is coordinate descent. On
# the small standardised problem below, start from `b = np.zeros(3)` and run twenty sweeps
# over $j = 0, 1, 2$ with $\alpha = 0.1$. Is `b` the LASSO's minimiser? At the minimiser the
# correlations $c = \tfrac1n X^\top (y - Xb)$ of the columns with the residual satisfy
# $c_j = \alpha \operatorname{sign}(b_j)$ where $b_j \ne 0$, and $|c_j| \le \alpha$ where $b_j = 0$
# (exactly where your step leaves every $b_j$ as it is). Print `b` and `c`:

# %%
rng = np.random.default_rng(0)
X_small = pca.standardize(rng.standard_normal((50, 3)) @ [[1, 0.5, 0], [0, 1, 0.3], [0, 0, 1]], ddof=0)
y_small = X_small @ [1.0, -0.5, 0.0] + rng.normal(0, 0.3, 50)
y_small -= y_small.mean()
# YOUR CODE HERE
b = ...
c = ...


# %% [markdown] dimred_teach={"written": {"exercise": "09.lasso_coordinate_step", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 7 · The ranking of recursive feature elimination *(5 min, lecture §5)*
#
# Write `rfe_ranking(X, y)`: standardise the columns of `X` (subtract the mean, divide by
# the standard deviation), fit least squares of `y` on them with an intercept, drop the
# feature with the smallest absolute coefficient, **refit** on the remaining features, and
# repeat until one feature is left. Return an integer array `ranking` of shape (p,):
# `ranking[j] = 1` for the feature that survives, 2 for the last one dropped, ..., p for
# the first one dropped (the `ranking_` of scikit-learn's `RFE`). Use NumPy only. Section 5 introduces wrappers; the
# lecture's optional section, "A backward wrapper", runs this one.

# %%
def rfe_ranking(X, y):
    """RFE ranking (1 = survivor, p = dropped first) of least squares on standardised columns."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("09.rfe_ranking", rfe_ranking)
