# %% [markdown]
# # Solutions 05 · Latent semantic indexing
#
# *Time: about 45 minutes.*
#
# **Objectives.** After this set you can
# 1. compute tf-idf weights by hand;
# 2. fold a query into the latent space;
# 3. read a component from its top words;
# 4. find the documents that latent search retrieves although they share no word with the query;
# 5. explain what the first uncentred component is.
#
# Goes with `notebooks/05_lsi.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (each function you write is called
# on fresh random toy corpora) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the
# grader restores them. The set-up loads the corpus's LSI space ready-made (`datasets.load_corpus_space()`, the
# result of `lsi.lsi(corpus["text"], k=10, stop_words="english")`), because building it weighs the words with
# tf-idf, which Exercise 1 asks you to write. `lsi.tfidf` and `LSIResult.transform` answer the tf-idf and fold-in
# exercises, so the checks and the grader refuse them in your answers.
#
# **Notes.** CMU 36-467/667 slides "Linear dimension reduction", LSI section (tf-idf, unit-length
# documents, top words of the components, the 2-D map).

# %%
import numpy as np

import dimred_teach as dr
from dimred_teach import check, datasets, lsi

dr.setup_notebook()
corpus = datasets.load_corpus()
space = datasets.load_corpus_space()
print(corpus.shape, space.document_coordinates.shape)

# %% [markdown]
# ## Exercise 1 · Tf-idf by hand *(10 min, lecture §3)*
#
# Write `my_tfidf(counts)`: given a dense NumPy array of word counts, shape $(n, p)$ with rows as documents, return
# the tf-idf matrix of the course,
# $$x_{ij} = \frac{c_{ij}\,\mathrm{idf}_j}{\|(c_{i1}\mathrm{idf}_1, \dots, c_{ip}\mathrm{idf}_p)\|}, \qquad
# \mathrm{idf}_j = \log\frac{n}{\mathrm{df}_j},$$
# where $\mathrm{df}_j$ is the number of documents in which word $j$ occurs. Use NumPy only (not `lsi.tfidf`).
# You may assume every word occurs somewhere and every document keeps a non-zero row.

# %%
def my_tfidf(counts):
    """tf-idf weights with unit-length rows, shape (n, p)."""
    # BEGIN SOLUTION
    n = counts.shape[0]
    df = (counts > 0).sum(axis=0)
    weighted = counts * np.log(n / df)
    return weighted / np.linalg.norm(weighted, axis=1, keepdims=True)
    # END SOLUTION


# %% points=2
check("05.tfidf", my_tfidf)

# %% [markdown]
# ## Exercise 2 · Fold in a query *(10 min, lecture §7)*
#
# A query is folded into the latent space exactly as a document: weight its counts by the corpus's idf, scale to
# length 1, and project on the components. Write `fold_in(space, counts)`, where `space` is an (uncentred)
# `LSIResult` and `counts` holds how often each vocabulary word occurs in the query (shape $(p,)$); return the
# query's $k$ coordinates. Use `space.idf` and `space.term_coordinates` (not `space.transform`).

# %%
def fold_in(space, counts):
    """Latent coordinates of a query given by its word counts, shape (k,)."""
    # BEGIN SOLUTION
    weighted = counts * space.idf
    return weighted / np.linalg.norm(weighted) @ space.term_coordinates
    # END SOLUTION


# %% points=2
check("05.fold_in", fold_in)

# %% [markdown]
# ## Exercise 3 · Read a component *(5 min, lecture §6)*
#
# Write `top_words(term_coordinates, vocabulary, component, n)`: given the term coordinates of an LSI space (shape
# $(p, k)$, one row per word), its vocabulary ($p$ words, in the rows' order), a component index (counting from 0)
# and a number $n$, return the list of the $n$ words with the largest weights on that component, largest first.
# (`lsi.top_terms` does this for an `LSIResult`; here you get only the arrays.) Then read the component with
# index 2 of `space` (the corpus, `k=10`, English stop words removed; loaded in the first cell) from its five top
# words: which topic is this end of the component about?

# %%
def top_words(term_coordinates, vocabulary, component, n):
    """The n words with the largest weights on column `component` of term_coordinates (p x k), largest first."""
    # BEGIN SOLUTION
    order = np.argsort(term_coordinates[:, component])[::-1][:n]
    return [vocabulary[j] for j in order]
    # END SOLUTION


