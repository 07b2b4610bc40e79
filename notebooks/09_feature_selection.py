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
# - read a LASSO coefficient path (embedded selection) on standardised features, say why
#   the $L_1$ penalty gives exact zeros (the $L_1$ ball against the $L_2$ ball; soft
#   thresholding for orthogonal features), and choose its penalty by cross-validation;
# - say what a random forest's feature importance is and what it can mislead about;
# - (optional) run recursive feature elimination (a backward wrapper) and choose how many
#   features it keeps by cross-validation, say what the
#   unsupervised variance filter does and why it depends on the units, and where the
#   notes' t statistic and margin differ from the library's.
#
# **Time:** about 80 minutes, plus about 35 for the optional last section.
#
# **Follows:** WashU lecture A2, section 1 "Feature engineering
# overview"; Georgia Tech ECE 6254 notes, "Filtering", "Ranking in
# classification / regression", "Avoiding redundant features" and "Drawback".
#
# **References:** M. Neumann, *USL: Dimensionality Reduction*, lecture A2, WashU; ECE 6254 course notes,
# *Dimensionality Reduction*, Georgia Tech.

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

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
          name="CV accuracy").rename_axis("pair of features").sort_values(ascending=False)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The two top-ranked features reach about 0.79; the pair made of the two *weak*
# features reaches 1.0. Two things went wrong with ranking:
#
# 1. **Redundancy.** `strong_copy` carries almost nothing that `strong` does not: the
#    second slot is wasted.
# 2. **Noise cancellation.** `pair_a` $= u + 0.2\,s$ and `pair_b` $= -u + 0.2\,s$ share a
#    large nuisance $u$ with opposite signs, so each alone is weak, but `pair_a + pair_b`
#    $= 0.4\,s$ with $s = \pm 1$ the class: together they separate the classes exactly. A
#    score that looks at one feature at a time cannot see this. (It is not an interaction
#    in the statistical sense: the class is still a *sum* of the two, and a linear rule finds
#    it. The next cell shows a true interaction.)

# %% alt="Two scatter plots of the demo data coloured by class. Left: the top two features by t, strong and strong_copy, lie on a line, so the second adds nothing and the classes overlap. Right: pair_a against pair_b, each overlapping alone, but the dashed line where their sum is zero separates the classes perfectly." slideshow={"slide_type": "fragment"}
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
#
# The extreme case is an *interaction*: the exclusive or. Two uniform features, and the class
# is whether they have the same sign. Each feature alone says nothing, and no sum of them
# does either; only their product does:

# %% slideshow={"slide_type": "fragment"}
X_xor = np.random.default_rng(1).uniform(-1, 1, size=(400, 2))
y_xor = (X_xor[:, 0] * X_xor[:, 1] > 0).astype(int)
product = (X_xor[:, 0] * X_xor[:, 1])[:, None]
print("|t| of each:", dr.rounded(np.abs(selection.t_statistic(X_xor, y_xor)), 2),
      "| MI of each:", dr.rounded(selection.mutual_information(X_xor, y_xor, bins=10), 3),
      "| MI of the product:", dr.rounded(selection.mutual_information(product, y_xor, bins=10)[0], 3))
xor_both, xor_product = selection.cross_val_accuracy(X_xor, y_xor), selection.cross_val_accuracy(product, y_xor)
print("nearest centroid on both:", dr.rounded(xor_both, 3), "| on their product:", dr.rounded(xor_product, 3))
assert xor_both < 0.55 and xor_product > 0.95

# %% [markdown] slideshow={"slide_type": "subslide"}
# Each feature alone has $|t| < 1$ and a mutual information near the binning bias; the pair
# given to a linear rule classifies at chance (0.51), because both class centroids sit at the
# origin. The product carries 0.58 of the possible $\log 2 = 0.69$ nats and classifies 96%
# correctly. Filters miss an interaction, and so does a wrapper around a model that cannot
# represent one.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. Redundancy and the incremental criterion
#
# The Georgia Tech notes fix the first problem by choosing features one at a time. With
# $j_1, \dots, j_{m-1}$ already chosen, the next feature maximises
#
# $$ I(x_j; y) - \beta \sum_{i < m} I(x_j; x_{j_i}), $$
#
# relevance minus $\beta$ times redundancy with what is already chosen: Battiti's (1994)
# *MIFS* criterion. *mRMR* (minimum redundancy, maximum relevance; Peng, Long and Ding
# 2005) is the same with $\beta = 1/(m-1)$, the *average* redundancy, so the penalty does
# not grow with the number already chosen. The redundancy terms are mutual informations
# between binned features:

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

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### The wrong way to cross-validate
#
# The accuracies so far (1.0 for the best pair, 0.82 for forward selection, and 0.985 for
# the crabs below) were measured on the same folds that chose the subset, so they are
# optimistic. How much? ESL (section 7.10.2) makes it stark: 50 points, 500 features of pure
# noise, random labels. Choose the 10 features with the largest $|t|$ on all the data, then
# cross-validate the classifier on them:

# %% slideshow={"slide_type": "fragment"}
noise_rng = np.random.default_rng(0)
X_null = noise_rng.standard_normal((50, 500))
y_null = noise_rng.permutation(np.repeat([0, 1], 25))
chosen_on_all = selection.top_k(np.abs(selection.t_statistic(X_null, y_null)), 10)
wrong = selection.cross_val_accuracy(X_null[:, chosen_on_all], y_null, folds=5, seed=0)


