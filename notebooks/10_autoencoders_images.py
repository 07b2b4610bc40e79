# %% [markdown] slideshow={"slide_type": "slide"}
# # 10 · Autoencoders and PCA; PCA on images
#
# **A linear autoencoder learns the PCA subspace; regularisers keep a larger one from copying its input; PCA on images
# of digits.**
#
# *Time: about 60 minutes, plus about 15 for the optional last section.* *Prerequisites: notebooks 01-02 (PCA and its
# reconstruction error), gradients of matrix functions, the idea of gradient descent.*
#
# **Learning objectives.** After this notebook you can
# - write PCA as an encoder-decoder pair, $z = B^\top (x - \mu)$ and $\tilde x = B z + \mu$;
# - derive the gradient of a linear autoencoder's loss, check it by finite differences,
#   and train it by gradient descent;
# - show numerically that a trained linear autoencoder spans the PCA subspace (but its
#   weights are not the principal directions), and see what a nonlinear one adds;
# - show that an overcomplete autoencoder copies its input, and stop it with a sparse,
#   denoising or contractive regulariser;
# - run PCA on images: mean image, eigen-images, reconstructions for growing $M$, the
#   variance curve;
# - follow the key steps in practice (centre, standardise, project, reconstruct,
#   de-standardise) and handle pixels with zero variance.
#
# **Notes followed.** WashU lecture A2, section 6 "Neural networks for USL:
# autoencoder" (6.1 relation to PCA, 6.2 nonlinear dimensionality reduction, 6.3
# under- and overcomplete codes and the sparse, denoising and contractive regularisers);
# Stellenbosch MML lecture 9, sections 10.1-10.3 (encoder/decoder view),
# 10.4 ($\lambda_m = \sigma_m^2 / N$), 10.6 "Key steps of PCA in practice" and
# "PCA on an image dataset".
#
# **References:** M. Neumann, *USL: Dimensionality Reduction*, lecture A2, WashU; W. Brink, *Mathematics for Machine
# Learning*, lecture 9, Stellenbosch
# University, after Deisenroth, Faisal and Ong, *Mathematics for Machine
# Learning*, chapter 10; I. Goodfellow, Y. Bengio and A. Courville, *Deep Learning*
# (2016), chapter 14; P. Vincent et al., "Extracting and composing robust features with
# denoising autoencoders", ICML 2008; S. Rifai et al., "Contractive auto-encoders:
# explicit invariance during feature extraction", ICML 2011; P. Baldi and K. Hornik, "Neural networks and principal
# component analysis: learning from examples without local minima", *Neural Networks* 2 (1989), 53-58; D. P. Kingma
# and M. Welling, "Auto-encoding variational Bayes", ICLR 2014; I. Goodfellow et al., "Generative adversarial nets",
# NeurIPS 2014.

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

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

# %% alt="Two panels for training a linear autoencoder. Left: the loss minus PCA's minimum on a log scale falls steeply in the first epochs and then along a straight line. Right, on log-log axes: the distance between the decoder's subspace and the PCA subspace heads to zero as the epochs grow from 1 to 300." slideshow={"slide_type": "subslide"}
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
# heads to 0. This is not luck of the seed: Baldi and Hornik (1989) proved that the
# linear autoencoder's squared loss has no local minima other than the global one, the
# PCA projector (when the eigenvalues are distinct); every other critical point, a
# projector onto some other set of eigenvectors, is a saddle that gradient descent leaves.

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

# %% alt="Points on an arc of radius 2 with one-number reconstructions. Left, PCA with k = 1: the reconstructions lie on a straight line across the arc. Right, a tanh autoencoder with k = 1: the reconstructions follow the arc." slideshow={"slide_type": "subslide"}
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
# more steps, and another seed can end in another local minimum.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. Under- and overcomplete codes: the autoencoder that copies
#
# The notes call an autoencoder **undercomplete** when its code is shorter than its input
# ($m < d$ in their notation, $k < p$ in ours) and **overcomplete** when it is longer. So
# far every code was undercomplete: to get through it, the network had to find the
# directions (or the curve) that matter. A longer code forces nothing. A linear
# autoencoder with $k = 6$ code units on the five-dimensional data of section 1 can make
# $W_e W_d$ the identity, and gradient descent finds it:

