# %% [markdown] slideshow={"slide_type": "slide"}
# # 09 · Feature selection versus feature extraction
#
# **Learning objectives.** After this notebook you can
# - say what separates feature *selection* (keep some of the original columns) from
#   feature *extraction* (build new columns, as PCA does);
# - compute the filter scores of the notes (misclassification rate, t statistic, margin,
#   correlation, mutual information) and rank features with them;
# - explain, with a concrete data set, why "the k best features" are not "the best k
#   features": redundant copies, and features that only help together;
# - use the incremental mutual-information criterion to avoid redundant features, and a
#   wrapper (forward selection around a classifier) to capture interactions;
# - compare selected features with principal components for the same classifier;
# - rank features for a continuous target by correlation and by mutual information;
# - read a LASSO coefficient path (embedded selection) and run recursive feature
#   elimination (a backward wrapper), on standardised features;
# - say what the unsupervised variance filter does and why it depends on the units.
#
# **Time:** about 60 minutes, plus about 10 for the optional last section.
#
# **Follows:** WashU lecture A2 (notes file 002), section 1 "Feature engineering
# overview"; Georgia Tech ECE 6254 notes (file 003), "Filtering", "Ranking in
# classification / regression", "Avoiding redundant features" and "Drawback".
#
# **References:** M. Neumann, *USL: Dimensionality Reduction*, lecture A2, WashU (seeds
# file 002); ECE 6254 course notes, *Dimensionality Reduction*, Georgia Tech (seeds file 003).

# %% slideshow={"slide_type": "subslide"}
import itertools

import numpy as np
import matplotlib.pyplot as plt
import pandas as pd
import scipy.stats

import dimred_teach as dr
from dimred_teach import datasets, selection
from dimred_teach.pca import pca, standardize
from dimred_teach.plotting import label_points, score_scatter

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. Two ways to get fewer features
#
# Both notes split "feature engineering" into two families. **Selection** keeps a subset
# of the original columns, say $x' = (x_1, x_6, x_{32})$: the result is still in the
# original units and easy to interpret. **Extraction** builds new features
# $x' = (\phi_1(x), \phi_2(x), \dots)$ from all the columns; PCA is the linear case,
# $\phi_j(x) = v_j^\top (x - \bar x)$.
#
# Both are linear maps when the $\phi_j$ are linear: selecting columns $S$ is multiplying
# by a matrix whose columns are coordinate vectors $e_j$, $j \in S$. The difference is
# which directions are allowed: axes only, or any direction.

# %% slideshow={"slide_type": "fragment"}
crabs = datasets.load_crabs()
measurements = list(datasets.CRABS_MEASUREMENTS)
X_crabs = crabs[measurements].to_numpy()
species = crabs["species"].to_numpy().astype(str)

E = np.eye(5)[:, [0, 4]]  # "select FL and BD" as a 5 x 2 matrix of coordinate vectors
print(np.array_equal(X_crabs @ E, X_crabs[:, [0, 4]]))
print(E.T @ E)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Selecting is projecting onto coordinate axes: $E$ has orthonormal columns, just like
# a matrix of principal directions, but each column has a single non-zero entry.
#
# ## 2. Filter scores
#
# A *filter* ranks each feature on its own by how well it predicts the label, and keeps
# the $k$ best. It is fast (one pass per feature) and ignores the downstream model.
# We use a small two-class data set built to expose the traps of this idea
# (`datasets.make_selection_demo`): a `strong` feature, a near copy of it, two features
# `pair_a`, `pair_b` that are weak alone, and pure `noise`.

# %% slideshow={"slide_type": "fragment"}
demo = datasets.make_selection_demo(n=400, seed=0)
names = list(demo.columns[:-1])
X = demo[names].to_numpy()
y = demo["label"].to_numpy()
print(X.shape, np.bincount(y))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The scores of the Georgia Tech notes, one number per column:
#
# - **misclassification rate** of the best one-feature threshold rule
#   ("class 1 when $x_j > t$"), lower is better;
# - **two-sample t statistic** $t_j = (\bar x_j^{(+)} - \bar x_j^{(-)}) / (s_j \sqrt{1/n_+ + 1/n_-})$
#   with the pooled standard deviation $s_j$; rank by $|t_j|$. (The notes divide by $s/\sqrt n$; we use the
#   standard two-sample denominator, which is $2s_j/\sqrt n$ for two equal classes. The factor is the same for every
#   feature, so the ranking does not change.)
# - **margin**: the width of the empty gap between the classes along $x_j$ (negative:
#   the width of their overlap), higher is better;
# - **absolute correlation** $|\rho(x_j, y)|$ with $y$ coded 0/1;
# - **mutual information** $I(x_j; y) = \sum p(x, y) \log \frac{p(x, y)}{p(x) p(y)}$, in
#   nats, with $x_j$ cut into 10 equal-width bins.