def select_inside_folds(X, y, choose, folds=5, seed=0):
    """Accuracy when ``choose(X_train, y_train)`` picks the columns on each training part only."""
    correct = 0
    for test in np.array_split(np.random.default_rng(seed).permutation(len(y)), folds):
        train = np.setdiff1d(np.arange(len(y)), test)
        keep = list(choose(X[train], y[train]))
        model = selection.fit_nearest_centroid(X[train][:, keep], y[train])
        correct += int(np.sum(model.predict(X[test][:, keep]) == y[test]))
    return correct / len(y)

# %% slideshow={"slide_type": "subslide"}
right = select_inside_folds(X_null, y_null, lambda X, y: selection.top_k(np.abs(selection.t_statistic(X, y)), 10))
print("chosen on all rows, then cross-validated:", wrong, "| chosen inside each fold:", right)


def best_pair(X, y):
    """Section 3's exhaustive search: the pair of columns with the best cross-validated accuracy."""
    return max(itertools.combinations(range(X.shape[1]), 2),
               key=lambda pair: selection.cross_val_accuracy(X[:, list(pair)], y, folds=5, seed=0))


nested = select_inside_folds(X, y, best_pair, seed=1)
print("section 3's pair search, nested in an outer 5-fold split:", nested)
assert wrong > 0.85 and right < 0.5 and nested == 1.0

# %% [markdown] slideshow={"slide_type": "subslide"}
# On pure noise, choosing first and cross-validating after reports 0.88: the labels leaked
# into the choice. Choosing inside each fold gives 0.46, chance. The right way treats the
# selection as part of the model: it is repeated on each training part and never sees the
# test part. *Nested* cross-validation does this for a wrapper: an inner split chooses the
# subset, an outer split measures it. For section 3's pair search it gives 1.0 again: when
# the signal is real the honest number can be as high, but only nesting can tell.

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

# %% alt="Two scatter plots of the crabs coloured by species. Left: the two selected measurements FL and BD, where both species lie along the same size line, side by side. Right: PC3 against PC2, where the species separate almost completely." slideshow={"slide_type": "fragment"}
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
# The Georgia Tech notes rank features for a *continuous* target with the same two ideas:
# $|\rho(x_j, y)|$ and $I(x_j; y)$. We build data with a known answer (seed 0, 1,000 rows,
# five features of mean 0):
#
# - `signal` (standard deviation 1) enters $y$ with weight 2;
# - `signal_m`, the same kind of quantity in other units (standard deviation 0.1), with
#   weight 10: per standard deviation it moves $y$ half as much as `signal`;
# - `proxy` $=$ `signal` $+$ noise, which $y$ does not use;
# - `curved` enters through its square, $1.5\,(x^2 - 1)$;
# - `noise`, unrelated to everything.

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
# `selection.mutual_information` reads `y` as labels, so we first cut $y$ into 10
# equal-width bins (`selection.discretize`). A shuffled copy of the binned $y$ shows how
# much mutual information binning finds by itself.

# %% slideshow={"slide_type": "fragment"}
y_bins = selection.discretize(y_reg[:, None], bins=10)[:, 0]
shuffled = np.random.default_rng(1).permutation(y_bins)
regression_scores = pd.DataFrame({
    "|corr|": selection.abs_correlation(X_reg, y_reg),
    "MI": selection.mutual_information(X_reg, y_bins, bins=10),
    "MI, shuffled y": selection.mutual_information(X_reg, shuffled, bins=10),
}, index=reg_names)
print(regression_scores.round(3))
print("by |corr|:", [reg_names[j] for j in selection.top_k(regression_scores["|corr|"].to_numpy(), 5)])
print("by MI:    ", [reg_names[j] for j in selection.top_k(regression_scores["MI"].to_numpy(), 5)])
assert regression_scores.loc["curved", "MI"] > 5 * regression_scores.loc["noise", "MI"]
assert regression_scores.loc["curved", "MI"] > regression_scores["MI, shuffled y"].max()
assert regression_scores.loc["curved", "|corr|"] < 0.1

# %% [markdown] slideshow={"slide_type": "subslide"}
# The correlation sees only straight lines: `curved` gets 0.09, barely above `noise`
# (0.02). Its mutual information is 0.25 nats, six times that of `noise` (0.04) and above
# anything a shuffled $y$ gives (at most 0.04). Both scores rate `proxy` highly although
# $y$ never uses it: one feature at a time, a score cannot tell a cause from its copy.

# %% alt="Two scatter plots of the target y against a feature. Left: curved, a parabola with no linear trend (correlation 0.09, mutual information 0.25 nats). Right: proxy, a linear trend inherited from signal." slideshow={"slide_type": "fragment"}
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
for ax, name in zip(axes, ["curved", "proxy"]):
    j = reg_names.index(name)
    ax.scatter(X_reg[:, j], y_reg, s=6, alpha=0.4)
    ax.set(xlabel=f"{name} (feature value)",
           title=f"{name}: |corr| = {regression_scores.loc[name, '|corr|']:.2f}, "
                 f"MI = {regression_scores.loc[name, 'MI']:.2f} nats")
