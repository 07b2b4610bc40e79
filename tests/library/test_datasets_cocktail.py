"""The cocktail-party signals of data/cocktail_party.csv: rebuilt here from the formulas that
data/README.md states, so the file's provenance is checked, and their properties that
notebook 13 relies on (three non-Gaussian, nearly uncorrelated sources)."""

import numpy as np
import pandas as pd

from dimred_teach.datasets import load_cocktail_party
from dimred_teach.ica import negentropy

RATE = 8000
N = 4000


def synthesise() -> pd.DataFrame:
    """The three waveforms of data/README.md (section cocktail_party.csv), rounded to 4 decimals."""
    t = np.arange(N) / RATE
    f0 = 140.0 * (1.0 + 0.03 * np.sin(2 * np.pi * 5.0 * t))  # pitch with a slow vibrato
    phase = 2 * np.pi * np.cumsum(f0) / RATE
    voice = np.zeros(N)
    for h in range(1, 13):  # harmonics shaped by two formants (near 700 and 1200 Hz)
        gain = np.exp(-(((h * 140.0) - 700.0) / 300.0) ** 2) + 0.6 * np.exp(-(((h * 140.0) - 1200.0) / 300.0) ** 2)
        voice += gain * np.sin(h * phase)
    voice *= np.sin(np.pi * 6.0 * t) ** 2  # three syllables in half a second
    notes = np.array([440.0, 494.0, 523.0, 587.0])[(t // 0.125).astype(int)]
    music = np.sin(2 * np.pi * np.cumsum(notes) / RATE) * np.exp(-6.0 * (t % 0.125))
    hum = 2.0 * ((50.0 * t) % 1.0) - 1.0  # a 50 Hz sawtooth
    return pd.DataFrame({"time": np.round(t, 6), "voice": np.round(voice, 4), "music": np.round(music, 4),
                         "hum": np.round(hum, 4)})


def test_the_shipped_file_is_what_the_formulas_give():
    shipped = load_cocktail_party()
    expected = synthesise()
    assert list(shipped.columns) == list(expected.columns)
    np.testing.assert_array_equal(shipped.to_numpy(), expected.to_numpy())


def test_the_sources_are_non_gaussian_and_nearly_uncorrelated():
    S = load_cocktail_party()[["voice", "music", "hum"]].to_numpy()
    Z = (S - S.mean(axis=0)) / S.std(axis=0, ddof=1)
    correlations = np.corrcoef(S, rowvar=False)
    assert np.abs(correlations - np.eye(3)).max() < 0.01  # data/README.md: below 0.01 in magnitude
    gaussian = np.random.default_rng(0).standard_normal((N, 3))
    assert negentropy(Z).min() > 5 * negentropy(gaussian).max()


if __name__ == "__main__":  # regenerate the shipped file: python -m tests.test_datasets_cocktail
    synthesise().to_csv("data/cocktail_party.csv", index=False)
