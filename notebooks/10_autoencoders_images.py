# %% [markdown] slideshow={"slide_type": "slide"}
# # 10 · Autoencoders and PCA; PCA on images
#
# **Learning objectives.** After this notebook you can
# - write PCA as an encoder-decoder pair, $z = B^\top (x - \mu)$ and $\tilde x = B z + \mu$;
# - derive the gradient of a linear autoencoder's loss, check it by finite differences,
#   and train it by gradient descent;
# - show numerically that a trained linear autoencoder spans the PCA subspace (but its
#   weights are not the principal directions), and see what a nonlinear one adds;
# - run PCA on images: mean image, eigen-images, reconstructions for growing $M$, the
#   variance curve;
# - follow the key steps in practice (centre, standardise, project, reconstruct,
#   de-standardise) and handle pixels with zero variance.
#
# **Time:** about 45 minutes.
#
# **Follows:** WashU lecture A2 (notes file 002), section 6 "Neural networks for USL:
# autoencoder" (6.1 relation to PCA, 6.2 nonlinear dimensionality reduction);
# Stellenbosch MML lecture 9 (notes file 004), sections 10.1-10.3 (encoder/decoder view),
# 10.4 ($\lambda_m = \sigma_m^2 / N$), 10.6 "Key steps of PCA in practice" and
# "PCA on an image dataset".
#
# **References:** M. Neumann, *USL: Dimensionality Reduction*, lecture A2, WashU (seeds
# file 002); W. Brink, *Mathematics for Machine Learning*, lecture 9, Stellenbosch
# University (seeds file 004), after Deisenroth, Faisal and Ong, *Mathematics for Machine
# Learning*, chapter 10.

# %% slideshow={"slide_type": "subslide"}
import numpy as np
import matplotlib.pyplot as plt

import dimred_teach as dr
from dimred_teach import autoencoder, datasets
from dimred_teach.linalg import projector, subspace_distance
from dimred_teach.pca import choose_k, pca, standardize
from dimred_teach.plotting import image_grid

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. PCA as an encoder and a decoder
#
# The MML notes describe PCA as compression: an **encoder** maps $x \in \mathbb{R}^p$ to a
# code $z = B^\top (x - \mu) \in \mathbb{R}^M$, a **decoder** maps it back,
# $\tilde x = B z + \mu$, and $B$ ($p \times M$, orthonormal columns) is chosen to make the
# average squared error $\frac1N \sum_n \|x_n - \tilde x_n\|^2$ as small as possible. The
# answer is the first $M$ eigenvectors of the covariance, and the error is the variance
# left out. (The MML notes store points as columns and divide by $N$; here rows are points
# and the course's covariance divides by $n - 1$, so the mean error is
# $\frac{n-1}{n} \sum_{m > M} \lambda_m$.)
#
# The WashU notes go one step further: an **autoencoder** is a neural network trained to
# reproduce its input through a narrow code layer. Nothing forces its encoder and decoder
# to be transposes of each other or orthonormal. With rows as points, a *linear*
# autoencoder computes
#
# $$ Z = X_c W_e, \qquad \hat X = Z W_d + \mathbf{1}\mu^\top, \qquad
#    L(W_e, W_d) = \tfrac1n \| X_c - X_c W_e W_d \|_F^2, $$
#
# with $W_e$ of shape $p \times k$ and $W_d$ of shape $k \times p$. (The notes' biases
# $b^{(1)}, b^{(2)}$ only learn the mean: for any weights the best offset is
# $\mu - \mu W_e W_d$, which is the same as centring $X$ first.)
#
# Our test data: 200 points in $\mathbb{R}^5$ with variances 4, 2, 0.5, 0.2, 0.1 along
# five random orthogonal directions.