axes[0].set_ylabel("target y")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Left: a parabola, no linear trend, yet knowing `curved` narrows down $y$ a lot, which is
# what mutual information measures. Right: a linear trend, inherited from `signal`.
#
# ## 8. Embedded selection: the LASSO path
#
# The notes' other remedy is *embedded* selection, done while the model is fitted. The
# LASSO penalises the absolute coefficients of a linear model,
#
# $$ \min_b \; \frac{1}{2n} \lVert y - X b \rVert^2 + \alpha \lVert b \rVert_1 $$
#
# (scikit-learn's objective). The corner of $|b_j|$ at 0 makes coefficients *exactly*
# zero: all of them for a large $\alpha$; as $\alpha$ shrinks, features enter one by one,
# in an order that takes the other features into account. `selection.lasso_path(...,
# method="coordinate")` uses coordinate descent: with the others fixed, the best $b_j$ is
# a *soft threshold*,
#
# $$ b_j \leftarrow \frac{S\!\left(\tfrac1n x_j^\top r_j,\ \alpha\right)}{\tfrac1n x_j^\top x_j},
#    \qquad S(z, \alpha) = \operatorname{sign}(z)\max(|z| - \alpha, 0), $$
#
# with $r_j$ the residual of the other features. It sweeps over $j$ until nothing moves,
# then lowers $\alpha$, starting from the solution it has (a *warm start*). The penalty
# treats all coefficients alike, so we standardise the features (and centre $y$: no
# intercept).

# %% slideshow={"slide_type": "fragment"}
Z_reg = standardize(X_reg, ddof=0)
y_centred = y_reg - y_reg.mean()
path = selection.lasso_path(Z_reg, y_centred, n_alphas=80, method="coordinate")
print("alpha from", path.alphas[0].round(3), "down to", path.alphas[-1].round(5))
print("entry order:", [reg_names[j] for j in path.entry_order])
print("entry alphas:", {name: round(float(a), 3) for name, a in zip(reg_names, path.entry_alphas)})
assert path.entry_order[:2].tolist() == [0, 1] and path.entry_order[-1] == 2  # signal, signal_m first; proxy last
assert np.isclose(path.alphas[0], np.abs(Z_reg.T @ y_centred).max() / n_reg)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The grid starts at $\max_j |x_j^\top y| / n$, the smallest penalty at which every
# coefficient is zero, so the first feature to enter is the one most correlated with $y$.
# The path, with each entry marked:

# %% alt="The LASSO path of the five standardised features against the penalty alpha on a log scale, decreasing to the right, with each feature's entry point marked and numbered: signal enters first, then signal_m, then curved and noise, and proxy last and small." slideshow={"slide_type": "fragment"}
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
# `signal` enters first: it leaves zero at $\alpha_{\max} = 2.012$, where the grid starts, and is non-zero
# from the next grid point (1.84) on; then `signal_m` (0.92 on the grid). `proxy` enters last
# (0.03) and stays small: with `signal` in the model it has nothing to add, which no
# filter could see. `curved` gets a small linear coefficient (this sample has a slight
# linear trend in it); a linear model cannot use $x^2$. At the smallest $\alpha$ the path
# is close to plain least squares:

# %% slideshow={"slide_type": "fragment"}
least_squares = np.linalg.lstsq(Z_reg, y_centred, rcond=None)[0]
print("LASSO at the smallest alpha:", path.coefs[:, -1].round(3))
print("least squares:              ", least_squares.round(3))
assert np.abs(path.coefs[:, -1] - least_squares).max() < 0.02
assert np.median(path.n_iter) < 10  # sweeps per alpha (the exact counts depend on rounding)

# %% [markdown] slideshow={"slide_type": "subslide"}
# They agree to 0.02; thanks to warm starts the median $\alpha$ needs under 10 sweeps. (The path
# matches `sklearn.linear_model.lasso_path` to $10^{-8}$: `tests/library/test_selection.py`. The
# library's default, `method="homotopy"`, follows the same path exactly: between two
# breakpoints $b$ is linear in $\alpha$, so it solves one small linear system per feature
# entering or leaving and needs no sweeps at all.) Why
# standardise? In raw units `signal_m` needs a ten times larger coefficient for the same
# effect, so the penalty charges it ten times more:

# %% slideshow={"slide_type": "fragment"}
raw_path = selection.lasso_path(X_reg - X_reg.mean(axis=0), y_centred, n_alphas=80)
print("raw units, entry order:", [reg_names[j] for j in raw_path.entry_order])
print("entry alpha of signal_m: standardised", path.entry_alphas[1].round(3), "| raw", raw_path.entry_alphas[1].round(3))

# %% [markdown] slideshow={"slide_type": "subslide"}
# In raw units `signal_m` enters third, after `curved`, at $\alpha = 0.09$ instead of
# 0.92: that ranking measures the units, not the importance.

# ### Why the L1 penalty gives exact zeros
#
# The LASSO is the same problem as least squares inside a *budget*, $\min \lVert y - Xb\rVert^2$ subject to
# $\lVert b\rVert_1 \le t$ (each $\alpha$ corresponds to a budget $t$). Ridge regression spends an $L_2$ budget,
# $\lVert b\rVert_2 \le t$, instead. The least-squares error is constant on ellipses around the unconstrained
# solution, and the constrained solution is where the smallest ellipse touches the budget region (ESL, section
# 3.4). The $L_1$ ball is a diamond whose corners sit on the axes, so the ellipse usually touches it at a corner,
# where a coefficient is exactly zero; the $L_2$ ball is round and has no corners. Two correlated standardised
# features, with the same size of budget for both penalties:

