"""Variants and mutants of exercise set 05, latent semantic indexing."""

import numpy as np
import pandas as pd

from dimred_teach import lsi
from dimred_teach.checks.set05 import corpus_space

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


def hits():
    space, corpus = corpus_space()
    return [int(row) for row in lsi.search(space, "picture", n=10)["document"]]


def hidden_rows():
    _, corpus = corpus_space()
    return [row for row in hits() if not {"picture", "pictures"} & set(lsi.tokenize(corpus["text"][row]))]


def top(component, n=5, end="positive"):
    space, _ = corpus_space()
    return list(lsi.top_terms(space, component=component, n=n)[end])


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
            Mutant("no idf", lambda: lambda s, c: fold_in(s, c, weight=False), r"document_coordinates", "no-idf"),
            Mutant("right for three calls, then zeros",
                   first_calls_then(fold_in, 3, lambda s, c: np.zeros(s.k)), r"document_coordinates", "no-idf"),
        ],
    ),
    "05.top_words": (
        [
            Variant("tuple", lambda: tuple(solution("05.top_words")())),
            Variant("numpy array", lambda: np.array(solution("05.top_words")())),
            Variant("pandas Series", lambda: pd.Series(solution("05.top_words")())),
            Variant("another order", lambda: sorted(solution("05.top_words")())),
        ],
        [
            Mutant("most negative", lambda: top(2, end="negative"), r"other end", "most-negative"),
            Mutant("component index 3", lambda: top(3), r"index 3", "wrong-component"),
            Mutant("four words", lambda: top(2, n=4), r"5 words", "wrong-count"),
            Mutant("one string", lambda: " ".join(top(2)), r"list of 5 words", "wrong-form"),
            Mutant("a word twice", lambda: top(2)[:4] + top(2)[:1], r"twice", "repeated-word"),
        ],
    ),
    "05.hidden_match": (
        [
            Variant("numpy integer", lambda: np.int64(solution("05.hidden_match")())),
            Variant("another hidden match", lambda: hidden_rows()[-1]),
        ],
        [
            Mutant("a document that says picture", lambda: next(r for r in hits() if r not in hidden_rows()),
                   r"contains the word", "says-picture"),
            Mutant("not retrieved", lambda: next(r for r in range(174) if r not in hits()), r"not among",
                    "not-retrieved"),
            Mutant("float", lambda: float(hidden_rows()[0]), r"whole number", "wrong-form"),
            Mutant("the document text", lambda: corpus_space()[1]["text"][hidden_rows()[0]], r"whole number",
                    "wrong-form"),
        ],
    ),
}
