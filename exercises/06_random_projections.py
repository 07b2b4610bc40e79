# %% [markdown]
# # Exercises 06 · Random projections and the Johnson-Lindenstrauss bound
#
# *Time: about 40 minutes.*
#
# **Objectives.** After this set you can
# 1. compute the dimension a union bound with the Dasgupta-Gupta tail certifies (a search: no closed form);
# 2. invert the notes' bound for the $\epsilon$ a budget of $q$ dimensions buys;
# 3. verify $\mathbb E\|\mathbf U\vec x\|^2 = \|\vec x\|^2$ by simulation;
# 4. estimate the probability that a random projection fails to be an $\epsilon$-isometry.
#
# Goes with `notebooks/06_random_projections.ipynb`.
#
# Every exercise asks for a function; its `check(...)` cell calls your function on fresh random inputs and prints
# `[passed]` or `[not yet]` with a hint. Simulations are checked statistically (within a few standard errors), so
# use the seed you are given for every random draw. Do not edit the check cells. Work `min_dim` and `epsilon_for`
# out from the bounds: the checks refuse `dimred_teach.jl.jl_min_dim` and `jl_epsilon`.
#
# **Notes.** CMU 36-467/667 "Linear Dimension Reduction", the random projection and
# Johnson-Lindenstrauss section. Points are rows here, so a projection is $\mathbf Y = \mathbf X\mathbf U^\top$.

# %%
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import math

import numpy as np

import dimred_teach as dr
from dimred_teach import check
from dimred_teach.jl import distortion, random_projection

dr.setup_notebook()


# %% [markdown]
# ## Exercise 1 · How many dimensions? *(10 min, lecture §4)*
#
# The notes' bound $q \ge \frac{8}{\epsilon^2}\log\frac{n}{\sqrt\delta}$ (lecture §4) bounds both tails of
# $\|\mathbf U\vec x\|^2/\|\vec x\|^2$ by $e^{-q\epsilon^2/4}$; Dasgupta and Gupta (2002) prove that bound for the
# lower tail only, and $e^{-q(\epsilon^2/4 - \epsilon^3/6)}$ for the upper one (the lecture's optional section). Write
# `min_dim(n, eps, delta)`: the smallest integer $q$ at which the union bound over the $n(n-1)/2$ pairs with these
# two tails holds,
#
# $$\frac{n(n-1)}{2}\Big(e^{-q\epsilon^2/4} + e^{-q(\epsilon^2/4 - \epsilon^3/6)}\Big) \le \delta .$$
#
# There is no closed form, but the left side falls as $q$ grows, and putting both tails at the heavier one gives a
# $q$ that is certified: search below it (bisection, or counting; the notes' $q$ is usually too small). With
# $n = 205$, $\epsilon = 0.2$, $\delta = 0.05$ the answer lies between the notes' 1365 and 1574. Do not call the
# library's `jl_min_dim`.

# %%
def min_dim(n, eps, delta):
    """Smallest integer q with n (n - 1) / 2 (exp(-q eps^2 / 4) + exp(-q (eps^2 / 4 - eps^3 / 6))) <= delta."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("06.min_dim", min_dim)


# %% [markdown]
# ## Exercise 2 · What a budget of $q$ dimensions buys *(10 min, lecture §4)*
#
# Turn the bound around: write `epsilon_for(n, q, delta)`, the $\epsilon$ at which the bound holds with equality for
# the given $q$. The notes: $q = 100$, $n = 205$, $\delta = 0.05$ gives $\epsilon \approx 0.74$.

# %%
def epsilon_for(n, q, delta):
    """eps with q = 8 / eps**2 * log(n / sqrt(delta))."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("06.epsilon_for", epsilon_for)


# %% [markdown]
# ## Exercise 3 · Distance-preserving on average *(10 min, lecture §2)*
#
# Write `simulate_squared_norms(x, q, n_draws, seed)`. Using `rng = np.random.default_rng(seed)` for every random
# draw, repeat `n_draws` times: draw a fresh $q\times p$ matrix $\mathbf U = Z/\sqrt q$ with independent
# $Z_{ij}\sim N(0, 1)$ (`rng.standard_normal((q, p))`) and record $\|\mathbf U\vec x\|^2$. Return the `n_draws`
# values as an array. The check compares their mean with $\|\vec x\|^2$ and their spread with the theory
# ($\|\mathbf U\vec x\|^2/\|\vec x\|^2$ has variance $2/q$), each within 5 standard errors, then your values with
# those of the same draws, one by one.

# %%
def simulate_squared_norms(x, q, n_draws, seed):
    """||U x||**2 for n_draws independent Gaussian U of shape (q, len(x)), shape (n_draws,)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("06.simulate_squared_norms", simulate_squared_norms)


# %% [markdown]
# Why should the mean match? Write the derivation of $\mathbb E\|\mathbf U\vec x\|^2 = \|\vec x\|^2$ in two lines.

# %% [markdown] dimred_teach={"written": {"exercise": "06.simulate_squared_norms", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 4 · How often does a projection fail? *(10 min, lecture §6)*
#
# A projection *fails* for a data set when some pair's squared-distance ratio leaves $[1-\epsilon, 1+\epsilon]$.
# Write `failure_rate(X, q, eps, n_trials, seed)`: for $t = 0, 1, \ldots,$ `n_trials - 1`, project with
# `random_projection(X, q, seed=seed + t)` and use `distortion` to decide whether that projection failed; return the
# fraction of failed trials. The check repeats this computation with the same seeds on a few random data sets, so
# your fraction must match it exactly.

# %%
def failure_rate(X, q, eps, n_trials, seed):
    """Fraction of n_trials Gaussian projections of X to q dimensions that are not eps-isometries."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("06.failure_rate", failure_rate)

# %% [markdown]
# The notes promise a failure probability of at most $\delta = 0.05$ for 205 points at $q = 100$ and
# $\epsilon = 0.74$. Use your `failure_rate` on 205 Gaussian points in $p = 200$ dimensions with 400 trials.
# Is the promise kept? Explain what you see.

# %%
# YOUR CODE HERE
X_notes = ...
notes_rate = ...

# %% [markdown] dimred_teach={"written": {"exercise": "06.failure_rate", "part": 1}}
# **Your answer:** *(write it here)*
