"""The crabs data and its simulated look-alike ``make_crabs_like``: same columns, same
structure (a size axis first, sex and species on later components), positive values,
reproducible from the seed."""

import numpy as np
import pandas as pd
import pytest

from dimred_teach.datasets import CRABS_MEASUREMENTS, load_crabs, make_crabs_like
from dimred_teach.pca import pca

MEASUREMENTS = list(CRABS_MEASUREMENTS)


def separation(scores, labels):
    """|difference of the two groups' means| / pooled within-group sd, per column."""
    first = labels == labels[0]
    a, b = scores[first], scores[~first]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(scores) - 2)
    return np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled)


def test_load_crabs_has_the_documented_columns():
    crabs = load_crabs()
    assert list(crabs.columns) == ["species", "sex", "index", *MEASUREMENTS]
    assert crabs.shape == (200, 8)
    assert crabs.groupby(["species", "sex"], observed=True).size().tolist() == [50, 50, 50, 50]


def test_same_columns_and_types_as_the_real_data():
    real, fake = load_crabs(), make_crabs_like(37, seed=1)
    assert list(fake.columns) == list(real.columns)
    assert fake.shape == (37, 8)
    for column in ("species", "sex"):
        assert isinstance(fake[column].dtype, pd.CategoricalDtype)
        assert list(fake[column].cat.categories) == list(real[column].cat.categories)
    assert all(fake[m].dtype == np.float64 for m in MEASUREMENTS)


def test_groups_are_balanced_and_indexed_within_group():
    fake = make_crabs_like(10, seed=0)  # 10 = 4 * 2 + 2: the first two groups get 3
    pairs = list(zip(fake["species"].astype(str), fake["sex"].astype(str)))
    assert pairs == [("B", "M")] * 3 + [("B", "F")] * 3 + [("O", "M")] * 2 + [("O", "F")] * 2
    assert fake["index"].tolist() == [1, 2, 3, 1, 2, 3, 1, 2, 1, 2]


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_values_are_positive_and_on_the_real_scale(seed):
    fake, real = make_crabs_like(400, seed=seed), load_crabs()
    values = fake[MEASUREMENTS].to_numpy()
    assert (values > 0).all()
    ratio = fake[MEASUREMENTS].mean() / real[MEASUREMENTS].mean()
    assert ratio.between(0.9, 1.1).all()


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_pc1_is_a_dominant_size_axis(seed):
    fit = pca(make_crabs_like(200, seed=seed)[MEASUREMENTS])
    pc1 = fit.components[:, 0]
    assert (pc1 > 0).all()  # every measurement grows with size
    assert fit.explained_variance_ratio[0] > 0.95
    assert fit.eigenvalues[0] > 50 * fit.eigenvalues[1]


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_sex_and_species_separate_on_later_components(seed):
    fake = make_crabs_like(200, seed=seed)
    scores = pca(fake[MEASUREMENTS], scale=True).scores
    species = separation(scores, fake["species"].to_numpy())
    sex = separation(scores, fake["sex"].to_numpy())
    # as in the real data: PC2 separates the sexes and PC3 the species, PC1 neither well
    assert np.argmax(sex) == 1 and sex[1] > 2.5
    assert np.argmax(species) == 2 and species[2] > 2.5
    assert species[0] < 1.5 and sex[0] < 1.5


def test_real_data_has_the_structure_the_generator_copies():
    real = load_crabs()
    scores = pca(real[MEASUREMENTS], scale=True).scores
    assert np.argmax(separation(scores, real["sex"].to_numpy())) == 1
    assert np.argmax(separation(scores, real["species"].to_numpy())) == 2


def test_same_seed_same_data_different_seed_different_data():
    pd.testing.assert_frame_equal(make_crabs_like(50, seed=7), make_crabs_like(50, seed=7))
    assert not make_crabs_like(50, seed=7).equals(make_crabs_like(50, seed=8))


@pytest.mark.parametrize("n, error, match", [
    (3, ValueError, "n must be at least 4"),
    (-1, ValueError, "n must be at least 4"),
    (10.0, TypeError, "n must be an integer"),
    ("10", TypeError, "n must be an integer"),
])
def test_bad_n(n, error, match):
    with pytest.raises(error, match=match):
        make_crabs_like(n, seed=0)


@pytest.mark.parametrize("seed, error, match", [
    (None, TypeError, "seed must be an integer"),
    (1.5, TypeError, "seed must be an integer"),
    (-2, ValueError, "seed must be non-negative"),
])
def test_bad_seed(seed, error, match):
    with pytest.raises(error, match=match):
        make_crabs_like(20, seed=seed)
