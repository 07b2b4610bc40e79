# %% [markdown] slideshow={"slide_type": "slide"}
# # 02 · Eigendecomposition versus SVD
#
# **Three roads to the same components, and when each one is the fast or the accurate one.**
#
# *Time: about 60 minutes.* *Prerequisites: notebook 01.*
#
# **Learning objectives.** After this notebook you can
# 1. relate the eigendecomposition $S = V\Lambda V^\top$ to the SVD $\mathbf X_c = U D V^\top$, including $\lambda_j = d_j^2/(n-1)$;
# 2. get the components from the $n\times n$ Gram matrix when $p \gg n$, and explain the $O(n^3)$ versus $O(p^3)$ cost;
# 3. recognise when forming $\mathbf X^\top\mathbf X$ loses digits that the SVD keeps;
# 4. run power iteration and predict its convergence rate from $\lambda_2/\lambda_1$;
# 5. choose the number of components by the drop in the eigenspectrum or by a variance tolerance;
# 6. show that the projection from the Gram matrix (classical MDS) equals the PCA scores.
#
# **Notes followed.** Oxford SC4/SM4 notes §1.2.4 (PCA via the SVD, the Gram matrix); WashU A2 notes §3.4-4.2
# (choosing $r$, power iteration, SVD algorithms v1 and v2, MDS = PCA, Exercises 4.1-4.2); MML lecture 9 §10.4.
#
# **Layout.** The WashU notes store points as *columns* ($X$ is $d\times n$) and decompose $X = UDV^\top$, so their
# $U$ holds the principal directions. We store points as rows, so in $\mathbf X_c = U D V^\top$ the directions are
# the columns of $V$ and $U$ lives in "point space". Every formula below is the notes' formula transposed.

# %% slideshow={"slide_type": "subslide"}
import time

import numpy as np
import matplotlib.pyplot as plt

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
# library's `fix_signs` makes the largest entry of each vector positive, so every route prints the same numbers.
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
# $$V = \mathbf X_c^\top U D^{-1} \qquad\text{(WashU Exercise 4.1, transposed to our layout).}$$
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

# %% [markdown] slideshow={"slide_type": "subslide"}
# Now the cost. We time both routes for 5 components at $n = 100$ and growing $p$ (timings vary between machines, so
# this cell's output is not compared by the tests; the cell after it checks what matters).

# %% slideshow={"slide_type": "fragment"} tags=["nbval-ignore-output"]
sizes = [250, 500, 1000, 1500]
timings = {"eig": [], "gram": []}
for size in sizes:
    data = rng.standard_normal((100, size))
    for method in timings:
        start = time.perf_counter()
        pca(data, k=5, method=method)
        timings[method].append(time.perf_counter() - start)
fig, ax = plt.subplots()
for method, label in [("eig", "covariance path, O(p^3)"), ("gram", "Gram path, O(n^3)")]:
    ax.plot(sizes, timings[method], "o-", label=label)
ax.set_xlabel("number of variables p (n = 100)")
ax.set_ylabel("seconds")
ax.legend()
plt.show()
print({method: [round(t, 4) for t in values] for method, values in timings.items()})

# %% slideshow={"slide_type": "subslide"}
data = rng.standard_normal((100, 1500))
by_eig, by_gram = pca(data, k=5, method="eig"), pca(data, k=5, method="gram")
assert np.allclose(by_eig.eigenvalues, by_gram.eigenvalues)
assert np.allclose(by_eig.components, by_gram.components, atol=1e-8)
print("both paths give the same components and eigenvalues")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The covariance route grows like $p^3$ while the Gram route barely moves: it only ever decomposes a $100\times 100$
# matrix.
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

# %% slideshow={"slide_type": "fragment"}
Q, _ = np.linalg.qr(np.random.default_rng(3).standard_normal((6, 6)))
fig, ax = plt.subplots()
for ratio in (0.5, 0.8, 0.95):
    A = Q @ np.diag([1.0, ratio, 0.5 * ratio, 0.3, 0.2, 0.1]) @ Q.T
    result = power_iteration(A, seed=0, tol=1e-12, max_iter=2000)
    ax.semilogy(result.changes, label=f"lambda2/lambda1 = {ratio}")
    tail = result.changes[-20:]
    observed = np.exp(np.mean(np.diff(np.log(tail))))
    predicted = np.log(1e-12) / np.log(ratio)  # steps for ratio^t to fall to the tolerance
    print(f"ratio {ratio}: {result.n_iter:4d} iterations (log(tol) / log(ratio) = {predicted:4.0f}), "
          f"observed contraction per step {dr.rounded(observed, 2)}")
ax.set_xlabel("iteration")
ax.set_ylabel("|v_t - v_(t-1)|")
ax.legend()
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The observed contraction per step matches $\lambda_2/\lambda_1$, so reaching a tolerance takes about
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
# $\sum_{j>r}\lambda_j / \sum_j \lambda_j < \varepsilon$. Here are 10 variables driven by 3 hidden factors plus noise:

# %% slideshow={"slide_type": "fragment"}
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
# * The SVD is the accurate route: forming $\mathbf X^\top \mathbf X$ squares the condition number.
# * Power iteration converges at rate $\lambda_2/\lambda_1$.
# * Choose $k$ by the drop in the spectrum or by a tolerance on the relative error.
#
# **Exercises:** `exercises/02_eig_vs_svd.ipynb`.
#
# **References.** Sejdinovic, Oxford SC4/SM4 notes §1.2.4; WashU lecture A2 §3.4-4.2; Stellenbosch MML lecture 9
# §10.4; P. Läuchli (1961), "Jordan-Elimination und Ausgleichung nach kleinsten Quadraten", *Numer. Math.* 3.