# %% alt="Two panels in the plane of the coefficients b1 and b2, each with the elliptical contours of the least-squares error around the unconstrained least-squares solution (1.69, 0.46). Left: the L1 budget is a diamond, and the smallest contour touches it at its corner on the b1 axis, so b2 is exactly 0. Right: the L2 budget is a disc, and the contour touches it where both coefficients are non-zero." slideshow={"slide_type": "fragment"}
rng_ball = np.random.default_rng(4)
n_ball = 200
shared = rng_ball.standard_normal(n_ball)
X_ball = standardize(np.column_stack([shared + 0.8 * rng_ball.standard_normal(n_ball),
                                      shared + 0.8 * rng_ball.standard_normal(n_ball)]), ddof=0)
y_ball = X_ball @ np.array([1.6, 0.45]) + 0.5 * rng_ball.standard_normal(n_ball)
y_ball -= y_ball.mean()
gram, cross = X_ball.T @ X_ball / n_ball, X_ball.T @ y_ball / n_ball
b_ols = np.linalg.solve(gram, cross)
b_lasso = selection.lasso_path(X_ball, y_ball, alphas=[1.0]).coefs[:, 0]  # b2 enters only below alpha = 0.73
budget = np.abs(b_lasso).sum()
# ridge with the same budget: the ridge penalty whose solution has |b|_2 = budget, found by bisection
low, high = 0.0, 100.0
for _ in range(100):
    penalty = (low + high) / 2
    b_ridge = np.linalg.solve(gram + penalty * np.eye(2), cross)
    low, high = (penalty, high) if np.linalg.norm(b_ridge) > budget else (low, penalty)
print("least squares:", dr.rounded(b_ols, 3), "| LASSO:", dr.rounded(b_lasso, 3), "| ridge:", dr.rounded(b_ridge, 3),
      "| budget t =", dr.rounded(budget, 3))
assert b_lasso[1] == 0 and b_lasso[0] > 0 and np.all(np.abs(b_ridge) > 0.1)

grid_b = np.linspace(-0.6, 2.2, 300)
B1, B2 = np.meshgrid(grid_b, grid_b)
error = (gram[0, 0] * (B1 - b_ols[0]) ** 2 + 2 * gram[0, 1] * (B1 - b_ols[0]) * (B2 - b_ols[1])
         + gram[1, 1] * (B2 - b_ols[1]) ** 2)  # the excess error over least squares, up to a constant
angle = np.linspace(0, 2 * np.pi, 400)
balls = {"L1 budget (LASSO): a diamond": (budget * np.sign(np.cos(angle)) * np.cos(angle) ** 2,
                                          budget * np.sign(np.sin(angle)) * np.sin(angle) ** 2, b_lasso),
         "L2 budget (ridge): a disc": (budget * np.cos(angle), budget * np.sin(angle), b_ridge)}
fig, axes = plt.subplots(1, 2, figsize=(10, 4.6))
for ax, (title, (edge_1, edge_2, solution)) in zip(axes, balls.items()):
    touching = (gram @ (solution - b_ols)) @ (solution - b_ols)
    ax.contour(B1, B2, error, levels=touching * np.array([0.25, 1.0, 2.5, 5.0]), colors="0.5", linewidths=0.8)
    ax.fill(edge_1, edge_2, color="C0", alpha=0.25)
    ax.plot(*b_ols, "k+", ms=12, label="least squares")
    ax.plot(*solution, "o", color="C3", label="constrained solution")
    ax.axhline(0, color="k", lw=0.5)
    ax.axvline(0, color="k", lw=0.5)
    ax.set(xlabel="$b_1$", ylabel="$b_2$", title=title, aspect="equal")
    ax.legend(loc="upper left", fontsize=8)
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# With the same budget the LASSO sets $b_2$ to exactly 0 and keeps $b_1$, while ridge shrinks both and keeps both.
# In $p$ dimensions the diamond has corners and edges on every coordinate subspace, and the first contact is
# likely to be on one of them: many exact zeros at once.
#
# ### Soft thresholding is the LASSO when the features are orthogonal
#
# If the columns are orthogonal with $\tfrac1n X^\top X = I$, the objective splits into one term per coefficient,
# $\tfrac12 (b_j - z_j)^2 + \alpha |b_j|$ plus a constant with $z_j = \tfrac1n x_j^\top y$, and each term is minimised
# by the soft threshold: $b_j = S(z_j, \alpha)$, in one step and without any sweeps (ESL, section 3.4, table 3.4).
# Coordinate descent is that formula applied to one coordinate at a time, with the others held fixed. Check it on an
# orthogonal design:

# %% slideshow={"slide_type": "fragment"}
rng_orth = np.random.default_rng(5)
X_orth = np.sqrt(300) * np.linalg.qr(rng_orth.standard_normal((300, 6)))[0]  # X'X / n = I
y_orth = X_orth @ np.array([1.5, -0.8, 0.3, 0.0, 0.05, -0.2]) + 0.5 * rng_orth.standard_normal(300)
z = X_orth.T @ y_orth / 300
alphas_orth = np.array([1.0, 0.5, 0.25, 0.1])
lasso_orth = selection.lasso_path(X_orth, y_orth, alphas=alphas_orth).coefs
thresholded = np.column_stack([selection.soft_threshold(z, alpha) for alpha in alphas_orth])
print("z = X'y / n:", dr.rounded(z, 3))
print("largest |LASSO - soft threshold| over 4 alphas:", dr.rounded(np.abs(lasso_orth - thresholded).max(), 12))
print("non-zero coefficients per alpha:", (lasso_orth != 0).sum(axis=0))
assert np.abs(lasso_orth - thresholded).max() < 1e-12

