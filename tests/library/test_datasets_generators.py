"""The seeded 2-D generators of notebook 08: make_spiral and make_circles."""

import numpy as np
import pytest

from dimred_teach.datasets import make_circles, make_spiral


def test_spiral_is_reproducible_and_seeded():
    X, t = make_spiral(50, noise=0.05, seed=3)
    X_again, t_again = make_spiral(50, noise=0.05, seed=3)
    assert np.array_equal(X, X_again) and np.array_equal(t, t_again)
    assert not np.array_equal(X, make_spiral(50, noise=0.05, seed=4)[0])
    assert X.shape == (50, 2) and t.shape == (50,)
    assert np.all((t >= 0) & (t <= 1))


def test_spiral_without_noise_lies_on_the_curve():
    X, t = make_spiral(200, noise=0.0, seed=0, turns=2.0)
    assert np.allclose(np.linalg.norm(X, axis=1), 0.2 + t)
    angle = np.pi / 2 + 2 * np.pi * 2.0 * t
    assert np.allclose(X, np.column_stack([np.cos(angle), np.sin(angle)]) * (0.2 + t)[:, None])


def test_circles_are_reproducible_and_seeded():
    X, labels = make_circles(41, noise=0.1, factor=0.5, seed=1)
    X_again, labels_again = make_circles(41, noise=0.1, factor=0.5, seed=1)
    assert np.array_equal(X, X_again) and np.array_equal(labels, labels_again)
    assert not np.array_equal(X, make_circles(41, noise=0.1, factor=0.5, seed=2)[0])
    assert X.shape == (41, 2)
    assert np.bincount(labels).tolist() == [21, 20]


def test_circles_without_noise_have_the_two_radii():
    X, labels = make_circles(30, noise=0.0, factor=0.4, seed=0)
    radii = np.linalg.norm(X, axis=1)
    assert np.allclose(radii[labels == 0], 1.0)
    assert np.allclose(radii[labels == 1], 0.4)
    assert np.allclose(X.mean(axis=0), 0.0)  # evenly spaced angles


@pytest.mark.parametrize("make", [make_spiral, make_circles])
def test_generators_reject_bad_inputs(make):
    with pytest.raises(ValueError, match="n must be at least 2"):
        make(1, noise=0.1, seed=0)
    with pytest.raises(TypeError, match="n must be an integer"):
        make(10.0, noise=0.1, seed=0)
    with pytest.raises(ValueError, match="noise"):
        make(10, noise=-0.1, seed=0)
    with pytest.raises(TypeError, match="seed"):
        make(10, noise=0.1, seed=None)
    with pytest.raises(ValueError, match="seed"):
        make(10, noise=0.1, seed=-1)


def test_generator_specific_bad_inputs():
    with pytest.raises(ValueError, match="factor"):
        make_circles(10, noise=0.1, factor=1.0, seed=0)
    with pytest.raises(ValueError, match="factor"):
        make_circles(10, noise=0.1, factor=0.0, seed=0)
    with pytest.raises(ValueError, match="turns"):
        make_spiral(10, noise=0.1, seed=0, turns=0.0)
