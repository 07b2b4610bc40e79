# %% [markdown]
# # Solutions 03 · Biplots on the crabs data
#
# *Time: about 55 minutes.*
#
# **Objectives.** After this set you can
# 1. build the biplot factors $U D^{1-\alpha}$ and $V D^{\alpha}$ yourself from the SVD;
# 2. show that the scaled ($\alpha = 1$) scores have covariance $I/(n-1)$;
# 3. recover the correlations of the measurements from the angles between loading arrows;
# 4. measure with one number how well a score separates two groups;
# 5. find the principal component that separates the two species and back the claim with numbers;
# 6. measure by the bootstrap how far a component turns from sample to sample.
#
# Goes with `notebooks/03_biplots.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh simulated crabs) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the grader
# restores them. Two library functions answer exercises here, so the checks and the grader refuse them in your
# answers: `dimred_teach.biplot.biplot_coordinates` (the biplot factors) and `dimred_teach.pca.bootstrap_pca` (the
# bootstrap of the last exercise).
#
# **Notes.** Oxford SC4/SM4 notes §1.2.4 and §1.3 (eq. 1.14-1.18). Conventions as in the lecture: rows are points,
# $S = \mathbf X_c^\top \mathbf X_c/(n-1)$, $\mathbf X_c = U D V^\top$ is the thin SVD of the centred data.

# %%
import numpy as np

import dimred_teach as dr
from dimred_teach import check
from dimred_teach.datasets import CRABS_MEASUREMENTS, load_crabs
from dimred_teach.pca import pca

dr.setup_notebook()
crabs = load_crabs()
X = crabs[list(CRABS_MEASUREMENTS)].to_numpy()
species = crabs["species"].astype(str).to_numpy()
n, p = X.shape
print(X.shape, "species:", sorted(set(species)))

# %% [markdown]
# ## Exercise 1 · The biplot factors *(10 min, lecture §3)*
#
# Write `biplot_factors(X, alpha, k)` for a data matrix `X` ($n\times p$, rows are points), a scaling
# $0 \le \alpha \le 1$ and a number of components $k$. It returns the pair `(scores, loadings)`:
#
# * `scores` $= U_k D_k^{1-\alpha}$, shape $(n, k)$,
# * `loadings` $= V_k D_k^{\alpha}$, shape $(p, k)$,
#
# where $U_k$, $D_k$, $V_k$ keep the first $k$ singular triples of the **centred** data. Use `np.linalg.svd`
# (not the course library). With $k = p$ your factors must reproduce the centred data: `scores @ loadings.T`.
# The check calls your function on freshly simulated crabs for several values of $\alpha$.

# %%
def biplot_factors(X, alpha, k):
    """Biplot scores (n, k) and loadings (p, k) of the centred X with scaling alpha."""
    # BEGIN SOLUTION
    Xc = X - X.mean(axis=0)
    U, d, Vt = np.linalg.svd(Xc, full_matrices=False)
    return U[:, :k] * d[:k] ** (1 - alpha), Vt[:k].T * d[:k] ** alpha
    # END SOLUTION


# %% points=2
check("03.biplot_factors", biplot_factors)

# %% [markdown]
# ## Exercise 2 · The scaled scores have covariance $I/(n-1)$ *(10 min, lecture §4)*
#
# (a) The lecture drew the scaled biplot of all 200 crabs. Compute `scaled_scores`, the $\alpha = 1$ biplot
# scores of the 100 female crabs (`X_female` below) with all $p = 5$ components (shape $100\times 5$), and print
# $(n-1)$ times their sample covariance matrix, with $n = 100$.

# %%
X_female = X[crabs["sex"].to_numpy() == "F"]
# BEGIN SOLUTION
scaled_scores = np.linalg.svd(X_female - X_female.mean(axis=0), full_matrices=False)[0]
print((len(X_female) - 1) * np.cov(scaled_scores, rowvar=False))
# END SOLUTION

# %% points=1
check("03.scaled_scores", scaled_scores)

# %% [markdown]
# (b) Explain why the covariance is exactly $I/(n-1)$, and what that means for the picture.