# %% [markdown] slideshow={"slide_type": "subslide"}
# For orthogonal features the LASSO *is* the filter "keep the features with $|x_j^\top y|/n > \alpha$", with the kept
# coefficients shrunk by $\alpha$: features enter in the order of their correlation with $y$. The two differ only when
# features are correlated, and that is where the LASSO saw through `proxy` above.
#
# ### Choosing $\alpha$ by cross-validation
#
# The path does not say which $\alpha$ to use. Cross-validation does: split the rows into 5 folds, fit the path on
# four and measure the squared prediction error on the fifth, for every $\alpha$; average over the folds and take
# the $\alpha$ with the smallest error. `selection.lasso_cv` does this with an intercept (each training part is
# centred with its own means), as `sklearn.linear_model.LassoCV` does on the same folds (`tests/library/test_selection.py`
# checks they agree).

# %% alt="Held-out mean squared error of the LASSO against the penalty alpha on a log scale, decreasing to the right: one thin grey line per fold and their mean in black. The mean error falls from about 9.4 at the largest alpha as signal and signal_m enter, then stays flat near 4.6 below alpha 0.1; a dashed line marks the chosen alpha, 0.042." slideshow={"slide_type": "fragment"}
cv = selection.lasso_cv(Z_reg, y_reg, n_alphas=60, folds=5, seed=0)
chosen = [reg_names[j] for j in np.flatnonzero(cv.coef)]
print("chosen alpha:", dr.rounded(cv.alpha, 5), "| held-out MSE:", dr.rounded(cv.mean_mse.min(), 4),
      "| at the largest alpha:", dr.rounded(cv.mean_mse[0], 4))
print("non-zero at the chosen alpha:", chosen)
print("coefficients:", dict(zip(reg_names, dr.rounded(cv.coef, 3))))
best = np.argmin(cv.mean_mse)
standard_error = cv.fold_mse[:, best].std(ddof=1) / np.sqrt(5)  # of the mean over 5 folds
one_se = cv.alphas[cv.mean_mse <= cv.mean_mse[best] + standard_error].max()
print("one-standard-error rule: alpha", dr.rounded(one_se, 3), "| non-zero there:",
      [reg_names[j] for j in np.flatnonzero(selection.lasso_path(Z_reg, y_centred, alphas=[one_se]).coefs[:, 0])])
assert chosen[:2] == ["signal", "signal_m"] and "proxy" not in chosen
assert round(cv.alpha, 3) == 0.042 and round(one_se, 3) == 0.391 and cv.coef[reg_names.index("noise")] < 0
fig, ax = plt.subplots(figsize=(8, 3.8))
ax.plot(cv.alphas, cv.fold_mse.T, color="0.7", lw=0.8)
ax.plot(cv.alphas, cv.mean_mse, color="k", lw=2, label="mean over the 5 folds")
ax.axvline(cv.alpha, color="C3", ls="--", label=f"chosen alpha = {cv.alpha:.2g}")
ax.set_xscale("log")
ax.invert_xaxis()
ax.set(xlabel="penalty alpha (log scale, decreasing to the right)", ylabel="held-out mean squared error",
       title="Choosing the LASSO penalty by 5-fold cross-validation")