# %% slideshow={"slide_type": "fragment"}
copier = autoencoder.train_linear_autoencoder(X, k=6, learning_rate=0.1, epochs=500, seed=0)
print("final loss below 1e-8:", copier.losses[-1] < 1e-8)
print("||W_e W_d - I|| below 1e-4:", np.linalg.norm(copier.encoder @ copier.decoder - np.eye(5)) < 1e-4)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The loss is (numerically) 0: the autoencoder is the identity map, perfect and useless.
#
# Nonlinear maps do the same, less visibly. The test bed: **40 training points** near the
# arc of section 4 (radius 2, noise 0.05), 200 clean held-out points, and 200 **noisy**
# held-out points (noise 0.3). A point's distance to the circle is $\bigl|\|x\| - 2\bigr|$.
# A model that has learned the curve sends a noisy point back towards it; a copier leaves
# it in place. We print the ratio of the mean distance after and before reconstruction.
#
# The model, `autoencoder.train_tied_autoencoder`, has one tanh layer with **tied**
# weights: $z = \tanh\bigl((x - \mu) W + b\bigr)$, $\hat x = z W^\top + c + \mu$, with $W$ of
# shape $p \times m$; here $m = 32$ code units for $p = 2$ inputs.

# %% slideshow={"slide_type": "fragment"}
def arc_points(rng, count, noise):
    """count points on the arc of section 4 (radius 2) plus normal noise of the given size."""
    angles = rng.uniform(-2.5, 2.5, count)
    return 2 * np.column_stack([np.sin(angles), np.cos(angles)]) + noise * rng.standard_normal((count, 2))


def distance_to_circle(points):
    return np.abs(np.linalg.norm(points, axis=1) - 2)


def mean_error(model, points):
    return np.mean(np.sum((model.reconstruct(points) - points) ** 2, axis=1))


curve_rng = np.random.default_rng(3)
train, clean, noisy = arc_points(curve_rng, 40, 0.05), arc_points(curve_rng, 200, 0.05), arc_points(curve_rng, 200, 0.3)
plain = autoencoder.train_tied_autoencoder(train, m=32, learning_rate=0.05, epochs=3000, seed=0)
before = distance_to_circle(noisy).mean()
print("training error:", dr.rounded(mean_error(plain, train)), "| held-out error:", dr.rounded(mean_error(plain, clean)))
print("noisy points, mean distance to the circle before:", dr.rounded(before),
      "after:", dr.rounded(distance_to_circle(plain.reconstruct(noisy)).mean()))
print("the same ratio for the undercomplete k = 1 model of section 4:",
      dr.rounded(distance_to_circle(curved.reconstruct(noisy)).mean() / before, 2))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The overcomplete model reconstructs training and clean held-out points almost exactly
