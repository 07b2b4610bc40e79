"""Checks of exercise set 05, latent semantic indexing.

Function exercises are called on fresh random toy corpora; value exercises are checked
against the course corpus analysed exactly as the exercise notebook does it
(:func:`corpus_space`).
"""

from __future__ import annotations

import functools

import numpy as np

from . import CheckFailure, register
from .properties import answer_array, answer_integer, expect, expect_close, in_random_order, is_close

FORBIDS = ("dimred_teach.lsi.tfidf",  # 05.tfidf
           "dimred_teach.lsi.LSIResult.transform")  # 05.fold_in
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "wrong-idf": "idf not log(n / df)",
    "no-idf": "no idf weighting",
    "not-normalised": "rows not scaled to length 1",
    "raw-counts": "projected the raw counts",
    "wrong-count": "the wrong number of words",
    "repeated-word": "a word twice",
    "wrong-component": "the words of another component",
    "most-negative": "the most negative weights, the other end of the component",
    "says-picture": "a document that contains the word",
    "not-retrieved": "a document latent search does not retrieve",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""
KEEPS = ("dimred_teach.lsi._document_matrix",  # lsi.lsi builds the set-up's LSI space with tf-idf
         "dimred_teach.lsi.LSIResult.weigh")  # lsi.search weighs a query like the corpus
"""Library functions this set's own cells need although they use a forbidden function:
in the grading kernel they keep a private copy of what they use."""


TOY_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
             "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango")
CORPUS_K = 10
"""The exercise notebook's space: ``lsi(corpus["text"], k=10, stop_words="english")``."""


@functools.lru_cache(maxsize=1)
def corpus_space():
    """The LSI space of the course corpus used by the value exercises, and the corpus."""
    from .. import datasets, lsi

    corpus = datasets.load_corpus()
    return lsi.lsi(corpus["text"], k=CORPUS_K, stop_words="english"), corpus


def random_counts(rng: np.random.Generator) -> np.ndarray:
    """Word counts of a fresh toy corpus, shape (n, p): column 0 is a word in every document,
    the last column a word in one document, and every document has at least one word that
    is not in every document (so its tf-idf row is not zero)."""
    while True:
        n, p = int(rng.integers(4, 10)), int(rng.integers(6, 14))
        counts = rng.poisson(1.0, size=(n, p)) * (rng.random((n, p)) < 0.5)
        counts[:, 0] = rng.integers(1, 4, size=n)
        counts[:, -1] = 0
        counts[int(rng.integers(n)), -1] = int(rng.integers(1, 3))
        unused = np.flatnonzero(counts.sum(axis=0) == 0)
        counts[rng.integers(n, size=unused.size), unused] = 1
        informative = (counts > 0).sum(axis=0) < n
        if np.all(counts[:, informative].sum(axis=1) > 0):
            return counts


def random_texts(rng: np.random.Generator) -> list[str]:
    """A fresh toy corpus of 12-20 texts on three 'topics' of made-up words."""
    topics = np.array_split(rng.permutation(len(TOY_WORDS)), 3)
    texts = []
    for _ in range(int(rng.integers(12, 21))):
        words = np.array(TOY_WORDS)[topics[int(rng.integers(3))]]
        texts.append(" ".join(rng.choice(words, size=int(rng.integers(4, 12)))))
    return texts


def _reference_tfidf(counts: np.ndarray) -> np.ndarray:
    n = counts.shape[0]
    df = (counts > 0).sum(axis=0)
    weighted = counts * np.log(n / df)
    return weighted / np.linalg.norm(weighted, axis=1, keepdims=True)


@register("05.tfidf", hint="idf_j = log(n / df_j) with df_j the number of documents containing word j; "
                           "multiply each column of the counts by its idf, then divide each row by its length")
def _tfidf(answer, rng):
    for counts in in_random_order(rng, [random_counts(rng) for _ in range(int(rng.integers(4, 7)))]):
        n, p = counts.shape
        call = f"my_tfidf(counts) for {n} documents and {p} words"
        W = answer_array(answer(counts.copy()), call, shape=(n, p))
        df = (counts > 0).sum(axis=0)
        right = _reference_tfidf(counts)
        for idf, mistake in ((np.log(n / df) + 1.0, "idf = log(n / df) + 1 (scikit-learn's convention); this "
                                                    "course uses log(n / df)"),
                             (np.log(n / counts.sum(axis=0)), "df = the total count of each word; df is the "
                                                              "NUMBER OF DOCUMENTS that contain the word")):
            weighted = counts * idf
            lengths = np.linalg.norm(weighted, axis=1, keepdims=True)
            # where every count is 0 or 1 the total count is df, and that mistake is the right answer
            if np.all(lengths > 0) and not is_close(weighted / lengths, right, 1e-6, scale=1.0):
                expect(not is_close(W, weighted / lengths, 1e-6, scale=1.0), f"{call}: you used {mistake}",
                       mistake="wrong-idf")
        expect(is_close(W[counts == 0], np.zeros(int(np.sum(counts == 0))), 1e-10, scale=1.0),
               f"{call} has non-zero weights where a word does not occur (count 0)")
        expect(is_close(W[:, 0], np.zeros(n), 1e-10, scale=1.0),
               f"{call}: a word that occurs in every document should get weight 0 (idf = log(n / n) = 0); "
               "column 0 of the test counts is such a word", mistake="no-idf")
        expect(is_close(np.linalg.norm(W, axis=1), np.ones(n), 1e-8, scale=1.0),
               f"{call}: every document (row) should be scaled to length 1 after weighting", mistake="not-normalised")
        expect_close(W, right, f"{call}: W[i, j] proportional to count[i, j] * log(n / df[j]) "
                                                  "in each row", scale=1.0)


