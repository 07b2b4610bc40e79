"""Checks of exercise set 05, latent semantic indexing.

Every exercise asks for a function, called on fresh random toy corpora or term coordinates
(a list of words or of rows of the course corpus, once known, could be typed in). The
exercise notebook's set-up loads the course corpus's LSI space
(:func:`dimred_teach.datasets.load_corpus_space`) instead of computing it, since computing it
weighs the corpus with tf-idf (05.tfidf), and the latent-search rankings 05.hidden_match
filters are computed here, outside the student's kernel (they fold queries in: 05.fold_in).
"""

from __future__ import annotations

import numpy as np

from . import CheckFailure, register
from .properties import answer_array, answer_integer, drawn_once, expect, expect_close, in_random_order, is_close

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
    "looked-up": "looked a query up among the training documents instead of folding it in",
    "wrong-count": "the wrong number of words",
    "repeated-word": "a word twice",
    "wrong-component": "the words of another component",
    "most-negative": "the most negative weights, the other end of the component",
    "largest-size": "the largest weights in size, from both ends",
    "wrong-order": "the right words, not largest first",
    "says-picture": "a document that contains a word of the query",
    "not-retrieved": "a document latent search does not retrieve",
    "missed-match": "a hidden match left out",
    "ranking-order": "the hidden matches, not in the ranking's order",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


TOY_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
             "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango")


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


def new_query(rng: np.random.Generator, space) -> np.ndarray:
    """Word counts, shape (p,), of a fresh query on the vocabulary of ``space`` that is none of its
    training documents: its coordinates lie at least 1e-3 from every row of
    ``space.document_coordinates`` (a lookup among them cannot answer it)."""
    p = len(space.vocabulary)
    while True:
        counts = np.zeros(p)
        words = rng.choice(p, size=int(rng.integers(2, 6)), replace=False)
        counts[words] = rng.integers(1, 4, size=words.size)
        weighted = counts * space.idf
        if np.linalg.norm(weighted) > 0:
            z = weighted / np.linalg.norm(weighted) @ space.term_coordinates
            if np.abs(space.document_coordinates - z).max(axis=1).min() > 1e-3:
                return counts


@register("05.fold_in", hint="weight the counts like a document (times space.idf, then scale to length 1) "
                             "and project: q @ space.term_coordinates")
def _fold_in(answer, rng):
    from ..lsi import lsi, term_document_matrix

    cases = []
    for _ in range(2):
        space = None  # redrawn while a topic the k = 3 space leaves out gives a training document 0 coordinates
        while space is None or np.linalg.norm(space.document_coordinates, axis=1).min() < 1e-3:  # (0 is no lookup)
            texts = random_texts(rng)
            space = lsi(texts, k=3)
        counts = term_document_matrix(texts, vocabulary=space.vocabulary).counts.toarray().astype(float)
        rows = rng.choice(len(texts), size=2, replace=False)
        queries = [new_query(rng, space) for _ in range(3)]
        cases += [(space, counts[i], i, 1.0) for i in rows] + [(space, q, None, 1.0) for q in queries]
        cases += [(space, queries[0], None, 3.0)]
    for space, counts, i, factor in in_random_order(rng, cases):
        call = "fold_in(space, counts)" if factor == 1 else f"fold_in(space, {factor:g} * counts)"
        call += f" for training document {i}" if i is not None else " for a query that is no training document"
        z = answer_array(answer(space, factor * counts), call, shape=(space.k,))
        weighted = factor * counts * space.idf
        expected = space.document_coordinates[i] if i is not None else \
            weighted / np.linalg.norm(weighted) @ space.term_coordinates
        raw = factor * counts @ space.term_coordinates
        expect(is_close(raw, expected, 1e-8, scale=1.0) or not is_close(z, raw, 1e-6, scale=1.0),
               f"{call}: you projected the raw counts; weight them by space.idf and scale to length 1 first",
               mistake="raw-counts")
        unscaled = weighted @ space.term_coordinates
        expect(is_close(unscaled, expected, 1e-8, scale=1.0) or not is_close(z, unscaled, 1e-6, scale=1.0),
               f"{call}: you projected the weighted counts without scaling them to length 1 (tripling every count "
               "would triple your coordinates)", mistake="not-normalised")
        looked_up = i is None and any(is_close(z, row, 1e-6, scale=1.0) for row in space.document_coordinates)
        expect(not looked_up, f"{call} gives a training document's row of space.document_coordinates: a new query "
               "is folded in from its own counts, not looked up among the documents", mistake="looked-up")
        where = f": folding in the counts of training document {i} gives its row of space.document_coordinates" \
            if i is not None else ": weight the counts by space.idf, scale them to length 1 and project them"
        expect_close(z, expected, f"{call}{where}", scale=1.0, mistake="no-idf")


