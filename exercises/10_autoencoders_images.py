# %% [markdown]
# # Exercises 10 · Autoencoders and PCA; PCA on images
#
# *Time: about 65 minutes.*
#
# **Objectives.** After this set you can
# 1. take one gradient step of a linear autoencoder by hand;
# 2. reconstruct data from $M$ principal components;
# 3. measure how well one PCA basis reconstructs each class of digits;
# 4. undo a standardisation;
# 5. count the components a digit's images need for a given share of their variance;
# 6. compute the contractive penalty of a tanh encoder;
# 7. build the training pairs of a denoising autoencoder.
#
# **Follows:** lecture notebook `10_autoencoders_images`; WashU lecture A2 sections 6-6.3; Stellenbosch MML lecture 9,
# sections 10.2-10.4 and 10.6.
#
# **References:** M. Neumann, *USL: Dimensionality Reduction*, lecture A2, WashU; W. Brink, *Mathematics for Machine
# Learning*, lecture 9, Stellenbosch
# University.
#
# Each exercise is followed by a check cell. Functions are checked on fresh random data
# every time you run the check, so they must work for any sizes, not just one example.
# Use NumPy (and `dimred_teach.pca` where an exercise says so), not `dimred_teach.autoencoder`,
# which solves these exercises: the checks and the grader refuse it.

# %%
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np

import dimred_teach as dr
from dimred_teach import check, datasets

dr.setup_notebook()


# %% [markdown]
# ## Exercise 1 · One gradient step of a linear autoencoder *(15 min, lecture §2)*
#
# The linear autoencoder of the lecture has encoder $E$ ($p \times k$) and decoder $D$
# ($k \times p$); on centred data $X$ ($n \times p$) its loss is
# $L(E, D) = \frac1n \|X - X E D\|_F^2$. Write `gradient_step(X, encoder, decoder, learning_rate)`
# returning the pair `(new_encoder, new_decoder)` after one step of gradient descent,
# $E \leftarrow E - \eta\, \partial L/\partial E$ and $D \leftarrow D - \eta\, \partial L/\partial D$
# (both computed at the old $E, D$). Use NumPy only; the check compares your step with
# finite differences of $L$.

# %%
def gradient_step(X, encoder, decoder, learning_rate):
    """One full-batch gradient step on L = ||X - X E D||_F^2 / n; returns (E_new, D_new)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("10.gradient_step", gradient_step)


# %% [markdown]
# ## Exercise 2 · Reconstruction from M components *(5 min, lecture §7)*
#
# Write `reconstruct(X, M)` returning the PCA reconstruction of the rows of X from the
# first $M$ principal components, in the original units:
# $\tilde x = \mu + B_M B_M^\top (x - \mu)$, with $\mu$ the column means and $B_M$ the
# first $M$ principal directions. (You may use `np.linalg.svd` or `dimred_teach.pca`.)

# %%
def reconstruct(X, M):
    """Rank-M PCA reconstruction of X (shape (n, p)), shape (n, p)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("10.reconstruct", reconstruct)


# %% [markdown]
# ## Exercise 3 · Which digits does one basis serve worst? *(10 min, lecture §7)*
#
# The lecture reconstructs digits from the first $M$ principal components of **all** the images. Do all digits
# come back equally well? Write `class_errors(images, labels, M)`: fit PCA on all the `images` (centre them with
# their mean, take the SVD), reconstruct every image from the first $M$ components, $\tilde x = \mu + B_M
# B_M^\top(x - \mu)$, and return, for each class in `np.unique(labels)` order, the **mean** over that class's images
# of the squared error $\|x - \tilde x\|^2$ (summed over the pixels). The check calls it on fresh subsets of the
# digits. Then use it on all 1797 digits with $M = 10$: which digit comes back worst, which best?