# %% [markdown] tags=["solution"]
# **Why.** With $\alpha = 1$ the scores are $U$. Its columns have mean zero: $\mathbf 1^\top \mathbf X_c = 0$ and
# $U = \mathbf X_c V D^{-1}$, so $\mathbf 1^\top U = 0$. The sample covariance is then
# $U^\top U/(n-1) = I/(n-1)$ because the columns of $U$ are orthonormal. The derived variables are uncorrelated and
# all have the same variance, so the scaled biplot's point cloud is round: how spread out the data are along each
# component is no longer visible in the points but in the lengths of the arrows $V D$.
#
# **Rubric.**
#
# - 1 point: With $\alpha = 1$ the scores are $U$, whose columns have mean 0 ($\mathbf 1^\top\mathbf X_c = 0$).
# - 1 point: Orthonormal columns give the covariance $U^\top U/(n-1) = I/(n-1)$.
# - 1 point: For the picture: the point cloud is round; the spread along each component shows in the arrows' lengths
#   $VD$.

# %% [markdown]
# ## Exercise 3 · Correlations from the angles between arrows *(10 min, lecture §4)*
#
# (a) Write `arrow_cosines(X, k)`, the $p\times p$ matrix of cosines of the angles between the loading arrows of the
# **scaled** biplot ($\alpha = 1$) of `X` keeping `k` components: entry $(i, j)$ is
# $h_i^\top h_j / (\|h_i\|\,\|h_j\|)$ for rows $h_i$, $h_j$ of the loadings $V_k D_k$. Use `np.linalg.svd`. The check
# calls your function on freshly simulated crabs for several values of `k`.

# %%
def arrow_cosines(X, k):
    """Cosines (p, p) between the rows of the alpha = 1 loadings V_k D_k of the centred X."""
    # BEGIN SOLUTION
    d, Vt = np.linalg.svd(X - X.mean(axis=0), full_matrices=False)[1:]
    H = Vt[:k].T * d[:k]
    unit = H / np.linalg.norm(H, axis=1, keepdims=True)
    return unit @ unit.T
    # END SOLUTION


# %% points=1
check("03.arrow_cosines", arrow_cosines)

# %% [markdown]
# (b) Compare `arrow_cosines(X, 5)` for the crabs with the correlation matrix `np.corrcoef(X, rowvar=False)`. A biplot
# shows only the first two coordinates of each arrow: what is the largest difference from the correlations with
# `k = 2`, and why is it not zero?

# %%
# BEGIN SOLUTION
R = np.corrcoef(X, rowvar=False)
print("largest difference from the correlations, k = 5:", dr.rounded(np.abs(arrow_cosines(X, 5) - R).max()))
print("largest difference in the 2-D view, k = 2:", dr.rounded(np.abs(arrow_cosines(X, 2) - R).max()))
# END SOLUTION

# %% [markdown] tags=["solution"]
# **Answer.** About 0.052 (for `RW` and `BD`). With all components, $H H^\top = V D^2 V^\top = (n-1) S$, so the
# cosines are exactly $S_{ij}/(s_i s_j)$, the correlations. With two columns,
# $H_2 H_2^\top = (n-1)S - \sum_{\ell\ge 3} d_\ell^2 v_\ell v_\ell^\top$: the part of each variable carried by the
# dropped components is missing, the arrows are shorter than $\sqrt{n-1}\,s_j$ and their angles are distorted.
# Here the dropped components hold under 1% of the variance, so the error is small.
#
# **Rubric.**
#
# - 1 point: Gives the largest difference (about 0.05, for `RW` and `BD`) and that with all components the cosines
#   are the correlations.
# - 1 point: Explains that two columns leave out the dropped components' part of each variable (shorter arrows,
#   distorted angles), which is small here.

# %% [markdown]
# ## Exercise 4 · A number for "separates the species" *(10 min, lecture §5)*
#
# Write `species_separation(scores, species)`: for each column of `scores` ($n\times k$) and a label array `species`
# with two distinct values, return the absolute difference between the two groups' means divided by the pooled
# within-group standard deviation $s_{\text{pooled}}$, where
# $s_{\text{pooled}}^2 = \big((n_1-1)s_1^2 + (n_2-1)s_2^2\big)/(n_1+n_2-2)$ and $s_1^2$, $s_2^2$ are the two groups'
# sample variances. Return an array of shape $(k,)$. A value of 3 means the two group means are three typical
# within-group spreads apart.

# %%
def species_separation(scores, species):
    """|mean difference| / pooled within-group standard deviation for each column, shape (k,)."""
    # BEGIN SOLUTION
    species = np.asarray(species)
    first = species == species[0]
    a, b = scores[first], scores[~first]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(scores) - 2)
    return np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled)
    # END SOLUTION


# %% points=1
check("03.species_separation", species_separation)