def _word_list(answer, what: str, length: int) -> list[str]:
    if isinstance(answer, str) or not hasattr(answer, "__iter__"):
        raise CheckFailure(f"{what} should be a list of {length} words, got {type(answer).__name__}",
                           mistake="wrong-form")
    words = [word.item() if isinstance(word, np.str_) else word for word in answer]
    expect(len(words) == length, f"{what} should hold {length} words, got {len(words)}", mistake="wrong-count")
    expect(all(isinstance(word, str) for word in words), f"{what} should hold words (strings)")
    expect(len(set(words)) == length, f"{what} holds a word twice", mistake="repeated-word")
    return words


TOP_WORDS_ASKED = range(2, 6)
"""How many top words 05.top_words asks for."""


def random_term_coordinates(rng: np.random.Generator) -> tuple[np.ndarray, tuple[str, ...], int]:
    """Fresh term coordinates, shape (p, k), their vocabulary (p toy words) and a component index whose column's
    two weights largest in size are its most negative and its largest (so ranking by size is told apart from
    either end); every column's sorted weights lie at least 1e-3 apart (no near ties, in float32 too), and
    neither neighbouring column has the same top n words for any n the check asks (2 to 5), so the words of
    the column before or after are told apart from the right words in another order."""
    while True:
        p, k = int(rng.integers(8, len(TOY_WORDS) + 1)), int(rng.integers(3, 7))
        coordinates = rng.standard_normal((p, k)) / np.sqrt(p)
        component = int(rng.integers(k))
        column, size = coordinates[:, component], np.abs(coordinates[:, component]).max()
        column[np.argmax(column)], column[np.argmin(column)] = 1.2 * size, -1.5 * size
        order = np.argsort(coordinates, axis=0)[::-1]  # (p, k): each column's rows, largest weight first
        shared = any(set(order[:n, component]) == set(order[:n, j % k])
                     for j in (component - 1, component + 1) for n in TOP_WORDS_ASKED)
        if np.all(np.diff(np.sort(coordinates, axis=0), axis=0) > 1e-3) and not shared:
            return coordinates, tuple(rng.permutation(TOY_WORDS[:p]).tolist()), component


@register("05.top_words", hint="np.argsort(term_coordinates[:, component]) sorts the weights from the smallest: "
                               "take the last n indices, largest first, and look their words up in vocabulary")
def _top_words(answer, rng):
    cases = [random_term_coordinates(rng) for _ in range(int(rng.integers(4, 7)))]
    ambiguous = None
    for coordinates, vocabulary, component in in_random_order(rng, cases):
        n = int(rng.integers(TOP_WORDS_ASKED.start, TOP_WORDS_ASKED.stop))
        call = f"top_words(term_coordinates, vocabulary, component={component}, n={n}) for {coordinates.shape[1]} " \
               f"components of {len(vocabulary)} words"
        words = _word_list(answer(coordinates.copy(), vocabulary, component, n), call, n)
        unknown = [word for word in words if word not in vocabulary]
        expect(not unknown, f"{call}: these are not words of the vocabulary: {unknown}")

        def ranked(weights, vocabulary=vocabulary, n=n):  # this iteration's vocabulary and n, bound here
            return [vocabulary[j] for j in np.argsort(weights)[::-1][:n]]

        weights = coordinates[:, component]
        right = ranked(weights)
        others = [coordinates[:, j % coordinates.shape[1]] for j in (component - 1, component + 1)]
        explained = [(message, mistake) for mistaken, message, mistake in (
            ([-weights], "gives the words of the most negative weights: the other end of the component",
             "most-negative"),
            ([np.abs(weights)], "ranks the words by the size of their weights; the largest weights (most positive) "
                                "are asked for, one end of the component", "largest-size"),
            (others, f"gives the top words of another column of term_coordinates: column {component} (counting "
                     "from 0) is asked for", "wrong-component"))
            if any(set(words) == set(ranked(w)) != set(right) for w in mistaken)]
        if len(explained) == 1:
            raise CheckFailure(f"{call} {explained[0][0]}", mistake=explained[0][1])
        unexplained = CheckFailure(f"{call}: some word outside your list has a larger weight on component "
                                   f"{component} than a word in it")
        if explained:  # two mistakes give these words here: another instance tells them apart
            ambiguous = ambiguous or unexplained
            continue
        if set(words) != set(right):
            raise unexplained
        expect(words == right, f"{call} holds the right words in another order: largest weight first",
               mistake="wrong-order")
    if ambiguous:
        raise ambiguous


