# %% [markdown] slideshow={"slide_type": "slide"}
# # 02 · Eigendecomposition versus SVD
#
# **Three roads to the same components, and when each one is the fast or the accurate one.**
#
# *Time: about 60 minutes, plus about 20 for the optional last section.* *Prerequisites: notebook 01.*
#
# **Learning objectives.** After this notebook you can
# 1. relate the eigendecomposition $S = V\Lambda V^\top$ to the SVD $\mathbf X_c = U D V^\top$, including $\lambda_j = d_j^2/(n-1)$;
# 2. get the components from the $n\times n$ Gram matrix when $p \gg n$, explain the $O(n^3)$ versus $O(p^3)$ cost, and
#    read the zero padding of the full SVD when $p > n$;
# 3. recognise when forming $\mathbf X^\top\mathbf X$ loses digits that the SVD keeps;
# 4. run power iteration and predict its convergence rate from $\lambda_2/\lambda_1$;
# 5. choose the number of components by the drop in the eigenspectrum or by a variance tolerance;
# 6. show that the projection from the Gram matrix (classical MDS) equals the PCA scores;
# 7. (optional section) build the pseudo-inverse $A^+ = V D^+ U^\top$ with a cutoff, check the four Penrose
#    conditions, and use it for the minimum-norm least-squares solution.
#
# **Notes followed.** Oxford SC4/SM4 notes §1.2.4 (PCA via the SVD, the Gram matrix, the zero padding of eq. 1.16);
# WashU A2 notes §3.4-4.2 (choosing $r$, power iteration, SVD algorithms v1 and v2, the pseudo-inverse $D^\dagger$ and
# use [U1], MDS = PCA, Exercises 4.1-4.2); MML lecture 9 §10.4.
#
# **Layout.** The WashU notes store points as *columns* ($X$ is $d\times n$) and decompose $X = UDV^\top$, so their
# $U$ holds the principal directions. We store points as rows, so in $\mathbf X_c = U D V^\top$ the directions are
# the columns of $V$ and $U$ lives in "point space". Every formula below is the notes' formula transposed.

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import time

import numpy as np
import matplotlib.pyplot as plt
from scipy.sparse.linalg import svds

import dimred_teach as dr
from dimred_teach.datasets import load_crabs
from dimred_teach.linalg import fix_signs, sorted_eigh, subspace_distance
from dimred_teach.pca import center, choose_k, covariance, pca, power_iteration
from dimred_teach.plotting import scree_plot

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. $S = V\Lambda V^\top$ against $\mathbf X_c = U D V^\top$
#
# Substituting the SVD into the covariance,
# $S = \frac{1}{n-1}\mathbf X_c^\top \mathbf X_c = V \frac{D^2}{n-1} V^\top$.
# So the right singular vectors are the eigenvectors of $S$, and $\lambda_j = d_j^2/(n-1)$.

# %% slideshow={"slide_type": "fragment"}
X = load_crabs()[["FL", "RW", "CL", "CW", "BD"]].to_numpy()
n, p = X.shape
Xc = center(X)
eigenvalues, V_eig = sorted_eigh(covariance(X))
U, d, Vt = np.linalg.svd(Xc, full_matrices=False)
V_svd = fix_signs(Vt.T)
print("eigenvalues of S:    ", eigenvalues)
print("d**2 / (n - 1):      ", d**2 / (n - 1))
print("same directions after the sign rule:", np.allclose(V_eig, V_svd))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Without the sign rule the two routes may disagree in sign (an eigenvector is only defined up to $\pm$); the
# library's `fix_signs` makes the largest-magnitude entry of each vector positive, so every route prints the same numbers.
# The three methods of `pca` agree:

# %% slideshow={"slide_type": "fragment"}
results = {method: pca(X, method=method) for method in ("svd", "eig", "gram")}
for method, result in results.items():
    gap = np.abs(result.components - results["svd"].components).max()
    print(f"{method:>4}: eigenvalues {result.eigenvalues[:3]} ... | matches svd: {gap < 1e-10}")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. The Gram matrix and the $p \gg n$ trick