ax.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Cross-validation picks $\alpha = 0.042$: `signal`, `signal_m` and `curved` get clear coefficients, `noise` a tiny
# one ($-0.008$) and `proxy` stays exactly 0. The mean error is nearly flat below $\alpha \approx 0.1$, so the choice
# among those penalties is a matter of a few thousandths. The *one-standard-error rule* (ESL, section 7.10) makes
# "a matter of noise" precise: estimate the standard error of the best mean error from its 5 fold errors (0.32
# here), and take the largest $\alpha$ whose mean error is within one standard error of the best. It gives
# $\alpha = 0.39$, keeping only `signal` and `signal_m`: a sparser model whose error the folds cannot tell apart
# from the best. The folds are seeded, so the choice is reproducible; another split can move it within the flat
# part.
#
# ### The notes' embedded example: random-forest importance
#
# The WashU notes' example of embedded selection is the *importance* a random forest assigns to each feature while
# it is trained: every split of every tree lowers the impurity of its node (the Gini index, or the variance for a
# regression target), and a feature's importance is the total decrease credited to its splits, averaged over the
# trees. Features that are never worth a split get importance 0. The course does not compute it: trees are not part
# of its stack (scikit-learn is only a reference in the tests), and the impurity importance needs care to read. It
# favours features with many distinct values, which offer more candidate splits, and two correlated features share
# the credit between them, so each can look less important than it is; the *permutation* importance (how much the
# held-out error grows when one column is shuffled) avoids the first of these problems but not the second.
#
# ## Summary
#
# - Selection keeps original columns (interpretable, axis directions only); extraction
#   builds new ones (any direction, usually unsupervised).
# - Filter scores rank features one at a time. Fast, but the $k$ best are not the best
#   $k$: they can be redundant, and they miss features that only work together, by noise
#   cancellation (`pair_a`, `pair_b`) or by a true interaction (the exclusive or).
# - The incremental mutual-information criterion (MIFS; mRMR averages the redundancy)
#   penalises redundancy with $\beta$; with $\beta = 0$ it is the plain ranking.
# - Wrappers score subsets with the model itself; greedy forward selection is cheap but
#   can still miss a pair that only works jointly, and exhaustive search grows fast.
# - A subset chosen with the labels must be chosen again inside every fold (nested
#   cross-validation): on pure noise, choosing first reports 0.88, choosing inside 0.46.
# - For the crabs, the largest-variance components are not the discriminative ones;
#   choosing components by the label works best.
# - For a continuous target, $|\rho|$ finds linear dependence only; the binned mutual
#   information also finds a dependence through $x^2$. Both rate a correlated proxy highly.
# - The LASSO (embedded) ranks features by when they enter its path as $\alpha$ shrinks.
#   It needs standardised features, and it sees through the proxy. Its zeros come from the
#   corners of the $L_1$ ball; for orthogonal features it is soft thresholding of
#   $x_j^\top y/n$; cross-validation chooses $\alpha$ (here 0.042), and the one-standard-error
#   rule a sparser 0.39.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional): backward elimination, the variance filter, the notes' formulas
#
# *About 35 minutes.*
#
# ### A backward wrapper: recursive feature elimination
#
# Backward elimination starts with all features: fit, drop the feature with the smallest
# $|b_j|$, **refit** on the rest, repeat. `selection.recursive_feature_elimination` does
# this with least squares; its `ranking` is that of `sklearn.feature_selection.RFE`
# (1 for the survivor, larger for earlier drops). Slopes equal to 12 significant digits
# tie, and the tie drops the smaller index, so the result does not depend on the rounding
# of the machine's linear algebra.

# %% slideshow={"slide_type": "fragment"}
rfe = selection.recursive_feature_elimination(Z_reg, y_reg)
print("dropped in order:", [reg_names[j] for j in rfe.eliminated])
print("ranking:", {name: int(r) for name, r in zip(reg_names, rfe.ranking)})
rfe_raw = selection.recursive_feature_elimination(X_reg, y_reg)
print("raw units, dropped in order:", [reg_names[j] for j in rfe_raw.eliminated])
assert rfe.support.tolist() == [True, False, False, False, False] and rfe_raw.support[1]
print(pd.DataFrame(rfe.coefficients, columns=reg_names,
                   index=[f"fit on {k} features" for k in range(len(reg_names), 1, -1)]).round(3))

# %% [markdown] slideshow={"slide_type": "subslide"}
# On standardised features `noise` goes first, then `proxy`; `signal` survives with
# `signal_m` second, the top two of the LASSO too. On raw columns the survivor is
# `signal_m`, whose raw slope (about 10) is the largest only because of its units: like
# the LASSO, elimination needs standardised features. The slopes of every fit, with
# each dropped feature marked:

# %% alt="Recursive feature elimination: the absolute slope of each standardised feature (log scale) in the fits on 5, 4, 3 and 2 features, with the dropped feature circled at each step: noise goes first, then proxy, then curved, leaving signal and signal_m." slideshow={"slide_type": "fragment"}
fig, ax = plt.subplots(figsize=(8, 4))
left = np.arange(len(reg_names), 1, -1)  # features in each fit: 5, 4, 3, 2
for j, name in enumerate(reg_names):
    ax.plot(left, np.abs(rfe.coefficients[:, j]), marker="o", ms=4, label=name)
ax.scatter(left, np.abs(rfe.coefficients[np.arange(len(left)), rfe.eliminated]), s=140, facecolors="none",
           edgecolors="k", zorder=3, label="dropped next")
ax.set_yscale("log")
ax.invert_xaxis()
ax.set_xticks(left)
ax.set(xlabel="features in the fit", ylabel="|slope| (standardised feature, log scale)",
       title="Recursive feature elimination: drop the smallest |slope|, refit")
ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Each refit changes the slopes a little: `proxy` and `signal` share information, so
# dropping `proxy` moves `signal`'s slope (2.12 to 1.96 in the table above); the circled
# point is always the lowest of its column. The elimination costs $p - 1$ least-squares
# fits; an exhaustive search over subsets would cost $2^p$.
#
# Dropping the smallest $|b_j|$ is not *backward stepwise selection* in the statistician's
# sense (ESL, section 3.3.2), which drops the feature whose removal raises the residual sum of
# squares least, the smallest $|t_j|$. The two differ when features are correlated: a slope
# that is large but shared with a near copy costs little to remove. Two correlated features
# with slopes 0.5 and an independent one with slope 0.2:

# %% slideshow={"slide_type": "fragment"}
pair_rng = np.random.default_rng(0)
common = pair_rng.standard_normal(500)
X_corr = standardize(np.column_stack([common + 0.2 * pair_rng.standard_normal(500),
                                      common + 0.2 * pair_rng.standard_normal(500),
                                      pair_rng.standard_normal(500)]), ddof=0)
y_corr = X_corr @ np.array([0.5, 0.5, 0.2]) + 0.5 * pair_rng.standard_normal(500)
y_corr -= y_corr.mean()


