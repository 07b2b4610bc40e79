"""The course's data sets: every loader reads a file shipped in ``data/`` (installed as
``dimred_teach.data``) or generates data from an explicit seed. Nothing is downloaded.

Provenance, licences and column meanings: ``data/README.md``.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

import numpy as np
import pandas as pd

from ._read_only import read_only
from ._validation import NONNEGATIVE, OPEN_UNIT, POSITIVE, check_int, check_real, check_seed, check_size

__all__ = ["data_path", "load_crabs", "load_eurodist", "load_digits", "CRABS_MEASUREMENTS", "make_crabs_like",
           "make_selection_demo", "make_spiral", "make_circles", "CORPUS_TOPICS", "load_corpus", "CORPUS_SPACE_FILE",
           "load_corpus_space", "load_stdlib_docstrings", "load_cocktail_party"]


def data_path(filename: str):
    """Path (a ``Traversable``) of a file shipped in the package's data directory.

    ``filename`` is a bare file name such as "crabs.csv": a path that leads elsewhere
    ("../x", "/etc/passwd", "sub/x") is refused.
    """
    if not isinstance(filename, str):
        raise TypeError(f"filename must be a string, got {type(filename).__name__} {filename!r}")
    if filename in ("", ".", "..") or "/" in filename or "\\" in filename or "\0" in filename:
        raise ValueError(f"filename must be the bare name of a file in the data folder (such as 'crabs.csv'), "
                         f"got {filename!r}")
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


def load_cocktail_party() -> pd.DataFrame:
    """Three synthesised "sound" sources for a cocktail-party unmixing, 4000 rows.

    Columns: ``time`` (seconds, 8000 samples per second, 0 to 0.5 s) and three waveforms
    made from stated formulas (data/README.md): ``voice`` (a vowel-like harmonic sound in
    three syllables), ``music`` (four decaying sine notes) and ``hum`` (a 50 Hz sawtooth).
    They are not recordings: each is deterministic and independent of the others in the
    sense ICA needs (different frequencies and envelopes, correlations below 0.01).
    """
    with data_path("cocktail_party.csv").open() as handle:
        return pd.read_csv(handle)

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


CRABS_MEASUREMENTS = ("FL", "RW", "CL", "CW", "BD")
"""The five measurement columns of the crabs (mm); select them with ``list(CRABS_MEASUREMENTS)``."""
_CRABS_GROUPS = [("B", "M"), ("B", "F"), ("O", "M"), ("O", "F")]  # the order of crabs.csv


@functools.lru_cache(maxsize=1)
def _crabs_log_model() -> tuple[np.ndarray, np.ndarray]:
    """Group means (4, 5) and the Cholesky factor (5, 5) of the pooled within-group
    covariance of the log measurements of the real crabs, groups in ``_CRABS_GROUPS`` order."""
    crabs = load_crabs()
    logs = np.log(crabs[list(CRABS_MEASUREMENTS)].to_numpy(dtype=float))
    means, residuals = [], []
    for species, sex in _CRABS_GROUPS:
        group = logs[((crabs["species"] == species) & (crabs["sex"] == sex)).to_numpy()]
        means.append(group.mean(axis=0))
        residuals.append(group - group.mean(axis=0))
    residuals = np.vstack(residuals)
    within = residuals.T @ residuals / (residuals.shape[0] - len(_CRABS_GROUPS))
    means, factor = np.array(means), np.linalg.cholesky(within)
    read_only(means, factor)
    return means, factor


def make_crabs_like(n: int, seed: int) -> pd.DataFrame:
    """Simulated crabs with the structure of :func:`load_crabs`, reproducible from ``seed``.

    Calibration: the log measurements of the real crabs are summarised by the mean of each
    of the four species-sex groups and by the pooled within-group covariance (divisor
    200 - 4). A simulated crab of a group gets log measurements drawn from the normal
    distribution with that group's mean and the pooled covariance, which are then
    exponentiated and rounded to 0.1 mm like the real calliper readings. So the data keep

    * a dominant size factor: the pooled covariance has one eigenvalue about 190 times the
      next, with all five loadings of the same sign (big crabs are big in every
      measurement), so PC1 of the raw data is a size axis with ~98% of the variance;
    * the species and sex contrasts in minor components: they live in the group means,
      after the size axis (on the standardised data, PC2 separates the sexes and PC3 the
      species, as in the real data);
    * positive values (a log-normal model).

    Parameters
    ----------
    n : int
        Number of crabs, at least 4. The four species-sex groups get n // 4 crabs each and
        the first n % 4 groups (in the order B-M, B-F, O-M, O-F of the real file) one more.
    seed : int
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    pandas.DataFrame, shape (n, 8)
        Columns ``species``, ``sex`` (categorical, as in :func:`load_crabs`), ``index``
        (1, 2, ... within each group) and ``FL``, ``RW``, ``CL``, ``CW``, ``BD`` in mm.
    """
    n = check_int(n, "n", minimum=4)
    check_size(8 * n, f"n = {n} crabs of 8 columns", "lower n")
    rng = np.random.default_rng(check_seed(seed))
    means, factor = _crabs_log_model()
    group = np.arange(n) % len(_CRABS_GROUPS)
    group.sort()
    logs = means[group] + rng.standard_normal((n, len(CRABS_MEASUREMENTS))) @ factor.T
    frame = pd.DataFrame({
        "species": pd.Categorical([_CRABS_GROUPS[g][0] for g in group], categories=["B", "O"]),
        "sex": pd.Categorical([_CRABS_GROUPS[g][1] for g in group], categories=["F", "M"]),
        "index": np.concatenate([np.arange(1, count + 1) for count in np.bincount(group)]),
    })
    measurements = pd.DataFrame(np.round(np.exp(logs), 1), columns=list(CRABS_MEASUREMENTS))
    return pd.concat([frame, measurements], axis=1)


def make_selection_demo(n: int = 400, seed: int = 0) -> pd.DataFrame:
    """Two-class data built to show the traps of ranking features one at a time.

    Columns (n rows, half of each class; ``label`` is 0 or 1, s = 2 label - 1 = -1 or +1):

    - ``strong``: 0.9 s + standard normal noise, the best single feature;
    - ``strong_copy``: ``strong`` + normal noise of standard deviation 0.05, a redundant copy;
    - ``pair_a`` = u + 0.2 s and ``pair_b`` = -u + 0.2 s with u uniform on [-1, 1]: each
      alone is weak, but pair_a + pair_b = 0.4 s separates the classes perfectly;
    - ``noise``: standard normal, unrelated to the label.
    """
    n = check_int(n, "n", minimum=4)
    check_size(6 * n, f"n = {n} rows of 6 columns", "lower n")
    if n % 2:
        raise ValueError(f"n must be even (half of the rows in each class), got {n}")
    rng = np.random.default_rng(check_seed(seed))
    label = np.repeat([0, 1], n // 2)
    s = 2.0 * label - 1.0
    strong = 0.9 * s + rng.standard_normal(n)
    copy = strong + 0.05 * rng.standard_normal(n)
    u = rng.uniform(-1.0, 1.0, n)
    return pd.DataFrame({
        "strong": strong,
        "strong_copy": copy,
        "pair_a": u + 0.2 * s,
        "pair_b": -u + 0.2 * s,
        "noise": rng.standard_normal(n),
        "label": label,
    })


def make_spiral(n: int = 300, noise: float = 0.02, seed: int = 0, turns: float = 1.5) -> tuple[np.ndarray, np.ndarray]:
    """Points along a planar spiral (the WashU notes' 2-D spiral, section 5).

    A position t ~ Uniform(0, 1) is drawn for each point; the point sits at radius 0.2 + t
    and angle pi/2 + 2 pi turns t, plus isotropic Gaussian noise. The data are
    one-dimensional (t) but curled up in the plane, so no straight line through them
    follows the curve: the course's example of data that linear PCA cannot unroll.

    Parameters
    ----------
    n : int
        Number of points, at least 2.
    noise : float
        Standard deviation of the Gaussian noise added to each coordinate, >= 0.
    seed : int
        Seed of ``numpy.random.default_rng``.
    turns : float
        Number of revolutions, > 0.

    Returns
    -------
    X : ndarray, shape (n, 2)
        The points.
    t : ndarray, shape (n,)
        Each point's position along the spiral, from 0 (inner end) to 1 (outer end).
    """
    n = check_int(n, "n", minimum=2)
    check_size(5 * n, f"n = {n} points", "lower n")
    noise = check_real(noise, "noise", NONNEGATIVE)
    turns = check_real(turns, "turns", POSITIVE)
    rng = np.random.default_rng(check_seed(seed))
    t = rng.uniform(0.0, 1.0, n)
    angle = np.pi / 2 + 2 * np.pi * turns * t
    radius = 0.2 + t
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    return X + noise * rng.standard_normal((n, 2)), t


def make_circles(n: int = 300, noise: float = 0.05, factor: float = 0.3,
                 seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two concentric circles in the plane: a class no straight line separates.

    The outer circle (radius 1, label 0) gets n - n // 2 points and the inner circle
    (radius ``factor``, label 1) n // 2, at evenly spaced angles, plus isotropic Gaussian noise.

    Parameters
    ----------
    n : int
        Number of points, at least 2.
    noise : float
        Standard deviation of the Gaussian noise added to each coordinate, >= 0.
    factor : float
        Radius of the inner circle relative to the outer one, strictly between 0 and 1.
    seed : int
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    X : ndarray, shape (n, 2)
        The points, outer circle first.
    labels : ndarray of int, shape (n,)
        0 for the outer circle, 1 for the inner one.
    """
    n = check_int(n, "n", minimum=2)
    check_size(5 * n, f"n = {n} points", "lower n")
    noise = check_real(noise, "noise", NONNEGATIVE)
    factor = check_real(factor, "factor", OPEN_UNIT)
    rng = np.random.default_rng(check_seed(seed))
    n_inner = n // 2
    n_outer = n - n_inner
    angles = np.concatenate([np.linspace(0.0, 2 * np.pi, n_outer, endpoint=False),
                             np.linspace(0.0, 2 * np.pi, n_inner, endpoint=False)])
    radius = np.concatenate([np.ones(n_outer), np.full(n_inner, factor)])
    X = np.column_stack([radius * np.cos(angles), radius * np.sin(angles)])
    labels = np.concatenate([np.zeros(n_outer, dtype=int), np.ones(n_inner, dtype=int)])
    return X + noise * rng.standard_normal((n, 2)), labels


CORPUS_TOPICS = ("music", "art", "cooking", "sport", "music+art", "cooking+music", "sport+art", "cooking+sport")
"""The values of ``load_corpus()["topic"]``: four topics, then the documents that mix two."""


def load_corpus() -> pd.DataFrame:
    """The course's corpus of 174 short news-style texts written for notebook 05.

    Returns
    -------
    pandas.DataFrame, 174 rows
        ``id`` (0-173, the row number), ``topic`` (categorical, :data:`CORPUS_TOPICS`: 40
        documents each on music, visual art, cooking and sport, and 14 that mix two of
        them, e.g. "music+art"), ``title`` and ``text`` (60-150 words). Several word pairs
        are used as synonyms across documents (singer / vocalist, song / tune, concert /
        gig, painting / picture, exhibition / show, painter / artist, chef / cook, flavour
        / taste, meal / dinner, match / game, coach / manager, pitch / field): each document
        uses one word of a pair.
    """
    with data_path("corpus.csv").open() as handle:
        frame = pd.read_csv(handle)
    frame["topic"] = pd.Categorical(frame["topic"], categories=list(CORPUS_TOPICS))
    return frame


CORPUS_SPACE_FILE = "corpus_lsi.json"
"""The shipped LSI space of the course corpus (written by ``dimred-teach build``, see data/README.md)."""


def load_corpus_space():
    """The LSI space of the course corpus, as ``dimred-teach build`` computed it.

    It is ``lsi.lsi(load_corpus()["text"], k=10, stop_words="english")`` (uncentred, 10
    components), stored in ``data/corpus_lsi.json``: exercise set 05 loads it instead of
    computing it, because its tf-idf weighting is one of the set's exercises. ``build --check``
    computes it again and fails when a number differs by more than 1e-9.

    Returns
    -------
    dimred_teach.lsi.LSIResult
        ``document_coordinates`` shape (174, 10), ``term_coordinates`` (947, 10),
        ``singular_values`` (10,), ``vocabulary`` (947 words, alphabetical), ``idf`` (947,),
        ``matrix`` (the tf-idf matrix, sparse, 174 x 947), ``mean`` None, ``stop_words``
        (the English stop words) and ``total_sum_of_squares``.
    """
    import scipy.sparse

    from .lsi import LSIResult  # here: a notebook that only loads other data need not import LSI

    with data_path(CORPUS_SPACE_FILE).open() as handle:
        stored = json.load(handle)
    columns = [np.asarray(row[0], dtype=np.int64) for row in stored["matrix"]]
    matrix = scipy.sparse.csr_array(
        (np.concatenate([row[1] for row in stored["matrix"]]), np.concatenate(columns),
         np.concatenate(([0], np.cumsum([len(c) for c in columns])))),
        shape=(len(stored["matrix"]), len(stored["vocabulary"])))
    arrays = {name: np.array(stored[name], dtype=float)
              for name in ("document_coordinates", "term_coordinates", "singular_values", "idf")}
    read_only(*arrays.values())
    return LSIResult(**arrays, vocabulary=tuple(stored["vocabulary"]), matrix=matrix, mean=None,
                     stop_words=frozenset(stored["stop_words"]),
                     total_sum_of_squares=float(stored["total_sum_of_squares"]))


_SKIPPED_DIRECTORIES = frozenset({"site-packages", "dist-packages", "test", "tests", "idle_test", "__pycache__",
                                  "encodings", "pydoc_data"})  # the last two hold machine-generated text


@functools.lru_cache(maxsize=1)
def _stdlib_docstrings() -> tuple[tuple[str, str, str, int], ...]:
    """(module, qualified name, docstring, number of words) of every docstring, in file order."""
    import ast
    import os
    import sysconfig
    from pathlib import Path

    root = Path(sysconfig.get_paths()["stdlib"])
    rows = []
    for folder, directories, files in os.walk(root):
        directories[:] = sorted(d for d in directories if d not in _SKIPPED_DIRECTORIES)
        for filename in sorted(f for f in files if f.endswith(".py")):
            path = Path(folder, filename)
            try:
                tree = ast.parse(path.read_bytes())
            except (SyntaxError, ValueError, OSError, RecursionError):
                continue  # files the running parser cannot read (e.g. deliberately broken examples)
            module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
            for node, name in _documented(tree):
                text = ast.get_docstring(node, clean=True)
                if text:
                    rows.append((module, name, text, len(text.split())))
    return tuple(rows)


def _documented(tree):
    """(node, qualified name) of a module and of its classes, functions and methods."""
    import ast

    stack = [(tree, "")]
    while stack:
        node, name = stack.pop()
        yield node, name
        children = [child for child in node.body
                    if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
        stack.extend((child, f"{name}.{child.name}" if name else child.name) for child in reversed(children))


def load_stdlib_docstrings(min_words: int = 10) -> pd.DataFrame:
    """A large real corpus with no download: the docstrings of the Python standard library.

    The source files of the running Python's standard library are parsed (never imported,
    so nothing runs) and the docstrings of every module, class, function and method with
    at least ``min_words`` words are collected. Test packages, site-packages and the
    machine-generated ``encodings`` and ``pydoc_data`` packages are skipped.
    For a given Python version the rows and their order are always the same; another
    version gives a somewhat different corpus (Python 3.11: about 5,500 documents). The
    first call takes a few seconds; later calls are cached.

    Returns
    -------
    pandas.DataFrame
        ``module`` (dotted module name), ``name`` (qualified name of the class, function
        or method; "" for the module docstring) and ``text`` (the cleaned docstring), in
        file order.
    """
    min_words = check_int(min_words, "min_words", minimum=1)
    rows = [row[:3] for row in _stdlib_docstrings() if row[3] >= min_words]
    return pd.DataFrame(rows, columns=["module", "name", "text"])


def make_swiss_roll(n: int = 800, noise: float = 0.0, seed: int = 0, turns: float = 1.5,
                    height: float = 20.0) -> tuple[np.ndarray, np.ndarray]:
    """Points on a Swiss roll: a flat rectangle rolled up in R^3 (the WashU notes' 3-D spiral,
    section 5, Figure 4).

    The rectangle has coordinates (s, h): s is the arc length along an Archimedean spiral
    r = angle, angle from 3 pi / 2 through ``turns`` revolutions, and h in [0, height] runs
    along the axis. Points are drawn uniformly on the rectangle (uniform in arc length, so
    the density on the roll is even) and placed at (angle cos angle, h, angle sin angle),
    plus isotropic Gaussian noise. Consecutive layers of the roll are 2 pi apart.

    Parameters
    ----------
    n : int
        Number of points, at least 2.
    noise : float
        Standard deviation of the Gaussian noise added to each coordinate, >= 0.
    seed : int
        Seed of ``numpy.random.default_rng``.
    turns : float
        Number of revolutions, > 0.
    height : float
        Width of the rectangle along the roll's axis, > 0.

    Returns
    -------
    X : ndarray, shape (n, 3)
        The points on the roll.
    sheet : ndarray, shape (n, 2)
        Each point's coordinates (s, h) on the unrolled rectangle; geodesic distances on the
        noise-free roll are the Euclidean distances between these rows.
    """
    n = check_int(n, "n", minimum=2)
    check_size(5 * n, f"n = {n} points", "lower n")
    noise = check_real(noise, "noise", NONNEGATIVE)
    turns = check_real(turns, "turns", POSITIVE)
    height = check_real(height, "height", POSITIVE)
    rng = np.random.default_rng(check_seed(seed))
    start = 1.5 * np.pi
    grid = np.linspace(start, start + 2 * np.pi * turns, 20001)
    # arc length of r = angle: integral of sqrt(1 + angle^2), in closed form
    arc = 0.5 * (grid * np.sqrt(1 + grid**2) + np.arcsinh(grid))
    arc -= arc[0]
    s = rng.uniform(0.0, arc[-1], n)
    h = rng.uniform(0.0, height, n)
    angle = np.interp(s, arc, grid)
    X = np.column_stack([angle * np.cos(angle), h, angle * np.sin(angle)])
    return X + noise * rng.standard_normal((n, 3)), np.column_stack([s, h])


def make_ratings(n_users: int = 300, n_items: int = 120, rank: int = 3, observed: float = 0.2,
                 noise: float = 0.5, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A users x items ratings matrix from a known low-rank model, most entries missing.

    Each user i has tastes u_i ~ N(0, I_rank) and each item j has features v_j ~ N(0, I_rank)
    and a mean m_j ~ N(3, 0.5^2); the true rating is m_j + u_i' v_j / sqrt(rank) (the
    interaction has variance 1 whatever the rank), the observed one adds N(0, noise^2).
    Ratings are not rounded or clipped to a 1-5 scale, so the model is exactly low rank plus
    noise. Each entry is observed independently with probability ``observed``, and every
    user and every item keeps at least one rating.

    Parameters
    ----------
    n_users, n_items : int
        Matrix shape, each at least 2.
    rank : int
        Number of latent factors, 1 <= rank <= min(n_users, n_items).
    observed : float
        Probability that an entry is observed, strictly between 0 and 1.
    noise : float
        Standard deviation of the rating noise, >= 0.
    seed : int
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    ratings : ndarray, shape (n_users, n_items)
        Observed ratings (true + noise), NaN where missing.
    truth : ndarray, shape (n_users, n_items)
        The noise-free ratings m_j + u_i' v_j / sqrt(rank) for every entry.
    """
    n_users = check_int(n_users, "n_users", minimum=2)
    n_items = check_int(n_items, "n_items", minimum=2)
    check_size(n_users * n_items, f"n_users = {n_users} times n_items = {n_items} ratings",
               "lower n_users or n_items")
    rank = check_int(rank, "rank", minimum=1, maximum=min(n_users, n_items))
    observed = check_real(observed, "observed", OPEN_UNIT)
    noise = check_real(noise, "noise", NONNEGATIVE)
    rng = np.random.default_rng(check_seed(seed))
    tastes = rng.standard_normal((n_users, rank))
    features = rng.standard_normal((n_items, rank))
    item_means = 3.0 + 0.5 * rng.standard_normal(n_items)
    truth = item_means + tastes @ features.T / np.sqrt(rank)
    seen = rng.uniform(size=(n_users, n_items)) < observed
    seen[np.arange(n_users), rng.integers(0, n_items, n_users)] = True
    seen[rng.integers(0, n_users, n_items), np.arange(n_items)] = True
    ratings = np.where(seen, truth + noise * rng.standard_normal((n_users, n_items)), np.nan)
    return ratings, truth


__all__ += ["make_swiss_roll", "make_ratings"]