#
# The Gram matrix $G = \mathbf X_c \mathbf X_c^\top$ is $n \times n$, and $G = U D^2 U^\top$: its eigenvectors are
# the left singular vectors and its eigenvalues are $d_j^2$. From $\mathbf X_c = UDV^\top$ we get
# $\mathbf X_c^\top U = V D$, so
#
# $$V = \mathbf X_c^\top U D^{-1}, \qquad\text{and likewise}\qquad U = \mathbf X_c V D^{-1} .$$
#
# The second is WashU Exercise 4.1 in our layout (the notes' $V_d = X^\top U D_d^{-1}$, with their $X$, $U$ and $V$
# our $\mathbf X_c^\top$, $V$ and $U$); the first is its mirror image, the one the Gram route needs.
#
# Decomposing $G$ costs $O(n^3)$ instead of the $O(p^3)$ of $S$: a large saving when there are far more variables
# than points (genes, pixels, words).

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(0)
wide = rng.standard_normal((60, 1200)) * np.linspace(3, 0.1, 1200)  # n = 60 points, p = 1200 variables
wide_c = center(wide)
gram_values, U_gram = sorted_eigh(wide_c @ wide_c.T, k=5)
V_from_gram = wide_c.T @ U_gram / np.sqrt(gram_values)
print("columns orthonormal:", np.allclose(V_from_gram.T @ V_from_gram, np.eye(5)))
print("same subspace as pca(method='eig'):",
      subspace_distance(V_from_gram, pca(wide, k=5, method="eig").components) < 1e-8)
U_back = wide_c @ V_from_gram / np.sqrt(gram_values)  # U = Xc V D^-1 maps the directions back to U
print("U = Xc V D^-1 gives back the Gram eigenvectors:", np.allclose(U_back, U_gram))
assert np.allclose(U_back, U_gram)

# %% [markdown] slideshow={"slide_type": "subslide"}
# **What the full SVD looks like when $p > n$.** So far we used the *thin* SVD (`full_matrices=False`). The Oxford
# notes (§1.2.4) write the full one: $U$ is $n\times n$, $V$ is $p\times p$ and $D$ is $n\times p$, so when $p > n$
# the diagonal block of $D$ is padded with $p - n$ columns of zeros. Then
# $S = V\,\frac{D^\top D}{n-1}\,V^\top$ with the $p\times p$ diagonal matrix $D^\top D/(n-1)$, whose last $p - n$
# entries are zero, and the scores $Z = \mathbf X_c V = UD$ have zero columns there (eq. 1.16). Centring removes one
# more direction (the centred rows sum to zero), so the rank is at most $n - 1$. We look at it on $n = 4$ points in
# $p = 6$ variables.

# %% slideshow={"slide_type": "fragment"}
tiny = center(np.random.default_rng(4).standard_normal((4, 6)))
n_tiny, p_tiny = tiny.shape
U_full, d_tiny, Vt_full = np.linalg.svd(tiny, full_matrices=True)
D_full = np.zeros((n_tiny, p_tiny))
D_full[:, :n_tiny] = np.diag(d_tiny)  # the n x n diagonal block, then p - n zero columns
print("shapes: U", U_full.shape, "| D", D_full.shape, "| V", Vt_full.T.shape)
print("D =\n", D_full)
assert np.allclose(U_full @ D_full @ Vt_full, tiny)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The fourth singular value is zero too (up to rounding): that is the direction centring removed. Now the three
# ways to the eigenvalues: $D^\top D/(n-1)$ from the padded SVD, `eigvalsh` of the $6\times 6$ covariance, and the
# Gram trick, which only ever sees the $4\times 4$ matrix $G = \mathbf X_c\mathbf X_c^\top$.

# %% slideshow={"slide_type": "fragment"}
S_tiny = tiny.T @ tiny / (n_tiny - 1)
padded = np.diag(D_full.T @ D_full) / (n_tiny - 1)
assert np.allclose(Vt_full.T @ np.diag(padded) @ Vt_full, S_tiny)
from_S = np.linalg.eigvalsh(S_tiny)[::-1]
from_gram = np.linalg.eigvalsh(tiny @ tiny.T)[::-1] / (n_tiny - 1)
rank = np.linalg.matrix_rank(tiny)
print("diagonal of D'D/(n-1):", padded)
print("eigenvalues of S:     ", from_S)
print("eigenvalues of G/(n-1):", from_gram)
print(f"rank {rank}: S has p - rank = {p_tiny - rank} zero eigenvalues; the Gram matrix has n - rank = {n_tiny - rank}")
V_full = Vt_full.T.copy()
V_full[:, :n_tiny], U_signed = fix_signs(V_full[:, :n_tiny], U_full)  # the course's sign rule, U along with V
Z_full = tiny @ V_full
assert np.allclose(Z_full, U_signed @ D_full)
print("scores Z = Xc V = U D (column 4: centring; columns 5-6: the zero padding of eq. 1.16):\n", Z_full)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The Gram matrix recovers the three nonzero eigenvalues to every printed digit; its extra zero and the
# covariance's three extra zeros carry no information. Mapping back with $V = \mathbf X_c^\top U D^{-1}$ works only
# for the columns with $d_j > 0$: dividing by the fourth, zero, singular value would be dividing by rounding noise.
# Deciding which singular values count as zero is the job of a cutoff (the optional last section).