def rss(columns):
    fitted = X_corr[:, columns] @ np.linalg.lstsq(X_corr[:, columns], y_corr, rcond=None)[0]
    return float(np.sum((y_corr - fitted) ** 2))

# %% slideshow={"slide_type": "subslide"}
rise = [rss([c for c in range(3) if c != j]) - rss([0, 1, 2]) for j in range(3)]
first_dropped = selection.recursive_feature_elimination(X_corr, y_corr).eliminated[0]
print("slopes:", dr.rounded(np.linalg.lstsq(X_corr, y_corr, rcond=None)[0], 3), "| RSS rise when dropped:",
      dr.rounded(np.array(rise), 1))
print("RFE drops feature", first_dropped, "| backward stepwise drops feature", int(np.argmin(rise)))
assert first_dropped == 2 and np.argmin(rise) == 0

# %% [markdown] slideshow={"slide_type": "subslide"}
# RFE drops the independent feature 2 (the smallest slope, 0.2), although removing it raises
# the error most (19.9); backward stepwise drops feature 0, whose slope 0.48 its near copy
# can take over (a rise of 8.3). RFE ranks by the size of the effect, stepwise by how much of
# it is unique.

# ### How many features to keep: elimination guided by cross-validation
#
# The elimination ranks the features but does not say where to stop. The WashU notes stop by cross-validation:
# on each fold, run the elimination on the training rows only, fit least squares on the $k$ features it keeps for
# every $k$, and measure the error on the held-out rows; keep the $k$ with the smallest mean error (ties go to
# fewer features). `selection.recursive_feature_elimination_cv` does this, as
# `sklearn.feature_selection.RFECV` does on the same folds (`tests/library/test_selection.py`).

# %% slideshow={"slide_type": "fragment"}
rfe_cv = selection.recursive_feature_elimination_cv(Z_reg, y_reg, folds=5, seed=0)
print("mean held-out MSE keeping k = 1..5 features:", dr.rounded(rfe_cv.mean_mse, 4))
print("chosen k:", rfe_cv.n_features, "| kept:", [reg_names[j] for j in np.flatnonzero(rfe_cv.elimination.support)])
best_k = np.argmin(rfe_cv.mean_mse)
rfe_se = rfe_cv.fold_mse[:, best_k].std(ddof=1) / np.sqrt(5)
smallest_close = int(np.argmax(rfe_cv.mean_mse <= rfe_cv.mean_mse[best_k] + rfe_se)) + 1
print("one-standard-error rule: fewest features within", dr.rounded(rfe_se, 2), "of the best error:", smallest_close)
assert rfe_cv.n_features == 4 and not rfe_cv.elimination.support[4] and smallest_close == 2
assert np.ptp(rfe_cv.mean_mse[1:]) < 0.015 * rfe_cv.mean_mse.min()
assert np.round(rfe_cv.mean_mse[:2], 2).tolist() == [5.45, 4.60]

# %% [markdown] slideshow={"slide_type": "subslide"}
# `signal` alone leaves a clearly larger error (5.45); with `signal_m` it drops to 4.60, and from there on the
# curve is flat: 2 to 5 features differ by less than 1.5%. The minimum falls at 4 features, one of them `proxy`,
# which $y$ does not use: on 1,000 rows a difference of a few thousandths is within the noise of the split. The
# one-standard-error rule used for $\alpha$ above, the fewest features within one standard error (0.33) of the best
# error, keeps 2: `signal` and `signal_m`.
# A linear model gains little from `curved` (it enters $y$ through its square), which is why the LASSO gave it
# only a small coefficient. Like the choice of $\alpha$, the choice of $k$ is made on the training data: to
# report an honest error for the chosen model, measure it on rows that took no part in the choice.
#
# ### An unsupervised filter: drop near-constant features
#
# The WashU notes name the simplest filter: keep the features with the largest variance,
# drop those that barely vary. It never looks at a label.
# `selection.variance_filter(X, threshold)` keeps the columns whose variance (divided by
# $n$, as `sklearn.feature_selection.VarianceThreshold`) exceeds the threshold; a column
# whose values are all equal has variance exactly 0. On the crabs, with a threshold of 10,
# in millimetres, in centimetres, and standardised:

# %% slideshow={"slide_type": "fragment"}
crab_units = {"mm": X_crabs, "cm": X_crabs / 10, "standardised": standardize(X_crabs, ddof=0)}
crab_variances = pd.DataFrame({unit: values.var(axis=0) for unit, values in crab_units.items()}, index=measurements)
print(crab_variances.round(3))
for unit, values in crab_units.items():
    print(f"kept ({unit}):", [m for m, keep in zip(measurements, selection.variance_filter(values, 10.0)) if keep])
assert selection.variance_filter(crab_units["standardised"], 0.99).all()
assert not selection.variance_filter(crab_units["standardised"], 1.01).any()

# %% alt="Three bar charts of the variances of the five crab measurements on a log scale, with a dashed threshold of 10: in millimetres four are kept and RW dropped; in centimetres all five fall below the threshold; standardised, every variance is 1 and all are dropped." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 3, figsize=(11, 3.5), sharey=True)
for ax, (unit, variances) in zip(axes, crab_variances.items()):
    kept = variances > 10.0
    ax.bar(measurements, variances, color=np.where(kept, "tab:blue", "lightgray"))
    ax.axhline(10.0, color="k", ls="--", lw=1, label="threshold 10")
    ax.set(yscale="log", xlabel="crab measurement", title=f"{unit}: {kept.sum()} of 5 kept")
