# %% [markdown]
# # Exercises 03 · Biplots on the crabs data
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
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

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
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("03.biplot_factors", biplot_factors)

# %% [markdown]
# ## Exercise 2 · The scaled scores have covariance $I/(n-1)$ *(10 min, lecture §4)*
#
# (a) The lecture drew the scaled biplot of all 200 crabs. Compute `scaled_scores`, the $\alpha = 1$ biplot
# scores of the 100 female crabs (`X_female` below) with all $p = 5$ components (shape $100\times 5$), and print
# $(n-1)$ times their sample covariance matrix, with $n = 100$.

# %%
X_female = X[crabs["sex"].to_numpy() == "F"]
# YOUR CODE HERE
scaled_scores = ...

# %% tags=["check"] points=1
check("03.scaled_scores", scaled_scores)


# %% [markdown]
# (b) Explain why the covariance is exactly $I/(n-1)$, and what that means for the picture.

# %% [markdown] dimred_teach={"written": {"exercise": "03.scaled_scores", "part": 1}}
# **Your answer:** *(write it here)*

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
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("03.arrow_cosines", arrow_cosines)

# %% [markdown]
# (b) Compare `arrow_cosines(X, 5)` for the crabs with the correlation matrix `np.corrcoef(X, rowvar=False)`. A biplot
# shows only the first two coordinates of each arrow: what is the largest difference from the correlations with
# `k = 2`, and why is it not zero?

# %%
# YOUR CODE HERE
R = ...


# %% [markdown] dimred_teach={"written": {"exercise": "03.arrow_cosines", "part": 1}}
# **Your answer:** *(write it here)*

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
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
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
# YOUR CODE HERE
fit = ...
separation = ...
species_pc = ...

# %% tags=["check"] points=1
check("03.species_component", species_pc)


# %% [markdown] dimred_teach={"written": {"exercise": "03.species_component", "part": 1}}
# **Your answer:** *(write it here)*

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
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("03.bootstrap_angle", bootstrap_angle)

# %% [markdown]
# On the crabs: the median angle of PC1, PC2 and PC3 over 200 replicates.

# %%
# YOUR CODE HERE
pass

# %% [markdown] dimred_teach={"written": {"exercise": "03.bootstrap_angle", "part": 1}}
# **Your answer:** *(write it here)*