# %% slideshow={"slide_type": "fragment"}
rng = np.random.default_rng(0)
Q, _ = np.linalg.qr(rng.standard_normal((5, 5)))
X = rng.standard_normal((200, 5)) * np.sqrt([4.0, 2.0, 0.5, 0.2, 0.1]) @ Q.T + 3.0
n = X.shape[0]
full = pca(X)
print("eigenvalues:", full.eigenvalues)
pca_loss = (n - 1) / n * full.eigenvalues[2:].sum()
print("best possible mean squared error with k = 2:", dr.rounded(pca_loss))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. The gradient
#
# Write $R = X_c - Z W_d$ for the residuals. Then $L = \frac1n \operatorname{tr}(R^\top R)$,
# and differentiating through $R$,
#
# $$ \frac{\partial L}{\partial W_d} = -\frac2n Z^\top R, \qquad
#    \frac{\partial L}{\partial W_e} = -\frac2n X_c^\top R\, W_d^\top . $$
#
# `autoencoder.linear_ae_gradients` computes these. A derivative must agree with a
# central finite difference $\frac{L(W + hE_{ij}) - L(W - hE_{ij})}{2h}$ entry by entry
# (`autoencoder.finite_difference_gradient`, whose error is $O(h^2)$):

# %% slideshow={"slide_type": "fragment"}
Xc = X - X.mean(axis=0)
W_e, W_d = rng.standard_normal((5, 2)), rng.standard_normal((2, 5))
loss, grad_e, grad_d = autoencoder.linear_ae_gradients(Xc, W_e, W_d)
numeric_e = autoencoder.finite_difference_gradient(lambda W: autoencoder.linear_ae_gradients(Xc, W, W_d)[0], W_e)
numeric_d = autoencoder.finite_difference_gradient(lambda W: autoencoder.linear_ae_gradients(Xc, W_e, W)[0], W_d)
print(np.allclose(grad_e, numeric_e, rtol=1e-5), np.allclose(grad_d, numeric_d, rtol=1e-5))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. Training: the linear autoencoder finds the PCA subspace
#
# Full-batch gradient descent from small random weights (seed 0):
# $W \leftarrow W - \eta\, \partial L / \partial W$ with $\eta = 0.1$, for 500 epochs.

# %% slideshow={"slide_type": "fragment"}
model = autoencoder.train_linear_autoencoder(X, k=2, learning_rate=0.1, epochs=500, seed=0)
print("loss at start, after 10, 100, 500 epochs:", model.losses[[0, 10, 100, 500]])
print("PCA's minimum:", dr.rounded(pca_loss))

# %% slideshow={"slide_type": "subslide"}
components = pca(X, k=2).components
checkpoints = [1, 3, 10, 30, 100, 300]
distances = [subspace_distance(
    autoencoder.train_linear_autoencoder(X, k=2, learning_rate=0.1, epochs=e, seed=0).decoder.T, components)
    for e in checkpoints]

fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
axes[0].semilogy(np.maximum(model.losses - pca_loss, 1e-16))
axes[0].set_xlabel("epoch")
axes[0].set_ylabel("loss - PCA minimum")
axes[0].set_title("loss history")
axes[1].loglog(checkpoints, distances, "o-")
axes[1].set_xlabel("epochs")
axes[1].set_ylabel("||P_decoder - P_PCA||")
axes[1].set_title("distance to the PCA subspace")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Left: the loss falls steeply in the first few epochs, then the gap to PCA's minimum
# shrinks geometrically (a straight line on the log scale), as gradient descent near a
# minimum does. Right: the subspace
# spanned by the decoder's rows approaches the span of the first two principal
# directions; the distance (the spectral norm of the difference of the two projectors)
# heads to 0.

# %% slideshow={"slide_type": "fragment"}
print("subspace distance after 500 epochs below 1e-5:", subspace_distance(model.decoder.T, components) < 1e-5)
print("final loss equals PCA's minimum:", np.isclose(model.losses[-1], pca_loss))
print("W_e W_d is the projector onto the PCA subspace:",
      np.allclose(model.encoder @ model.decoder, projector(components), atol=1e-4))
print("W_d W_d' =")
print(model.decoder @ model.decoder.T)


def imbalance(fit):
    """||W_e' W_e - W_d W_d'||_F, which gradient descent on W_e W_d keeps nearly constant."""
    return np.linalg.norm(fit.encoder.T @ fit.encoder - fit.decoder @ fit.decoder.T)


