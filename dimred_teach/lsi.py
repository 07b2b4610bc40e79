"""Latent semantic indexing: bag of words, tf-idf weighting, a truncated SVD of the
document matrix, the words that define a component, and search in the latent space.

Conventions: rows are documents (points) and columns are words, so the "term-document
matrix" of this module has shape (n_documents, n_terms). The weight of word j in document
i is its count times idf_j = log(n / df_j), where df_j is the number of documents that
contain it (a word in every document gets weight 0); then every document is scaled to
unit length, as in the CMU notes (LSI section). Every component has its
largest-magnitude word weight positive (:func:`dimred_teach.linalg.fix_signs`).

Centring. The CMU notes run PCA (centred) on the tf-idf matrix. Classic LSI (Deerwester
et al. 1990) takes the SVD of the uncentred matrix, and that is the default here:
centring a sparse matrix makes it dense (every zero becomes minus a column mean), and
documents are compared by cosine, which needs no centring. The price is that the first
component of the uncentred SVD points along the average document (all its weights have
one sign) rather than along the largest contrast. ``lsi(..., center=True)`` reproduces the
notes' PCA without ever forming the dense matrix: the centred matrix is only applied to
vectors, through a ``scipy.sparse.linalg.LinearOperator``.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd
import scipy.sparse
import scipy.sparse.linalg

from ._read_only import read_only
from ._validation import as_data_matrix_or_sparse, as_vector, check_bool, check_choice, check_int, check_k, check_seed
from .linalg import fix_signs, order_with_ties

__all__ = [
    "STOP_WORDS",
    "tokenize",
    "TermDocument",
    "term_document_matrix",
    "TfIdf",
    "tfidf",
    "LSIResult",
    "lsi",
    "top_terms",
    "query_counts",
    "rank_by_cosine",
    "search",
]

STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each few for from
further had has have having he her here hers herself him himself his how i if in into is it
its itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were
what when where which while who whom why will with would you your yours yourself yourselves
""".split())
"""A short list of common English function words, removed with ``stop_words="english"``."""

_WORD = re.compile(r"[^\W\d_]+")  # runs of letters (any alphabet); digits and "_" split words
_ASCII_WORD = re.compile(r"[a-z]+")  # the same runs in lowercase ASCII text, found in half the time


def _stop_set(stop_words) -> frozenset[str]:
    if stop_words is None:
        return frozenset()
    if isinstance(stop_words, str):
        check_choice(stop_words, ("english",), "stop_words")
        return STOP_WORDS
    if not isinstance(stop_words, Iterable):
        raise TypeError(f"stop_words must be None, 'english' or a collection of words, got {type(stop_words).__name__}")
    words = list(stop_words)
    if not all(isinstance(word, str) for word in words):
        raise TypeError("stop_words must contain only strings")
    return frozenset(word.lower() for word in words)


