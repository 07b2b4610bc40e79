"""The course's data sets: every loader reads a file shipped in ``data/`` (installed as
``dimred_teach.data``) or generates data from an explicit seed. Nothing is downloaded.

Provenance, licences and column meanings: ``data/README.md``.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd

__all__ = ["data_path", "load_crabs", "load_eurodist", "load_digits"]


def data_path(filename: str):
    """Path (a ``Traversable``) of a file shipped in the package's data directory."""
    path = resources.files("dimred_teach.data").joinpath(filename)
    if not path.is_file():
        raise FileNotFoundError(f"no shipped data file named {filename!r} in dimred_teach.data")
    return path


def load_crabs() -> pd.DataFrame:
    """The Leptograpsus crabs of Campbell and Mahon (1974), 200 rows.

    Columns: ``species`` (categorical, "B" blue / "O" orange), ``sex`` (categorical,
    "F"/"M"), ``index`` (1-50 within each species-sex group) and five measurements in mm:
    ``FL`` frontal lobe, ``RW`` rear width, ``CL`` carapace length, ``CW`` carapace width,
    ``BD`` body depth.
    """
    with data_path("crabs.csv").open() as handle:
        frame = pd.read_csv(handle)
    frame["species"] = pd.Categorical(frame["species"], categories=["B", "O"])
    frame["sex"] = pd.Categorical(frame["sex"], categories=["F", "M"])
    return frame


def load_eurodist() -> pd.DataFrame:
    """Road distances in km between 21 European cities (R's ``eurodist``).

    Returns a symmetric 21 x 21 DataFrame with the city names as index and columns and a
    zero diagonal. The distances are not Euclidean (roads bend, the Earth is round).
    """
    with data_path("eurodist.csv").open() as handle:
        frame = pd.read_csv(handle, index_col="city")
    return frame.astype(float)


def load_digits() -> tuple[np.ndarray, np.ndarray]:
    """The 1797 8x8 handwritten digits of the UCI optical recognition data set.

    Returns
    -------
    images : ndarray, shape (1797, 64)
        Grey levels 0-16, one flattened 8x8 image per row (row-major).
    labels : ndarray, shape (1797,)
        The digit 0-9 each image shows.
    """
    with data_path("digits.csv").open() as handle:
        frame = pd.read_csv(handle)
    return frame.drop(columns="label").to_numpy(dtype=float), frame["label"].to_numpy()
