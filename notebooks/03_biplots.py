# %% [markdown] slideshow={"slide_type": "slide"}
# # 03 · Biplots on the crabs data
#
# **One picture for the points and the variables: how the singular values are shared between them decides what
# the picture shows.**
#
# *Time: about 60 minutes.* *Prerequisites: notebook 01 (PCA) and 02 (PCA via the SVD).*
#
# **Learning objectives.** After this notebook you can
# 1. explore a small morphometric data set and say why its first principal component is a "size" axis;
# 2. compare PCA of raw and of standardised measurements with a scree plot;
# 3. write the centred data as scores times loadings, $\mathbf X_c = (U D^{1-\alpha})(V D^{\alpha})^\top$, for any
#    $\alpha \in [0, 1]$, and check it entry by entry;
# 4. read an unscaled ($\alpha = 0$) and a scaled ($\alpha = 1$) biplot, and verify that in the scaled one the scores
#    have covariance $I/(n-1)$ and the cosine between two arrows is the correlation of the two variables (exactly
#    with all components, approximately in two dimensions);
# 5. find which components separate the species and the sexes once size is out of the way;
# 6. bootstrap the components and tell a direction the data pin down from one they leave open.
#
# **Notes followed.** Oxford SC4/SM4 notes §1.2.4 (PCA via the SVD, eq. 1.14-1.15) and §1.3 (biplots, eq. 1.17-1.18
# and Figure 1, the crabs biplots).
#
# **Conventions.** Rows are points; $S = \mathbf X_c^\top\mathbf X_c/(n-1)$ as in the Oxford notes. The biplot
# factors are the notes' plain SVD factors, with no extra $\sqrt{n-1}$ (R's `biplot` multiplies the scores and
# divides the loadings by a constant involving $\sqrt{n/(n-1)}$, which changes the axis numbers but no angle and no
# shape).
#
# **References.** Oxford SC4/SM4 "Dimensionality Reduction" lecture notes, §1.2.4-1.3; CMU
# 36-467/667 "Linear Dimension Reduction" slides, "PCA is exploratory analysis, not statistical inference";
# N. A. Campbell and R. J. Mahon (1974), *Aust. J. Zool.* 22, 417-425 (the data; see `data/README.md`).

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

import dimred_teach as dr
from dimred_teach.biplot import biplot_coordinates, plot_biplot
from dimred_teach.datasets import CRABS_MEASUREMENTS, load_crabs
from dimred_teach.linalg import subspace_distance
from dimred_teach.pca import bootstrap_pca, center, covariance, pca
from dimred_teach.plotting import score_scatter, scree_plot

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The crabs
#
# Campbell and Mahon measured 200 rock crabs of the genus *Leptograpsus*: 50 of each sex in each of two colour
# forms, blue (`B`) and orange (`O`), now known to be two species. Each crab has five measurements in mm: frontal
# lobe `FL`, rear width `RW`, carapace length `CL` and width `CW`, body depth `BD`.

# %% slideshow={"slide_type": "fragment"}
crabs = load_crabs()
measurements = list(CRABS_MEASUREMENTS)
species_names = {"B": "blue", "O": "orange"}  # the two colour forms, now two species
group = (crabs["species"].map(species_names).astype(str) + " "
         + crabs["sex"].map({"F": "female", "M": "male"}).astype(str)).to_numpy()
X = crabs[measurements]
n, p = X.shape
print(crabs.head(3))
print(crabs.groupby(["species", "sex"], observed=True).size())

# %% [markdown] slideshow={"slide_type": "subslide"}
# A pair plot shows pairs of measurements, coloured by species and sex. To keep it small we leave out `CW`, which
# is almost a copy of `CL` (their correlation is 0.995, below).

