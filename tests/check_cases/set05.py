"""Variants and mutants of exercise set 05, latent semantic indexing."""

import re

import numpy as np
import pandas as pd

from dimred_teach import lsi

from . import Mutant, Variant, as_list, first_calls_then, float32, returning, solution


def tfidf(counts, idf=lambda n, df, counts: np.log(n / df)):
    n = counts.shape[0]
    weighted = counts * idf(n, (counts > 0).sum(axis=0), counts)
    return weighted / np.linalg.norm(weighted, axis=1, keepdims=True)


def fold_in(space, counts, weight=True, normalise=True):
    q = counts * space.idf if weight else counts
    if normalise:
        q = q / np.linalg.norm(q)
    return q @ space.term_coordinates


def looked_up(space, counts):
    """The training document whose weighted row is most like the weighted query: its coordinates."""
    q = counts * space.idf
    return space.document_coordinates[int(np.argmax(space.matrix.toarray() @ (q / np.linalg.norm(q))))]


def top_words(coordinates, vocabulary, component, n, key=lambda w: w, reverse=False):
    order = np.argsort(key(coordinates[:, component]))
    order = order[:n] if reverse else order[::-1][:n]
    return [vocabulary[j] for j in order]


def hidden_matches(ranking, texts, query, keep=lambda shares: not shares):
    words = set(lsi.tokenize(query))
    return [int(row) for row in ranking if keep(words & set(lsi.tokenize(texts[row])))]