def tokenize(text: str, stop_words=None) -> list[str]:
    """Split a text into lowercase words made of letters.

    Parameters
    ----------
    text : str
    stop_words : None, "english" or collection of str
        Words to drop: none (default), the module's :data:`STOP_WORDS`, or your own list.

    Returns
    -------
    list of str
        The words in order of appearance, repeats kept. Digits, punctuation and "_"
        separate words, so "don't" gives "don" and "t".
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    return _words(text, _stop_set(stop_words))


def _words(text: str, stop: frozenset) -> list[str]:
    """The tokens of :func:`tokenize` with the stop words already resolved."""
    return [word for word in _all_words(text) if word not in stop]


def _all_words(text: str) -> list[str]:
    """The tokens of :func:`tokenize`, stop words included."""
    text = text.lower()
    return (_ASCII_WORD if text.isascii() else _WORD).findall(text)


def _as_documents(docs, name: str = "docs") -> list[str]:
    if isinstance(docs, str):
        raise TypeError(f"{name} must be a sequence of strings (one per document), not a single string")
    if isinstance(docs, pd.Series):
        docs = docs.tolist()
    if not isinstance(docs, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a sequence of strings (one per document), got {type(docs).__name__}")
    docs = list(docs)
    if not docs:
        item = "document" if name == "docs" else "word"
        raise ValueError(f"{name} is empty: it needs at least one {item}")
    for i, doc in enumerate(docs):
        if not isinstance(doc, str):
            raise TypeError(f"{name}[{i}] must be a string, got {type(doc).__name__}")
    return docs


class TermDocument(NamedTuple):
    """The bag-of-words representation of a corpus.

    Attributes
    ----------
    counts : scipy.sparse.csr_array of int64, shape (n_documents, n_terms)
        counts[i, j] is how often word j occurs in document i. Rows are documents.
    vocabulary : tuple of str, length n_terms
        The word of each column.
    """

    counts: scipy.sparse.csr_array
    vocabulary: tuple[str, ...]


def term_document_matrix(docs, stop_words=None, min_df: int = 1, vocabulary=None) -> TermDocument:
    """Count the words of each document.

    Parameters
    ----------
    docs : sequence of str, length n
        The documents (a list or a pandas Series of texts).
    stop_words : None, "english" or collection of str
        Passed to :func:`tokenize`.
    min_df : int
        Keep only words that occur in at least this many documents (ignored when a
        vocabulary is given).
    vocabulary : sequence of str, optional
        Use these words as the columns, in this order; other words are not counted. By
        default the vocabulary is every word of the corpus, sorted alphabetically.

    Returns
    -------
    TermDocument
        ``counts`` (sparse, shape (n, n_terms)) and ``vocabulary``. An empty document
        (no words left after tokenising) is a row of zeros.
    """
    docs = _as_documents(docs)
    min_df = check_int(min_df, "min_df", minimum=1)
    stop = _stop_set(stop_words)
    if vocabulary is not None:
        vocabulary = _as_documents(vocabulary, name="vocabulary")
        if len(set(vocabulary)) != len(vocabulary):
            raise ValueError("vocabulary must not contain a word twice")
    # every distinct word gets a number as it first appears; the stop words take the first
    # numbers, so they are dropped by number
    number_of = defaultdict(itertools.count().__next__)
    for word in stop:
        number_of[word]
    words = [_all_words(doc) for doc in docs]
    lengths = np.fromiter(map(len, words), dtype=np.intp, count=len(docs))
    numbers = np.fromiter(map(number_of.__getitem__, itertools.chain.from_iterable(words)), dtype=np.intp,
                          count=int(lengths.sum()))
    seen = list(number_of)
    every = _counts(lengths, numbers, np.ones(numbers.size, dtype=np.int64), (len(docs), len(seen)))
    column = np.full(len(seen), -1)  # the column of each numbered word, -1 for a word not counted
    if vocabulary is None:
        document_frequency = np.bincount(every.indices, minlength=len(seen))
        document_frequency[:len(stop)] = 0
        kept = sorted(np.flatnonzero(document_frequency >= min_df).tolist(), key=seen.__getitem__)
        if not kept:
            raise ValueError(
                "docs contain no words" + (f" that occur in at least min_df={min_df} documents" if min_df > 1 else "")
                + " (are all documents empty or made only of stop words?)"
            )
        vocabulary = [seen[number] for number in kept]
        column[kept] = np.arange(len(kept))
    else:
        for j, word in enumerate(vocabulary):
            number = number_of.get(word, -1)  # -1: not in the corpus; below len(stop): a stop word
            if number >= len(stop):
                column[number] = j
    columns = column[every.indices]
    counted = columns >= 0
    rows = np.repeat(np.arange(len(docs)), np.diff(every.indptr))[counted]
    counts = _counts(np.bincount(rows, minlength=len(docs)), columns[counted], every.data[counted],
                     (len(docs), len(vocabulary)))
    return TermDocument(counts, tuple(vocabulary))


def _counts(row_lengths: np.ndarray, columns: np.ndarray, values: np.ndarray, shape: tuple[int, int]):
    """The sparse matrix, shape ``shape``, whose row i holds ``values`` at ``columns`` (the next
    ``row_lengths[i]`` of each), repeated columns summed and sorted."""
    indptr = np.concatenate(([0], np.cumsum(row_lengths)))
    matrix = scipy.sparse.csr_array((values, columns, indptr), shape=shape)
    matrix.sum_duplicates()
    return matrix


class TfIdf(NamedTuple):
    """A tf-idf weighted document matrix.

    Attributes
    ----------
    matrix : scipy.sparse.csr_array of float64, shape (n_documents, n_terms)
        count * idf, each row scaled to unit Euclidean length (a row of zeros stays zero).
    idf : ndarray, shape (n_terms,)
        The inverse document frequencies log(n / df) that were used.
    """

    matrix: scipy.sparse.csr_array
    idf: np.ndarray


def _unit_rows(matrix: scipy.sparse.csr_array) -> scipy.sparse.csr_array:
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    return scipy.sparse.csr_array(scipy.sparse.diags_array(scale) @ matrix)


def tfidf(counts, idf=None) -> TfIdf:
    """Weight word counts by inverse document frequency and scale documents to unit length.

    Parameters
    ----------
    counts : array_like or scipy.sparse matrix, shape (n, p)
        Non-negative word counts, rows are documents.
    idf : array_like, shape (p,), optional
        Weights to use instead of computing them from ``counts`` (for example the
        corpus's weights when weighting a query).

    Returns
    -------
    TfIdf
        ``matrix`` with entries c_ij idf_j / ||c_i * idf||, and ``idf``.

    Notes
    -----
    idf_j = log(n / df_j), df_j = number of documents containing word j. Rare words are
    up-weighted; a word in every document gets idf 0, so its column is zero. A word in
    no document (possible with a fixed vocabulary) also gets 0. Scaling every document to
    length 1 stops long documents from dominating: after it, the dot product of two
    documents is the cosine of the angle between them. scikit-learn's
    ``TfidfVectorizer(smooth_idf=False)`` uses log(n / df) + 1 instead, so it never gives a
    word weight 0.
    """
    counts = scipy.sparse.csr_array(as_data_matrix_or_sparse(counts, name="counts", min_rows=1))
    if counts.data.size and counts.data.min() < 0:
        raise ValueError("counts must be non-negative (they count words)")
    n, p = counts.shape
    if idf is None:
        df = np.bincount(counts.indices[counts.data > 0], minlength=p)
        idf = np.log(n / np.maximum(df, 1)) * (df > 0)
    else:
        idf = as_vector(idf, name="idf", length=p)
        if (idf < 0).any():
            raise ValueError("idf must be non-negative")
    weighted = _unit_rows(scipy.sparse.csr_array(counts @ scipy.sparse.diags_array(idf)))
    weighted.eliminate_zeros()
    idf = idf + 0.0  # a fresh array, never a view of the caller's
    read_only(idf)
    return TfIdf(weighted, idf)


@dataclass(frozen=True)
class LSIResult:
    """A fitted latent semantic space.

    Attributes
    ----------
    document_coordinates : ndarray, shape (n, k)
        Each document's coordinates on the k components: the left singular vectors times
        the singular values, U S, equal to (X - mean) @ term_coordinates.
    term_coordinates : ndarray, shape (p, k)
        Orthonormal columns, one per component: the weight of every word (the right
        singular vectors V, the "loadings"). Largest-magnitude weight positive.
    singular_values : ndarray, shape (k,)
        Descending. ``(X - mean) ~= document_coordinates @ term_coordinates.T``.
    vocabulary : tuple of str, length p
        The word of each row of ``term_coordinates``.
    idf : ndarray, shape (p,), or None
        The idf weights (None when ``lsi`` was given a matrix instead of texts).
    matrix : scipy.sparse.csr_array, shape (n, p)
        The weighted document matrix X that was decomposed (before any centring).
    mean : ndarray, shape (p,), or None
        The column means subtracted when ``center=True``, else None.
    stop_words : frozenset of str
        The stop words used to tokenise the corpus (queries are tokenised the same way).
    total_sum_of_squares : float
        ||X - mean||_F^2, the sum of all squared singular values.
    """

    document_coordinates: np.ndarray
    term_coordinates: np.ndarray
    singular_values: np.ndarray
    vocabulary: tuple[str, ...]
    idf: np.ndarray | None
    matrix: scipy.sparse.csr_array
    mean: np.ndarray | None
    stop_words: frozenset
    total_sum_of_squares: float

    @property
    def k(self) -> int:
        """Number of components kept."""
        return self.singular_values.shape[0]

    @property
    def explained_ratio(self) -> np.ndarray:
        """Share of ||X - mean||_F^2 carried by each component, s_j^2 / total, shape (k,)."""
        return self.singular_values**2 / self.total_sum_of_squares

    def weigh(self, docs) -> scipy.sparse.csr_array:
        """Texts (sequence of str, length m) as rows of the document matrix, shape (m, p).

        Words outside the vocabulary are ignored; the corpus's idf weights are applied
        (when the space was built from texts) and each row is scaled to unit length.
        """
        return _weighted(self, _vocabulary_counts(self, docs))

    def transform(self, docs) -> np.ndarray:
        """Fold new texts into the latent space: coordinates of shape (m, k).

        Each text is weighted like the corpus (:meth:`weigh`), centred when the space is
        centred, and projected on the components. A training document folds in to its
        own row of ``document_coordinates``.
        """
        weighted = self.weigh(docs)
        coordinates = weighted @ self.term_coordinates
        if self.mean is not None:
            coordinates = coordinates - self.mean @ self.term_coordinates
        return np.asarray(coordinates)


def _vocabulary_counts(result: LSIResult, docs) -> scipy.sparse.csr_array:
    """How often each word of ``result``'s vocabulary occurs in each text, tokenised like its
    corpus: shape (m, p)."""
    return term_document_matrix(docs, stop_words=result.stop_words, vocabulary=result.vocabulary).counts


def _weighted(result: LSIResult, counts) -> scipy.sparse.csr_array:
    """Counts over ``result``'s vocabulary (shape (m, p)) weighted like its corpus: the idf
    weights (a space built from texts), then every row scaled to unit length."""
    if result.idf is None:
        return _unit_rows(scipy.sparse.csr_array(counts, dtype=np.float64))
    return tfidf(counts, idf=result.idf).matrix


def _is_matrix(value) -> bool:
    """Whether lsi's input is a matrix (sparse, or anything 2-D) rather than a sequence of texts."""
    if scipy.sparse.issparse(value):
        return True
    if isinstance(value, (str, pd.Series)):
        return False
    try:
        return np.asarray(value, dtype=object).ndim == 2
    except ValueError:  # ragged nesting: not a matrix
        return False


def _document_matrix(docs_or_matrix, stop_words, min_df, vocabulary):
    """(X, vocabulary, idf) for lsi: weighted texts, or a matrix taken as it is."""
    if _is_matrix(docs_or_matrix):
        matrix = scipy.sparse.csr_array(as_data_matrix_or_sparse(docs_or_matrix, name="docs_or_matrix", min_rows=1))
        p = matrix.shape[1]
        if vocabulary is None:
            vocabulary = tuple(f"term{j}" for j in range(p))
        else:
            vocabulary = tuple(_as_documents(vocabulary, name="vocabulary"))
            if len(vocabulary) != p:
                raise ValueError(f"vocabulary must have one word per column of the matrix ({p}), got {len(vocabulary)}")
        return matrix, vocabulary, None
    if isinstance(docs_or_matrix, str):
        raise TypeError("docs_or_matrix must be a sequence of texts or a matrix, not a single string")
    bag = term_document_matrix(docs_or_matrix, stop_words=stop_words, min_df=min_df, vocabulary=vocabulary)
    weighted = tfidf(bag.counts)
    return weighted.matrix, bag.vocabulary, weighted.idf


DENSE_SVD_ENTRIES = 2**22
"""Document matrices with at most this many entries (32 MB dense) get a dense SVD."""


def lsi(docs_or_matrix, k: int, *, stop_words=None, min_df: int = 1, vocabulary=None,
        center: bool = False, seed: int = 0) -> LSIResult:
    """Latent semantic indexing: the k leading singular triplets of the document matrix.

    Parameters
    ----------
    docs_or_matrix : sequence of str, or array_like / scipy.sparse matrix of shape (n, p)
        Texts (tokenised, counted and tf-idf weighted here) or an already weighted
        document matrix, rows are documents (used as it is).
    k : int
        Number of components, 1 <= k <= min(n, p) and at most the rank of the matrix.
    stop_words, min_df : see :func:`term_document_matrix` (texts only).
    vocabulary : sequence of str, optional
        For texts: the words to count. For a matrix: the word of each column (default
        "term0", "term1", ...).
    center : bool
        Subtract the mean document first (PCA of the weighted matrix, as in the CMU notes)
        without densifying the matrix. Default False: classic, uncentred LSI.
    seed : int
        Seeds the start vector of the iterative solver, so results are reproducible.

    Returns
    -------
    LSIResult

    Notes
    -----
    A matrix with more than :data:`DENSE_SVD_ENTRIES` entries is decomposed by
    ``scipy.sparse.linalg.svds`` with PROPACK (Lanczos bidiagonalisation, which only
    multiplies the sparse matrix and its transpose by vectors; about three times faster than
    ARPACK here, to the same accuracy; ARPACK takes over when PROPACK does not converge); a
    smaller one by a dense SVD. A
    ``ValueError`` is raised when k exceeds the rank of the matrix: the extra components
    would have singular value 0 and arbitrary directions.
    """
    seed = check_seed(seed)
    center = check_bool(center, "center")
    X, vocabulary, idf = _document_matrix(docs_or_matrix, stop_words, min_df, vocabulary)
    n, p = X.shape
    k = check_k(k, min(n, p), why=f"the document matrix has n={n} documents and p={p} words")
    if X.count_nonzero() == 0:
        raise ValueError("the document matrix is all zero (every document is empty or has only zero-weight words)")
    mean = np.asarray(X.mean(axis=0)).ravel() if center else None
    if n * p > DENSE_SVD_ENTRIES:
        operator = X if mean is None else _centred_operator(X, mean)
        v0 = np.random.default_rng(seed).standard_normal(n)
        # PROPACK's Lanczos steps (kmax; its memory is kmax * (n + p) numbers): 3k + 20 converge for k up to
        # 200 on the course's largest corpus as fast as 10k did, with a third of the memory
        steps = min(n, p, max(3 * k + 20, 300))
        try:
            U, s, Vt = scipy.sparse.linalg.svds(operator, k=k, v0=v0, solver="propack", maxiter=steps)
        except np.linalg.LinAlgError:  # a flat spectrum: ARPACK restarts until it converges
            U, s, Vt = scipy.sparse.linalg.svds(operator, k=k, v0=v0[:min(n, p)], solver="arpack")
    else:
        dense = X.toarray() if mean is None else X.toarray() - mean
        U, s, Vt = np.linalg.svd(dense, full_matrices=False)
    order = order_with_ties(s)[:k]
    U, s, Vt = U[:, order], s[order], Vt[order]
    tolerance = max(n, p) * np.finfo(float).eps * s[0]
    if s[-1] <= tolerance:
        rank = int(np.sum(s > tolerance))
        raise ValueError(f"k={k} exceeds the rank of the document matrix ({rank} non-zero singular values "
                         f"among the first {k}); choose k <= {rank}")
    term_coordinates, document_coordinates = fix_signs(Vt.T, U * s)
    total = X.multiply(X).sum() - (n * float(mean @ mean) if mean is not None else 0.0)
    read_only(term_coordinates, document_coordinates, s, mean)
    return LSIResult(
        document_coordinates=document_coordinates,
        term_coordinates=term_coordinates,
        singular_values=s,
        vocabulary=vocabulary,
        idf=idf,
        matrix=X,
        mean=mean,
        stop_words=_stop_set(stop_words) if idf is not None else frozenset(),
        total_sum_of_squares=float(total),
    )


def _centred_operator(X, mean: np.ndarray) -> scipy.sparse.linalg.LinearOperator:
    """X - 1 mean' as an operator, shape (n, p): applied to vectors, never formed."""
    ones = np.ones(X.shape[0])
    return scipy.sparse.linalg.LinearOperator(
        X.shape,
        matvec=lambda v: X @ v - ones * (mean @ v),
        rmatvec=lambda u: X.T @ u - mean * u.sum(),
        matmat=lambda V: X @ V - np.outer(ones, mean @ V),
        rmatmat=lambda U: X.T @ U - np.outer(mean, U.sum(axis=0)),
        dtype=np.float64,
    )


def _check_result(result) -> LSIResult:
    if not isinstance(result, LSIResult):
        raise TypeError(f"result must be an LSIResult from lsi(), got {type(result).__name__}")
    return result


def top_terms(result: LSIResult, component: int, n: int | None = None) -> pd.DataFrame:
    """The words at both ends of a component.

    Parameters
    ----------
    result : LSIResult
    component : int
        Column of ``result.term_coordinates``, counted from 0 (0 is the first component).
    n : int, optional
        How many words at each end, at most the vocabulary size. Default 10 (or the
        vocabulary size, if smaller).

    Returns
    -------
    pandas.DataFrame, n rows (index "rank", 1 to n)
        ``positive`` / ``positive_weight``: the n words with the largest weights, largest
        first; ``negative`` / ``negative_weight``: the n words with the smallest weights,
        smallest first. Weights equal to 12 significant digits (relative to the largest
        weight of the component) are ties, broken alphabetically, so rounding noise never
        reorders words. When every weight has one sign
        (the first uncentred component), the "negative" end is simply the lowest weights.
    """
    result = _check_result(result)
    component = check_int(component, "component", minimum=0, maximum=result.k - 1)
    p = len(result.vocabulary)
    n = check_int(min(10, p) if n is None else n, "n", minimum=1, maximum=p)
    weights = result.term_coordinates[:, component]
    words = np.array(result.vocabulary, dtype=object)
    alphabetical_rank = np.argsort(np.argsort(words, kind="stable"), kind="stable")
    top = order_with_ties(weights, descending=True, tie_break=alphabetical_rank)[:n]
    bottom = order_with_ties(weights, descending=False, tie_break=alphabetical_rank)[:n]
    frame = pd.DataFrame({
        "positive": words[top], "positive_weight": weights[top],
        "negative": words[bottom], "negative_weight": weights[bottom],
    }, index=pd.RangeIndex(1, n + 1, name="rank"))
    return frame


SPACES = ("latent", "terms")


def query_counts(result: LSIResult, query: str) -> np.ndarray:
    """How often each word of the space's vocabulary occurs in a text.

    Parameters
    ----------
    result : LSIResult
    query : str
        Tokenised like the corpus (the space's stop words are dropped); words outside the
        vocabulary are not counted.

    Returns
    -------
    ndarray of float, shape (p,)
        Entry j counts ``result.vocabulary[j]``: the counts a query is folded in from.
    """
    result = _check_result(result)
    if not isinstance(query, str):
        raise TypeError(f"query must be a text (a string), got {type(query).__name__}")
    counts = _vocabulary_counts(result, [query]).toarray().ravel().astype(float)
    if not counts.any():
        raise ValueError(f"query {query!r} shares no word with the vocabulary, so it cannot be placed")
    return counts


def _cosines(rows, vector: np.ndarray) -> np.ndarray:
    dots = np.asarray(rows @ vector).ravel()
    if scipy.sparse.issparse(rows):
        norms = np.sqrt(np.asarray(rows.multiply(rows).sum(axis=1)).ravel())
    else:
        norms = np.linalg.norm(rows, axis=1)
    denominator = norms * np.linalg.norm(vector)
    return np.divide(dots, denominator, out=np.zeros_like(dots), where=denominator > 0)


def rank_by_cosine(rows, vector, n: int | None = None) -> pd.DataFrame:
    """Rank the rows of a matrix by their cosine similarity to a vector.

    Parameters
    ----------
    rows : array_like or scipy.sparse matrix, shape (m, d)
        One document per row: its latent coordinates (``document_coordinates``, d = k) or
        its weighted words (``matrix``, d = p).
    vector : array_like, shape (d,)
        A query in the same coordinates.
    n : int, optional
        How many rows to return, 1 <= n <= m. Default 10 (or m, if smaller).

    Returns
    -------
    pandas.DataFrame, n rows (index "rank", 1 to n)
        ``document`` (row number) and ``score`` (cosine in [-1, 1]), best first; ties
        (scores equal to 12 significant digits, relative to the largest score) go to the
        lower row number, so rounding noise never reorders documents. A row of zeros
        scores 0 (and so does every row when the vector is zero).
    """
    rows = as_data_matrix_or_sparse(rows, name="rows", min_rows=1)
    vector = as_vector(vector, name="vector", length=rows.shape[1])
    m = rows.shape[0]
    n = check_int(min(10, m) if n is None else n, "n", minimum=1, maximum=m)
    scores = _cosines(rows, vector)
    order = order_with_ties(scores)[:n]  # noise-level differences are ties
    return pd.DataFrame({"document": order, "score": scores[order]}, index=pd.RangeIndex(1, n + 1, name="rank"))


def _query_vector(result: LSIResult, query) -> np.ndarray:
    """The query as a weighted row of the document matrix, shape (p,)."""
    if isinstance(query, str):
        vector = _weighted(result, query_counts(result, query)[None, :]).toarray().ravel()
        if not vector.any():
            raise ValueError(f"query {query!r} has only words that occur in every document (idf 0), "
                             "which carry no weight")
        return vector
    vector = as_vector(query, name="query", length=len(result.vocabulary))
    if not vector.any():
        raise ValueError("query is a vector of zeros; it has no direction to compare")
    return vector


def search(result: LSIResult, query, n: int | None = None, space: str = "latent") -> pd.DataFrame:
    """Rank the documents by their cosine similarity to a query.

    Parameters
    ----------
    result : LSIResult
    query : str, or array_like of shape (p,)
        A text (counted with :func:`query_counts` and weighted like the corpus) or an
        already weighted vector.
    n : int, optional
        How many documents to return, 1 <= n <= number of documents. Default 10 (or the
        number of documents, if smaller).
    space : {"latent", "terms"}
        "latent": fold the query into the latent space (project it on the components)
        and compare it with ``document_coordinates``. "terms": keyword search, the
        cosine between the weighted query and the rows of ``matrix``: only documents
        that share a word with the query score above 0.

    Returns
    -------
    pandas.DataFrame, n rows (index "rank", 1 to n)
        ``document`` (row number in the corpus) and ``score`` (cosine in [-1, 1]), best
        first, ties to the lower row number (:func:`rank_by_cosine`).
    """
    result = _check_result(result)
    space = check_choice(space, SPACES, "space")
    n_docs = result.document_coordinates.shape[0]
    n = check_int(min(10, n_docs) if n is None else n, "n", minimum=1, maximum=n_docs)
    vector = _query_vector(result, query)
    if space == "terms":
        return rank_by_cosine(result.matrix, vector, n)
    centred = vector if result.mean is None else vector - result.mean
    return rank_by_cosine(result.document_coordinates, centred @ result.term_coordinates, n)