# %% [markdown] slideshow={"slide_type": "subslide"}
# Now the cost. We time both routes for 5 components at $n = 100$ and growing $p$ (timings vary between machines, so
# this cell's output is not compared by the tests; the cell after it checks what matters).

# %% alt="On log-log axes, seconds to compute 5 components of data with 100 rows as the number of variables p grows from 250 to 1500, with dashed guide lines of slope 2 and 3. The covariance route climbs steeply, with a slope between about 1 and 3 that depends on the machine and the size, while the Gram-matrix route stays nearly flat near a millisecond. The timings vary between machines." slideshow={"slide_type": "fragment"} tags=["nbval-ignore-output"]
sizes = [250, 500, 1000, 1500]
timings = {"eig": [], "gram": []}
for size in sizes:
    data = rng.standard_normal((100, size))
    for method in timings:
        start = time.perf_counter()
        pca(data, k=5, method=method)
        timings[method].append(time.perf_counter() - start)
fig, ax = plt.subplots()
for method, label in [("eig", "covariance path, O(np^2 + p^3)"), ("gram", "Gram path, O(n^2 p + n^3)")]:
    ax.loglog(sizes, timings[method], "o-", label=label)
for power, style in [(2, "--"), (3, ":")]:  # guides through the first covariance timing
    ax.loglog(sizes, timings["eig"][0] * (np.array(sizes) / sizes[0]) ** power, style, color="grey",
              label=f"slope {power} (time ~ p^{power})")
ax.set_xlabel("number of variables p (n = 100, log scale)")
ax.set_ylabel("seconds (log scale)")
ax.legend()
plt.show()
print({method: [round(t, 4) for t in values] for method, values in timings.items()})
print("log-log slopes of the covariance route:", np.round(np.diff(np.log(timings["eig"])) / np.diff(np.log(sizes)), 1))

# %% slideshow={"slide_type": "subslide"}
data = rng.standard_normal((100, 1500))
by_eig, by_gram = pca(data, k=5, method="eig"), pca(data, k=5, method="gram")
assert np.allclose(by_eig.eigenvalues, by_gram.eigenvalues)
assert np.allclose(by_eig.components, by_gram.components, atol=1e-8)
print("both paths give the same components and eigenvalues")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The full costs explain the picture. The covariance route forms $S$ in $O(np^2)$ and decomposes it in $O(p^3)$; the
# Gram route forms $G$ in $O(n^2 p)$ and decomposes it in $O(n^3)$ (the WashU notes make the same comparison). At
# $n = 100$ and moderate $p$ the $np^2$ term and fixed overheads still matter, so the covariance curve's log-log slope
# stays below 3 (often nearer 2) and nears 3 only once $p^3$ takes over; timings on a busy machine are noisy, so
# rerun the cell to see the spread. The Gram route, linear in $p$ once $n$ is fixed, barely moves.
#
# **Only $k$ components?** Both routes above compute every eigenpair and keep 5. Truncated SVD (Lanczos iterations,
# SciPy's `scipy.sparse.linalg.svds`) and randomized SVD (Halko, Martinsson and Tropp, 2011) find the top $k$ for
# about $O(npk)$, using $\mathbf X_c$ only through products; scikit-learn's `PCA` chooses among them with its
# `svd_solver` argument ("full", "arpack", "randomized" or "auto"). The randomized idea fits in a few lines: multiply
# $\mathbf X_c$ by a random $p \times (k+10)$ matrix, optionally apply $\mathbf X_c \mathbf X_c^\top$ a few times
# ("power steps"), orthonormalise, and take the SVD of the small projected matrix.