CASES = {
    "05.tfidf": (
        [
            Variant("float32 output", lambda: returning(solution("05.tfidf")(), float32)),
            Variant("nested lists", lambda: returning(tfidf, as_list)),
            Variant("pandas DataFrame", lambda: returning(tfidf, pd.DataFrame)),
            Variant("float counts", lambda: lambda counts: tfidf(counts.astype(float))),
            Variant("log10 (the scale cancels)", lambda: lambda c: tfidf(c, idf=lambda n, df, c: np.log10(n / df))),
        ],
        [
            Mutant("idf + 1", lambda: lambda c: tfidf(c, idf=lambda n, df, c: np.log(n / df) + 1), r"scikit-learn",
                    "wrong-idf"),
            Mutant("df from total counts", lambda: lambda c: tfidf(c, idf=lambda n, df, c: np.log(n / c.sum(0))),
                   r"NUMBER OF DOCUMENTS", "wrong-idf"),
            Mutant("not normalised", lambda: lambda c: c * np.log(len(c) / (c > 0).sum(0)), r"length 1",
                    "not-normalised"),
            Mutant("no idf", lambda: lambda c: c / np.linalg.norm(c, axis=1, keepdims=True), r"weight 0", "no-idf"),
            Mutant("right for three calls, then raw counts", first_calls_then(tfidf, 3, lambda c: c / 1.0),
                   r"weight 0|length 1|NUMBER OF DOCUMENTS", "no-idf"),
        ],
    ),
    "05.fold_in": (
        [
            Variant("float32 output", lambda: returning(solution("05.fold_in")(), float32)),
            Variant("list output", lambda: returning(fold_in, list)),
            Variant("via the document weights", lambda: lambda space, counts: (
                lambda q: q / np.linalg.norm(q))(counts * space.idf) @ space.term_coordinates),
        ],
        [
            Mutant("raw counts", lambda: lambda s, c: fold_in(s, c, weight=False, normalise=False), r"raw counts",
                    "raw-counts"),
            Mutant("not normalised", lambda: lambda s, c: fold_in(s, c, normalise=False), r"length 1",
                    "not-normalised"),
            Mutant("no idf", lambda: lambda s, c: fold_in(s, c, weight=False), r"document_coordinates|space\.idf",
                   "no-idf"),
            Mutant("right for three calls, then zeros", first_calls_then(fold_in, 3, lambda s, c: np.zeros(s.k)),
                   r"document_coordinates|space\.idf", "no-idf"),
            Mutant("looked up among the training documents (space.matrix)", lambda: looked_up, r"not looked up",
                   "looked-up"),
        ],
    ),
    "05.top_words": (
        [
            Variant("tuple", lambda: returning(top_words, tuple)),
            Variant("numpy array of words", lambda: lambda c, v, k, n: np.asarray(v)[np.argsort(-c[:, k])[:n]]),
            Variant("pandas Series", lambda: lambda c, v, k, n: pd.Series(c[:, k], index=list(v)).nlargest(n).index),
            Variant("float32 weights", lambda: lambda c, v, k, n: top_words(c.astype(np.float32), v, k, n)),
            Variant("sorted in Python", lambda: lambda c, v, k, n: [w for _, w in sorted(zip(c[:, k], v))[::-1][:n]]),
        ],
        [
            Mutant("most negative", lambda: lambda c, v, k, n: top_words(c, v, k, n, reverse=True), r"other end",
                   "most-negative"),
            Mutant("largest in size", lambda: lambda c, v, k, n: top_words(c, v, k, n, key=np.abs), r"size",
                   "largest-size"),
            Mutant("the next column", lambda: lambda c, v, k, n: top_words(c, v, (k + 1) % c.shape[1], n),
                   r"another column", "wrong-component"),
            Mutant("columns counted from 1", lambda: lambda c, v, k, n: top_words(c, v, k - 1, n),
                   r"another column", "wrong-component"),
            Mutant("smallest of the top words first", lambda: lambda c, v, k, n: top_words(c, v, k, n)[::-1],
                   r"largest weight first", "wrong-order"),
            Mutant("one word too few", lambda: lambda c, v, k, n: top_words(c, v, k, n - 1), r"words, got",
                   "wrong-count"),
            Mutant("one string", lambda: lambda c, v, k, n: " ".join(top_words(c, v, k, n)), r"list of",
                   "wrong-form"),
            Mutant("a word twice", lambda: lambda c, v, k, n: top_words(c, v, k, n - 1) + top_words(c, v, k, 1),
                   r"twice", "repeated-word"),
            Mutant("the words of the course corpus, typed", lambda: lambda c, v, k, n: [
                "singer", "album", "audience", "tune", "festival"][:n], r"not words of the vocabulary", "other"),
        ],
    ),
    "05.hidden_match": (
        [
            Variant("numpy array", lambda: returning(hidden_matches, np.array)),
            Variant("pandas Series of numpy integers", lambda: lambda r, t, q: pd.Series(r)[[
                not set(lsi.tokenize(q)) & set(lsi.tokenize(t[row])) for row in r]]),
            Variant("a tuple from a loop over positions", lambda: lambda r, t, q: tuple(
                r[i] for i in range(len(r)) if not set(lsi.tokenize(q)) & set(lsi.tokenize(t[r[i]])))),
            Variant("words as the course's regular expression finds them", lambda: lambda r, t, q: [
                row for row in r if not set(re.findall("[a-z]+", q.lower())) & set(re.findall("[a-z]+", t[row]))]),
        ],
        [
            Mutant("sorted row numbers", lambda: returning(hidden_matches, sorted), r"not in the ranking's order",
                   "ranking-order"),
            Mutant("every result", lambda: lambda r, t, q: hidden_matches(r, t, q, keep=lambda shares: True),
                   r"contains a word of the query", "says-picture"),
            Mutant("every document without the words", lambda: lambda r, t, q: hidden_matches(range(len(t)), t, q),
                   r"not in the ranking", "not-retrieved"),
            Mutant("positions in the ranking, not row numbers", lambda: lambda r, t, q: [
                i for i, row in enumerate(r) if not set(lsi.tokenize(q)) & set(lsi.tokenize(t[row]))],
                   r"not in the ranking|contains a word|leaves out|not in the ranking's order",
                   # on 1 instance in 100 the positions are the hidden rows themselves, in another order
                   ("not-retrieved", "says-picture", "missed-match", "ranking-order")),
            Mutant("the first match only", lambda: lambda r, t, q: hidden_matches(r, t, q)[:1],
                   r"leaves out", "missed-match"),
            Mutant("the results that contain the words", lambda: lambda r, t, q: hidden_matches(r, t, q, keep=bool),
                   r"contains a word of the query|leaves out", ("says-picture", "missed-match")),
            Mutant("floats", lambda: lambda r, t, q: [float(row) for row in hidden_matches(r, t, q)],
                   r"integer", "wrong-form"),
            Mutant("the course corpus's row, typed", lambda: lambda r, t, q: [19],
                   r"not in the ranking|contains|leaves out",  # 1 in 100: row 19 is one of the hidden rows
                   ("not-retrieved", "says-picture", "missed-match")),
        ],
    ),
}