# (on them the identity is right), but gives noisy points back nearly unchanged: 0.198
# from the circle against 0.241 before, less than a fifth of the noise removed. The
# undercomplete model of section 4, forced through one number, removes most of it (ratio
# 0.14). This is the notes' caution (section 6.3): an overcomplete or too flexible
# autoencoder represents its training data and learns nothing about where data live.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. Three regularisers: sparse, denoising, contractive
#
# The notes list three remedies. With $n$ training points, codes $z_i$ and
# reconstructions $\hat x_i$:
#
# 1. **sparse**: add $\lambda\, r(z)$ to the loss, here the L1 norm,
#    $L = \frac1n \sum_i \bigl(\|x_i - \hat x_i\|^2 + \lambda \|z_i\|_1\bigr)$, so that each
#    point uses few code units (the library rounds the corner of $|z_j|$ at 0, using
#    $\sqrt{z_j^2 + 0.05^2} - 0.05$: with the sharp corner, gradient descent keeps jumping
#    across 0 and the trained model depends on the machine's rounding);
# 2. **denoising**: feed a corrupted point $\tilde x_i = x_i + \varepsilon_i$ and ask for
#    the *clean* one, $L = \frac1n \sum_i \|x_i - f(g(\tilde x_i))\|^2$; the identity no
#    longer minimises this loss;
# 3. **contractive**: penalise how fast the code changes with the input,
#    $r = \sum_{j=1}^m \|\nabla_x z_j\|^2 = \|\partial z / \partial x\|_F^2$, so the code
#    can only vary along the directions the data vary in.
#
# Tying the decoder to the encoder matters for 1 and 3: a free decoder could grow 100-fold
# while the encoder shrinks 100-fold (keeping the tanh in its linear range), shrinking both
# penalties at almost no cost.
#
# For the tanh encoder the contractive penalty has a closed form. For one point,
# $z_j = \tanh(a_j)$ with $a_j = (x - \mu)^\top W_{:j} + b_j$, so
# $\nabla_x z_j = (1 - z_j^2)\, W_{:j}$ and
#
# $$ \Bigl\|\frac{\partial z}{\partial x}\Bigr\|_F^2 = \sum_{j=1}^m (1 - z_j^2)^2\, \|W_{:j}\|^2 . $$
#
# (`model.jacobian_norms` evaluates it; exercise 6 asks you to code it.)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The same model (32 units, seed 0, 3000 epochs) with each regulariser in turn: L1
# weight 0.1; normal corruption of standard deviation 0.3 (five corrupted copies of each
# training point); contractive weight 0.1. We print both errors, the distance ratio, the
# fraction of code units active on a training point ($|z_j| > 0.1$) and the mean
# $\|\partial z/\partial x\|_F^2$ at the noisy points.

