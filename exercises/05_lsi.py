# %% [markdown]
# # Exercises 05 · Latent semantic indexing
#
# *Time: about 45 minutes.*
#
# **Objectives.** After this set you can
# 1. compute tf-idf weights by hand;
# 2. fold a query into the latent space;
# 3. read a component from its top words;
# 4. find a document that latent search retrieves although it shares no word with the query;
# 5. explain what the first uncentred component is.
#
# Goes with `notebooks/05_lsi.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random toy corpora) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the
# grader restores them. The set-up uses `dimred_teach.lsi`, but `lsi.tfidf` and `LSIResult.transform` answer the
# tf-idf and fold-in exercises, so the checks and the grader refuse them in your answers.
#
# **Notes.** CMU 36-467/667 slides "Linear dimension reduction", LSI section (tf-idf, unit-length
# documents, top words of the components, the 2-D map).

# %%
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import numpy as np

import dimred_teach as dr
from dimred_teach import check, datasets, lsi

dr.setup_notebook()
corpus = datasets.load_corpus()
space = lsi.lsi(corpus["text"], k=10, stop_words="english")
print(corpus.shape, space.matrix.shape)


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
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
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
    raise NotImplementedError("exercise: replace this line with your code")


# %% tags=["check"] points=2
check("05.fold_in", fold_in)

# %% [markdown]
# ## Exercise 3 · Read a component *(5 min, lecture §6)*
#
# For `space` (the corpus, `k=10`, English stop words removed; built in the first cell), find the five words with
# the largest weights on the component with index 2 (the third component, counting from 0). Store them in a list
# `top_words`. Which topic is this end of the component about?

# %%
# YOUR CODE HERE
top_words = ...

# %% tags=["check"] points=1
check("05.top_words", top_words)

# %% [markdown]
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 4 · A match without a shared word *(10 min, lecture §7)*
#
# Search `space` for the query `"picture"`. Find the row number `hidden_match` of a document that is among the top
# 10 latent-search results although neither "picture" nor "pictures" occurs in it. Then print its text: why does
# latent search rank it so high?

# %%
# YOUR CODE HERE
hits = ...
hidden_match = ...

# %% tags=["check"] points=1
check("05.hidden_match", hidden_match)

# %% [markdown]
# **Your answer:** *(write it here)*

# %% [markdown]
# ## Exercise 5 · The first uncentred component (written) *(10 min, lecture §5)*
#
# Print the smallest weight of the first component of `space`. Explain in the markdown cell below why no weight
# is negative, and what centring the matrix (the notes' PCA, `center=True`) changes about the first component.

# %%
print(dr.rounded(space.term_coordinates[:, 0].min()))

# %% [markdown]
# **Your answer:** *(write it here)*