# %% points=1
check("05.top_words", top_words)

# %%
# BEGIN SOLUTION
print(top_words(space.term_coordinates, space.vocabulary, 2, 5))
# END SOLUTION

# %% [markdown] tags=["solution"]
# **Topic.** Music: singer, album, audience, tune, festival. The other end of this component holds visual art
# (gallery, show, painting, museum, painter): component index 2 contrasts music with art (see the map in the
# lecture notebook).
#
# **Rubric.**
#
# - 1 point: Names the topic (music) from the five top words.
# - 1 point: Notes that the other end of the component holds another topic (visual art): a component is a contrast.

# %% [markdown]
# ## Exercise 4 · A match without a shared word *(10 min, lecture §7)*
#
# Latent search folds the query into the latent space and ranks the documents by the cosine between their
# coordinates and the query's. Write `hidden_matches(ranking, texts, query)`: `ranking` holds the row numbers of the
# top latent-search results for `query`, best first, and `texts` the documents; return the row numbers of `ranking`
# whose text contains no word of the query (compare the words `lsi.tokenize` finds), in the ranking's order. The
# check hands your function rankings it computed on fresh toy corpora.
#
# Then search `space` for `"picture"` yourself: fold the query in with your `fold_in` from Exercise 2
# (`lsi.query_counts(space, "picture")` gives its counts), rank the documents by cosine with
# `lsi.rank_by_cosine(space.document_coordinates, coordinates, n=10)` (its column `"document"` is the ranking), and
# print the text of the first hidden match: why does latent search rank it so high?

# %%
def hidden_matches(ranking, texts, query):
    """The rows of ranking (latent-search results, best first) whose texts share no word with query, best first."""
    # BEGIN SOLUTION
    words = set(lsi.tokenize(query))
    return [int(row) for row in ranking if not words & set(lsi.tokenize(texts[row]))]
    # END SOLUTION


# %% points=1
check("05.hidden_match", hidden_matches)

# %%
# BEGIN SOLUTION
coordinates = fold_in(space, lsi.query_counts(space, "picture"))
ranking = lsi.rank_by_cosine(space.document_coordinates, coordinates, n=10)["document"]
print(corpus["text"][hidden_matches(ranking, corpus["text"], "picture")[0]])
# END SOLUTION

# %% [markdown] tags=["solution"]
# **Why.** The story says "painting" and uses the rest of the art vocabulary (museum, painter, portrait, brush,
# varnish). Across the corpus "picture" occurs with exactly these words, so the query "picture" folds in along the
# art direction of the latent space, where this story lies too. Keyword search gives it cosine 0.
#
# **Rubric.**
#
# - 1 point: The story shares the art vocabulary that co-occurs with "picture" across the corpus.
# - 1 point: So the folded-in query lies along the art direction of the latent space, where the story is; keyword
#   search gives it 0.

# %% [markdown]
# ## Exercise 5 · The first uncentred component (written) *(10 min, lecture §5)*
#
# Print the smallest weight of the first component of `space`. Explain in the markdown cell below why no weight
# is negative, and what centring the matrix (the notes' PCA, `center=True`) changes about the first component.

# %%
print(dr.rounded(space.term_coordinates[:, 0].min()))

# %% [markdown] exercise="05.uncentred_component" tags=["solution"]
# **Why.** The tf-idf matrix $X$ has no negative entry, so $X^\top X$ has none either. The first right singular vector
# maximises $v^\top X^\top X v$ over unit vectors; replacing $v$ by $|v|$ (entrywise) can only increase that sum,
# so a maximiser with all entries $\ge 0$ exists (Perron-Frobenius), and the sign rule makes it the positive one.
# It points roughly along the mean document: it describes what all documents share, not how they differ.
# Centring subtracts the mean document first; the first component then follows the direction of largest
# *variance*, the main contrast between topics (music against art in the notes), and has weights of both signs.
# The price is that the centred matrix is dense.
#
# **Rubric.**
#
# - 1 point: No negative entry in $X$ (so in $X^\top X$): taking $|v|$ cannot lower $v^\top X^\top X v$, so the
#   first vector can be taken non-negative.
# - 1 point: It points along the mean document: what all documents share.
# - 1 point: Centring removes the mean: the first component becomes the main contrast between topics, with weights
#   of both signs.