# %% slideshow={"slide_type": "fragment"}
scores = pd.DataFrame({
    "misclass": selection.misclassification_rate(X, y),
    "|t|": np.abs(selection.t_statistic(X, y)),
    "margin": selection.margin(X, y),
    "|corr|": selection.abs_correlation(X, y),
    "MI": selection.mutual_information(X, y, bins=10),
}, index=names)
scores

# %% [markdown] slideshow={"slide_type": "subslide"}
# Every score tells the same story: `strong` and its copy are the best single features,
# `pair_a` and `pair_b` are mediocre (a threshold rule misclassifies more than a third of
# the points), `noise` is useless. No margin is positive: no single feature separates the
# classes. The noise column still has a small positive mutual information: binning a
# finite sample always finds a little dependence.
#
# The t statistic is the one of `scipy.stats.ttest_ind`, and for 0/1 labels the
# correlation is a function of it: $|\rho| = |t| / \sqrt{t^2 + n - 2}$ (the point-biserial
# correlation). Both facts, checked:

# %% slideshow={"slide_type": "fragment"}
t = selection.t_statistic(X, y)
print(np.allclose(t, scipy.stats.ttest_ind(X[y == 1], X[y == 0]).statistic))
print(np.allclose(scores["|corr|"], np.abs(t) / np.sqrt(t**2 + len(y) - 2)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# So for two classes, ranking by $|t|$ or by $|\rho|$ gives the same order.
#
# ## 3. The k best features are not the best k features
#
# Keep the two best features by $|t|$ and train the same classifier on them. Our
# classifier is the **nearest centroid** rule (each point gets the class whose mean is
# closest), scored by 5-fold cross-validated accuracy with a seeded split, so every pair
# is judged on the same folds.

# %% slideshow={"slide_type": "fragment"}
top_two = selection.top_k(np.abs(t), 2)
print([names[j] for j in top_two])
accuracy = {pair: selection.cross_val_accuracy(X[:, list(pair)], y, folds=5, seed=0)
            for pair in itertools.combinations(range(len(names)), 2)}
pd.Series({f"{names[i]} + {names[j]}": value for (i, j), value in accuracy.items()},
          name="CV accuracy").sort_values(ascending=False)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The two top-ranked features reach about 0.79; the pair made of the two *weak*
# features reaches 1.0. Two things went wrong with ranking:
#
# 1. **Redundancy.** `strong_copy` carries almost nothing that `strong` does not: the
#    second slot is wasted.
# 2. **Interaction.** `pair_a` and `pair_b` are individually weak, but
#    `pair_a + pair_b` $= 0.4\,s$ with $s = \pm 1$ the class: together they separate the
#    classes exactly. A score that looks at one feature at a time cannot see this.

# %% slideshow={"slide_type": "fragment"}
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
classes = np.where(y == 1, "class 1 (s = +1)", "class 0 (s = -1)")
score_scatter(X, classes, ax=axes[0], components=(0, 1), labels=("strong", "strong_copy"),
              title="top two by |t|: redundant")
score_scatter(X, classes, ax=axes[1], components=(2, 3), labels=("pair_a", "pair_b"),
              title="two weak features: jointly perfect")
axes[1].plot([-1.2, 1.2], [1.2, -1.2], "k--", lw=1)
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Left: the two best features lie on a line, so the second adds no new direction and the
# classes overlap as much as with `strong` alone. Right: each axis alone shows two
# overlapping classes, but the dashed line $x_a + x_b = 0$ separates them perfectly.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Redundancy and the incremental criterion
#
# The Georgia Tech notes fix the first problem by choosing features one at a time. With
# $j_1, \dots, j_{m-1}$ already chosen, the next feature maximises
#
# $$ I(x_j; y) - \beta \sum_{i < m} I(x_j; x_{j_i}), $$
#
# relevance minus $\beta$ times redundancy with what is already chosen. The redundancy
# terms are mutual informations between binned features:

# %% slideshow={"slide_type": "fragment"}
result = selection.select_incremental_mi(X, y, k=3, beta=1.0, bins=10)
pd.DataFrame(result.redundancy, index=names, columns=names)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The diagonal is each feature's entropy. `strong` and `strong_copy` share 1.79 nats,
# nearly all of their information. `pair_a` and `pair_b` also share a lot (both contain
# the same nuisance $u$), while `noise` shares little with anything.
#
# Now the selection for several $\beta$:

# %% slideshow={"slide_type": "fragment"}
for beta in (0.0, 0.5, 1.0):
    chosen = selection.select_incremental_mi(X, y, k=3, beta=beta, bins=10)
    print(f"beta = {beta}: {[names[j] for j in chosen.selected]}, criteria {chosen.criteria}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# With $\beta = 0$ the criterion is the plain ranking by mutual information and the copy
# comes second. With $\beta > 0$ the copy is penalised away. Whichever of `pair_a` and
# `pair_b` is chosen first (`pair_a` at $\beta = 0.5$, `pair_b` at $\beta = 1$), the other
# is then penalised for the 1.15 nats it shares with it, because the two look redundant
# one pair at a time, and the incremental filter never picks the perfect pair. This is the
# "drawback" of the notes: filters cannot capture interactions between features.
#
# With $\beta = 0$ the incremental procedure really is the ranking:

# %% slideshow={"slide_type": "fragment"}
plain = selection.select_incremental_mi(X, y, k=5, beta=0.0)
print(np.array_equal(plain.selected, selection.top_k(scores["MI"].to_numpy(), 5)))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Wrappers: let the classifier judge subsets
#
# A *wrapper* scores a subset of features by the cross-validated accuracy of the model
# itself. Forward selection is greedy: start empty and keep adding the feature that
# raises the accuracy most.

# %% slideshow={"slide_type": "fragment"}
forward = selection.forward_selection(X, y, k=3, folds=5, seed=0)
print([names[j] for j in forward.selected], forward.accuracies)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Greedy search also starts with `strong`; adding `pair_a` next helps only a little,
# because the other half of the pair is missing. By the third step it holds both halves,
# but `strong` is already in, and with its large spread it blurs the distances the
# nearest-centroid rule uses: 0.82, not 1.0. Greedy search never removes a feature it
# has chosen. It scores
# about $p k$ subsets; only the exhaustive search of section 3, which scores all
# $\binom{p}{k}$ subsets, found the perfect pair. For $p = 5$ that is cheap, but the
# number of subsets grows quickly with $p$:

# %% slideshow={"slide_type": "fragment"}
for p in (5, 20, 100):
    print(p, "features: pairs", len(list(itertools.combinations(range(p), 2))),
          "| greedy, k = 2:", p + (p - 1))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. Selected features against principal components: the crabs
#
# Back to the crabs (two species, five body measurements in mm). We predict the species
# with the same nearest-centroid classifier from (a) $k$ measurements chosen by forward
# selection, (b) the first $k$ principal components, (c) $k$ components chosen by forward
# selection among all five. PCA never looks at the labels; here it is fitted once on all
# 200 crabs (strictly it should be refitted inside every fold, but it uses no labels, so
# the leak is small).

# %% slideshow={"slide_type": "fragment"}
crabs_pca = pca(X_crabs, k=5)
components = crabs_pca.scores
rows = []
for k in (1, 2, 3):
    chosen = selection.forward_selection(X_crabs, species, k)
    chosen_pcs = selection.forward_selection(components, species, k)
    rows.append({
        "k": k,
        "selected measurements": ", ".join(measurements[j] for j in chosen.selected),
        "accuracy": chosen.accuracies[-1],
        "first k PCs": selection.cross_val_accuracy(components[:, :k], species),
        "selected PCs": ", ".join(f"PC{j + 1}" for j in chosen_pcs.selected),
        "accuracy PCs": chosen_pcs.accuracies[-1],
    })
pd.DataFrame(rows).set_index("k")

# %% slideshow={"slide_type": "subslide"}
print("PC1 loadings:", crabs_pca.components[:, 0])
print("explained variance ratio:", crabs_pca.explained_variance_ratio)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The raw measurements never get far: every one of them is mostly *size*, and the
# species overlap in size. The first principal components are worse still: PC1 is the
# size direction (all five loadings positive, 98% of the variance), and variance is not
# what separates the species. But PC2 and PC3 are shape contrasts, and
# choosing them by the labels gives almost perfect classification.

# %% slideshow={"slide_type": "fragment"}
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
species_names = np.where(species == "B", "blue species", "orange species")
score_scatter(X_crabs, species_names, ax=axes[0], components=(0, 4), labels=("FL (mm)", "BD (mm)"),
              title="two selected measurements")
score_scatter(components, species_names, ax=axes[1], components=(2, 1), labels=("PC3", "PC2"),
              title="two selected principal components")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Left: in the two selected measurements the species lie along the same size line,
# side by side. Right: on PC3 and PC2 they separate almost completely. Extraction finds
# good directions but does not know which ones matter for the label; selection knows
# the label but is restricted to the axes. Extracting and then selecting combines both.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 7. Ranking for a regression target
#
# So far the label was a class. The Georgia Tech notes rank features for a *continuous*
# target $y$ with the same two ideas: the absolute correlation $|\rho(x_j, y)|$ and the
# mutual information $I(x_j; y)$. We build a regression data set with a known answer
# (seed 0, 1,000 rows, five features, all of mean 0):
#
# - `signal` (standard deviation 1) enters $y$ with weight 2;
# - `signal_m` is the same kind of quantity measured in other units (standard deviation
#   0.1), with weight 10, so it moves $y$ half as much as `signal` per standard deviation;
# - `proxy` $=$ `signal` $+$ noise: correlated with `signal`, but $y$ does not use it;
# - `curved` enters through its *square*, $1.5\,(x^2 - 1)$: a dependence that is not linear;
# - `noise` is unrelated to everything.

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(0)
n_reg = 1000
signal = rng.standard_normal(n_reg)
X_reg = np.column_stack([signal, 0.1 * rng.standard_normal(n_reg), signal + 0.6 * rng.standard_normal(n_reg),
                         rng.standard_normal(n_reg), rng.standard_normal(n_reg)])
reg_names = ["signal", "signal_m", "proxy", "curved", "noise"]
y_reg = (2.0 * X_reg[:, 0] + 10.0 * X_reg[:, 1] + 1.5 * (X_reg[:, 3] ** 2 - 1)
         + 0.5 * rng.standard_normal(n_reg))
print(X_reg.std(axis=0).round(2), round(y_reg.std(), 2))

# %% [markdown] slideshow={"slide_type": "subslide"}
# `selection.mutual_information` treats its `y` as labels, and a continuous $y$ has a
# different value in every row. So we cut $y$ into 10 equal-width bins first, like the
# features (`selection.discretize`). To see how much mutual information binning alone
# finds, we also score a shuffled copy of $y$, which is independent of every feature.

# %% slideshow={"slide_type": "fragment"}
y_bins = selection.discretize(y_reg[:, None], bins=10)[:, 0]
shuffled = np.random.default_rng(1).permutation(y_bins)
regression_scores = pd.DataFrame({
    "|corr|": selection.abs_correlation(X_reg, y_reg),
    "MI": selection.mutual_information(X_reg, y_bins, bins=10),
    "MI, shuffled y": selection.mutual_information(X_reg, shuffled, bins=10),
}, index=reg_names)
regression_scores.round(3)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The correlation sees only straight lines: `curved` gets 0.09, barely above `noise`
# (0.02), although $y$ depends on it strongly. The mutual information of `curved` is
# 0.25 nats, more than six times that of `noise` (0.04) and far above what a shuffled
# $y$ gives (at most 0.04): it finds the dependence through $x^2$. Both scores are fooled
# by `proxy`: it ranks second by correlation and third by mutual information, because it
# shares `signal`'s information, although $y$ never uses it. That is the "drawback" again:
# one feature at a time, a score cannot tell a cause from its correlated copy.

# %% slideshow={"slide_type": "fragment"}
corr_order = selection.top_k(regression_scores["|corr|"].to_numpy(), 5)
mi_order = selection.top_k(regression_scores["MI"].to_numpy(), 5)
print("by |corr|:", [reg_names[j] for j in corr_order])
print("by MI:    ", [reg_names[j] for j in mi_order])
assert regression_scores.loc["curved", "MI"] > 5 * regression_scores.loc["noise", "MI"]
assert regression_scores.loc["curved", "|corr|"] < 0.1
assert regression_scores.loc["curved", "MI"] > regression_scores["MI, shuffled y"].max()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 8. Embedded selection: the LASSO path
#
# The notes' second remedy is an *embedded* method: selection happens while the model is
# fitted. The LASSO fits a linear model with a penalty on the sum of the absolute
# coefficients,
#
# $$ \min_b \; \frac{1}{2n} \lVert y - X b \rVert^2 + \alpha \lVert b \rVert_1 , $$
#
# the objective of scikit-learn. The corner of $|b_j|$ at 0 makes many coefficients
# *exactly* zero: for a large $\alpha$ all of them, and as $\alpha$ shrinks the features
# enter one by one. The order in which they enter is a ranking that, unlike a filter,
# takes the other features into account.
#
# `selection.lasso_path` solves it by coordinate descent: with the others fixed, the best
# $b_j$ is a *soft threshold*,
#
# $$ b_j \leftarrow \frac{S\!\left(\tfrac1n x_j^\top r + \tfrac1n x_j^\top x_j\, b_j,\ \alpha\right)}{\tfrac1n x_j^\top x_j},
#    \qquad S(z, \alpha) = \operatorname{sign}(z)\max(|z| - \alpha, 0), $$
#
# with $r = y - Xb$ the current residual. It sweeps over $j$ until nothing moves, then
# lowers $\alpha$ and starts from the solution it has (a *warm start*). The penalty
# treats all coefficients alike, so the features must be in comparable units: we
# standardise them (and centre $y$, since there is no intercept).

# %% slideshow={"slide_type": "fragment"}
Z_reg = standardize(X_reg, ddof=0)
y_centred = y_reg - y_reg.mean()
path = selection.lasso_path(Z_reg, y_centred, n_alphas=80)
print("alpha from", path.alphas[0].round(3), "down to", path.alphas[-1].round(5))
print("entry order:", [reg_names[j] for j in path.entry_order])
print("entry alphas:", {name: round(float(a), 3) for name, a in zip(reg_names, path.entry_alphas)})
assert path.entry_order[:2].tolist() == [0, 1] and path.entry_order[-1] == 2  # signal, signal_m first; proxy last
assert np.isclose(path.alphas[0], np.abs(Z_reg.T @ y_centred).max() / n_reg)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The largest $\alpha$ of the grid is $\max_j |x_j^\top y| / n$, the smallest penalty at
# which every coefficient is still zero; the first feature to enter is the one most
# correlated with $y$. The path, with each feature's entry marked:

# %% slideshow={"slide_type": "fragment"}
fig, ax = plt.subplots(figsize=(8, 4.5))
for j, name in enumerate(reg_names):
    ax.plot(path.alphas, path.coefs[j], lw=1.5, label=name)
entry_step = np.argmax(path.coefs != 0, axis=1)[path.entry_order]  # first alpha at which each feature is non-zero
entry_points = np.column_stack([path.alphas[entry_step], path.coefs[path.entry_order, entry_step]])
ax.scatter(*entry_points.T, color="k", zorder=3, s=18)
ax.set_xscale("log")
ax.invert_xaxis()
label_points(ax, entry_points, [f"{rank}: {reg_names[j]}" for rank, j in enumerate(path.entry_order, 1)],
             directions=np.tile([0.0, 1.0], (len(path.entry_order), 1)))
ax.set(xlabel="penalty alpha (log scale, decreasing to the right)", ylabel="coefficient (standardised feature)",
       title="LASSO path: features enter as the penalty shrinks")
ax.legend(loc="upper left")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# `signal` enters first (at $\alpha = 1.84$), then `signal_m` (0.92), as they should.
# `proxy` enters last (0.03) and stays small: once `signal` is in the model, the proxy has
# nothing to add, which no filter score could see. `curved` enters with a small linear
# coefficient (the sample happens to have a slight linear trend in it); the LASSO is a
# linear model and cannot use $x^2$. At the smallest $\alpha$ the coefficients are close
# to plain least squares:

# %% slideshow={"slide_type": "fragment"}
least_squares = np.linalg.lstsq(Z_reg, y_centred, rcond=None)[0]
print("LASSO at the smallest alpha:", path.coefs[:, -1].round(3))
print("least squares:              ", least_squares.round(3))
print("sweeps per alpha: median", int(np.median(path.n_iter)), "max", path.n_iter.max())
assert np.abs(path.coefs[:, -1] - least_squares).max() < 0.02

# %% [markdown] slideshow={"slide_type": "subslide"}
# The two agree to about 0.01. Warm starts keep the work small: each new $\alpha$
# needs few sweeps because the previous solution is already close. The library's path
# agrees with `sklearn.linear_model.lasso_path` on the same $\alpha$ grid to $10^{-8}$
# (tested in `tests/test_selection.py`).
#
# Why standardise? On the raw columns, `signal_m` (in small units) needs a coefficient
# ten times larger for the same effect, so the penalty charges it ten times more:

# %% slideshow={"slide_type": "fragment"}
raw_path = selection.lasso_path(X_reg - X_reg.mean(axis=0), y_centred, n_alphas=80)
print("raw units, entry order:", [reg_names[j] for j in raw_path.entry_order])
print("entry alpha of signal_m: standardised", path.entry_alphas[1].round(3), "| raw", raw_path.entry_alphas[1].round(3))

# %% [markdown] slideshow={"slide_type": "subslide"}
# In raw units `signal_m` enters third, after `curved`, at $\alpha = 0.09$ instead of 0.92:
# the ranking measured the units, not the importance.
#
# ## 9. A backward wrapper: recursive feature elimination
#
# Backward elimination runs the other way from forward selection: start with all
# features, fit the model, drop the feature with the smallest $|b_j|$, **refit** on the
# rest, and repeat. `selection.recursive_feature_elimination` does this with least
# squares; its `ranking` is that of `sklearn.feature_selection.RFE` (1 for the last
# survivor, larger for features dropped earlier). Slopes equal to 12 significant digits
# count as a tie, which drops the smaller column index, so the ranking does not depend on
# the rounding of the machine's linear algebra.

# %% slideshow={"slide_type": "fragment"}
rfe = selection.recursive_feature_elimination(Z_reg, y_reg)
print("dropped in order:", [reg_names[j] for j in rfe.eliminated])
print("ranking:", {name: int(r) for name, r in zip(reg_names, rfe.ranking)})
rfe_raw = selection.recursive_feature_elimination(X_reg, y_reg)
print("raw units, dropped in order:", [reg_names[j] for j in rfe_raw.eliminated])
assert rfe.support.tolist() == [True, False, False, False, False] and rfe_raw.support[1]

# %% [markdown] slideshow={"slide_type": "subslide"}
# On standardised features the wrapper drops `noise` first, then `proxy`, and keeps
# `signal` to the end, with `signal_m` second: the same top two as the LASSO. On the
# raw columns the last survivor is `signal_m`, whose raw slope (about 10) is the
# largest only because of its units. Each step costs a least-squares fit, so the whole
# elimination costs $p - 1$ fits, each on fewer columns.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 10. An unsupervised filter: drop near-constant features
#
# The WashU notes mention the simplest filter of all: keep the features with the largest
# variance, and drop those that barely vary. It never looks at a label.
# `selection.variance_filter(X, threshold)` keeps the columns whose variance (divided by
# $n$) exceeds the threshold; a column whose values are all equal has variance 0 exactly.
# On the crabs, with a threshold of 10 mm$^2$:

# %% slideshow={"slide_type": "fragment"}
print("variances (mm^2):", {name: round(float(v), 2) for name, v in zip(measurements, X_crabs.var(axis=0))})
print("kept, mm:  ", selection.variance_filter(X_crabs, threshold=10.0))
print("kept, cm:  ", selection.variance_filter(X_crabs / 10, threshold=10.0))
print("kept, standardised:", selection.variance_filter(standardize(X_crabs, ddof=0), threshold=0.5))

# %% [markdown] slideshow={"slide_type": "subslide"}
# In millimetres the filter drops only rear width RW (6.59 mm$^2$); in centimetres every
# variance is 100 times smaller and it drops all five; after standardising every
# variance is 1 and it drops none. The variance filter is honest only for features in the
# same units, and there it answers "which features vary?", not "which features matter?".
# Its safe use is the one with threshold 0: removing columns that are constant.
#
# ## Summary
#
# - Selection keeps original columns (interpretable, axis directions only); extraction
#   builds new ones (any direction, usually unsupervised).
# - Filter scores rank features one at a time. Fast, but the $k$ best are not the best
#   $k$: they can be redundant, and they miss features that only work together.
# - The incremental mutual-information criterion penalises redundancy with $\beta$;
#   with $\beta = 0$ it is the plain ranking.
# - Wrappers score subsets with the model itself; greedy forward selection is cheap but
#   can still miss a pair that only works jointly, and exhaustive search grows fast.
# - For the crabs, the largest-variance components are not the discriminative ones;
#   choosing components by the label works best.
# - For a continuous target, $|\rho|$ finds linear dependence only; the binned mutual
#   information also finds a dependence through $x^2$. Both are fooled by a correlated proxy.
# - The LASSO (embedded) ranks features by the order they enter its path as $\alpha$
#   shrinks; recursive feature elimination (a backward wrapper) drops the smallest
#   coefficient and refits. Both need standardised features.
# - The variance filter drops near-constant columns; it depends on the units.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional): the notes' formulas beside the library's
#
# *About 10 minutes.* The Georgia Tech notes print two scores in a form the library
# corrects. Here both are computed side by side on the demo data of section 2.
#
# **t statistic.** The notes divide the difference of the class means by $s/\sqrt n$.
# The two-sample statistic (`selection.t_statistic`, the one of `scipy.stats.ttest_ind`)
# divides by $s\sqrt{1/n_+ + 1/n_-}$. With $n = n_+ + n_-$ the ratio of the two is
# $\sqrt{n\,(1/n_+ + 1/n_-)}$, which is 2 for two equal classes and the same for every
# feature: different numbers, the same ranking. We check it on all 400 rows and on an
# unbalanced subset (every row of class 0, every fourth row of class 1).

# %% slideshow={"slide_type": "fragment"}
def notes_t(X, y):
    """The notes' (mean+ - mean-) / (s / sqrt(n)), s the pooled standard deviation."""
    a, b = X[y == 0], X[y == 1]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(y) - 2)
    return (b.mean(axis=0) - a.mean(axis=0)) / (np.sqrt(pooled) / np.sqrt(len(y)))


unbalanced = (y == 0) | (np.cumsum(y == 1) % 4 == 0)
for rows in (np.ones(len(y), bool), unbalanced):
    ratio = notes_t(X[rows], y[rows]) / selection.t_statistic(X[rows], y[rows])
    print("classes", np.bincount(y[rows]), "ratio notes / library:", ratio.round(4),
          "same ranking:", np.array_equal(selection.top_k(np.abs(notes_t(X[rows], y[rows])), 5),
                                          selection.top_k(np.abs(selection.t_statistic(X[rows], y[rows])), 5)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# With 200 and 200 rows the ratio is exactly 2; with 200 and 50 it is
# $\sqrt{250\,(1/200 + 1/50)} = 2.5$, again for every feature, and the rankings agree.
# The library's version is the one with a known distribution (Student's t with
# $n - 2$ degrees of freedom), so its size means something on its own.
#
# **Margin.** The notes' margin is $\min_{k, l} |x_{kj} - x_{lj}|$ over pairs of points
# from different classes: the gap between the classes when they are separated. When
# they overlap, some pair of points from different classes is very close, and the
# formula gives a small positive number that measures nothing but the density of the
# sample. `selection.margin` keeps the sign: minus the width of the overlap.

# %% slideshow={"slide_type": "fragment"}
notes_margin = np.abs(X[y == 1][:, None, :] - X[y == 0][None, :, :]).min(axis=(0, 1))
margins = pd.DataFrame({"notes (in units of 1e-6)": (notes_margin * 1e6).round(1),
                        "signed (library)": selection.margin(X, y).round(3)}, index=names)
print(margins)
print("best by the notes' margin:  ", [names[j] for j in selection.top_k(notes_margin, 5)])
print("best by the signed margin:  ", [names[j] for j in selection.top_k(selection.margin(X, y), 5)])

# %% [markdown] slideshow={"slide_type": "subslide"}
# No feature separates the classes, so every notes' margin is below 0.0002 and their
# order is noise: it ranks `noise` *first*. The signed margin ranks `noise` last (an
# overlap 5.33 wide) and the pair features first (overlaps of about 1.5). On separated
# classes the two formulas agree: both give the width of the gap.