# %% alt="Pair plot of four crab measurements (FL, RW, CL, BD) coloured by the four species-sex groups: every panel is a thin cloud along the diagonal, and the groups are parallel streaks slightly offset from each other, the offsets small next to the spread in size." slideshow={"slide_type": "fragment"}
sns.pairplot(crabs.assign(group=group), vars=["FL", "RW", "CL", "BD"], hue="group", hue_order=sorted(set(group)),
             corner=True, height=1.5, plot_kws={"s": 8, "linewidth": 0},
             diag_kind="hist", diag_kws={"element": "step", "fill": False})
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Every panel is an elongated cloud along the diagonal: a crab that is big in one measurement is big in all of them.
# The four groups are thin parallel streaks, slightly offset from each other; the offsets (for instance, females
# have a larger rear width `RW` for the same carapace length) are small next to the spread in size. The correlation
# matrix says the same in numbers: every correlation is at least 0.88.

# %% slideshow={"slide_type": "fragment"}
print(X.corr().round(4))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. PCA of raw and of standardised measurements
#
# On the raw measurements, PCA works with the covariance matrix, so the measurements with the largest spread (`CW`,
# `CL`) weigh most. Standardising each column first (dividing by its standard deviation) works with the correlation
# matrix instead and gives every measurement the same weight.

# %% slideshow={"slide_type": "fragment"}
raw = pca(X)
standardised = pca(X, scale=True)
print("raw:          eigenvalues", raw.eigenvalues)
print("              proportion ", raw.explained_variance_ratio)
print("standardised: eigenvalues", standardised.eigenvalues)
print("              proportion ", standardised.explained_variance_ratio)

# %% alt="Two scree plots of the crabs, raw measurements (covariance) on the left and standardised (correlation) on the right: in both the first eigenvalue carries almost all the variance (98.2% and 95.8%) and the cumulative curve is near 1 from the first bar on." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
scree_plot(raw.eigenvalues, ax=axes[0], title="raw measurements (covariance)")
scree_plot(standardised.eigenvalues, ax=axes[1], title="standardised (correlation)")
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# In both, the first component carries almost everything (98.2% raw, 95.8% standardised); the cumulative curve is
# near 1 from the first bar on. The standardised eigenvalues sum to $p = 5$, the trace of a correlation matrix.
#
# What is that first component? Its loadings (the columns of `components`) all have the same sign:

# %% slideshow={"slide_type": "fragment"}
print(pd.DataFrame({"raw PC1": raw.components[:, 0], "standardised PC1": standardised.components[:, 0]},
                   index=measurements))
size = np.exp(np.log(X).mean(axis=1))  # the geometric mean of the five measurements
print("correlation of the raw PC1 scores with the geometric mean size:",
      dr.rounded(np.corrcoef(raw.scores[:, 0], size)[0, 1]))

# %% [markdown] slideshow={"slide_type": "subslide"}
# A score on PC1 is a positive weighted sum of all five measurements, so it grows with the crab: **PC1 is a size
# axis** (its correlation with the geometric mean of the measurements is 0.9954). On standardised data the weights
# are almost equal (about $1/\sqrt 5 = 0.447$), which is what five nearly perfectly correlated variables give.
# Everything that distinguishes species and sexes must live in the remaining 2-4% of the variance.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. Scores and loadings in one factorisation
#
# Write the SVD of the centred data as $\mathbf X_c = U D V^\top$. For any $\alpha \in [0, 1]$ split the
# singular values between the two sides (notes, eq. 1.18):
#
# $$\mathbf X_c = \underbrace{U D^{1-\alpha}}_{F\ (\text{scores})}\;\underbrace{(V D^{\alpha})^\top}_{L^\top\
# (\text{loadings})}, \qquad\text{so}\qquad x_{ij} = f_i^\top \ell_j .$$
#
# Each point $i$ gets a score vector $f_i$ (row $i$ of $F$) and each variable $j$ a loading vector $\ell_j$ (row $j$
# of $L$); their dot product gives back the centred entry $x_{ij}$ (notes, eq. 1.17, where the rows are written
# $\tilde z_i$ and $\tilde\nu_j$). Much of the biplot literature calls the factors $G$ and $H$; we write $F$ and $L$
# because $G$ is the Gram matrix and $H$ the centring matrix in notebooks 02, 04 and 08. A **biplot** draws the first two coordinates of all the $f_i$ as points and of all the $\ell_j$ as
# arrows. `biplot_coordinates(X, alpha, k)` returns $F$ (`.scores`) and $L$ (`.loadings`) with $k$ columns; with $k$
# equal to the rank of $\mathbf X_c$ (here 5) the factorisation is exact.