# %% [markdown]
# ## Exercise 5 · Which component separates the species? *(5 min, lecture §5)*
#
# The lecture found the species in PC3 of all 200 crabs. Take the 100 **male** crabs alone (`X_males`,
# `species_males` below), run PCA on their **standardised** measurements keeping all five components
# (`pca(X_males, scale=True)`), compute the species separation of every component, and set `species_pc` to the
# number (1 for PC1, 2 for PC2, ...) of the component that separates the two species best. Then justify your answer
# with the numbers: why is it not the lecture's component?

# %%
males = crabs["sex"].to_numpy() == "M"
X_males, species_males = X[males], species[males]
# BEGIN SOLUTION
fit = pca(X_males, scale=True)
separation = species_separation(fit.scores, species_males)
print("species separation of PC1..PC5:", separation)
species_pc = int(np.argmax(separation)) + 1
print("species_pc =", species_pc)
# END SOLUTION

# %% points=1
check("03.species_component", species_pc)

# %% [markdown] tags=["solution"]
# **Justification.** Among the males, PC2 separates the species by 3.58 pooled within-species standard deviations;
# the next best, PC3, by only 0.65, and PC1, PC4 and PC5 by less than 0.35. PC1 is the size axis (all loadings
# about 0.45, 98.2% of the variance): both species come in all sizes, so it cannot tell them apart. For all 200
# crabs the second component was the sex contrast (rear width `RW`); with one sex only there is no sex contrast
# left, so the species contrast moves up to PC2 (1.2% of the variance). Its loadings contrast frontal lobe and body
# depth with carapace width (and rear width): for a given size the orange crabs have a larger frontal lobe and a
# deeper body. The largest components are not necessarily the interesting ones, and a component's number depends
# on what else varies in the sample.
#
# **Rubric.**
#
# - 1 point: Names PC2 with the separations as numbers (3.58 against 0.65 for the next best).
# - 1 point: PC1 is size, which does not tell the species apart.
# - 1 point: With one sex only there is no sex contrast, so the species contrast moves up from PC3 to PC2.

# %% [markdown]
# ## Exercise 6 · How far does a component turn under the bootstrap? *(10 min, lecture §7)*
#
# PCA describes the sample at hand; it does not say how much the components would move with another sample (CMU
# notes, "PCA is exploratory analysis, not statistical inference"). The bootstrap estimates it.
# Write `bootstrap_angle(X, j, n_boot, seed)`: with `rng = np.random.default_rng(seed)`, repeat `n_boot` times:
# draw $n$ rows of `X` with replacement, as `rng.integers(0, n, n)` (one call per replicate, in order), compute
# component $j$ of those rows (1 for PC1; centre, then SVD), and record its angle in degrees to component $j$ of
# the full `X`. Since a component's sign is arbitrary, the angle is $\arccos|v_j^{(b)}\cdot v_j|$, between 0 and
# 90. Return the `n_boot` angles, shape `(n_boot,)`. The check calls it on clouds far from the origin, where one
# component is well determined and two are nearly tied, and compares your angles with that stream's, draw for
# draw.

# %%
def bootstrap_angle(X, j, n_boot, seed):
    """Angles in degrees, shape (n_boot,), between component j of bootstrap replicates and of X."""
    # BEGIN SOLUTION
    X = np.asarray(X, dtype=float)
    rng = np.random.default_rng(seed)

    def component(rows):
        return np.linalg.svd(rows - rows.mean(axis=0), full_matrices=False)[2][j - 1]

    full = component(X)
    cosines = [abs(component(X[rng.integers(0, len(X), len(X))]) @ full) for _ in range(n_boot)]
    return np.degrees(np.arccos(np.clip(cosines, 0.0, 1.0)))
    # END SOLUTION


# %% points=1
check("03.bootstrap_angle", bootstrap_angle)

# %% [markdown]
# On the crabs: the median angle of PC1, PC2 and PC3 over 200 replicates.

# %%
# BEGIN SOLUTION
for j in (1, 2, 3):
    print(f"PC{j}: median bootstrap angle", dr.rounded(np.median(bootstrap_angle(X, j, 200, seed=0))), "degrees")
# END SOLUTION

# %% [markdown] tags=["solution"]
# **Reading.** PC1 (size, about 98% of the variance) hardly moves; PC2 and PC3 turn by several degrees, because
# their eigenvalues are close ($\lambda_2/\lambda_3 \approx 1.3$) and the data do not fix their directions inside
# the plane they span.
#
# **Rubric.**
#
# - 1 point: PC1 hardly moves; PC2 and PC3 turn by several degrees.
# - 1 point: Because $\lambda_2$ and $\lambda_3$ are close, the data do not fix the directions inside their plane.