for scale, rate, epochs in [(0.1, 0.1, 500), (1.0, 0.02, 3000)]:  # a smaller step keeps large weights stable
    first = autoencoder.train_linear_autoencoder(X, k=2, learning_rate=rate, epochs=1, seed=0, init_scale=scale)
    last = autoencoder.train_linear_autoencoder(X, k=2, learning_rate=rate, epochs=epochs, seed=0, init_scale=scale)
    print(f"init_scale {scale}: imbalance after 1 step {dr.rounded(imbalance(first), 3)}, "
          f"after {epochs} {dr.rounded(imbalance(last), 3)} | loss equals PCA's minimum: "
          f"{np.isclose(last.losses[-1], pca_loss)} | W_d W_d' = {dr.rounded(last.decoder @ last.decoder.T, 3).tolist()}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The autoencoder learns the PCA *subspace*: $W_e W_d$ is the orthogonal projector of PCA.
# The loss asks for nothing more: replacing $W_e$ by $W_e A$ and $W_d$ by $A^{-1} W_d$, for
# any invertible $2\times 2$ matrix $A$, gives the same loss. Yet the trained decoder is
# nearly orthonormal, $W_d W_d^\top \approx I$. The reason is the training, not the loss:
# gradient descent on a product $W_e W_d$ keeps $W_e^\top W_e - W_d W_d^\top$ nearly
# constant (exactly, for infinitesimal steps: both terms change by the same amount), and
# small random starting weights make it nearly $0$. At a minimum $W_e = VA$ and
# $W_d = A^{-1}V^\top$ with $V$ the principal directions, so this balance reads
# $A^\top A = (A^\top A)^{-1}$, which forces $A^\top A = I$ and $W_d W_d^\top = I$. The
# second run checks the explanation: started from large weights, it reaches the same loss
# but keeps a large imbalance, and its $W_d W_d^\top$ is far from $I$. Even the balanced
# decoder is only orthonormal, not the principal directions: $A$ is a rotation, so the
# code is the PCA scores rotated, not ordered by variance.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. A nonlinear autoencoder for contrast
#
# Section 6.2 of the WashU notes: with nonlinear encoder and decoder the code can follow
# a curved surface. `autoencoder.train_tanh_autoencoder` puts one tanh layer of 16 units
# on each side of a one-number code. We train it on points along an arc, where no single
# straight line fits.

# %% slideshow={"slide_type": "fragment"}
arc_rng = np.random.default_rng(1)
angle = arc_rng.uniform(-2.5, 2.5, 200)
A = 2 * np.column_stack([np.sin(angle), np.cos(angle)]) + 0.05 * arc_rng.standard_normal((200, 2))

linear_fit = pca(A, k=1)
curved = autoencoder.train_tanh_autoencoder(A, k=1, hidden=16, learning_rate=0.1, epochs=1500, seed=0)
A_pca = linear_fit.reconstruct(linear_fit.transform(A))
A_tanh = curved.reconstruct(A)
print("mean squared error, PCA with k = 1:", dr.rounded(np.mean(np.sum((A - A_pca) ** 2, axis=1))))
tanh_error = np.mean(np.sum((A - A_tanh) ** 2, axis=1))
print("mean squared error, tanh autoencoder with k = 1:", dr.rounded(tanh_error, 2))
print("the error equals the last training loss:", np.isclose(tanh_error, curved.losses[-1]))

# %% slideshow={"slide_type": "subslide"}
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharex=True, sharey=True)
for ax, recon, title in [(axes[0], A_pca, "PCA, k = 1: a line"), (axes[1], A_tanh, "tanh autoencoder, k = 1")]:
    ax.scatter(A[:, 0], A[:, 1], s=8, alpha=0.5, label="data")
    order = np.argsort(angle)
    ax.plot(recon[order, 0], recon[order, 1], ".", ms=4, color="C1", label="reconstruction")
    ax.set_title(title)
    ax.set(xlabel="$x_1$", ylabel="$x_2$")
    ax.set_aspect("equal")