# %% slideshow={"slide_type": "fragment"}
Xc = center(X)
for alpha in (0.0, 0.5, 1.0):
    full = biplot_coordinates(X, alpha, k=5)
    F, L = full.scores, full.loadings
    print(f"alpha = {alpha}: x_00 = {dr.rounded(Xc[0, 0])}, f_0 . l_0 = {dr.rounded(F[0] @ L[0])}, "
          f"F L' = Xc: {np.allclose(F @ L.T, Xc)}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The same entry comes back for every $\alpha$: the choice of $\alpha$ does not change the product, only how the
# picture divides it between points and arrows. Two special cases:
#
# * $\alpha = 0$, the **unscaled** biplot: the scores are the principal component scores $UD$ (notes, eq. 1.15) and
#   the arrows are the rows of $V$, the weights each component gives to a variable.
# * $\alpha = 1$, the **scaled** biplot: the scores are $U$ and the arrows are $VD$.

# %% alt="Two biplots of the crabs coloured by species and sex, with an arrow per measurement. Left, alpha = 0: the points form a long thin streak along PC1 and the arrows are rows of V of length at most 1. Right, alpha = 1: the points form a round cloud and the arrows are longer, carrying the singular values." slideshow={"slide_type": "fragment"}
unscaled = biplot_coordinates(X, 0.0)
scaled = biplot_coordinates(X, 1.0)
fig, axes = plt.subplots(1, 2, figsize=(11, 5))
plot_biplot(unscaled, groups=group, ax=axes[0])
plot_biplot(scaled, groups=group, ax=axes[1])
fig.tight_layout()
plt.show()
print("alpha = 0 arrow lengths in 2-D (a full row of V has length 1):")
print(pd.Series(np.linalg.norm(unscaled.loadings, axis=1), index=measurements).to_string())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The two panels mirror the notes' Figure 1. Left ($\alpha = 0$): the points keep their real spread, so the cloud
# is a long thin streak along PC1 (98.2% of the variance) and each arrow is the first two entries of a row of $V$,
# the weights PC1 and PC2 give that variable. (A full row of $V$ has unit length; its first two entries are shorter,
# from 0.33 for `BD` to 0.89 for `RW`, as printed below the figure: the rest of each row sits on components 3-5.)
# Right ($\alpha =
# 1$): the points are rescaled so that both axes have the same variance, and the arrows now carry the singular
# values; all five point almost the same way, because all five measurements are strongly correlated. (The arrows
# are stretched by a common factor to fit the cloud; the top and right axes give their own units. The colours are
# the four species-sex groups named in the legend, not the crabs' colours.)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. What the scaled biplot guarantees
#
# **The scores have covariance $I/(n-1)$.** With $\alpha = 1$ the scores are the columns of $U$, which are
# orthonormal and (because the data are centred) have mean zero, so their sample covariance is
# $U^\top U/(n-1) = I/(n-1)$: uncorrelated, with equal variances.

# %% slideshow={"slide_type": "fragment"}
U = biplot_coordinates(X, 1.0, k=5).scores
print("(n - 1) * cov(scores) =")
print((n - 1) * np.cov(U, rowvar=False))
print("cov(scores) = I / (n - 1):", np.allclose(np.cov(U, rowvar=False), np.eye(p) / (n - 1)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# **The arrows carry the covariance.** With $L = VD$,
# $L L^\top = V D^2 V^\top = \mathbf X_c^\top \mathbf X_c = (n-1) S$, so $\ell_i^\top \ell_j = (n-1) S_{ij}$ and
# $\|\ell_j\| = \sqrt{n-1}\, s_j$. The cosine of the angle between two arrows is therefore
#
# $$\cos\theta_{ij} = \frac{\ell_i^\top \ell_j}{\|\ell_i\|\,\|\ell_j\|} = \frac{S_{ij}}{s_i s_j} = r_{ij},$$
#
# the correlation of variables $i$ and $j$. With all five components this is exact:

# %% slideshow={"slide_type": "fragment"}
def arrow_cosines(loadings):
    unit = loadings / np.linalg.norm(loadings, axis=1, keepdims=True)
    return unit @ unit.T


L = biplot_coordinates(X, 1.0, k=5).loadings
R = X.corr().to_numpy()
print("L L' = (n - 1) S:", np.allclose(L @ L.T, (n - 1) * covariance(X)))
print("arrow lengths / sqrt(n - 1) = standard deviations:",
      np.allclose(np.linalg.norm(L, axis=1) / np.sqrt(n - 1), X.std(ddof=1)))
print("cosines = correlations (k = 5):", np.allclose(arrow_cosines(L), R))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The picture, however, shows only the first two coordinates of each arrow. Then
# $L_2 L_2^\top = (n-1)S - \sum_{m > 2} d_m^2 v_m v_m^\top$: the dropped components are missing, and the
# cosines read off the plot are only approximately the correlations. How good is the approximation? We measure it on
# the biplot of the **standardised** measurements, whose correlation matrix is the same $R$ (exercise 3 asks the same
# question of the raw biplot drawn above).

# %% slideshow={"slide_type": "fragment"}
X_std = (X - X.mean()) / X.std(ddof=1)
view = arrow_cosines(biplot_coordinates(X_std, 1.0).loadings)
gap = view - R
worst = np.unravel_index(np.abs(gap).argmax(), gap.shape)
print("cosines seen in the 2-D biplot of the standardised crabs:")
print(pd.DataFrame(view, index=measurements, columns=measurements))
print("largest |cosine - correlation| in 2-D:", dr.rounded(np.abs(gap).max()),
      "for", measurements[worst[0]], "and", measurements[worst[1]])
gaps = {k: dr.rounded(np.abs(arrow_cosines(biplot_coordinates(X_std, 1.0, k=k).loadings) - R).max()) for k in (2, 3, 4)}
print("largest gap by number of components kept:", gaps)
assert gaps == {2: 0.0349, 3: 0.011, 4: 0.0016} and {measurements[i] for i in worst} == {"FL", "CW"}

# %% [markdown] slideshow={"slide_type": "subslide"}
# In the 2-D view the cosines are off by at most 0.035 (for `FL` and `CW`): what makes two measurements differ beyond
# size and the sex contrast is partly carried by components 3-5, which the plot drops. Adding components shrinks the
# gap to zero. For these data, where PC1 and PC2 of the standardised measurements hold 98.8% of the variance, the 2-D
# angles are a fair reading of the correlations; with a flatter scree plot they would not be.
#
# By contrast, the unscaled biplot keeps the **points'** geometry: with $\alpha = 0$ and all components,
# $F F^\top = U D^2 U^\top = \mathbf X_c \mathbf X_c^\top$, so the distances between score points are the distances
# between the crabs.

# %% slideshow={"slide_type": "fragment"}
F0 = biplot_coordinates(X, 0.0, k=5).scores
distances = np.linalg.norm(Xc[:, None, :] - Xc[None, :, :], axis=2)
print("alpha = 0 keeps distances between crabs:",
      np.allclose(np.linalg.norm(F0[:, None, :] - F0[None, :, :], axis=2), distances))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Size, species and sex
#
# PC1 is size. Which components tell the groups apart? The mean score of each group on the first three components
# of the **standardised** measurements, and the within-group standard deviation for scale:

# %% slideshow={"slide_type": "fragment"}
scores = pd.DataFrame(standardised.scores[:, :3], columns=["PC1", "PC2", "PC3"])
print("group means:")
print(scores.groupby(group).mean())
print("within-group standard deviation:")
print(scores.groupby(group).std().mean())

# %% [markdown] slideshow={"slide_type": "subslide"}
# * **PC1** orders the groups by mean size (blue females are the smallest, orange females the largest), but the
#   group means are at most about 2.3 apart, hardly more than the spread within each group (about 2): the groups
#   overlap heavily, and size does not tell species or sex.
# * **PC2** has the same sign pattern for both species: positive for females, negative for males, with means about
#   0.66 apart against a within-group spread of about 0.2. PC2 is the **sex** contrast.
# * **PC3** is positive for blue and negative for orange crabs, in both sexes: means about 0.37 apart against a
#   within-group spread of 0.1. PC3 is the **species** contrast.
#
# A score plot coloured by group shows it.

# %% alt="Two score plots of the standardised crabs coloured by the four species-sex groups. Left, PC1 against PC2: the groups overlap along the long size axis. Right, PC2 against PC3: the four groups sit in four corners, sex separating left from right (PC2) and species bottom from top (PC3)." slideshow={"slide_type": "fragment"}
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
score_scatter(standardised.scores, groups=group, ax=axes[0], components=(0, 1),
              title="standardised: PC1 (size) vs PC2")
score_scatter(standardised.scores, groups=group, ax=axes[1], components=(1, 2),
              title="standardised: PC2 vs PC3 (size removed)")
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# On the left the groups overlap along the long size axis and are only slightly offset vertically. On the right,
# where PC1 is left out, the four groups sit in four corners: sex left-right (PC2), species bottom-top (PC3).
# The loadings say what each contrast measures:

# %% slideshow={"slide_type": "fragment"}
print(pd.DataFrame(standardised.components[:, :3], index=measurements, columns=["PC1", "PC2", "PC3"]))

# %% [markdown] slideshow={"slide_type": "subslide"}
# PC2 is dominated by rear width `RW` against the carapace: females have a wider rear (the abdomen carries the eggs)
# for their size. PC3 contrasts body depth `BD` and frontal lobe `FL` with carapace width `CW`: orange crabs are
# deeper-bodied and have a larger frontal lobe for their carapace width.
#
# **Removing size by taking logarithms.** Growth is roughly multiplicative: a bigger crab is a scaled-up smaller
# one. On the log scale, size becomes an additive shift shared by all five measurements and the shape differences
# become differences of logs (ratios). PCA of the log measurements shows the same three roles (its PC1 carries a
# little less of the variance than the raw PC1, 96.9% against 98.2%):

# %% slideshow={"slide_type": "fragment"}
logs = pca(np.log(X))
print("log measurements: proportion of variance", logs.explained_variance_ratio)
print(pd.DataFrame(logs.components[:, :3], index=measurements, columns=["PC1", "PC2", "PC3"]))
log_scores = pd.DataFrame(logs.scores[:, 1:3], columns=["PC2", "PC3"])
print("group means of the log scores (x 100):")
print(100 * log_scores.groupby(group).mean())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The log PC1 has roughly equal weights (0.39 to 0.50), so its score is close to a multiple of the log of the
# geometric mean size.
# PC2 again splits the sexes and PC3 the species. A biplot of the log measurements on PC2 and PC3 (leaving out the
# size axis) shows which shape ratios drive each contrast:

# %% alt="Biplot of the log measurements on PC2 and PC3, coloured by species and sex: log RW points towards the females, log BD and log FL towards the orange crabs, and log CW away from them." slideshow={"slide_type": "fragment"}
log_view = biplot_coordinates(np.log(X).rename(columns=lambda c: f"log {c}"), 1.0, k=3)
plot_biplot(log_view, groups=group, components=(1, 2), title="log measurements, alpha = 1: PC2 vs PC3")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# With size out of the picture the arrows spread out: `log RW` points towards the females, `log BD` and `log FL`
# towards the orange crabs and `log CW` away from them. In the PC1-PC2 view of the same data, all five arrows would
# point along the size axis and hide this.
#
# ## 6. Try it: sliding $\alpha$
#
# If you run this notebook in Jupyter, the slider below redraws the biplot for any $\alpha$ between 0 and 1. Watch
# the cloud go from the long streak ($\alpha=0$) to the round cloud ($\alpha=1$) while the arrows gain the singular
# values. (Its output is not checked: widgets need a live kernel.)

# %% alt="Interactive biplot of the crabs at alpha = 0.5 with a slider for alpha from 0 to 1 (the slider needs a live kernel): points coloured by species and sex and one arrow per measurement." slideshow={"slide_type": "fragment"} tags=["nbval-ignore-output"]
import ipywidgets

from dimred_teach.display import figure_with_sliders


def draw(alpha):
    return plot_biplot(biplot_coordinates(X, alpha), groups=group).figure


figure_with_sliders(draw, alpha=ipywidgets.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.05, description="alpha"))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 7. How stable are the components?
#
# The CMU notes stress that PCA describes the sample in hand; it is not by itself a statement about
# the population. Only as the sample covariance approaches the true one do the components approach the true
# eigenvectors, and nothing in the output says how close we are. The bootstrap gives a rough answer: draw $n$ crabs
# with replacement, redo the PCA, and see how far each component turns. The angle between a replicate's
# component $j$ and the full-data component $j$ is $\arccos|v_j^{(b)}\cdot v_j|$, folded into $[0°, 90°]$ because the
# sign of a component is arbitrary.

# %% slideshow={"slide_type": "fragment"}
boot = bootstrap_pca(X, k=3, n_boot=200, seed=0)
boot_standardised = bootstrap_pca(X, k=3, n_boot=200, seed=0, scale=True)
plane_angle = np.degrees(np.arcsin([subspace_distance(V[:, 1:3], raw.components[:, 1:3]) for V in boot.components]))
spread = pd.DataFrame({"raw: eigenvalue": raw.eigenvalues[:3],
                       "raw: bootstrap sd": boot.eigenvalues.std(axis=0),
                       "raw: 95% of angles below": np.percentile(boot.angles, 95, axis=0),
                       "standardised: 95% below": np.percentile(boot_standardised.angles, 95, axis=0)},
                      index=["PC1", "PC2", "PC3"])
print(spread.map(dr.rounded).to_string())
print("raw PC2-PC3 plane: 95% of angles below", dr.rounded(np.percentile(plane_angle, 95)), "deg")
print("raw: lambda1/lambda2 =", dr.rounded(raw.eigenvalues[0] / raw.eigenvalues[1]),
      " lambda2/lambda3 =", dr.rounded(raw.eigenvalues[1] / raw.eigenvalues[2]))
cross_cosines = np.abs(np.einsum("bpj,pk->bjk", boot.components, raw.components[:, :3]))
swapped = cross_cosines[:, 1, 2] > cross_cosines[:, 1, 1]  # replicate's PC2 nearer the full PC3 than the full PC2
two_largest = np.sort(boot.angles, axis=0)[-2:]
print("replicates turning PC1, PC2, PC3 beyond 60 deg:", (boot.angles > 60).sum(axis=0),
      " two largest angles of PC2:", ", ".join(f"{angle:.1f}" for angle in dr.rounded(two_largest[:, 1], 1)), "deg")
print("replicates whose PC2 and PC3 swap:", int(swapped.sum()), "of", len(swapped))
assert (boot.angles > 60).sum(axis=0).tolist() == [0, 2, 2] and swapped.sum() == 6
assert np.round(two_largest[:, 1:]).tolist() == [[71, 71], [79, 79]]
print("standardised: lambda2/lambda3 =", dr.rounded(standardised.eigenvalues[1] / standardised.eigenvalues[2]))
assert np.allclose(np.percentile(boot_standardised.angles[:, 1:3], 95, axis=0), [6.1, 7.3], atol=0.05)

# %% alt="Left: histograms of the angle, from 0 to 90 degrees, between each bootstrap replicate's component and the full-data one. PC1 stays below about a degree; PC2 and PC3 spread over tens of degrees with a thin tail to 79 degrees, while the PC2-PC3 plane stays within a few degrees. Right: histograms of the replicates' second and third eigenvalues, which overlap, with dashed lines at the full-data values." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
bins = np.linspace(0, 90, 46)
for j in range(3):
    axes[0].hist(boot.angles[:, j], bins=bins, histtype="step", linewidth=1.5, label=f"PC{j + 1}")
axes[0].hist(plane_angle, bins=bins, histtype="stepfilled", alpha=0.3, color="grey", label="PC2-PC3 plane")
axes[0].set(xlabel="angle to the full-data direction (degrees)", ylabel="bootstrap replicates",
            title="How far each component turns")
axes[0].legend()
for j in (1, 2):
    axes[1].hist(boot.eigenvalues[:, j], bins=30, histtype="step", linewidth=1.5, color=f"C{j}",
                 label=f"$\\lambda_{j + 1}$ replicates")
    axes[1].axvline(raw.eigenvalues[j], color=f"C{j}", linestyle="--", label=f"$\\lambda_{j + 1}$ full data")
axes[1].set(xlabel="eigenvalue", ylabel="bootstrap replicates", title="The two small eigenvalues overlap")
axes[1].legend()
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# PC1 is pinned down: $\lambda_1$ is about a hundred times $\lambda_2$, and 95% of the replicates turn the size axis
# by less than one degree. The raw PC2 and PC3 are another story: $\lambda_2/\lambda_3$ is only 1.3, the bootstrap
# distributions of the two eigenvalues overlap, and one replicate in twenty turns them by more than 30°, with a thin
# tail across the whole range: two replicates per component turn them by 71° and 79°, and in 6 of the 200 the
# replicate's second component lies nearer the full data's third than its second, that is, the two components have
# swapped. This also colours the right panel: each replicate's eigenvalues are sorted, so the histograms label
# variances by rank, not by direction, and in a swapped replicate the value drawn as $\lambda_2$ belongs to (roughly)
# the full data's third direction. Part of the overlap of the two histograms is this relabelling, not uncertainty
# about the variance along one fixed direction. Yet the plane PC2 and PC3 span barely moves (a few degrees). When two
# eigenvalues are close, the data determine their common subspace, not the individual directions inside it.

# %% [markdown] slideshow={"slide_type": "subslide"}
# **What this means for section 5.** Section 5 read PC2 as sex and PC3 as species on the *standardised*
# measurements, where $\lambda_2/\lambda_3 \approx 3.3$: there 95% of the replicates turn PC2 by less than 6.1° and
# PC3 by less than 7.3° (last column of the table), so that reading is stable. On the *raw* measurements no single
# component is the sex axis: raw PC2 and PC3 are rotations, inside the stable plane, of a mixture of the two
# contrasts. The group means on the raw components show it:

# %% slideshow={"slide_type": "fragment"}
raw_means = pd.DataFrame(raw.scores[:, 1:3], columns=["raw PC2", "raw PC3"]).groupby(group).mean()
print(raw_means.map(dr.rounded))
assert np.allclose(raw_means["raw PC2"], [0.26, -1.33, 1.47, -0.40], atol=0.005)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Raw PC2 puts the females above the males of their own species, but also the orange crabs above the blue ones of
# their own sex, so the orange males sit near the blue females; raw PC3 does the same with the roles of sex and
# species swapped. Both axes mix sex and species; only the plane separates the four groups cleanly. So: on the raw
# data, read the PC2-PC3 plane, not its axes; after standardising, the gap between $\lambda_2$ and $\lambda_3$ makes
# the axes themselves meaningful. The bootstrap itself is only an approximation (it treats the 200 crabs as the
# population), not a formal test.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * $\mathbf X_c = (U D^{1-\alpha})(V D^{\alpha})^\top$ for every $\alpha$; a biplot draws the first two columns of
#   both factors, points and arrows, and $x_{ij}$ is the dot product of score $i$ and arrow $j$.
# * $\alpha = 0$ keeps the points' distances; $\alpha = 1$ gives scores with covariance $I/(n-1)$ and arrows whose
#   lengths are $\sqrt{n-1}$ times the standard deviations and whose cosines are the correlations (exactly with all
#   components, approximately in 2-D: within 0.035 for the standardised crabs).
# * On the crabs, PC1 is size (98% of the variance); sex and species live in the small components PC2 and PC3,
#   which show up once size is removed (leave out PC1, or take logs first).
# * The bootstrap shows PC1 fixed to about a degree, while the raw PC2 and PC3, with nearly equal eigenvalues, wander
#   by tens of degrees inside a stable plane (close eigenvalues leave their directions undetermined, and each mixes
#   sex and species); the standardised PC2 and PC3 of section 5 are stable to a few degrees.
#
# **Exercises:** `exercises/03_biplots.ipynb` asks you to build the biplot factors yourself, check the two
# scaled-biplot properties and name the species component with numbers (worked solutions:
# `solutions/03_biplots.ipynb`; try first).