# %% slideshow={"slide_type": "fragment"}
k = 5
top = np.linalg.svd(wide_c, compute_uv=False)[:k]
lanczos = np.sort(svds(wide_c, k=k, v0=np.ones(min(wide_c.shape)), return_singular_vectors=False))[::-1]
print("full SVD:", dr.rounded(top, 4), "| Lanczos (svds) equal:", np.allclose(lanczos, top))
randomized_error = {}
for steps in (0, 2, 8):
    sketch = wide_c @ np.random.default_rng(1).standard_normal((wide_c.shape[1], k + 10))  # n x (k + 10)
    for _ in range(steps):
        sketch = wide_c @ (wide_c.T @ sketch)
    basis, _ = np.linalg.qr(sketch)
    randomized = np.linalg.svd(basis.T @ wide_c, compute_uv=False)[:k]
    randomized_error[steps] = dr.rounded(np.max(np.abs(randomized - top) / top), 3)
    print(f"randomized SVD, {steps} power steps: largest relative error {randomized_error[steps]:.3f}")
assert top[-1] / top[0] > 0.94 and np.allclose(lanczos, top) and randomized_error == {0: 0.112, 2: 0.043, 8: 0.005}

# %% [markdown] slideshow={"slide_type": "subslide"}
# Lanczos matches the full SVD. The randomized estimates are low by 11%, 4.3% and 0.5%: this data set's top singular
# values lie within 6% of each other, the hard case for a random sketch, and each power step widens the gaps it sees.
# On a spectrum that decays, a sketch without power steps is already accurate.
#
# ## 3. Forming $\mathbf X^\top \mathbf X$ can lose digits
#
# The SVD works on $\mathbf X$ itself; the eigendecomposition works on $\mathbf X^\top \mathbf X$, whose entries are
# squares. A singular value $\varepsilon$ becomes an eigenvalue $\varepsilon^2$, and when $\varepsilon^2$ is below
# machine precision relative to the largest entry ($\approx 2.2\times10^{-16}$) it is simply lost. The classic
# example (Läuchli's matrix):

# %% slideshow={"slide_type": "fragment"}
eps = 1e-9
L = np.array([[1.0, 1.0], [eps, 0.0], [0.0, eps]])
smallest_svd = np.linalg.svd(L, compute_uv=False)[-1]
smallest_eig = np.sqrt(max(np.linalg.eigvalsh(L.T @ L)[0], 0.0))
print("exact smallest singular value:  1.0e-09")
print(f"from the SVD of L:              {smallest_svd:.1e}")
print("from eig(L'L), relative error above 50%:", abs(smallest_eig - eps) / eps > 0.5)

# %% [markdown] slideshow={"slide_type": "subslide"}
# $1 + \varepsilon^2$ rounds to $1$, so $\mathbf L^\top \mathbf L$ is stored as the singular matrix
# $\begin{pmatrix}1&1\\1&1\end{pmatrix}$ and the small singular value is gone; the SVD recovers it to full
# precision. This is why `pca` uses the SVD by default.
#
# ## 4. Power iteration
#
# If only the top component is needed, repeat $v \leftarrow S v / \|S v\|$. Writing the start vector in the
# eigenbasis, after $t$ steps the weight of $v_j$ relative to $v_1$ is multiplied by $(\lambda_j/\lambda_1)^t$,
# so the error shrinks by about $\lambda_2/\lambda_1$ per step: fast when the gap is large, slow when it is not.

# %% alt="Power iteration: the change between successive vectors, on a log scale, against the iteration number for three ratios of the second to the first eigenvalue. Every curve first drops steeply for a few steps; the 0.8 curve then rises for 4 steps and the 0.95 curve for 29, both before iteration 40, and after that each falls along a straight line whose slope is set by its ratio. The ratio 0.5 reaches the tolerance after about 40 steps, 0.8 after about 125 and 0.95 after about 520." slideshow={"slide_type": "fragment"}
Q, _ = np.linalg.qr(np.random.default_rng(3).standard_normal((6, 6)))
rising = {}  # how many steps increase the change, and the last one
fig, ax = plt.subplots()
for ratio in (0.5, 0.8, 0.95):
    A = Q @ np.diag([1.0, ratio, 0.5 * ratio, 0.3, 0.2, 0.1]) @ Q.T
    result = power_iteration(A, seed=0, tol=1e-12, max_iter=2000)
    ax.semilogy(result.changes, label=f"lambda2/lambda1 = {ratio}")
    tail = result.changes[-20:]
    ups = np.flatnonzero(np.diff(np.log(result.changes)) > 0)
    rising[ratio] = (ups.size, int(ups.max()) + 2 if ups.size else 0)
    observed = np.exp(np.mean(np.diff(np.log(tail))))
    predicted = np.log(1e-12) / np.log(ratio)  # steps for ratio^t to fall to the tolerance
    print(f"ratio {ratio}: {result.n_iter:4d} iterations (log(tol) / log(ratio) = {predicted:4.0f}), "
          f"observed contraction per step {dr.rounded(observed, 2)}")