@register("05.fold_in", hint="weight the counts like a document (times space.idf, then scale to length 1) "
                             "and project: q @ space.term_coordinates")
def _fold_in(answer, rng):
    from ..lsi import lsi, term_document_matrix

    cases = []
    for _ in range(2):
        texts = random_texts(rng)
        space = lsi(texts, k=3)
        counts = term_document_matrix(texts, vocabulary=space.vocabulary).counts.toarray().astype(float)
        rows = rng.choice(len(texts), size=3, replace=False)
        cases += [(space, counts[i], i, 1.0) for i in rows] + [(space, counts[rows[0]], rows[0], 3.0)]
    for space, counts, i, factor in in_random_order(rng, cases):
        call = f"fold_in(space, counts)" if factor == 1 else f"fold_in(space, {factor:g} * counts)"
        z = answer_array(answer(space, factor * counts), call, shape=(space.k,))
        expected = space.document_coordinates[i]
        raw = factor * counts @ space.term_coordinates
        expect(is_close(raw, expected, 1e-8, scale=1.0) or not is_close(z, raw, 1e-6, scale=1.0),
               f"{call}: you projected the raw counts; weight them by space.idf and scale to length 1 first",
               mistake="raw-counts")
        weighted = factor * counts * space.idf
        unscaled = weighted @ space.term_coordinates
        expect(is_close(unscaled, expected, 1e-8, scale=1.0) or not is_close(z, unscaled, 1e-6, scale=1.0),
               f"{call}: you projected the weighted counts without scaling them to length 1 (tripling every count "
               "would triple your coordinates)", mistake="not-normalised")
        expect_close(z, expected, f"{call}: folding in the counts of training document {i} gives its row of "
                                  "space.document_coordinates", scale=1.0, mistake="no-idf")


def _word_list(answer, what: str, length: int) -> list[str]:
    if isinstance(answer, str) or not hasattr(answer, "__iter__"):
        raise CheckFailure(f"{what} should be a list of {length} words, got {type(answer).__name__}",
                           mistake="wrong-form")
    words = [word.item() if isinstance(word, np.str_) else word for word in answer]
    expect(len(words) == length, f"{what} should hold {length} words, got {len(words)}", mistake="wrong-count")
    expect(all(isinstance(word, str) for word in words), f"{what} should hold words (strings)")
    expect(len(set(words)) == length, f"{what} holds a word twice", mistake="repeated-word")
    return words


@register("05.top_words", hint="sort space.term_coordinates[:, 2] (the third component, counting from 0) and take "
                               "the words of the 5 largest weights, or use lsi.top_terms")
def _top_words(answer, rng):
    space, _ = corpus_space()
    words = _word_list(answer, "top_words", 5)
    column = {word: j for j, word in enumerate(space.vocabulary)}
    unknown = [word for word in words if word not in column]
    expect(not unknown, f"these are not words of the corpus's vocabulary: {unknown}")
    rows = [column[word] for word in words]
    for component in range(space.k):
        weights = space.term_coordinates[:, component]
        largest = np.sort(weights)[-5:]
        if component != 2 and np.allclose(np.sort(weights[rows]), largest):
            raise CheckFailure(f"these are the top words of component index {component}; "
                               "the exercise asks for index 2 (the third component, counting from 0)",
                               mistake="wrong-component")
    weights = space.term_coordinates[:, 2]
    expect(not np.allclose(np.sort(weights[rows]), np.sort(weights)[:5]),
           "these are the five most negative weights: the other end of the component", mistake="most-negative")
    others = np.delete(weights, rows)
    expect(weights[rows].min() >= others.max() - 1e-12 * np.abs(weights).max(),
           "some word outside your list has a larger weight on component index 2 than a word in it")


@register("05.hidden_match", hint="go through lsi.search(space, 'picture', n=10) and test each document's words "
                                  "(lsi.tokenize) for 'picture' and 'pictures'")
def _hidden_match(answer, rng):
    from ..lsi import search, tokenize

    space, corpus = corpus_space()
    row = answer_integer(answer, "hidden_match (a row number)")
    expect(0 <= row < len(corpus), f"hidden_match should be a row number between 0 and {len(corpus) - 1}, got {row}")
    words = set(tokenize(corpus["text"][row]))
    expect(not words & {"picture", "pictures"},
           f"document {row} contains the word 'picture' or 'pictures'; look for one that contains neither",
           mistake="says-picture")
    top = search(space, "picture", n=10)["document"].tolist()
    expect(row in top, f"document {row} is not among the top 10 latent-search results for 'picture'",
           mistake="not-retrieved")
