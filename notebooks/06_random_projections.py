# %% [markdown] slideshow={"slide_type": "slide"}
# # 06 · Random projections and the Johnson-Lindenstrauss trade-off
#
# **Multiply the data by a random matrix, and every pairwise distance survives, nearly.**
#
# *Time: about 55 minutes, plus about 20 for the optional last section.* *Prerequisites: notebook 01 (PCA).*
#
# **Learning objectives.** After this notebook you can
# 1. derive $\mathbb E\|\mathbf U\vec x\|^2 = \|\vec x\|^2$ for a Gaussian random matrix and check it by simulation;
# 2. explain why the ratio $\|\mathbf U\vec x\|^2/\|\vec x\|^2$ concentrates around 1 as the target dimension $q$ grows;
# 3. compute the Johnson-Lindenstrauss (JL) dimension $q \ge \frac{8}{\epsilon^2}\log\frac{n}{\sqrt\delta}$ and invert it
#    for $\epsilon$ (or $\delta$) at a fixed budget $q$;
# 4. show that the ambient dimension $p$ does not enter, and measure how conservative the bound is in practice;
# 5. say what PCA keeps (variance) and what a random projection keeps (every pairwise distance), and when each wins;
# 6. (optional section) use a sparse random projection to keep sparse data sparse and fast.
#
# **Notes followed.** CMU 36-467/667 "Linear Dimension Reduction" slides, the random projection and
# Johnson-Lindenstrauss section, including its worked numbers ($n = 205$, $\epsilon = 0.2$, $\delta = 0.05$).
#
# **Layout.** The notes write the projection as $\mathbf U\vec x_i$ with $\mathbf U$ of shape $q\times p$ acting on a
# column vector. Our points are the rows of $\mathbf X$ ($n\times p$), so the projected data are
# $\mathbf Y = \mathbf X\mathbf U^\top$, of shape $n\times q$: the same map, transposed.
#
# **References.** CMU 36-467/667 notes, section "The random projection trick" and its references:
# Johnson and Lindenstrauss (1984); Dasgupta and Gupta (2002); Boucheron, Lugosi and Massart (2013), whose form of
# the theorem gives the constants used here. Sparse projections: Achlioptas (2003); Li, Hastie and Church (2006).

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import time

import ipywidgets as widgets
import numpy as np
import matplotlib.pyplot as plt
import scipy.sparse
from scipy import stats

import dimred_teach as dr
from dimred_teach.jl import distortion, jl_delta, jl_epsilon, jl_min_dim, random_projection, worst_distortions
from dimred_teach.pca import pca

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. Which maps keep distances?
#
# A map $\vec x \mapsto \mathbf U\vec x$ is an *isometry* of our $n$ points when every squared distance
# $\|\mathbf U\vec x_i - \mathbf U\vec x_j\|^2$ equals $\|\vec x_i - \vec x_j\|^2$. In fewer dimensions that is too much
# to ask, so we settle for an **$\epsilon$-isometry**: every squared distance is kept up to a factor in
# $[1-\epsilon, 1+\epsilon]$. The `distortion` function measures exactly this: the ratio of each pair's squared
# distance after and before, and `worst` $=\max|\text{ratio} - 1|$, the smallest $\epsilon$ that works.
#
# The random projection trick: fill a $q\times p$ matrix with independent $Z_{ij}\sim N(0,1)$ and set
# $\mathbf U = Z/\sqrt q$. No data are looked at.

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(6)
X = rng.normal(size=(50, 1000))
projection = random_projection(X, q=300, seed=1)
result = distortion(X, projection.embedding)
print("embedding shape:", projection.embedding.shape)
print("pairs:", result.ratios.size, " mean ratio:", dr.rounded(result.ratios.mean()))
print("worst |ratio - 1|:", dr.rounded(result.worst), "at pair", result.worst_pair)

# %% [markdown] slideshow={"slide_type": "subslide"}
# Fifty points in 1,000 dimensions went to 300 random dimensions, and all 1,225 squared distances stayed within
# 27% of their old values, on average almost exactly. The next two sections explain the "on average" and the
# "within".
#
# ## 2. Distance-preserving on average: $\mathbb E\|\mathbf U\vec x\|^2 = \|\vec x\|^2$
#
# Fix a vector $\vec x$ (for a pair of points, $\vec x = \vec x_i - \vec x_j$: the map is linear, so distances are
# lengths of differences). Coordinate $i$ of $\mathbf U\vec x$ is $\frac{1}{\sqrt q}\sum_{j} Z_{ij}x_j$, so
#
# $$\mathbb E\|\mathbf U\vec x\|^2 = \frac1q\sum_{i=1}^q \mathbb E\Big(\sum_{j=1}^p Z_{ij}x_j\Big)^2
#   = \frac1q\sum_{i=1}^q\sum_{j,k} x_jx_k\,\mathbb E[Z_{ij}Z_{ik}] = \frac1q\sum_{i=1}^q\sum_{j=1}^p x_j^2 = \|\vec x\|^2,$$
#
# because $\mathbb E[Z_{ij}Z_{ik}]$ is 1 when $j = k$ and 0 otherwise. More is true: $\sum_j Z_{ij}x_j$ is
# $N(0, \|\vec x\|^2)$, so $q\,\|\mathbf U\vec x\|^2/\|\vec x\|^2$ is a sum of $q$ squared standard normals, a
# $\chi^2_q$ variable. The ratio therefore has mean 1 and variance $2/q$, whatever $\vec x$ and $p$ are.
#
# A simulation: 4,000 independent matrices $\mathbf U$ applied to one fixed $\vec x$.