ax.set_xlabel("iteration")
ax.set_ylabel("|v_t - v_(t-1)|")
ax.legend()
plt.show()
print("steps on which the change grows, and the last one:", rising)
assert rising == {0.5: (0, 0), 0.8: (4, 9), 0.95: (29, 37)}

# %% [markdown] slideshow={"slide_type": "subslide"}
# The curves are not straight from the start: the change between steps mixes every component's shrinking weight, and
# until the fast-dying ones (eigenvalues 0.3 and below) are gone they can hide, or briefly cancel, the slow one.
# Once they are gone, the observed contraction per step matches $\lambda_2/\lambda_1$, so reaching a tolerance takes about
# $\log(\mathrm{tol})/\log(\lambda_2/\lambda_1)$ steps, which for a small gap $g = 1 - \lambda_2/\lambda_1$ is about
# $|\log \mathrm{tol}|/g$: the work grows like $1/g$. Here the gap shrinks from 0.2 to 0.05 (a factor of 4) and the
# iterations grow about fourfold.
# Power iteration on the crabs recovers the first component:

# %% slideshow={"slide_type": "fragment"}
crab_top = power_iteration(covariance(X), seed=0)
print("eigenvalue:", dr.rounded(crab_top.eigenvalue), "| agrees with eigh:", np.allclose(crab_top.eigenvector, V_eig[:, 0]))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Choosing $k$
#
# Two rules from the WashU notes: look for a **drop in the eigenspectrum** (the elbow of a scree plot; `choose_k`
# measures a drop as the ratio $\lambda_k/\lambda_{k+1}$ and takes the largest), or fix a
# **tolerance** $\varepsilon$ on the relative reconstruction error and take the smallest $r$ with
# $\sum_{j>r}\lambda_j / \sum_j \lambda_j < \varepsilon$, that is, a proportion of variance explained above
# $1 - \varepsilon$ (notebook 01, section 7, derives the proportion from $\operatorname{tr} S$). Here are 10
# variables driven by 3 hidden factors plus noise:

# %% alt="Scree plot of the 10 eigenvalues of data driven by 3 hidden factors plus noise: three large eigenvalues (15.4, 8.3 and 3.8), then a sharp drop to seven small ones near 0.3, with the cumulative proportion of variance reaching nearly 1 at the third." slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(7)
factors = rng.standard_normal((400, 3)) * [4.0, 3.0, 2.0]
mixing = np.linalg.qr(rng.standard_normal((10, 3)))[0].T
data = factors @ mixing + 0.5 * rng.standard_normal((400, 10))
spectrum = pca(data, k=10).eigenvalues
scree_plot(spectrum, title="3 factors + noise")
plt.show()
print("eigenvalues:", spectrum)
print("k by the largest ratio lambda_k / lambda_(k+1):", choose_k(spectrum, method="gap"))
print("k by the largest difference lambda_k - lambda_(k+1):", int(np.argmax(-np.diff(spectrum))) + 1)
for tolerance in (0.2, 0.1, 0.05):
    print(f"k for relative error below {tolerance}:", choose_k(spectrum, threshold=1 - tolerance))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The ratio rule finds the three factors. A drop measured as a plain difference would stop at $k = 1$, because the
# leading eigenvalues are large and far apart; the ratio compares each eigenvalue with its neighbour on its own scale. The tolerance rule answers a different question (how much error can I accept?)
# and keeps adding noise components as the tolerance tightens.
#
# ## 6. SVD algorithms v1 and v2, and MDS = PCA
#
# The WashU notes give two ways to read the projection off one SVD: project on the directions (v1:
# $Z = \mathbf X_c V_r$), or take the scaled point-space vectors (v2: $Z = U_r D_r$). A third way uses only the Gram
# matrix $G$, i.e. only inner products between points: its top eigenvectors scaled by the square roots of its
# eigenvalues. That is classical multidimensional scaling (notebook 04), and the notes' theorem says all three agree.