axes[0].set_ylabel("variance (log scale)")
axes[2].legend(loc="upper right")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# In millimetres the filter drops rear width RW (6.59 mm$^2$); in centimetres every
# variance is 100 times smaller and it drops all five; standardised, every variance is 1,
# so any threshold keeps all or none. The variance filter makes sense only for features
# in the same units, and even there it answers "which features vary?", not "which
# matter?". Its safe use is threshold 0: removing constant columns.
#
# ### The notes' t statistic and margin beside the library's
#
# **t statistic.** The notes divide the difference of the class means by $s/\sqrt n$;
# `selection.t_statistic` (the statistic of `scipy.stats.ttest_ind`) divides by
# $s\sqrt{1/n_+ + 1/n_-}$. With $n = n_+ + n_-$ their ratio is $\sqrt{n\,(1/n_+ + 1/n_-)}$:
# 2 for equal classes, and the same for every feature. We check it on the demo data of
# section 2 and on an unbalanced subset (every row of class 0, every fourth of class 1).

# %% slideshow={"slide_type": "fragment"}
def notes_t(X, y):
    """The notes' (mean+ - mean-) / (s / sqrt(n)), s the pooled standard deviation."""
    a, b = X[y == 0], X[y == 1]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(y) - 2)
    return (b.mean(axis=0) - a.mean(axis=0)) / (np.sqrt(pooled) / np.sqrt(len(y)))


unbalanced = (y == 0) | (np.cumsum(y == 1) % 4 == 0)
for rows in (np.ones(len(y), bool), unbalanced):
    ours, theirs = selection.t_statistic(X[rows], y[rows]), notes_t(X[rows], y[rows])
    same = np.array_equal(selection.top_k(np.abs(ours), 5), selection.top_k(np.abs(theirs), 5))
    print("classes", np.bincount(y[rows]), "ratio notes / library:", (theirs / ours).round(4), "same ranking:", same)

# %% [markdown] slideshow={"slide_type": "subslide"}
# With 200 and 200 rows the ratio is exactly 2; with 200 and 50 it is
# $\sqrt{250\,(1/200 + 1/50)} = 2.5$, again for every feature. Different numbers, the same
# ranking; only the library's version follows Student's t distribution with $n - 2$
# degrees of freedom, so only its size can be read on its own.
#
# **Margin.** The notes' margin is $\min_{k, l} |x_{kj} - x_{lj}|$ over pairs from
# different classes: the width of the gap when the classes are separated. When they
# overlap, some pair from different classes is very close, and the formula returns a
# tiny positive number set by the density of the sample. `selection.margin` keeps a sign:
# negative when the classes overlap, by how much.

# %% slideshow={"slide_type": "fragment"}
notes_margin = np.abs(X[y == 1][:, None, :] - X[y == 0][None, :, :]).min(axis=(0, 1))
margins = pd.DataFrame({"notes (in units of 1e-6)": (notes_margin * 1e6).round(1),
                        "signed (library)": selection.margin(X, y).round(3)}, index=names)
print(margins)
print("best by the notes' margin: ", [names[j] for j in selection.top_k(notes_margin, 5)])
print("best by the signed margin: ", [names[j] for j in selection.top_k(selection.margin(X, y), 5)])
assert notes_margin.max() < 2e-4 and selection.top_k(notes_margin, 1)[0] == names.index("noise")

# %% alt="Two strip plots of one feature's values by class, with the overlap of the classes shaded: pair_a overlaps over about 1.5 units and noise over about 5.3; the titles give the notes' margin (tiny, set by the closest pair) and the signed margin." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 2, figsize=(10, 3))
jitter = np.random.default_rng(2).uniform(-0.15, 0.15, len(y))
for ax, name in zip(axes, ["pair_a", "noise"]):
    j = names.index(name)
    # the better orientation: which class lies above; the band runs from its minimum to the other's maximum
    one_above = X[y == 1, j].min() - X[y == 0, j].max() >= X[y == 0, j].min() - X[y == 1, j].max()
    lower, upper = (0, 1) if one_above else (1, 0)
    low, high = X[y == upper, j].min(), X[y == lower, j].max()
    ax.axvspan(low, high, color="orange", alpha=0.2, label=f"overlap, {high - low:.2f} wide")
    for label in (0, 1):
        ax.scatter(X[y == label, j], label + jitter[y == label], s=5, label=f"class {label}")
    ax.set(yticks=[0, 1], yticklabels=["class 0", "class 1"], ylim=(-0.5, 2.0), xlabel=f"{name} (feature value)",
           title=f"{name}: notes' margin {notes_margin[j]:.1e}, signed {selection.margin(X, y)[j]:.2f}")
    ax.legend(loc="upper right", fontsize=8, ncol=3)
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# No feature separates the classes, so every notes' margin is below 0.0002 and their
# order is noise: it ranks `noise` *first*. The signed margin is the lowest point of the
# upper class minus the highest point of the lower class (for the better choice of which
# class is "upper"): the shaded band, which one class would have to move to clear the
# other. It ranks `noise` last (-5.33, the largest overlap) and the pair features first (about -1.54 and -1.58,
# the least negative). On
# separated classes the two formulas agree: both give the width of the gap.
