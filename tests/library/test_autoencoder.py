"""Autoencoders: the linear one learns the PCA subspace, losses decrease, the hand-written
gradients agree with finite differences, seeds reproduce, bad inputs are reported, and the
checks of exercise set 10 pass right and fail wrong answers."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dimred_teach import autoencoder as ae
from dimred_teach.checks import evaluate
from dimred_teach.linalg import subspace_distance
from dimred_teach.pca import pca


def gaussian_data(seed, n=200, variances=(4.0, 2.0, 0.5, 0.2, 0.1)):
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((len(variances), len(variances))))
    return rng.standard_normal((n, len(variances))) * np.sqrt(variances) @ Q.T + rng.normal(0, 3, len(variances))


def arc_data(seed=0, n=200):
    rng = np.random.default_rng(seed)
    angle = rng.uniform(-2.5, 2.5, n)
    return 2 * np.column_stack([np.sin(angle), np.cos(angle)]) + 0.05 * rng.standard_normal((n, 2))


# ---------------------------------------------------------------- linear autoencoder = PCA


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_linear_autoencoder_learns_the_pca_subspace(seed):
    X = gaussian_data(seed)
    model = ae.train_linear_autoencoder(X, 2, learning_rate=0.1, epochs=600, seed=seed)
    components = pca(X, k=2).components
    assert subspace_distance(model.decoder.T, components) < 1e-4
    assert subspace_distance(model.encoder, components) < 1e-3
    # the final loss is the variance PCA leaves out, with the 1/n normaliser
    result = pca(X, k=5)
    n = X.shape[0]
    assert model.losses[-1] == pytest.approx((n - 1) / n * result.eigenvalues[2:].sum(), rel=1e-6)
    # reconstructions agree with PCA's
    pca2 = pca(X, k=2)
    np.testing.assert_allclose(model.reconstruct(X), pca2.reconstruct(pca2.transform(X)), atol=1e-3)


def test_subspace_distance_to_pca_shrinks_with_training():
    X = gaussian_data(4)
    components = pca(X, k=2).components
    distances = [subspace_distance(ae.train_linear_autoencoder(X, 2, learning_rate=0.1, epochs=e, seed=0).decoder.T,
                                   components) for e in (5, 50, 500)]
    assert distances[0] > distances[1] > distances[2]
    assert distances[2] < 1e-3


def test_linear_loss_decreases_monotonically_for_a_small_step():
    model = ae.train_linear_autoencoder(gaussian_data(5), 3, learning_rate=0.05, epochs=300, seed=1)
    assert np.all(np.diff(model.losses) <= 1e-12)
    assert model.losses.shape == (301,)


@given(st.integers(0, 10_000), st.integers(1, 4))
def test_linear_gradients_match_finite_differences(seed, k):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((12, 5))
    X -= X.mean(axis=0)
    encoder, decoder = rng.standard_normal((5, k)), rng.standard_normal((k, 5))
    loss, grad_encoder, grad_decoder = ae.linear_ae_gradients(X, encoder, decoder)
    assert loss == pytest.approx(np.sum((X - X @ encoder @ decoder) ** 2) / 12)
    numeric_e = ae.finite_difference_gradient(lambda W: ae.linear_ae_gradients(X, W, decoder)[0], encoder)
    numeric_d = ae.finite_difference_gradient(lambda W: ae.linear_ae_gradients(X, encoder, W)[0], decoder)
    np.testing.assert_allclose(grad_encoder, numeric_e, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grad_decoder, numeric_d, rtol=1e-5, atol=1e-6)


def test_linear_autoencoder_is_reproducible_and_seeded():
    X = gaussian_data(6)
    a = ae.train_linear_autoencoder(X, 2, epochs=20, seed=3)
    b = ae.train_linear_autoencoder(X, 2, epochs=20, seed=3)
    c = ae.train_linear_autoencoder(X, 2, epochs=20, seed=4)
    np.testing.assert_array_equal(a.encoder, b.encoder)
    np.testing.assert_array_equal(a.losses, b.losses)
    assert not np.array_equal(a.encoder, c.encoder)
    with pytest.raises(ValueError, match="read-only"):
        a.encoder[0, 0] = 1.0


def test_encode_decode_shapes_and_mean():
    X = gaussian_data(7)
    model = ae.train_linear_autoencoder(X, 2, epochs=10)
    assert model.encode(X[:4]).shape == (4, 2) and model.decode(np.zeros((3, 2))).shape == (3, 5)
    np.testing.assert_allclose(model.decode(np.zeros((1, 2)))[0], X.mean(axis=0))
    assert model.k == 2


# ---------------------------------------------------------------- the tanh autoencoder


@given(st.integers(0, 10_000))
def test_tanh_gradients_match_finite_differences(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((8, 3))
    shapes = {"W1": (3, 4), "b1": (4,), "W2": (4, 2), "b2": (2,), "W3": (2, 4), "b3": (4,), "W4": (4, 3), "b4": (3,)}
    params = {name: rng.standard_normal(shape) * 0.7 for name, shape in shapes.items()}
    loss, gradients = ae.tanh_ae_gradients(X, params)
    for name in shapes:
        numeric = ae.finite_difference_gradient(lambda W, name=name: ae.tanh_ae_gradients(X, {**params, name: W})[0],
                                                params[name])
        np.testing.assert_allclose(gradients[name], numeric, rtol=1e-5, atol=1e-7, err_msg=name)


def test_tanh_autoencoder_beats_pca_on_a_curve():
    X = arc_data()
    model = ae.train_tanh_autoencoder(X, 1, hidden=16, learning_rate=0.1, epochs=1500, seed=0)
    result = pca(X, k=2)
    pca_loss = (X.shape[0] - 1) / X.shape[0] * result.eigenvalues[1]
    assert model.losses[-1] < 0.2 * pca_loss
    assert model.losses[-1] < model.losses[0]
    assert np.mean(np.sum((model.reconstruct(X) - X) ** 2, axis=1)) == pytest.approx(model.losses[-1], rel=1e-6)
    assert model.encode(X).shape == (200, 1)
    again = ae.train_tanh_autoencoder(X, 1, hidden=16, learning_rate=0.1, epochs=50, seed=0)
    np.testing.assert_array_equal(again.losses, model.losses[:51])


# ---------------------------------------------------------------- overcomplete codes and regularisers


def test_overcomplete_linear_autoencoder_learns_the_identity():
    X = gaussian_data(8)
    model = ae.train_linear_autoencoder(X, 6, learning_rate=0.1, epochs=500, seed=0)
    np.testing.assert_allclose(model.encoder @ model.decoder, np.eye(5), atol=1e-4)
    assert model.losses[-1] < 1e-8


TIED_SHAPES = {"W": (3, 5), "b": (5,), "c": (3,)}


@given(st.integers(0, 10_000), st.booleans(), st.floats(0.0, 2.0), st.floats(0.0, 2.0))
def test_tied_gradients_match_finite_differences(seed, with_target, sparsity, contraction):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((8, 3))
    target = rng.standard_normal((8, 3)) if with_target else None
    params = {name: rng.standard_normal(shape) * 0.7 for name, shape in TIED_SHAPES.items()}
    loss, gradients = ae.tied_ae_gradients(X, params, target=target, sparsity=sparsity, contraction=contraction)
    for name in TIED_SHAPES:
        numeric = ae.finite_difference_gradient(
            lambda W, name=name: ae.tied_ae_gradients(X, {**params, name: W}, target=target, sparsity=sparsity,
                                                      contraction=contraction)[0], params[name])
        np.testing.assert_allclose(gradients[name], numeric, rtol=1e-5, atol=1e-7, err_msg=name)


def test_tied_loss_is_the_written_formula():
    rng = np.random.default_rng(1)
    X, T = rng.standard_normal((6, 3)), rng.standard_normal((6, 3))
    W, b, c = rng.standard_normal((3, 4)), rng.standard_normal(4), rng.standard_normal(3)
    loss, _ = ae.tied_ae_gradients(X, {"W": W, "b": b, "c": c}, target=T, sparsity=0.3, contraction=0.7)
    expected = 0.0
    for x, t in zip(X, T):  # point by point, the Jacobian by finite differences of the encoder
        z = np.tanh(x @ W + b)
        jacobian = np.array([(np.tanh((x + h) @ W + b) - np.tanh((x - h) @ W + b)) / 2e-6 for h in 1e-6 * np.eye(3)])
        expected += (np.sum((z @ W.T + c - t) ** 2)
                     + 0.3 * np.sum(np.sqrt(z**2 + ae.SPARSITY_SMOOTHING**2) - ae.SPARSITY_SMOOTHING)
                     + 0.7 * np.sum(jacobian**2))
    assert loss == pytest.approx(expected / 6, rel=1e-7)


def test_jacobian_norms_are_those_of_the_encoder():
    X = arc_data(n=40)
    model = ae.train_tied_autoencoder(X, 6, contraction=0.1, epochs=50, seed=2)
    points = X[:5]
    for point, norm in zip(points, model.jacobian_norms(points)):
        jacobian = np.array([(model.encode((point + h)[None]) - model.encode((point - h)[None]))[0] / 2e-6
                             for h in 1e-6 * np.eye(2)])
        assert norm == pytest.approx(np.sum(jacobian**2), rel=1e-6)


def arc_experiment(seed):
    rng = np.random.default_rng(seed)

    def points(count, noise):
        angles = rng.uniform(-2.5, 2.5, count)
        return 2 * np.column_stack([np.sin(angles), np.cos(angles)]) + noise * rng.standard_normal((count, 2))

    return points(40, 0.05), points(200, 0.3)


@pytest.mark.parametrize("seed", [3, 11])
def test_regularisers_stop_an_overcomplete_autoencoder_copying(seed):
    train, noisy = arc_experiment(seed)

    def ratio(model):
        distance = lambda P: np.abs(np.linalg.norm(P, axis=1) - 2)  # noqa: E731
        return distance(model.reconstruct(noisy)).mean() / distance(noisy).mean()

    plain = ae.train_tied_autoencoder(train, 32, seed=0)
    assert plain.losses[-1] < 1e-3 and ratio(plain) > 0.7  # copies: noisy points stay noisy
    sparse = ae.train_tied_autoencoder(train, 32, sparsity=0.1, seed=0)
    denoising = ae.train_tied_autoencoder(train, 32, noise=0.3, seed=0)
    contractive = ae.train_tied_autoencoder(train, 32, contraction=0.1, seed=0)
    for model in (sparse, denoising, contractive):
        assert ratio(model) < 0.5
    active = lambda model: np.mean(np.abs(model.encode(train)) > 0.1)  # noqa: E731
    assert active(sparse) < 0.3 * active(plain)
    assert contractive.jacobian_norms(noisy).mean() < 0.7 * plain.jacobian_norms(noisy).mean()


def test_denoising_corruption_is_seeded_and_uses_the_copies():
    X = arc_data(n=20)
    a = ae.train_tied_autoencoder(X, 4, noise=0.2, copies=3, epochs=5, seed=1)
    b = ae.train_tied_autoencoder(X, 4, noise=0.2, copies=3, epochs=5, seed=1)
    c = ae.train_tied_autoencoder(X, 4, noise=0.2, copies=4, epochs=5, seed=1)
    np.testing.assert_array_equal(a.losses, b.losses)
    assert not np.array_equal(a.losses, c.losses)
    # without noise the copies are irrelevant, and the loss is the plain reconstruction error
    plain = ae.train_tied_autoencoder(X, 4, copies=3, epochs=5, seed=1)
    again = ae.train_tied_autoencoder(X, 4, copies=7, epochs=5, seed=1)
    np.testing.assert_array_equal(plain.losses, again.losses)
    assert np.mean(np.sum((plain.reconstruct(X) - X) ** 2, axis=1)) == pytest.approx(plain.losses[-1], rel=1e-6)
    # the first loss is measured at the corrupted inputs: (almost surely) not the clean loss
    assert a.losses[0] != plain.losses[0]
    assert (a.sparsity, a.noise, a.contraction) == (0.0, 0.2, 0.0)
    with pytest.raises(ValueError, match="read-only"):
        a.params["W"][0, 0] = 1.0
    assert a.decode(a.encode(X)).shape == (20, 2)
    with pytest.raises(ValueError, match="Z must have 4 columns"):
        a.decode(np.ones((2, 3)))


# ---------------------------------------------------------------- bad inputs


def test_bad_inputs_are_reported():
    X = gaussian_data(0, n=20)
    with pytest.raises(ValueError, match="k must be at least 1"):
        ae.train_linear_autoencoder(X, 0)
    with pytest.raises(ValueError, match=r"learning_rate must lie in \(0, inf\)"):
        ae.train_linear_autoencoder(X, 2, learning_rate=0)
    with pytest.raises(ValueError, match="epochs must be at least 1"):
        ae.train_linear_autoencoder(X, 2, epochs=0)
    with pytest.raises(TypeError, match="seed must be an integer"):
        ae.train_tanh_autoencoder(X, 2, seed=1.5)
    with pytest.raises(ValueError, match="hidden must be at least 1"):
        ae.train_tanh_autoencoder(X, 2, hidden=0)
    bad = X.copy()
    bad[0, 0] = np.inf
    with pytest.raises(ValueError, match="X contains inf"):
        ae.train_linear_autoencoder(bad, 2)
    with pytest.raises(ValueError, match="decoder"):
        ae.linear_ae_gradients(X, np.ones((5, 2)), np.ones((3, 5)))
    with pytest.raises(ValueError, match="missing"):
        ae.tanh_ae_gradients(X, {"W1": np.ones((5, 2))})
    model = ae.train_linear_autoencoder(X, 2, epochs=2)
    with pytest.raises(ValueError, match="X must have 5 columns"):
        model.encode(X[:, :3])
    with pytest.raises(ValueError, match="Z must have 2 columns"):
        model.decode(np.ones((2, 3)))


def test_divergence_names_the_learning_rate():
    with pytest.raises(ValueError, match="training diverged.*learning_rate"):
        ae.train_linear_autoencoder(gaussian_data(0) * 10, 2, learning_rate=0.5, epochs=200)


def test_an_overflowing_start_names_init_scale_not_the_learning_rate():
    """Issue 54: with init_scale=1e200 the loss overflows before any step; the message blamed learning_rate."""
    with pytest.raises(ValueError, match=r"^the loss at the starting weights overflows \(inf\) before any step: lower "
                       r"init_scale \(it is 1e\+200\) or rescale X$"):
        ae.train_linear_autoencoder(gaussian_data(0), 2, init_scale=1e200)
    with pytest.raises(ValueError, match=r"^training diverged at epoch \d+ .*: lower learning_rate \(it is 0.05\) or "
                       r"init_scale \(it is 10\) or rescale X$"):  # weights that large make the step too large
        ae.train_linear_autoencoder(gaussian_data(0), 2, init_scale=10.0)


# ---------------------------------------------------------------- the checks of set 10


def gradient_step(X, encoder, decoder, learning_rate):
    _, g_e, g_d = ae.linear_ae_gradients(X, encoder, decoder)
    return encoder - learning_rate * g_e, decoder - learning_rate * g_d


def reconstruct_m(X, M):
    result = pca(X, k=M)
    return result.reconstruct(result.transform(X))


def class_errors(images, labels, M):
    """Each class's mean squared reconstruction error from M components of all the images (exercise 10.class_errors)."""
    result = pca(images, k=M)
    squared = np.sum((images - result.reconstruct(result.transform(images))) ** 2, axis=1)
    return np.array([squared[labels == c].mean() for c in np.unique(labels)])