# %% slideshow={"slide_type": "fragment"}
r = 2
U, d, Vt = np.linalg.svd(Xc, full_matrices=False)
V_r, U_r = fix_signs(Vt[:r].T, U[:, :r])
Z_v1 = Xc @ V_r
Z_v2 = U_r * d[:r]
gram_values, gram_vectors = sorted_eigh(Xc @ Xc.T, k=r)
Z_mds = gram_vectors * np.sqrt(gram_values)
print("v1 = v2:", np.allclose(Z_v1, Z_v2), "| v2 = MDS up to sign:", np.allclose(np.abs(Z_v2), np.abs(Z_mds)))
print("first three points:\n", Z_v1[:3])

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# * $\lambda_j = d_j^2/(n-1)$; the right singular vectors of $\mathbf X_c$ are the principal directions.
# * For $p \gg n$, decompose the $n\times n$ Gram matrix and map back with $V = \mathbf X_c^\top U D^{-1}$.
# * Costs: $O(np^2 + p^3)$ by the covariance, $O(n^2p + n^3)$ by the Gram matrix; for only $k$ components, truncated
#   or randomized SVD costs about $O(npk)$.
# * The SVD is the accurate route: forming $\mathbf X^\top \mathbf X$ squares the condition number.
# * Power iteration converges at rate $\lambda_2/\lambda_1$.
# * Choose $k$ by the drop in the spectrum or by a tolerance on the relative error.
# * For $p > n$ the full SVD pads $D$ with zeros: $S$ has at least $p - n + 1$ zero eigenvalues after centring, and
#   the Gram matrix gives the nonzero ones.
#
# **Exercises:** `exercises/02_eig_vs_svd.ipynb`.
#
# **References.** Sejdinovic, Oxford SC4/SM4 notes §1.2.4; WashU lecture A2 §3.4-4.2; Stellenbosch MML lecture 9
# §10.4; P. Läuchli (1961), "Jordan-Elimination und Ausgleichung nach kleinsten Quadraten", *Numer. Math.* 3;
# R. Penrose (1955), "A generalized inverse for matrices", *Proc. Cambridge Philos. Soc.* 51, 406-413;
# N. Halko, P.-G. Martinsson and J. A. Tropp (2011), "Finding structure with randomness", *SIAM Review* 53, 217-288.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional)
#
# About 20 minutes: the pseudo-inverse from the SVD, checked by the four Penrose conditions and used for the
# minimum-norm least-squares solution. Exercise 6 asks you to write it.

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### The pseudo-inverse from the SVD
#
# The WashU notes list matrix inversion as the first use of the SVD besides reducing dimension ([U1]). If
# $A = UDV^\top$ is square and invertible, $A^{-1} = V D^{-1} U^\top$: invert the singular values and swap the
# orthogonal factors. A rectangular or singular $A$ has no inverse, but the same recipe with
#
# $$A^+ = V D^+ U^\top, \qquad D^+ = \operatorname{diag}(1/d_j \text{ for } d_j > \text{cutoff},\; 0 \text{ otherwise})$$
#
# gives the **Moore-Penrose pseudo-inverse** ($D^+$ is the notes' $D^\dagger$; in our layout $A$ is $m\times n$ and
# $A^+$ is $n\times m$). In exact arithmetic the cutoff is zero. In floating point a singular value that should be
# zero comes out as rounding noise of order $\varepsilon_{\text{mach}}\, d_1$, so we count as zero every
# $d_j \le \max(m, n)\,\varepsilon_{\text{mach}}\, d_1$ (the rule of NumPy's `matrix_rank`).
#
# Our example is a regression that cannot be solved uniquely: predict the crabs' body depth BD from an intercept,
# the frontal lobe FL in mm, the carapace length CL in mm, and FL again, recorded in cm. The fourth column is the
# second divided by 10, so $A$ ($200\times 4$) has rank 3.

