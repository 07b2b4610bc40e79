"""LSI: the course's lsi (tf-idf + PROPACK truncated SVD) against scikit-learn's
TfidfVectorizer + TruncatedSVD on the standard library's docstrings, k = 100."""

import functools

import numpy as np
import scipy.sparse.linalg
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer

from dimred_teach.datasets import load_stdlib_docstrings
from dimred_teach.lsi import _WORD, STOP_WORDS, lsi, term_document_matrix, tfidf

from .harness import Benchmark

K = 100


def benchmarks():
    texts = load_stdlib_docstrings()["text"].tolist()
    ours = functools.partial(lsi, texts, K, stop_words="english", min_df=2)
    # scikit-learn's own tokenizer, given the course's pattern and stop words: the same tokens and
    # vocabulary (test_lsi checks it); its idf is log(n/df) + 1 instead of log(n/df)
    vectorizer = functools.partial(TfidfVectorizer, token_pattern=_WORD.pattern, stop_words=sorted(STOP_WORDS),
                                   min_df=2, smooth_idf=False)

    def sklearn_pipeline(algorithm):
        X = vectorizer().fit_transform(texts)
        return TruncatedSVD(K, algorithm=algorithm, random_state=0).fit_transform(X)

    X = tfidf(term_document_matrix(texts, stop_words="english", min_df=2).counts).matrix
    v0 = np.random.default_rng(0).standard_normal(min(X.shape))
    v0_propack = np.random.default_rng(0).standard_normal(X.shape[0])

    def notes():
        result = ours()
        exact = np.sort(scipy.sparse.linalg.svds(X, k=K, v0=v0, return_singular_vectors=False))[::-1]
        randomized = TruncatedSVD(K, algorithm="randomized", random_state=0).fit(X).singular_values_
        return (f"n={X.shape[0]} docs, p={X.shape[1]} words, nnz={X.nnz}; "
                f"max relative error of the k singular values on the same matrix: ours "
                f"{np.max(np.abs(result.singular_values - exact) / exact):.1e}, sklearn randomized "
                f"{np.max(np.abs(randomized - exact) / exact):.1e}")

    yield Benchmark(
        f"lsi(k={K}) on {len(texts)} stdlib docstrings",
        ours=ours,
        baselines={
            "sklearn TfidfVectorizer + TruncatedSVD(randomized)": lambda: sklearn_pipeline("randomized"),
            "sklearn TfidfVectorizer + TruncatedSVD(arpack)": lambda: sklearn_pipeline("arpack"),
        },
        floor=("scipy svds(PROPACK) on the prepared tf-idf matrix", lambda: scipy.sparse.linalg.svds(
            X, k=K, v0=v0_propack, solver="propack", maxiter=10 * K)),
        why="randomized SVD is approximate (see notes); ours is exact to 1e-14 and beats the exact peer (arpack)",
        notes=notes,
        repeat=5,  # each call takes under a second: the best of five, not one run, steadies the ratio
    )