def components_needed(images, fraction):
    """The smallest M whose first M components keep ``fraction`` of the variance (exercise 10.digits_m90)."""
    from dimred_teach.pca import choose_k

    return choose_k(pca(images).eigenvalues, fraction)


def destandardize(Z_star, mean, std):
    return np.asarray(Z_star) * std + mean


@pytest.mark.parametrize("exercise_id, right, wrongs", [
    ("10.gradient_step", gradient_step, [
        lambda X, E, D, lr: (E + lr * ae.linear_ae_gradients(X, E, D)[1], D + lr * ae.linear_ae_gradients(X, E, D)[2]),
        lambda X, E, D, lr: (E, D),
        lambda X, E, D, lr: (E - lr * ae.linear_ae_gradients(X, E, D)[1] / 2,
                             D - lr * ae.linear_ae_gradients(X, E, D)[2] / 2),
    ]),
    ("10.reconstruct", reconstruct_m, [
        lambda X, M: (X - X.mean(0)) @ pca(X, k=M).components @ pca(X, k=M).components.T,  # forgot the mean
        lambda X, M: reconstruct_m(X, M + 1) if M + 1 <= min(X.shape) else X * 0,
    ]),
    ("10.class_errors", class_errors, [
        lambda X, y, M: class_errors(X, y, M) * 0.9,
        lambda X, y, M: class_errors(X, y, M + 1),
    ]),
    ("10.destandardize", destandardize, [
        lambda Z, mean, std: np.asarray(Z) * std,
        lambda Z, mean, std: np.asarray(Z) / std + mean,
    ]),
    ("10.digits_m90", components_needed, [
        lambda images, fraction: components_needed(images, fraction) - 1,
        lambda images, fraction: components_needed(images, fraction) + 1,
        lambda images, fraction: 21,
        lambda images, fraction: float(components_needed(images, fraction)),
    ]),
])
def test_checks_pass_right_and_fail_wrong_answers(exercise_id, right, wrongs):
    assert evaluate(exercise_id, right, seed=0).passed
    assert evaluate(exercise_id, right, seed=1).passed
    for wrong in wrongs:
        assert not evaluate(exercise_id, wrong, seed=0).passed
    assert not evaluate(exercise_id, ..., seed=0).passed