# %% slideshow={"slide_type": "fragment"}
crabs = load_crabs()
FL, CL, BD = (crabs[name].to_numpy() for name in ("FL", "CL", "BD"))
A = np.column_stack([np.ones(len(FL)), FL, CL, FL / 10])  # FL in mm and again in cm
U_A, d_A, Vt_A = np.linalg.svd(A, full_matrices=False)
cutoff = max(A.shape) * np.finfo(float).eps * d_A[0]
kept = d_A > cutoff
d_plus = np.divide(1.0, d_A, out=np.zeros_like(d_A), where=kept)  # 1/d above the cutoff, 0 below
A_plus = Vt_A.T @ np.diag(d_plus) @ U_A.T
print("shape of A:", A.shape, "| shape of A+:", A_plus.shape)
print("singular values:", d_A, f"| cutoff {cutoff:.1e} | kept: {kept}")
print("rank by the cutoff:", int(kept.sum()), "| np.linalg.matrix_rank:", np.linalg.matrix_rank(A))
print("d_4 / d_1 below 1e-12:", d_A[-1] / d_A[0] < 1e-12, "| 1 / d_4 above 1e12:", 1 / d_A[-1] > 1e12)

# %% [markdown] slideshow={"slide_type": "subslide"}
# **The four Penrose conditions.** Penrose (1955) showed that exactly one matrix $G$ satisfies
# (1) $AGA = A$, (2) $GAG = G$, (3) $(AG)^\top = AG$ and (4) $(GA)^\top = GA$. Conditions (3) and (4) make
# $AG$ and $GA$ symmetric; with (1) and (2) they are also idempotent, so together the four make them orthogonal
# projections (onto the column space of $A$ and onto its row space). So checking the
# four conditions proves that a matrix is *the* pseudo-inverse, whatever way it was computed. We print each residual
# relative to the size of the matrices involved, and the gap to NumPy's `np.linalg.pinv`: all are zero to 12 decimals.

# %% slideshow={"slide_type": "fragment"}
conditions = {
    "(1) A A+ A = A": (A @ A_plus @ A - A) / np.abs(A).max(),
    "(2) A+ A A+ = A+": (A_plus @ A @ A_plus - A_plus) / np.abs(A_plus).max(),
    "(3) (A A+)' = A A+": (A @ A_plus).T - A @ A_plus,
    "(4) (A+ A)' = A+ A": (A_plus @ A).T - A_plus @ A,
}
for name, residual in conditions.items():
    print(f"{name:20s} largest relative residual, to 12 decimals: {dr.rounded(np.abs(residual).max(), 12)}")
    assert np.abs(residual).max() < 1e-12
gap = np.abs(A_plus - np.linalg.pinv(A)).max() / np.abs(A_plus).max()
print("relative gap to np.linalg.pinv:", dr.rounded(gap, 12))
assert gap < 1e-12

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Why the cutoff matters.** The figure shows the singular values on a logarithmic scale (left): three of them
# between 3 and 520, and one more than $10^{12}$ times smaller than the largest, far below the cutoff. On the right
# are the diagonal entries of $D^+$: with the cutoff the fourth is 0; inverting it anyway puts an entry above
# $10^{12}$ into the "inverse", which amplifies rounding noise instead of data.

# %% alt="Two panels on log scales. Left: the four singular values of the regression matrix; three lie between 3 and 520 and are kept, the fourth is more than a trillion times smaller, far below the dashed cutoff, and is treated as zero. Right: the diagonal of the pseudo-inverse's middle factor; with the cutoff the fourth entry is 0, without it 1 over the tiny singular value exceeds a trillion." slideshow={"slide_type": "fragment"}
with np.errstate(divide="ignore"):
    d_plus_no_cutoff = 1 / d_A
positions = np.arange(1, len(d_A) + 1)
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
left.semilogy(positions[kept], d_A[kept], "o", color="C0", markersize=8, label="kept (inverted)")
left.semilogy(positions[~kept], d_A[~kept], "X", color="C3", markersize=9, label="treated as zero")
left.axhline(cutoff, color="k", ls="--", label=f"cutoff max(m, n) eps d_1 = {cutoff:.1e}")
left.set_xticks(positions)
left.set_xlabel("index j")
left.set_ylabel("singular value d_j (log scale)")
left.set_title("singular values of the regression matrix A")
left.legend(loc="center left")
right.semilogy(positions, d_plus_no_cutoff, "s--", color="C3", label="1/d_j for every j (no cutoff)")
right.semilogy(positions[kept], d_plus[kept], "o", color="C0", markersize=8, label="entries of D+ (cutoff)")
right.set_xticks(positions)
right.set_xlabel("index j")
right.set_ylabel("diagonal entry (log scale)")
right.set_title("diagonal of D+ with and without the cutoff")
right.legend(loc="upper left")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# **Use: the minimum-norm least-squares solution.** The least-squares problem $\min_x \|Ax - b\|$ has a whole line
# of solutions here: the null vector $v_4$ (the last right singular vector, here $\propto (0, -1, 0, 10)$: one
# mm-coefficient less, ten cm-coefficients more) changes $x$ without changing $Ax$. Among all the solutions,
# $x^+ = A^+ b$ is the one of smallest length, because it has no component along the null space. `np.linalg.lstsq`
# computes the same vector (also by the SVD, with a cutoff).