@drawn_once(maxsize=160)
def random_search_case(rng: np.random.Generator, hidden: int = 0) -> tuple[list[int], list[str], str]:
    """A fresh toy corpus and a query of one or two of its words, with the row numbers of the top n latent-search
    results for the query in the corpus's LSI space (k = 3), best first: n is chosen so that the n-th and (n+1)-th
    scores lie at least 1e-6 apart, and at least ``hidden`` of the n results are hidden matches (contain no word of
    the query), not in increasing row order when ``hidden`` is 2 or more (so that sorted rows differ from the
    ranking's order; two documents swapping rows change no score). Returns (ranking, texts, query). Drawn once
    per state of ``rng`` (:func:`~dimred_teach.checks.properties.drawn_once`): its LSI spaces take most of
    05.hidden_match's time."""
    from ..lsi import lsi, search, tokenize

    while True:
        texts = random_texts(rng)
        space = lsi(texts, k=3)
        query = " ".join(rng.choice(space.vocabulary, size=int(rng.integers(1, 3)), replace=False))
        n = int(rng.integers(3, len(texts) // 2 + 1))
        results = search(space, query, n=len(texts))
        scores = results["score"].to_numpy()
        ranking = [int(row) for row in results["document"][:n]]
        words = set(tokenize(query))
        matches = [row for row in ranking if not words & set(tokenize(texts[row]))]
        if scores[n - 1] - scores[n] > 1e-6 and len(matches) >= hidden:
            if hidden >= 2 and matches == sorted(matches):  # the first two matches swap rows (and texts)
                first, second = matches[:2]
                texts[first], texts[second] = texts[second], texts[first]
                ranking = [second if row == first else first if row == second else row for row in ranking]
            return ranking, texts, query


@register("05.hidden_match", hint="go through ranking and keep the rows whose words (lsi.tokenize(texts[row])) "
                                  "include none of the query's words (lsi.tokenize(query))")
def _hidden_match(answer, rng):
    from ..lsi import tokenize

    cases = [random_search_case(rng, hidden=2)] + [random_search_case(rng) for _ in range(int(rng.integers(3, 6)))]
    for ranking, texts, query in in_random_order(rng, cases):
        call = f"hidden_matches(ranking, texts, {query!r}) for the top {len(ranking)} of {len(texts)} texts"
        found = answer(list(ranking), list(texts), query)
        expect(not isinstance(found, str) and hasattr(found, "__iter__"),
               f"{call} should return a list of row numbers, got {type(found).__name__}", mistake="wrong-form")
        rows = [answer_integer(row, f"each row number of {call}") for row in found]
        expect(len(set(rows)) == len(rows), f"{call} names a row twice")
        words = set(tokenize(query))
        saying = [row for row in rows if 0 <= row < len(texts) and words & set(tokenize(texts[row]))]
        expect(not saying, f"{call}: row {saying[0] if saying else ''} contains a word of the query; keep only the "
                           "documents that contain none", mistake="says-picture")
        outside = [row for row in rows if row not in ranking]
        expect(not outside, f"{call}: row {outside[0] if outside else ''} is not in the ranking; keep only rows that "
                            "latent search retrieved", mistake="not-retrieved")
        missed = [row for row in ranking if not words & set(tokenize(texts[row])) and row not in rows]
        expect(not missed, f"{call} leaves out a row of the ranking that contains no word of the query",
               mistake="missed-match")
        expect(rows == [row for row in ranking if row in rows], f"{call} names the right rows, but not in the "
               "ranking's order (best first)", mistake="ranking-order")
