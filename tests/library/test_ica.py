"""FastICA: the cocktail-party sources recovered up to sign, scale and order, agreement with
scikit-learn's FastICA, the conventions (unit variance, order by negentropy, signs), and
why PCA alone cannot unmix."""

import numpy as np
import pytest
from sklearn.decomposition import FastICA

from dimred_teach.datasets import load_cocktail_party
from dimred_teach.ica import fastica, negentropy
from dimred_teach.kernel import whiten

MIXING = np.array([[1.0, 0.6, 0.4], [0.5, 1.0, 0.7], [0.3, 0.8, 1.0]])


def sources_and_mixtures():
    S = load_cocktail_party()[["voice", "music", "hum"]].to_numpy()
    return S, S @ MIXING.T


def match(estimated, reference):
    """|correlation| between each estimated column and each reference column, shape (k, k)."""
    k = estimated.shape[1]
    return np.abs(np.corrcoef(estimated.T, reference.T)[:k, k:])


@pytest.mark.parametrize("fun", ["logcosh", "cube"])
def test_the_sources_are_recovered_up_to_sign_scale_and_order(fun):
    S, X = sources_and_mixtures()
    fit = fastica(X, fun=fun)
    C = match(fit.sources, S)
    assert fit.converged
    # each estimate matches exactly one source (measured: 0.9998 or more, the rest below 0.02)
    assert np.all(np.sort(C, axis=1)[:, -1] > 0.999) and np.all(np.sort(C, axis=1)[:, :-1] < 0.03)
    assert sorted(np.argmax(C, axis=1)) == [0, 1, 2]


@pytest.mark.parametrize("fun", ["logcosh", "cube"])
def test_agrees_with_scikit_learn_up_to_sign_and_order(fun):
    _, X = sources_and_mixtures()
    ours = fastica(X, fun=fun).sources
    theirs = FastICA(3, fun=fun, whiten="unit-variance", random_state=0, tol=1e-10, max_iter=1000).fit_transform(X)
    C = match(ours, theirs)
    assert np.all(np.sort(C, axis=1)[:, -1] > 1 - 1e-6)


def test_conventions_unit_variance_order_signs_and_reconstruction():
    _, X = sources_and_mixtures()
    fit = fastica(X)
    assert np.allclose(np.cov(fit.sources, rowvar=False), np.eye(3), atol=1e-10)
    J = negentropy(fit.sources)
    assert np.all(np.diff(J) < 0)
    assert np.all(fit.mixing[np.argmax(np.abs(fit.mixing), axis=0), range(3)] > 0)
    assert np.allclose(fit.sources @ fit.mixing.T, X - X.mean(axis=0), atol=1e-10)
    assert np.allclose(fit.transform(X), fit.sources, atol=1e-12)


def test_seeds_give_the_same_sources():
    _, X = sources_and_mixtures()
    reference = fastica(X, seed=0).sources
    for seed in (1, 2, 3):
        assert np.abs(fastica(X, seed=seed).sources - reference).max() < 1e-5


def test_fewer_sources_than_mixtures():
    S, X = sources_and_mixtures()
    noisy = np.column_stack([X, X @ [0.2, -0.4, 0.9] + 0.01 * np.random.default_rng(0).standard_normal(len(X))])
    fit = fastica(noisy, k=3)
    assert fit.sources.shape == (len(X), 3) and fit.unmixing.shape == (3, 4)
    assert np.all(np.sort(match(fit.sources, S), axis=1)[:, -1] > 0.99)


def test_whitening_alone_does_not_unmix():
    """PCA whitening decorrelates the mixtures but any rotation of it does too: its
    components are still mixtures (the best match to a source stays far from 1)."""
    S, X = sources_and_mixtures()
    Z = whiten(X).whitened
    assert np.allclose(np.cov(Z, rowvar=False), np.eye(3), atol=1e-10)
    assert np.sort(match(Z, S), axis=1)[:, -1].min() < 0.9


def test_negentropy_is_near_zero_for_gaussian_columns():
    gaussian = np.random.default_rng(0).standard_normal((100000, 2))
    assert negentropy(gaussian).max() < 1e-5
    uniform = np.random.default_rng(0).uniform(-np.sqrt(3), np.sqrt(3), (100000, 1))
    assert negentropy(uniform)[0] > 1e-4