# %% slideshow={"slide_type": "fragment"}
x_plus = A_plus @ BD
x_lstsq = np.linalg.lstsq(A, BD, rcond=None)[0]
null_vector = fix_signs(Vt_A[~kept].T)[:, 0]
x_other = x_plus + 2.0 * null_vector  # another least-squares solution
print("A+ b:            ", x_plus)
print("np.linalg.lstsq: ", x_lstsq, "| same:", np.allclose(x_plus, x_lstsq))
print("null vector v4:  ", null_vector, "| |A v4| =", dr.rounded(np.linalg.norm(A @ null_vector), 10))
print("residual |Ax - b|:  A+ b", dr.rounded(np.linalg.norm(A @ x_plus - BD)),
      "| A+ b + 2 v4", dr.rounded(np.linalg.norm(A @ x_other - BD)))
print("length |x|:         A+ b", dr.rounded(np.linalg.norm(x_plus)),
      "| A+ b + 2 v4", dr.rounded(np.linalg.norm(x_other)))
print("x+ . v4 =", dr.rounded(x_plus @ null_vector, 10))
assert np.allclose(x_plus, x_lstsq) and np.isclose(np.linalg.norm(A @ x_other - BD), np.linalg.norm(A @ x_plus - BD))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Both vectors fit equally well, but $x^+$ is shorter and orthogonal to $v_4$. Its two FL coefficients, 0.5845 per mm
# and 0.0585 per cm, stand in the ratio 10 : 1. That is not the null vector's ratio (it is $\propto (0, -1, 0, 10)$,
# 1 : 10) but the consequence of being orthogonal to it: $-x_2 + 10 x_4 = 0$. Put differently, the fit fixes only
# $x_2 + x_4/10$, and the shortest $(x_2, x_4)$ with that value is proportional to the columns' scales, 1 and 1/10.
# Together they make $0.5845 + 0.0585/10 \approx 0.5903$ per mm, the coefficient of FL in the regression without the
# duplicate. Without the cutoff, the solution is dominated by the noise direction:

# %% slideshow={"slide_type": "fragment"}
x_plain = np.linalg.lstsq(A[:, :3], BD, rcond=None)[0]
print("x_2 / x_4 =", dr.rounded(x_plus[1] / x_plus[3], 8))
assert np.isclose(x_plus[1] / x_plus[3], 10) and np.allclose(null_vector / null_vector[3], [0, -0.1, 0, 1])
print("FL per mm from the pseudo-inverse:", dr.rounded(x_plus[1] + x_plus[3] / 10),
      "| without the cm column:", dr.rounded(x_plain[1]))
assert np.isclose(x_plus[1] + x_plus[3] / 10, x_plain[1])
x_no_cutoff = Vt_A.T @ (d_plus_no_cutoff * (U_A.T @ BD))
print("no cutoff: largest |coefficient| above 1e10:", np.abs(x_no_cutoff).max() > 1e10)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The pseudo-inverse agrees with the regression that simply drops the duplicate, to every printed digit. Inverting the
# noise singular value gives coefficients above $10^{10}$. Their size is set by rounding error alone, because that
# singular value is rounding error: it changes with the order of the floating-point operations, so the same data give
# different huge coefficients on different machines, while $A^+ b$ does not move. The same cutoff is what the Gram
# trick of section 2 needs when it divides by $d_j$.
#
# **In short.** $A^+ = V D^+ U^\top$ inverts only the singular values above a cutoff; it is the unique matrix that
# satisfies the four Penrose conditions, and $A^+ b$ is the minimum-norm least-squares solution.
