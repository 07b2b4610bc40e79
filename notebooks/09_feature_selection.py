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
# - compare selected features with principal components for the same classifier.
#
# **Time:** about 40 minutes.
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
from dimred_teach.pca import pca
from dimred_teach.plotting import score_scatter

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