# %% slideshow={"slide_type": "fragment"}
p, q, draws = 30, 10, 4000
x = rng.normal(size=p)
Z = np.random.default_rng(7).standard_normal((draws, q, p))
squared_norms = ((Z @ x) ** 2).sum(axis=1) / q  # ||U x||^2 with U = Z / sqrt(q), one per draw
ratios = squared_norms / (x @ x)
standard_error = np.sqrt(2 / q / draws)
print("||x||^2                 :", dr.rounded(x @ x))
print("mean of ||Ux||^2        :", dr.rounded(squared_norms.mean()))
print("mean ratio, 2 std errors:", dr.rounded(ratios.mean()), "+-", dr.rounded(2 * standard_error))
print("variance of the ratio   :", dr.rounded(ratios.var(ddof=1)), " 2/q =", dr.rounded(2 / q))
print("mean within 3 standard errors of 1:", abs(ratios.mean() - 1) < 3 * standard_error)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The simulated mean is within a couple of standard errors of $\|\vec x\|^2$, and the variance of the ratio is close to
# $2/q = 0.2$: with only $q = 10$ dimensions a single projection can easily be 40% off, even though it is right on
# average.
#
# ## 3. Nearly distance-preserving with high probability: concentration in $q$
#
# Since the ratio's standard deviation is $\sqrt{2/q}$, it shrinks like $1/\sqrt q$. Below, each panel repeats the
# simulation for a larger $q$ and overlays the exact density of $\chi^2_q/q$.

# %% alt="Four histograms of the ratio of squared lengths after and before a random projection, for q = 5, 20, 100 and 500 dimensions, each with the chi-squared density overlaid: the histograms pile up around 1 as q grows, their spread shrinking like 1 over the square root of q." slideshow={"slide_type": "fragment"}
qs = [5, 20, 100, 500]
small_x = rng.normal(size=10)
fig, axes = plt.subplots(1, len(qs), figsize=(11, 2.8), sharey=False)
spread = []
for ax, q_value in zip(axes, qs):
    Z = np.random.default_rng(q_value).standard_normal((1000, q_value, small_x.size))
    sample = ((Z @ small_x) ** 2).sum(axis=1) / q_value / (small_x @ small_x)
    spread.append([q_value, sample.std(ddof=1), np.sqrt(2 / q_value)])
    grid = np.linspace(0, 3, 300)
    ax.hist(sample, bins=40, range=(0, 3), density=True, alpha=0.7)
    ax.plot(grid, stats.chi2.pdf(grid * q_value, q_value) * q_value, color="C1")
    ax.axvline(1, color="black", lw=0.8)
    ax.set_title(f"q = {q_value}")
    ax.set_xlabel("ratio ||Ux||² / ||x||²")