# %%
def class_errors(images, labels, M):
    """Mean squared rank-M PCA reconstruction error of each class (np.unique(labels) order), shape (n_classes,)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("10.class_errors", class_errors)

# %%
images, labels = datasets.load_digits()
# YOUR CODE HERE
errors_10 = ...
own = ...


# %% [markdown] dimred_teach={"written": {"exercise": "10.class_errors", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 4 · De-standardise *(5 min, lecture §8)*
#
# Step 5 of the MML lecture's recipe maps a reconstruction $\tilde x_*$ in standardised
# units back to the data's units. Write `destandardize(X_star, mean, std)` for a matrix
# `X_star` (rows are points) and the column means and standard deviations used to
# standardise.

# %%
def destandardize(X_star, mean, std):
    """Undo x_* = (x - mean) / std, row by row; shape of X_star."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("10.destandardize", destandardize)


# %% [markdown]
# ## Exercise 5 · How many components do the eights need? *(10 min, lecture §7)*
#
# The lecture counted the components that all 1797 digits need. Write `components_needed(images, fraction)`: centre
# the images (do not standardise) and return the smallest number $M$ of principal components that keeps at least
# `fraction` of their total variance. The check calls it on fresh subsets of the images of one digit. Then keep the
# images of the digit 8 (`eights`, from the digits of Exercise 3) and compute their `M_90`, the count for 90%. Do one digit's images need more components or fewer than all ten digits together?

# %%
def components_needed(images, fraction):
    """Smallest M whose first M principal components keep at least `fraction` of the variance of the centred images."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("10.digits_m90", components_needed)

# %%
eights = images[labels == 8]
# YOUR CODE HERE
M_90 = ...

# %% [markdown] dimred_teach={"written": {"exercise": "10.digits_m90", "part": 1}}
# **Your answer:** *(write it here)*

# %% [markdown]
# **To think about.** How many components would the eights need if you first standardised the pixels (leaving
# the constant pixels unscaled)? Why does the number go up?

# %%
# YOUR CODE HERE
spread = ...
constant = ...
M_90_standardised = ...


# %% [markdown] dimred_teach={"written": {"exercise": "10.digits_m90", "part": 2}}
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 6 · The contractive penalty of a tanh encoder *(10 min, lecture §6)*
#
# The encoder of the lecture's tied autoencoder maps a point $x$ ($p$ numbers) to the code
# $z = \tanh(x W + b)$ ($m$ numbers), with $W$ of shape $p \times m$. The contractive
# autoencoder penalises the squared Frobenius norm of the encoder's Jacobian,
# $\|\partial z / \partial x\|_F^2 = \sum_{j=1}^m \|\nabla_x z_j\|^2$. Write
# `contractive_penalty(X, W, b)` returning its **mean over the rows** of `X` (shape
# $(n, p)$), a single number. Derive $\nabla_x z_j$ first (the chain rule through the
# tanh); the check compares your number with finite differences of the encoder.

# %%
def contractive_penalty(X, W, b):
    """Mean over the rows x of X of ||dz/dx||_F^2 for z = tanh(x W + b)."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("10.contractive_penalty", contractive_penalty)


# %% [markdown]
# ## Exercise 7 · The training pairs of a denoising autoencoder *(10 min, lecture §6)*
#
# A denoising autoencoder is trained on pairs (corrupted input, clean target). Write
# `denoising_pairs(X, noise, copies, seed)` returning `(inputs, targets)`, both of shape
# $(n \cdot \text{copies}, p)$: every row of `X` appears `copies` times in `targets`, and the
# matching row of `inputs` is that point plus independent normal noise of standard
# deviation `noise`, drawn from `np.random.default_rng(seed)` (so the same seed gives the
# same pairs). The check looks at the noise: where it is, how large, and whether the
# copies of a point are corrupted independently.

# %%
def denoising_pairs(X, noise, copies, seed):
    """(inputs, targets): targets repeat the rows of X copies times; inputs add N(0, noise^2) noise."""
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=1
check("10.denoising_pairs", denoising_pairs)

# %% [markdown]
# **To think about.** Why must the noise go on the inputs and not on the targets? What
# would an overcomplete autoencoder learn from pairs (clean input, noisy target)?

# %% [markdown] dimred_teach={"written": {"exercise": "10.denoising_pairs", "part": 1}}
# **Your answer:** *(write it here)*