# %% slideshow={"slide_type": "fragment"}
models = {
    "none": plain,
    "sparse": autoencoder.train_tied_autoencoder(train, m=32, sparsity=0.1, seed=0),
    "denoising": autoencoder.train_tied_autoencoder(train, m=32, noise=0.3, copies=5, seed=0),
    "contractive": autoencoder.train_tied_autoencoder(train, m=32, contraction=0.1, seed=0),
}
summary = {}
print(f"{'regulariser':12s} {'train':>7s} {'held-out':>8s} {'noise ratio':>11s} {'active':>6s} {'||J||^2':>7s}")
for name, model in models.items():
    summary[name] = {"train": mean_error(model, train), "held_out": mean_error(model, clean),
                     "ratio": distance_to_circle(model.reconstruct(noisy)).mean() / before,
                     "active": np.mean(np.abs(model.encode(train)) > 0.1),
                     "jacobian": model.jacobian_norms(noisy).mean()}
    row = summary[name]
    print(f"{name:12s} {row['train']:7.4f} {row['held_out']:8.4f} {row['ratio']:11.2f} {row['active']:6.2f} "
          f"{row['jacobian']:7.2f}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Each regulariser turns the copier into a model of the curve: noisy points end at about
# a third of their distance (ratios 0.36, 0.33, 0.35 against 0.82). The sparse model uses
# 9% of its units per point (3 of 32) against 81%. The contractive model halves the
# Jacobian norm (0.82 against 1.54); the other two do too, unasked, since a model that
# follows a curve must be insensitive to moves across it. The price: a clean error of
# 0.008 to 0.016 instead of 0.0004, small next to the noise removed (a squared distance
# of about $2 \times 0.3^2 = 0.18$). The asserts record these claims:

# %% slideshow={"slide_type": "fragment"}
regularised = ["sparse", "denoising", "contractive"]
assert summary["none"]["train"] < 0.001 and summary["none"]["ratio"] > 0.75
assert all(summary[name]["ratio"] < 0.45 for name in regularised)
assert summary["sparse"]["active"] < 0.25 * summary["none"]["active"]
assert summary["contractive"]["jacobian"] < 0.6 * summary["none"]["jacobian"]
assert all(summary["none"]["held_out"] < summary[name]["held_out"] < 0.02 for name in regularised)

# %% [markdown] slideshow={"slide_type": "subslide"}
# The picture: 60 noisy held-out points, each joined to its reconstruction.

# %% alt="Four panels of noisy held-out points near an arc, each joined by a short segment to its reconstruction by an overcomplete autoencoder with no regulariser or a sparse, denoising or contractive one. Without a regulariser the segments are tiny (the model copies its input, noise ratio 0.82); with each regulariser they point back towards the arc (ratios 0.33 to 0.36), a vector field towards the data." slideshow={"slide_type": "fragment"}
angles = np.linspace(-2.5, 2.5, 200)
fig, axes = plt.subplots(2, 2, figsize=(10, 9.2), sharex=True, sharey=True, layout="constrained")
for ax, (name, model) in zip(axes.ravel(), models.items()):
    shown = noisy[:60]
    moved = model.reconstruct(shown)
    ax.plot(2 * np.sin(angles), 2 * np.cos(angles), color="grey", lw=1, label="the arc")
    for start, end in zip(shown, moved):
        ax.plot(*np.column_stack([start, end]), color="C1", lw=0.7)
    ax.scatter(*shown.T, s=10, color="C0", label="noisy held-out point", zorder=3)
    ax.scatter(*moved.T, s=10, color="C1", label="its reconstruction", zorder=3)
    ax.scatter(*train.T, s=14, marker="x", color="k", label="training point", zorder=4)
    ax.set_title(f"regulariser: {name} (noise ratio {summary[name]['ratio']:.2f})")
    ax.set_aspect("equal")
for ax in axes[1]:
    ax.set_xlabel("$x_1$")
for ax in axes[:, 0]:
    ax.set_ylabel("$x_2$")
fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center", ncol=4)
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Without a regulariser the vermillion segments are short: every point is its own
# reconstruction. With any of the three they point towards the arc: each segment is the
# vector r(x) - x, and together they draw a *vector field* that points back to the data's
# manifold (Goodfellow, Bengio and Courville, *Deep Learning*, section 14.5: a denoising
# autoencoder learns to estimate this field, the direction in which the data density
# grows). The two penalties are related: for small Gaussian corruption of variance
# $\sigma^2$, the expected denoising error is the clean error plus $\sigma^2$ times the
# squared Frobenius norm of the *reconstruction's* Jacobian, to first order (Alain and
# Bengio 2014), while the contractive penalty is the norm of the *encoder's* Jacobian:
# both reward a map that moves little when the input moves off the data.
#
# **Deeper autoencoders.** The notes' second caution: with more layers ($l > 2$) the maps
# can memorise even through a narrow code, and the same regularisers are the remedy. Deep
# autoencoders are trained with mini-batches and automatic differentiation; see
# Goodfellow, Bengio and Courville, *Deep Learning* (2016), chapter 14, and Vincent et al.
# (2008) and Rifai et al. (2011), who introduced denoising and contractive autoencoders.
#
# **Autoencoders that generate.** The notes close section 6.3 with autoencoders that
# *generate* data, naming variational autoencoders (VAEs) and generative adversarial
# networks (GANs). A VAE (Kingma and Welling, 2014) makes the code random, with a prior
# $z \sim N(0, I)$, and trains encoder and decoder so that decoding draws from the prior
# gives new, realistic points; with a linear decoder and Gaussian noise its model is
# exactly probabilistic PCA's (notebook 07). A GAN (Goodfellow et al., 2014) keeps only a
# decoder, the generator, and trains it against a classifier that tries to tell its
# output from real data, with no reconstruction loss at all. Neither is built here.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 7. PCA on images: the digits
#
# The MML lecture closes with PCA on an image data set. Ours: 1797 handwritten digits,
# each an $8 \times 8$ image of grey levels 0-16, flattened row by row into $p = 64$
# columns.

# %% alt="The first ten handwritten digit images, 8 by 8 pixels in grey levels, labelled 0 to 9." slideshow={"slide_type": "fragment"}
images, labels = datasets.load_digits()
print(images.shape, labels[:10])
image_grid(images[:10], (8, 8), titles=labels[:10], ncols=10)
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# PCA of the images (centred, not standardised: every pixel is measured on the same
# 0-16 scale). The mean image and the first eight principal directions, shown as images
# ("eigen-images"; red positive, blue negative):

# %% alt=["The mean image of the 1797 digits: a blurred average digit.", "The first eight eigen-images PC1 to PC8 of the digits, red where pixels brighten and blue where they darken together along each principal direction."] slideshow={"slide_type": "fragment"}
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
# How much variance do the first $M$ components keep? (Notebook 01, section 7, drew this curve as the CMU
# slides' $R^2$.)

# %% alt="The fraction of the digits' variance kept by the first M components, rising steeply and then flattening, with dashed lines at 0.9 and at M = 21." slideshow={"slide_type": "fragment"}
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

# %% alt="Three digits, each shown as the original and reconstructed from 1, 2, 5, 10, 20 and 40 principal components on the same grey scale: smudges near the mean with one or two components, recognisable by 10, and nearly the original by 40." slideshow={"slide_type": "fragment"}
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
# ## 8. The key steps in practice, and pixels that never change
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
#   subspace; its weights need not be orthonormal (from a small start they nearly are)
#   and are not ordered by variance.
# - The gradients are short matrix formulas, checked by finite differences.
# - Nonlinear encoders and decoders can follow curved data that PCA cannot, at the cost
#   of a harder, seed-dependent optimisation.
# - An overcomplete autoencoder copies its input; a sparse penalty, denoising or a
#   contractive penalty makes it learn the curve instead, at a small cost in clean error.
# - On images, the mean image and eigen-images show what PCA finds; reconstructions
#   improve with $M$ and the error is the sum of the dropped eigenvalues.
# - In practice: centre, (maybe) standardise, project, reconstruct, de-standardise, and
#   leave zero-variance columns unscaled (or drop them).

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional)
#
# About 15 minutes: the gradient of the penalties, and how strong a regulariser should be.
#
# ### The gradient of the penalties
#
# Training needs the derivatives of the penalties of section 6. Write $a_j$ for the input
# of unit $j$'s tanh, so $z_j = \tanh(a_j)$ and $\partial z_j / \partial a_j = 1 - z_j^2$.
# The L1 term adds $\lambda\, \mathrm{sign}(z_j)$ to the gradient with respect to $z_j$
# (its smoothed form $\lambda\, z_j / \sqrt{z_j^2 + 0.05^2}$, which approaches it away from 0:
# 0.89 of it at $|z_j| = 0.1$, 0.97 at 0.2, printed below).
# The contractive term $(1 - z_j^2)^2 \|W_{:j}\|^2$ depends on $W$ twice: through the
# slope, with $\partial (1 - z_j^2)^2 / \partial a_j = -4 z_j (1 - z_j^2)^2$, which then
# flows back like any other gradient of $a_j$; and directly through the column norm, which
# adds $2 (1 - z_j^2)^2 W_{:j}$ to the gradient of $W_{:j}$. `autoencoder.tied_ae_gradients`
# adds both to the back-propagation of the reconstruction error. We check the result
# against finite differences, with corrupted inputs, clean targets and both penalties on:

# %% slideshow={"slide_type": "fragment"}
gradient_rng = np.random.default_rng(4)
weights = {"W": gradient_rng.standard_normal((2, 5)), "b": gradient_rng.standard_normal(5),
           "c": gradient_rng.standard_normal(2)}
noisy_inputs = train - train.mean(axis=0) + 0.3 * gradient_rng.standard_normal(train.shape)
penalties = {"target": train - train.mean(axis=0), "sparsity": 0.1, "contraction": 0.1}
_, analytic = autoencoder.tied_ae_gradients(noisy_inputs, weights, **penalties)
for name in weights:
    numeric = autoencoder.finite_difference_gradient(
        lambda value, name=name: autoencoder.tied_ae_gradients(noisy_inputs, {**weights, name: value}, **penalties)[0],
        weights[name])
    print(name, "agrees with finite differences:", np.allclose(analytic[name], numeric, rtol=1e-5, atol=1e-8))
z = np.array([0.1, 0.2, 0.4])
smoothed_slope = z / np.sqrt(z**2 + autoencoder.SPARSITY_SMOOTHING**2)  # the smoothed L1's slope; sign(z) = 1 here
print("smoothed slope at z = 0.1, 0.2, 0.4:", ", ".join(f"{value:.2f}" for value in smoothed_slope))
assert np.allclose(smoothed_slope[:2], [0.89, 0.97], atol=0.005) and np.all(smoothed_slope < 1)

# %% [markdown] slideshow={"slide_type": "subslide"}
# All three gradients (of $W$, $b$ and $c$) agree, so the training of section 6 descends
# the loss it claims to.