axes[0].set_ylabel("density")
fig.tight_layout()
plt.show()
print(np.array(spread))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The histograms pile up around 1 as $q$ grows, and each matches its $\chi^2_q/q$ curve; the printed table (columns:
# $q$, simulated standard deviation, $\sqrt{2/q}$) shows the $1/\sqrt q$ law. Concentration of one ratio is the
# engine of the JL theorem: a union bound over all $\binom n2$ pairs then needs $q$ to grow only like $\log n$.
#
# ## 4. The Johnson-Lindenstrauss bound and the notes' numbers
#
# The form in the notes: with probability at least $1-\delta$, $\mathbf U$ is an $\epsilon$-isometry of the $n$ points
# whenever
# $$q \;\ge\; \frac{8}{\epsilon^2}\log\frac{n}{\sqrt\delta} = \frac{8}{\epsilon^2}\Big(\log n + \tfrac12\log\tfrac1\delta\Big).$$
# `jl_min_dim` returns the smallest such integer; `jl_epsilon` solves the same equation for $\epsilon$ at a given
# $q$. The notes' examples, with the unrounded bound shown so the rounding up is visible:

# %% slideshow={"slide_type": "fragment"}
def bound(n, eps, delta):
    return 8 / eps**2 * np.log(n / np.sqrt(delta))


print("95% confidence constant log(1/sqrt(0.05)):", dr.rounded(np.log(1 / np.sqrt(0.05))))
for n in [205, 2_000_000]:
    print(f"n = {n:>9,}: bound = {dr.rounded(bound(n, 0.2, 0.05))}, jl_min_dim = {jl_min_dim(n, 0.2, 0.05)}")
print("q = 100, n = 205: jl_epsilon =", dr.rounded(jl_epsilon(205, 100, 0.05)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# All the notes' numbers agree with the formula: $1364.18$ rounds up to **1365**, $3201.30$ to **3202**, the
# 95%-confidence constant is $1.498\ldots$, and a budget of $q = 100$ guarantees only $\epsilon = 0.7387 \approx$
# **0.74**. Going from 205 to two million points, ten thousand times more, costs only 2.3 times the dimension,
# because $n$ enters through $\log n$. (Section 6 checks whether the promises behind these numbers hold, and the
# optional section shows that for large $n$ the notes' constant is not a theorem.)
#
# The two functions are inverses, and solving for $\delta$ instead (`jl_delta`) gives $\delta = n^2e^{-q\epsilon^2/4}$:

# %% slideshow={"slide_type": "fragment"}
print("jl_min_dim(205, jl_epsilon(205, 100, 0.05), 0.05) =", jl_min_dim(205, jl_epsilon(205, 100, 0.05), 0.05))
print("jl_delta(205, 1365, 0.2) =", dr.rounded(jl_delta(205, 1365, 0.2)), "(at most 0.05: 1365 is enough)")
print("jl_delta(205, 1364, 0.2) =", dr.rounded(jl_delta(205, 1364, 0.2)), "(just above 0.05: 1364 is not)")

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### The trade-off
#
# The bound trades accuracy for dimension at the rate $q\propto 1/\epsilon^2$: halving $\epsilon$ costs four times the
# dimensions, while multiplying $n$ by a million adds a fixed amount. The stars are the notes' worked examples.

# %% alt="The Johnson-Lindenstrauss dimension q needed (log scale) against the allowed distortion epsilon, for n from 10 to a billion points at delta = 0.05: nearly parallel curves falling steeply as epsilon grows, with stars at the notes' worked examples (1365 and 3202 at epsilon 0.2, and q = 100 at epsilon 0.74)." slideshow={"slide_type": "fragment"}
eps_grid = np.linspace(0.05, 0.95, 200)
fig, ax = plt.subplots()
for n in [10, 205, 10**4, 2 * 10**6, 10**9]:
    ax.plot(eps_grid, [jl_min_dim(n, e, 0.05) for e in eps_grid], label=f"n = {n:,}")
ax.plot([0.2, 0.2], [1365, 3202], "*", color="black", markersize=10, label="notes' examples")
ax.plot([jl_epsilon(205, 100, 0.05)], [100], "*", color="black", markersize=10)
ax.set_yscale("log")
ax.set_xlabel("ε (allowed distortion of squared distances)")
ax.set_ylabel("q needed (δ = 0.05)")
ax.set_title("Johnson-Lindenstrauss: dimension against distortion")
ax.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The curves are nearly parallel on the log scale: $n$ shifts them by a bounded amount, $\epsilon$ moves along them
# steeply. Near $\epsilon = 0.05$ the bound asks for tens of thousands of dimensions, which is where random
# projections stop being a reduction for most data sets.
#
# ## 5. $p$ does not matter
#
# Nothing in the bound mentions $p$ or the data. To see it, take $n = 205$ sparse points (think of word counts) in
# $p = 1{,}000$ and in $p = 472{,}500$ dimensions (the size of the notes' homework data), and project both to the
# $q = 1365$ dimensions the bound asks for at $\epsilon = 0.2$, $\delta = 0.05$. With $p$ that large a dense Gaussian
# $\mathbf U$ would hold 645 million numbers, so we use the sparse projection of the optional last section (its
# entries still have mean 0 and variance $1/q$, so section 2 applies unchanged).

# %% slideshow={"slide_type": "fragment"}
def mean_fourth_moment_ratio(X):
    """Mean over pairs i < j of sum_k (x_ik - x_jk)^4 / ||x_i - x_j||^4, from sparse products only."""
    X = scipy.sparse.csr_array(X)
    gram = (X @ X.T).toarray()
    cubes = (X.power(3) @ X.T).toarray()             # sum_k x_ik^3 x_jk
    squares = (X.power(2) @ X.power(2).T).toarray()  # sum_k x_ik^2 x_jk^2
    fourth = np.asarray(X.power(4).sum(axis=1)).ravel()
    i, j = np.triu_indices(X.shape[0], k=1)
    numerator = fourth[i] + fourth[j] - 4 * cubes[i, j] - 4 * cubes[j, i] + 6 * squares[i, j]
    return np.mean(numerator / (gram[i, i] + gram[j, j] - 2 * gram[i, j]) ** 2)


rows = []
for p_value, per_row in [(1_000, 300), (472_500, 3_000)]:
    X_sparse = scipy.sparse.random_array((205, p_value), density=per_row / p_value, format="csr",
                                         rng=np.random.default_rng(p_value))
    Y_sparse = random_projection(X_sparse, 1365, kind="sparse", seed=2).embedding
    result = distortion(X_sparse, Y_sparse)
    predicted = np.sqrt((2 + (np.sqrt(p_value) - 3) * mean_fourth_moment_ratio(X_sparse)) / 1365)
    rows.append([p_value, result.ratios.mean(), result.ratios.std(), predicted, result.worst])
print("      p      mean ratio  std ratio  predicted std  worst |ratio - 1|")
print(np.array(rows))
print("sqrt(2 / q) =", dr.rounded(np.sqrt(2 / 1365)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Both data sets come out with nearly the same spread of ratios, close to the Gaussian $\sqrt{2/q} = 0.038$, and a
# worst distortion well inside $\epsilon = 0.2$, although one lives in 470 times more dimensions. A sparse
# $\mathbf U$ with $s = \sqrt p$ (the optional section explains it) changes the variance of each ratio from $2/q$ to
# $\big(2 + (s - 3)\sum_k x_k^4/\|\vec x\|^4\big)/q$ (Li et al., 2006). That extra term *does* grow with $p$, and it
# shrinks when a vector's mass is spread over many coordinates. The "predicted std" column averages it over all
# pairs: at $p = 472{,}500$ the factor $\sqrt p$ is 22 times larger, but the points have ten times more non-zeros,
# so the extra term only about doubles and stays small next to 2. One projection's measured spread scatters
# around the prediction by a few percent.
#
# ## 6. How good is the bound in practice?
#
# The bound is a guarantee for every data set, built from a tail bound for one pair and a union bound over all
# $\binom n2$ pairs. How does it compare with what projections actually do? Take 50 Gaussian points in $p = 100$
# dimensions; for each $q$, project 100 times and record each projection's worst distortion. The 0.95 quantile of
# those worst values is the $\epsilon$ actually achieved with probability 0.95, to be compared with the bound's
# `jl_epsilon(50, q, 0.05)`.

# %% alt="On log-log axes, for 50 points and q from 25 to 800: the epsilon the bound promises and the 95% quantile of the worst measured distortion. Both fall like 1 over the square root of q; the bound lies slightly above the measurement for large q and below it for q of 50 or less." slideshow={"slide_type": "fragment"}
X_small = np.random.default_rng(8).normal(size=(50, 100))
q_grid = [25, 50, 100, 200, 400, 800]
achieved = np.array([np.quantile(worst_distortions(X_small, q_value, 100, seed=1000 * q_value), 0.95)
                     for q_value in q_grid])
promised = np.array([jl_epsilon(50, q_value, 0.05) for q_value in q_grid])
print("q, achieved eps (95%), bound's eps, bound / achieved")
print(np.column_stack([q_grid, achieved, promised, promised / achieved]))

fig, ax = plt.subplots()
ax.loglog(q_grid, promised, "o-", label="bound: jl_epsilon(n, q, 0.05)")
ax.loglog(q_grid, achieved, "s-", label="measured: 95% quantile of worst distortion")
ax.minorticks_off()
ax.set_xticks(q_grid, [str(q_value) for q_value in q_grid])
ax.set_yticks([0.2, 0.3, 0.5, 0.7, 1.0, 1.4], ["0.2", "0.3", "0.5", "0.7", "1.0", "1.4"])
ax.set_xlabel("q")
ax.set_ylabel("ε")
ax.set_title("n = 50: the guarantee against what happens")
ax.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Both curves fall like $1/\sqrt q$ (slope $-\tfrac12$). For large $q$ (small $\epsilon$) the bound is above the
# measurement, as a guarantee should be, but only by 2-13% (last column): the union bound is not very wasteful
# here. For small $q$ the curves cross: at $q = 50$ the bound promises $\epsilon = 0.93$ with probability 0.95, yet
# more than 5% of projections do worse. **The notes' bound is optimistic when $\epsilon$ is not small**, and, the
# optional section shows, when $n$ is very large. (Why, and which form of the bound is a theorem: the optional
# section.)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 7. PCA against random projection on the same data
#
# PCA and random projection are both linear maps to $q$ dimensions, but they optimise different things. PCA keeps
# the most variance. Since $\sum_{i<j}\|\vec x_i-\vec x_j\|^2 = n\sum_i\|\vec x_i-\bar{\vec x}\|^2 = n(n-1)\,\mathrm{tr}\,S$,
# it also keeps the largest *total* of squared pairwise distances of any orthogonal projection. A random projection
# keeps *each* squared distance on average, without looking at the data. First the identity:

# %% slideshow={"slide_type": "fragment"}
X_check = np.random.default_rng(9).normal(size=(30, 8))
n_check = X_check.shape[0]
pairwise_sum = sum(np.sum((X_check[i] - X_check[i + 1:]) ** 2) for i in range(n_check))
print("sum of squared pairwise distances:", dr.rounded(pairwise_sum))
print("n (n - 1) trace(S)               :", dr.rounded(n_check * (n_check - 1) * np.trace(np.cov(X_check.T))))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Now two data sets of $n = 200$ points in $p = 500$ dimensions: one *structured* (a 5-dimensional signal plus a
# little noise) and one *isotropic* (pure noise, no preferred directions). Both are reduced to $q = 20$ dimensions by
# PCA (the scores) and by a Gaussian random projection.

# %% slideshow={"slide_type": "fragment"}
data_rng = np.random.default_rng(10)
structured = 2 * data_rng.normal(size=(200, 5)) @ data_rng.normal(size=(5, 500)) + 0.5 * data_rng.normal(size=(200, 500))
isotropic = data_rng.normal(size=(200, 500))
k = 20
comparison, ratio_sets = [], {}
for name, data in [("structured", structured), ("isotropic", isotropic)]:
    fitted = pca(data, k=k)
    for method, embedding in [("PCA", fitted.scores), ("random", random_projection(data, k, seed=3).embedding)]:
        result = distortion(data, embedding)
        ratio_sets[name, method] = result.ratios
        comparison.append([result.ratios.mean(), result.ratios.min(), result.ratios.max()])
    print(f"{name:>10}: PCA keeps {dr.rounded(fitted.explained_variance_ratio.sum())} of the variance")
print("rows: structured PCA, structured random, isotropic PCA, isotropic random")
print("columns: mean ratio, smallest ratio, largest ratio")
print(np.array(comparison))

# %% alt="Two histograms of squared-distance ratios after reducing 500 dimensions to 20, for PCA and for a random projection. Structured data (left): PCA's ratios sit just below 1, the random projection's spread around 1. Isotropic data (right): PCA shrinks every distance badly, while the random projection still spreads around 1." slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 2, figsize=(10, 3.2), sharex=True)
for ax, name in zip(axes, ["structured", "isotropic"]):
    for method in ["PCA", "random"]:
        ax.hist(ratio_sets[name, method], bins=60, range=(0, 2.5), alpha=0.6, label=method)
    ax.axvline(1, color="black", lw=0.8)
    ax.set_title(f"{name} data, q = {k}")
    ax.set_xlabel("squared-distance ratio after / before")
axes[0].set_ylabel("pairs")
axes[0].legend()
fig.tight_layout()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# On the structured data PCA wins on almost every pair: it keeps 99% of the variance and most ratios sit just
# below 1. It can only shrink distances (an orthogonal projection never lengthens a vector), and pairs that differ
# mostly in the discarded noise shrink the most. On isotropic data PCA has nothing to find: 20 of 500 directions
# keep about a fifth of the variance (more than $20/500$, because with $n < p$ there are only 199 non-zero
# eigenvalues and the largest sample eigenvalues of pure noise are inflated by chance), and every distance shrinks
# badly. The random projection behaves alike on both data sets: ratios spread on both sides of 1 with a standard
# deviation near $\sqrt{2/20} = 0.32$. Their means (0.92 and 1.08) are not exactly 1 because one matrix serves all
# pairs, and on the structured data all differences share the same few directions. PCA adapts to the data; the random projection's guarantee holds
# for any data, so it needs more dimensions ($q$ of order $\log n/\epsilon^2$) but no fitting at all.
#
# ## 8. How the bound and the measurements meet: an explorer
#
# Run this cell in Jupyter and move the sliders: the histogram shows the ratios of one projection of the
# 50 points of section 6, the dashed lines the bound's $[1-\epsilon, 1+\epsilon]$ for the chosen $\delta$.

# %% alt="Interactive histogram (sliders for q, delta and the seed need a live kernel) of the squared-distance ratios of one random projection of 50 points to q = 200 dimensions, with dashed lines at 1 minus and 1 plus the bound's epsilon." slideshow={"slide_type": "fragment"} tags=["nbval-ignore-output"]
from dimred_teach.display import figure_with_sliders


def explore(q, delta, seed):
    result = distortion(X_small, random_projection(X_small, q, seed=seed).embedding)
    eps_bound = jl_epsilon(X_small.shape[0], q, delta)
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.hist(result.ratios, bins=50, alpha=0.7)
    for edge in (1 - eps_bound, 1 + eps_bound):
        ax.axvline(edge, ls="--", color="black")
    ax.set_title(f"q = {q}: worst {result.worst:.3f}, bound's eps {eps_bound:.3f}")
    ax.set_xlabel("squared-distance ratio")
    return fig


figure_with_sliders(explore, q=widgets.IntSlider(200, 10, 2000, 10, description="q"),
                    delta=widgets.FloatLogSlider(0.05, min=-4, max=-0.1, description="delta"),
                    seed=widgets.IntSlider(0, 0, 50, description="seed"))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * A Gaussian random matrix scaled by $1/\sqrt q$ keeps every squared length on average, and the ratio has variance
#   $2/q$: it concentrates like $1/\sqrt q$.
# * The JL bound $q \ge \frac{8}{\epsilon^2}\log\frac{n}{\sqrt\delta}$ reproduces the notes' 1365, 3202 and 0.74; $q$
#   grows like $\log n$ and $1/\epsilon^2$, never with $p$.
# * The notes' constant 8 is a rule of thumb, not a theorem: the $\chi^2$ upper tail is heavier than it assumes. For
#   50 or 205 points and small $\epsilon$ it holds with room to spare; for $\epsilon$ near 1 projections fail more
#   often than $\delta$, and for millions of points even the exact union bound at its $q$ exceeds $\delta$ (0.0500072
#   at $n = 2\times10^6$, $\epsilon = 0.2$). The theorem is the Dasgupta-Gupta form, which divides the bound by
#   $1 - 2\epsilon/3$ (optional section; scikit-learn's `johnson_lindenstrauss_min_dim` uses it).
# * PCA keeps the most variance and is best when the data have low-dimensional structure; a random projection keeps
#   each distance without looking at the data; sparse projections (optional section) do it fast on sparse data.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional)
#
# Two extensions, about 20 minutes: where the notes' bound is optimistic (and the form of it that is a theorem),
# and sparse projections for wide, sparse data.

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### Where the bound is optimistic, and which form is a theorem
#
# The argument behind the bound has two steps. One pair fails when $\|\mathbf U\vec x\|^2/\|\vec x\|^2$, a
# $\chi^2_q/q$ variable, leaves $[1-\epsilon, 1+\epsilon]$; then a union bound adds the failure probabilities of the
# $\binom n2 < n^2/2$ pairs. The notes' constant 8 is what comes out if each of the two tails is below
# $e^{-q\epsilon^2/4}$: then the sum is below $n^2e^{-q\epsilon^2/4}$, which equals $\delta$ at the notes' $q$. The
# lower tail obeys this. The upper tail does not: it decays like $e^{-q(\epsilon - \log(1+\epsilon))/2} =
# e^{-q(\epsilon^2/4 - \epsilon^3/6 + \dots)}$, so for every $\epsilon > 0$ it exceeds $e^{-q\epsilon^2/4}$ once $q$
# is large enough. Dasgupta and Gupta (2002) prove the bound $e^{-q(\epsilon^2/4-\epsilon^3/6)}$ for both tails
# (an upper bound, not the exact tail); through the same union bound it gives the *Dasgupta-Gupta form*, a theorem
# for every $\epsilon < 1$:
# $$q \;\ge\; \frac{8}{\epsilon^2(1 - 2\epsilon/3)}\log\frac{n}{\sqrt\delta}.$$
# How much the notes' form gives away shows in the union bound itself, computed with the *exact* $\chi^2$ tails at
# the notes' $q$ and at the Dasgupta-Gupta $q$:

# %% slideshow={"slide_type": "fragment"}
def union_bound(n, eps, q):
    """The number of pairs times one pair's exact probability of leaving [1 - eps, 1 + eps]."""
    one_pair = stats.chi2.sf(q * (1 + eps), q) + stats.chi2.cdf(q * (1 - eps), q)
    return n * (n - 1) / 2 * one_pair


print("        n   eps | notes' q  union bound | upper tail / exp(-q eps^2/4) | D-G q  union bound")
unions = []
for n, eps in [(205, 0.2), (10**4, 0.3), (2 * 10**6, 0.2), (2 * 10**6, 0.3)]:
    q_notes, q_dg = jl_min_dim(n, eps, 0.05), int(np.ceil(bound(n, eps, 0.05) / (1 - 2 * eps / 3)))
    ratio = stats.chi2.sf(q_notes * (1 + eps), q_notes) / np.exp(-q_notes * eps**2 / 4)
    unions.append((union_bound(n, eps, q_notes), union_bound(n, eps, q_dg)))
    print(f"{n:>9,} {eps:5} | {q_notes:8d} {unions[-1][0]:12.7f} | {ratio:28.2f} | {q_dg:5d} {unions[-1][1]:11.5f}")

# %% slideshow={"slide_type": "subslide"}
notes_union, dg_union = np.array(unions).T
assert np.allclose(notes_union, [0.00904, 0.04912, 0.0500072, 0.2295], rtol=2e-3) and notes_union[2] > 0.05
assert np.all(dg_union <= 0.05)
print("notes' form: union bound above delta = 0.05 in", int(np.sum(notes_union > 0.05)), "of 4 cases;",
      "Dasgupta-Gupta form: in", int(np.sum(dg_union > 0.05)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# At the notes' own example ($n = 205$, $\epsilon = 0.2$) the exact union bound is 0.009, far below 0.05: there
# the rule holds with room to spare. At $n = 10^4$ and $\epsilon = 0.3$ it is 0.049, just under; at two million
# points and $\epsilon = 0.2$ it is 0.0500072, just *over*; at $\epsilon = 0.3$ it is 0.23. The middle column is
# why: the upper tail over $e^{-q\epsilon^2/4}$ grows with $q$, and $q$ grows with $n$. A union bound above $\delta$
# does not prove that projections fail that often (it adds up overlapping events), but it means the argument no
# longer certifies anything. So the constant-8 rule of thumb is not a theorem: it works for small $n$ and
# small $\epsilon$ and does not carry to large $n$. The Dasgupta-Gupta $q$ stays below $\delta$ in every case.
# scikit-learn's `johnson_lindenstrauss_min_dim` uses $4\log n/(\epsilon^2/2 - \epsilon^3/3)$: the same
# Dasgupta-Gupta form, with $\delta = 1$ (no $\delta$ term). The library's `jl_min_dim` keeps the notes' form so that
# it reproduces their numbers; rely on the Dasgupta-Gupta form for a guarantee.
#
# For large $\epsilon$ the notes' form fails in practice as well, not only in the argument. Section 6 saw it at
# $n = 50$ and $q = 50$; measure the failure rate there with more projections:

# %% slideshow={"slide_type": "fragment"}
eps_50 = jl_epsilon(50, 50, 0.05)
worst_50 = worst_distortions(X_small, 50, 300, seed=5)
rate = np.mean(worst_50 > eps_50)
print("bound's eps at q = 50, n = 50:", dr.rounded(eps_50))
print("measured failure rate at that eps:", dr.rounded(rate), "+-", dr.rounded(2 * np.sqrt(rate * (1 - rate) / 300)),
      "(2 standard errors; delta = 0.05)")
print("measured eps with probability 0.95:", dr.rounded(np.quantile(worst_50, 0.95)))
print("Dasgupta-Gupta form, q needed at eps = 0.2, n = 205:", int(np.ceil(bound(205, 0.2, 0.05) / (1 - 2 * 0.2 / 3))),
      "(the notes: 1365)")
assert rate - 2 * np.sqrt(rate * (1 - rate) / 300) > 0.05

# %% [markdown] slideshow={"slide_type": "subslide"}
# About one projection in ten, not one in twenty, distorts some pair by more than the promised 0.93, and the
# $\epsilon$ really achieved 95% of the time is about 0.98. In the Dasgupta-Gupta form the bound would certify
# nothing at this $q$ (it needs $\epsilon < 1$), and at $\epsilon = 0.2$ for the notes' 205 points it asks for 1575
# dimensions instead of 1365.
#
# The failure rate depends on the data too. The bound must hold for the worst data set, in which the
# $\binom n2$ pair ratios behave almost independently. When the points span only a few dimensions, every difference
# vector lies in the same small subspace, the ratios move together, and the worst of them is less extreme. The same
# experiment on 50 points that span 5 and 20 dimensions:

# %% slideshow={"slide_type": "fragment"}
for p_low in [5, 20]:
    X_low = np.random.default_rng(13).normal(size=(50, p_low))
    low_rate = np.mean(worst_distortions(X_low, 50, 300, seed=5) > eps_50)
    print(f"p = {p_low:>2}: measured failure rate at eps = {eps_50:.4f}: {dr.rounded(low_rate)}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# At $p = 5$ hardly any projection fails, and at $p = 20$ the rate is about $\delta$. What breaks the promise at
# $p = 100$ is the heavier upper tail combined with many nearly independent pairs: exactly the worst case the bound
# must cover.
#
# The same comparison for the failure probability, at $\epsilon = 0.3$ and $n = 50$: the bound asks for the $q$
# printed below and promises the $\delta$ of `jl_delta` at each $q$; we measure the fraction of projections that
# fail to be $0.3$-isometries.

# %% slideshow={"slide_type": "fragment"}
eps, delta = 0.3, 0.05
q_needed = jl_min_dim(50, eps, delta)
q_grid = [250, 350, 420, q_needed]
trials = 150
failure = np.array([np.mean(worst_distortions(X_small, q_value, trials, seed=10**6 + 1000 * q_value) > eps)
                    for q_value in q_grid])
promised_delta = np.array([min(1.0, jl_delta(50, q_value, eps)) for q_value in q_grid])
print("bound's q for eps = 0.3, delta = 0.05:", q_needed)
print("q, measured failure rate, bound's delta (capped at 1)")
print(np.column_stack([q_grid, failure, promised_delta]))
print("exact union bound at the bound's q:", dr.rounded(union_bound(50, eps, q_needed)))
assert 0.011 < union_bound(50, eps, q_needed) < 0.013

# %% [markdown] slideshow={"slide_type": "subslide"}
# At the bound's $q$ the measured failure rate is well below $\delta = 0.05$, and it crosses 0.05 somewhere between
# $q = 350$ and $q = 420$, 13-27% below the bound's $q$: for 50 points at this moderate $\epsilon$ the notes' form
# holds and is only mildly conservative, as the exact union bound of 0.012 said it would. The table above is the
# reminder that this does not carry over to millions of points. At $q = 350$, where the bound's $\delta$ of 0.95 promises almost nothing, 88% of the
# projections already succeed.

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### Sparse projections: the same guarantee, much less work
#
# A dense $\mathbf U$ costs $qp$ random numbers and a dense product. The sparse projection of Achlioptas (2003) and
# Li, Hastie and Church (2006) sets each entry to $+\sqrt{s/q}$ or $-\sqrt{s/q}$ with
# probability $1/(2s)$ each and to 0 otherwise (density $1/s$; our default is $s = \sqrt p$). The entries still have
# mean 0 and variance $1/q$, so $\mathbb E\|\mathbf U\vec x\|^2 = \|\vec x\|^2$ as before, and a sparse $\mathbf X$
# times a sparse $\mathbf U$ stays sparse. First the expectation, for the sparse kind, by simulation:

# %% slideshow={"slide_type": "fragment"}
x_short = rng.normal(size=(1, 40))
sparse_ratios = np.array([np.sum(random_projection(x_short, 25, kind="sparse", seed=s).embedding ** 2)
                          for s in range(2000)]) / np.sum(x_short**2)
print("sparse projection: mean ratio", dr.rounded(sparse_ratios.mean()), "+-",
      dr.rounded(2 * sparse_ratios.std() / np.sqrt(2000)), "(2 standard errors)")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The mean is 1 within its error, as the derivation of section 2 promises for any entries with mean 0 and
# variance $1/q$. Now the cost, on a sparse data set with $n = 400$ and $p = 10{,}000$ (1% non-zero):

# %% slideshow={"slide_type": "fragment"} tags=["nbval-ignore-output"]
X_wide = scipy.sparse.random_array((400, 10_000), density=0.01, format="csr", rng=np.random.default_rng(11))


def best_time(function, repeat=3):
    """Best wall-clock seconds of ``repeat`` calls, and the last call's result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


dense_seconds, dense_result = best_time(lambda: random_projection(X_wide, 500, kind="gaussian", seed=4))
sparse_seconds, sparse_result = best_time(lambda: random_projection(X_wide, 500, kind="sparse", seed=4))
print(f"gaussian: {dense_seconds:.4f} s   sparse: {sparse_seconds:.4f} s   speed-up: {dense_seconds / sparse_seconds:.1f}x")

# %% slideshow={"slide_type": "subslide"}
assert sparse_seconds < dense_seconds, "the sparse projection should be faster"
print("sparse projection keeps X sparse:", scipy.sparse.issparse(sparse_result.embedding))
print("non-zeros in U, gaussian vs sparse:", dense_result.matrix.size, sparse_result.matrix.nnz)
print("worst distortion, gaussian vs sparse:", dr.rounded(distortion(X_wide, dense_result.embedding).worst),
      dr.rounded(distortion(X_wide, sparse_result.embedding).worst))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The sparse matrix holds about $1/\sqrt p = 1\%$ of the dense one's entries, the product stays sparse, and
# the worst distortions of the two projections are comparable. That is why sparse projections are the practical
# choice for text and other very wide, sparse data.

# %% [markdown] slideshow={"slide_type": "subslide"}
# **References.** CMU 36-467/667 "Linear Dimension Reduction" notes, random projections and the
# Johnson-Lindenstrauss theorem. W. B. Johnson and J. Lindenstrauss (1984), "Extensions of Lipschitz mappings into a
# Hilbert space". S. Dasgupta and A. Gupta (2002), "An elementary proof of a theorem of Johnson and Lindenstrauss".
# S. Boucheron, G. Lugosi and P. Massart (2013), *Concentration Inequalities*. D. Achlioptas (2003),
# "Database-friendly random projections". P. Li, T. Hastie and K. Church (2006), "Very sparse random projections".