# ---------------------------------------------------------------- the image grid used by notebook 10


def test_image_grid_shows_one_panel_per_image_and_validates():
    import matplotlib.pyplot as plt

    from dimred_teach.plotting import image_grid

    images = np.arange(5 * 64, dtype=float).reshape(5, 64)
    fig = image_grid(images, (8, 8), titles=list("abcde"), ncols=3, limits=(0, 16))
    shown = [ax for ax in fig.axes if ax.images]
    assert len(fig.axes) == 6 and len(shown) == 5
    assert shown[0].images[0].get_clim() == (0, 16)
    assert shown[4].get_title() == "e"
    fig = image_grid(images - images.mean(), (8, 8), symmetric=True)
    low, high = fig.axes[0].images[0].get_clim()
    assert low == -high
    plt.close("all")
    with pytest.raises(ValueError, match="images must have 63 columns"):
        image_grid(images, (7, 9))
    with pytest.raises(ValueError, match="titles must have one entry per image"):
        image_grid(images, (8, 8), titles=["a"])


def test_tanh_parameter_shapes_are_checked_and_results_are_read_only():
    X = arc_data(n=20)
    shapes = {"W1": (2, 3), "b1": (3,), "W2": (3, 1), "b2": (1,), "W3": (1, 3), "b3": (3,), "W4": (3, 2), "b4": (2,)}
    params = {name: np.ones(shape) for name, shape in shapes.items()}
    with pytest.raises(ValueError, match=r"params\['W4'\] must have shape \(3, 2\)"):
        ae.tanh_ae_gradients(X, {**params, "W4": np.ones((2, 3))})
    model = ae.train_tanh_autoencoder(X, 1, hidden=3, epochs=3)
    with pytest.raises(TypeError):
        model.params["W1"] = np.zeros((2, 3))


def test_a_huge_learning_rate_is_reported_not_overflowed():
    with pytest.raises(ValueError, match="training diverged"):
        ae.train_linear_autoencoder(gaussian_data(1), 2, learning_rate=1e200, epochs=5)