# %% [markdown] slideshow={"slide_type": "subslide"}
# ### How strong should the regulariser be?
#
# Section 6 used one strength per regulariser. We now train the overcomplete model of
# section 6 with four strengths of each: the L1 weight and the contractive weight from 0.01
# to 1, the standard deviation of the corruption from 0.1 to 0.8. For every model we record
# the noisy points' distance ratio, the clean held-out error, and the mean distance of the
# noisy points' reconstructions from the centre (the arc has radius 2).

# %% alt="Two panels against the strength of each regulariser (penalty weight or noise standard deviation, log scale). Left: the noisy points' distance to the circle after over before reconstruction; each regulariser has a useful middle near 0.33 to 0.35, rising again when too strong (to 1.09 for the strongest sparse penalty), against 0.82 without a regulariser. Right: the clean held-out error grows about a hundredfold with the strength." slideshow={"slide_type": "fragment"}
strengths = {"sparse": ("sparsity", [0.01, 0.03, 0.1, 1.0]),
             "denoising": ("noise", [0.1, 0.2, 0.3, 0.8]),
             "contractive": ("contraction", [0.01, 0.03, 0.1, 1.0])}
trained = {("sparsity", 0.1): models["sparse"], ("noise", 0.3): models["denoising"],
           ("contraction", 0.1): models["contractive"]}  # section 6's models, not trained twice
sweep = {}
for name, (option, values) in strengths.items():
    fits = [trained.get((option, value)) or autoencoder.train_tied_autoencoder(train, m=32, seed=0, **{option: value})
            for value in values]
    sweep[name] = {"ratio": np.array([distance_to_circle(fit.reconstruct(noisy)).mean() / before for fit in fits]),
                   "held_out": np.array([mean_error(fit, clean) for fit in fits]),
                   "radius": np.array([np.linalg.norm(fit.reconstruct(noisy), axis=1).mean() for fit in fits])}
    print(f"{name} ({option} = {values}):")
    for key in ("ratio", "held_out", "radius"):
        print(f"  {key:9s}", dr.rounded(sweep[name][key], 4))

fig, axes = plt.subplots(1, 2, figsize=(11, 4))
for marker, (name, (option, values)) in zip("osD", strengths.items()):
    axes[0].semilogx(values, sweep[name]["ratio"], marker + "-", label=f"{name} ({option})")
    axes[1].loglog(values, sweep[name]["held_out"], marker + "-", label=f"{name} ({option})")
axes[0].axhline(summary["none"]["ratio"], color="k", ls="--", lw=0.8, label="no regulariser")
axes[1].axhline(summary["none"]["held_out"], color="k", ls="--", lw=0.8, label="no regulariser")
axes[0].set(xlabel="strength (penalty weight, or noise s.d.)", ylabel="distance to the circle, after / before",
            title="noisy held-out points")
axes[1].set(xlabel="strength (penalty weight, or noise s.d.)", ylabel="mean squared error",
            title="clean held-out points")
axes[0].legend(fontsize=8)
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Every regulariser has a useful middle. Too weak, and the model still copies (denoising
# with noise 0.1 keeps a ratio of 0.69, the contractive weight 0.01 one of 0.65). Too
# strong, and it pulls everything inwards: the mean radius of the reconstructions drops
# from about 1.98 to 1.81 (sparse, weight 1), the ratio climbs back (to 1.09 for that
# model, worse than no regulariser) and the clean error grows about a hundredfold. The best
# strengths here (ratios 0.33 to 0.35) are a noise equal to the real noise of the
# held-out points and penalty weights between 0.03 and 0.1. On real data there is no
# circle to measure against; the strength is then chosen by what the code is for, for
# example the accuracy of a classifier trained on it.

# %% slideshow={"slide_type": "fragment"}
assert all(sweep[name]["ratio"].min() < 0.45 for name in strengths)
assert all(sweep[name]["ratio"][-1] > sweep[name]["ratio"].min() + 0.2 for name in strengths)
assert all(sweep[name]["held_out"][-1] > 50 * sweep[name]["held_out"][0] for name in strengths)