axes[0].legend(loc="lower center")
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# PCA can only place the reconstructions on a straight line; the nonlinear autoencoder
# bends its one-dimensional code along the arc and its error is far smaller. The price:
# the loss is no longer a nice function with PCA's closed-form minimum, training needs
# more steps, and another seed can end in another local minimum. The notes' warning
# also applies: a flexible enough network can simply memorise the training points.
#
# ## 5. PCA on images: the digits
#
# The MML lecture closes with PCA on an image data set. Ours: 1797 handwritten digits,
# each an $8 \times 8$ image of grey levels 0-16, flattened row by row into $p = 64$
# columns.

# %% slideshow={"slide_type": "fragment"}
images, labels = datasets.load_digits()
print(images.shape, labels[:10])
image_grid(images[:10], (8, 8), titles=labels[:10], ncols=10)
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# PCA of the images (centred, not standardised: every pixel is measured on the same
# 0-16 scale). The mean image and the first eight principal directions, shown as images
# ("eigen-images"; red positive, blue negative):

# %% slideshow={"slide_type": "fragment"}
digits_pca = pca(images)
image_grid(digits_pca.mean[None, :], (8, 8), titles=["mean image"], size=2.0)
image_grid(digits_pca.components[:, :8].T, (8, 8), titles=[f"PC{j}" for j in range(1, 9)],
           cmap="RdBu_r", symmetric=True)
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# The mean is a blurred "average digit". Each eigen-image is a pattern of pixels that
# brighten together while others darken: adding a multiple of it to the mean moves the
# image along that principal direction.
#
# How much variance do the first $M$ components keep?

# %% slideshow={"slide_type": "fragment"}
ratio = np.cumsum(digits_pca.explained_variance_ratio)
M90 = choose_k(digits_pca.eigenvalues, 0.9)
fig, ax = plt.subplots()
ax.plot(np.arange(1, ratio.size + 1), ratio, ".-")
ax.axhline(0.9, color="k", lw=0.8, ls="--")
ax.axvline(M90, color="k", lw=0.8, ls="--")
ax.set_xlabel("number of components M")
ax.set_ylabel("fraction of variance kept")
ax.set_title("digits: the variance curve")
plt.show()
print("components for 90% of the variance:", M90, "of", images.shape[1])

# %% [markdown] slideshow={"slide_type": "subslide"}
# A handful of components carry most of the variance: 21 of 64 keep 90%. The same
# numbers through the SVD, the route the MML notes recommend: $\lambda_m = \sigma_m^2 / (n-1)$
# here ($\sigma_m^2 / N$ in the notes' $1/N$ convention).

# %% slideshow={"slide_type": "fragment"}
sigma = np.linalg.svd(images - images.mean(axis=0), compute_uv=False)
print(np.allclose(sigma**2 / (images.shape[0] - 1), digits_pca.eigenvalues[: sigma.size]))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Reconstructions of three digits from $M$ = 1, 2, 5, 10, 20 and 40 components,
# $\tilde x = \mu + B_M B_M^\top (x - \mu)$, all on the same grey scale 0-16:

# %% slideshow={"slide_type": "fragment"}
Ms = [1, 2, 5, 10, 20, 40]
rows = [0, 2, 3]
panels, titles = [], []
for i in rows:
    for M in Ms:
        B = digits_pca.components[:, :M]
        panels.append(digits_pca.mean + (images[i] - digits_pca.mean) @ B @ B.T)
        titles.append(f"M = {M}")
    panels.append(images[i])
    titles.append("original")
image_grid(np.array(panels), (8, 8), titles=titles, ncols=len(Ms) + 1, limits=(0, 16))
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# With one or two components every digit looks like a smudge near the mean; by $M = 10$
# the digits are recognisable, and by $M = 40$ they are hard to tell from the originals.
# The total squared error is exactly $(n - 1)$ times the sum of the dropped eigenvalues:

# %% slideshow={"slide_type": "fragment"}
for M in (5, 20):
    B = digits_pca.components[:, :M]
    centred = images - digits_pca.mean
    error = np.sum((centred - centred @ B @ B.T) ** 2)
    print(M, np.isclose(error, (images.shape[0] - 1) * digits_pca.eigenvalues[M:].sum()))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. The key steps in practice, and pixels that never change
#
# The MML lecture lists the steps: (1) subtract the mean, (2) divide each dimension by
# its standard deviation, (3) find the principal directions (SVD), (4) project,
# $z = B^\top x_*$ with $x_*^{(d)} = (x^{(d)} - \mu_d)/\sigma_d$, (5) reconstruct,
# $\tilde x_* = B z$, and de-standardise, $\tilde x^{(d)} = \tilde x_*^{(d)} \sigma_d + \mu_d$.
#
# Step 2 fails on the digits: some pixels are 0 in every image.

# %% slideshow={"slide_type": "fragment"}
std = images.std(axis=0, ddof=1)
print("pixels with zero variance:", np.flatnonzero(std == 0))
try:
    standardize(images)
except ValueError as error:
    print("ValueError:", error)

# %% [markdown] slideshow={"slide_type": "subslide"}
# A constant pixel carries no information and cannot be divided by its standard
# deviation 0. Two equivalent fixes: drop those columns, or divide them by 1 instead.
# After centring they are exactly 0, so either way they contribute nothing to the
# covariance, get zero weight in every component with non-zero variance, and are
# reconstructed as their (constant) mean. We divide by 1 and run the five steps:

# %% slideshow={"slide_type": "fragment"}
mu = images.mean(axis=0)
scale = np.where(std > 0, std, 1.0)                     # zero-variance pixels: leave unscaled
X_star = (images - mu) / scale                          # steps 1 and 2
_, _, Vt = np.linalg.svd(X_star, full_matrices=False)   # step 3
B = Vt[:M90].T
Z = X_star @ B                                          # step 4: codes, shape (n, M)
X_tilde = (Z @ B.T) * scale + mu                        # step 5: reconstruct, de-standardise
print(Z.shape, X_tilde.shape)
print("zero-variance pixels reconstructed exactly:", np.allclose(X_tilde[:, std == 0], images[:, std == 0]))
print("those pixels get zero weight:", np.allclose(B[std == 0], 0))

# %% [markdown] slideshow={"slide_type": "subslide"}
# All components keep everything: with every direction the five steps give back the
# images exactly.

# %% slideshow={"slide_type": "fragment"}
all_B = Vt.T
print(np.allclose((X_star @ all_B @ all_B.T) * scale + mu, images))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Should image pixels be standardised at all? Standardising gives every pixel the same
# weight. A border pixel that is almost always 0 but occasionally lights up then counts
# as much as a central stroke pixel, so its rare flickers are amplified. The variance
# curves show the effect:

# %% slideshow={"slide_type": "fragment"}
eigenvalues_std = np.linalg.svd(X_star, compute_uv=False) ** 2 / (images.shape[0] - 1)
print("components for 90% of the variance, centred only:", M90)
print("components for 90% of the variance, standardised:", choose_k(eigenvalues_std, 0.9))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Standardised pixels need more components for the same fraction of variance: the
# variance is spread more evenly over the pixels. For images in one unit, centring
# alone is the common choice; standardise when the columns have different units.
#
# ## Summary
#
# - PCA is the best linear encoder-decoder pair for the squared error; a linear
#   autoencoder trained by gradient descent reaches the same minimum and spans the same
#   subspace, though its weights are neither orthonormal nor ordered by variance.
# - The gradients are short matrix formulas, checked by finite differences.
# - Nonlinear encoders and decoders can follow curved data that PCA cannot, at the cost
#   of a harder, seed-dependent optimisation.
# - On images, the mean image and eigen-images show what PCA finds; reconstructions
#   improve with $M$ and the error is the sum of the dropped eigenvalues.
# - In practice: centre, (maybe) standardise, project, reconstruct, de-standardise, and
#   leave zero-variance columns unscaled (or drop them).
