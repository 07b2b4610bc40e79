# %% [markdown] slideshow={"slide_type": "slide"}
# # 05 · Latent semantic indexing: PCA for text
#
# **Represent each document by its words, weight the words, and let a truncated SVD find the few directions
# ("latent semantic dimensions") along which the words vary together.**
#
# *Time: about 60 minutes, plus about 10 for the optional last section.* *Prerequisites: notebooks 01-02 (PCA, the SVD, low-rank approximation).*
#
# **Learning objectives.** After this notebook you can
# 1. turn a corpus into a bag-of-words matrix (rows are documents) and say why it is stored as a sparse matrix;
# 2. compute tf-idf weights, explain why rare words are up-weighted and why documents are scaled to unit length;
# 3. compute LSI as a truncated SVD of the weighted matrix, and say what changes if you centre first (the notes' PCA);
# 4. read a component from the words at its two ends, and draw a 2-D map of the documents;
# 5. fold a query into the latent space and show that latent search finds documents that share no word with it;
# 6. choose the number of components k (and, in the optional last section, run the same code on thousands of
#    documents in seconds).
#
# **Notes followed.** CMU 36-467/667 slides "Linear dimension reduction", sections "Latent semantic
# indexing" and "LSI for the New York Times stories" (bag of words, idf weighting, unit-length documents, top
# words of PC1 and PC2, the 2-D map), and "Low-rank approximation" for the SVD view.
#
# **References.** CMU 36-467/667 notes, LSI section, which cite Deerwester et al. (1990), "Indexing by
# latent semantic analysis", and Landauer and Dumais (1997), "A solution to Plato's problem".
#
# **Conventions.** Rows are points: the document matrix $X$ is $n \times p$ with one row per document and one
# column per word. The notes run PCA, which centres the columns; classic LSI does not. Section 5 compares them.

# %% slideshow={"slide_type": "subslide"}
import importlib.util

if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)
    raise ModuleNotFoundError('the course package is not installed; run this in a cell, then restart the kernel: '
                              '%pip install "dimred-teach @ git+<the course\'s repository URL>"')

import time

import numpy as np
import matplotlib.pyplot as plt
import pandas as pd

import dimred_teach as dr
from dimred_teach import datasets, lsi
from dimred_teach.linalg import subspace_distance
from dimred_teach.pca import pca
from dimred_teach.plotting import score_scatter

dr.setup_notebook()

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 1. The corpus
#
# The notes analyse 102 New York Times stories about music and about art. We use a corpus written for this
# course: 174 short news-style texts, 40 each on music, visual art, cooking and sport, and 14 that mix two
# topics (a painter designing an opera set, food stalls at a music festival, ...).

# %% slideshow={"slide_type": "fragment"}
corpus = datasets.load_corpus()
print(corpus.shape)
print(corpus["topic"].value_counts().to_string())

# %% slideshow={"slide_type": "subslide"}
first = corpus[corpus["topic"] == "music"].iloc[0]
print(f"[{first.topic}] {first.title}\n{first.text}")

# %% [markdown] slideshow={"slide_type": "subslide"}
# Some word pairs are used as synonyms: a music story speaks of a *singer* or of a *vocalist*, a *song* or a
# *tune*, but each story uses one word of each pair. A keyword search for "vocalist" cannot find a story that only
# says "singer". Section 7 shows that LSI can.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 2. Bag of words
#
# A bag of words forgets the order of the words and keeps only how often each occurs. `tokenize` lowercases the
# text and keeps runs of letters; with `stop_words="english"` it also drops common function words ("the",
# "and", "she"), which carry little about the topic (the notes' top words include "she", "her", "i": noise of
# this kind).

# %% slideshow={"slide_type": "fragment"}
sentence = "The singer sang two songs, and the crowd sang the chorus back to her!"
print(lsi.tokenize(sentence))
print(lsi.tokenize(sentence, stop_words="english"))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The document matrix counts each word of the vocabulary in each document: $c_{ij}$ is how often word $j$
# occurs in document $i$.

# %% slideshow={"slide_type": "fragment"}
bag = lsi.term_document_matrix(corpus["text"], stop_words="english")
counts, vocabulary = bag.counts, bag.vocabulary
n, p = counts.shape
print(f"n = {n} documents, p = {p} words, {counts.nnz} non-zero counts")
print(f"fraction of non-zero entries: {dr.rounded(counts.nnz / (n * p))}")
print("first words of the vocabulary:", vocabulary[:6])

# %% [markdown] slideshow={"slide_type": "subslide"}
# About one entry in eighteen is non-zero: each document uses a few dozen of the vocabulary's words. A sparse
# matrix stores only the non-zero entries (value, column, and a pointer per row). Here that hardly matters, but
# for the standard-library corpus of the optional last section the dense matrix would be about a hundred times
# larger than the sparse one. A quick check that the counts are right: each row sums to the number of words the tokenizer kept.

# %% slideshow={"slide_type": "fragment"}
words_per_document = np.array([len(lsi.tokenize(text, stop_words="english")) for text in corpus["text"]])
print("row sums equal the token counts:", np.array_equal(counts.sum(axis=1), words_per_document))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 3. tf-idf: up-weight rare words, then scale each document to length 1
#
# A word that occurs in almost every document says little about any of them; a word that occurs in a few says a
# lot. The *inverse document frequency* of word $j$ is
# $$\mathrm{idf}_j = \log\frac{n}{\mathrm{df}_j}, \qquad \mathrm{df}_j = \#\{i : c_{ij} > 0\},$$
# and the weighted matrix has entries $c_{ij}\,\mathrm{idf}_j$, each row then divided by its Euclidean length:
# $$x_{ij} = \frac{c_{ij}\,\mathrm{idf}_j}{\big\|(c_{i1}\mathrm{idf}_1, \dots, c_{ip}\mathrm{idf}_p)\big\|}.$$
# A word in every document gets $\mathrm{idf} = \log 1 = 0$: it is ignored.

# %% slideshow={"slide_type": "fragment"}
weighted = lsi.tfidf(counts)
X, idf = weighted.matrix, weighted.idf
df = np.asarray((counts > 0).sum(axis=0)).ravel()
column = {word: j for j, word in enumerate(vocabulary)}
examples = ["new", "audience", "vocalist", "orchestra"]
table = pd.DataFrame({"df": [df[column[w]] for w in examples], "idf": [idf[column[w]] for w in examples]},
                     index=examples)
print(table)
print("idf = log(n / df) for every word:", np.allclose(idf, np.log(n / df)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# "new" occurs in about a third of the documents and gets a low weight; "orchestra" occurs in six and gets a
# high one.
# Now the rows: every document has length 1, whatever its number of words.

# %% slideshow={"slide_type": "fragment"}
row_lengths = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
print("all rows have length 1:", np.allclose(row_lengths, 1.0))
raw = counts @ np.diag(idf)
raw_lengths = np.linalg.norm(raw, axis=1)
print("correlation of the unscaled length with the number of words:",
      dr.rounded(np.corrcoef(raw_lengths, words_per_document)[0, 1]))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Without the scaling a document's length grows with its number of words (correlation above), so long documents
# would dominate the SVD and every similarity. With unit rows the dot product of two documents is the cosine
# of the angle between them, which depends on *which* words they use and in what proportions, not on how much
# they say. A toy corpus shows the zero column of a word that occurs everywhere:

# %% slideshow={"slide_type": "fragment"}
toy = ["the cat sat", "the dog sat", "the dog barked at the cat"]
toy_bag = lsi.term_document_matrix(toy)
toy_weighted = lsi.tfidf(toy_bag.counts)
print(toy_bag.vocabulary)
print(toy_weighted.matrix.toarray())

# %% [markdown] slideshow={"slide_type": "subslide"}
# "the" is in all three documents, so its column is zero; "barked" (one document) weighs more than "dog" (two).

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 4. LSI is a truncated SVD of the weighted matrix
#
# Write the SVD of the $n\times p$ matrix as $X = U S V^\top$. Keeping the $k$ largest singular values gives the
# closest rank-$k$ matrix to $X$ (the notes' low-rank approximation):
# $$X \approx X_k = U_k S_k V_k^\top, \qquad \|X - X_k\|_F^2 = \sum_{j>k} s_j^2 .$$
# The rows of $U_k S_k = X V_k$ are the documents' coordinates in the latent space; the columns of $V_k$ give each
# word's weight on each component. `lsi.lsi` computes only these $k$ triplets, with the Lanczos solver
# `scipy.sparse.linalg.svds`, which touches $X$ only through products $Xv$ and $X^\top u$, so the sparse matrix is
# never made dense.

# %% slideshow={"slide_type": "fragment"}
space = lsi.lsi(corpus["text"], k=10, stop_words="english")
print("singular values:", space.singular_values)
dense_singular_values = np.linalg.svd(X.toarray(), compute_uv=False)
print("same as the dense SVD:", np.allclose(space.singular_values, dense_singular_values[:10]))
print("coordinates = X V:", np.allclose(space.document_coordinates, X @ space.term_coordinates))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The sparse solver agrees with the dense SVD, and the document coordinates are the projections $XV_k$. The
# approximation error is the sum of the dropped squared singular values:

# %% slideshow={"slide_type": "fragment"}
X_k = space.document_coordinates @ space.term_coordinates.T
error = np.sum((X.toarray() - X_k) ** 2)
print("||X - X_k||^2         :", dr.rounded(error))
print("sum of dropped s_j^2  :", dr.rounded(np.sum(dense_singular_values[10:] ** 2)))
print(f"share of ||X||^2 kept by k = 10: {dr.rounded(space.explained_ratio.sum())}")

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 5. To centre or not to centre
#
# The notes run PCA (`prcomp`), which subtracts the mean document first. Classic LSI takes the SVD of $X$ itself,
# and so does `lsi.lsi` by default: centring destroys sparsity (every zero becomes minus a column mean), and search
# by cosine does not need centred data. What does the first uncentred component look like?

# %% slideshow={"slide_type": "fragment"}
mean_document = np.asarray(X.mean(axis=0)).ravel()
v1 = space.term_coordinates[:, 0]
print("cosine(component 1, mean document):", dr.rounded(v1 @ mean_document / np.linalg.norm(mean_document)))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The first component points almost along the mean document (a cosine of 0.98). (Its weights also share one sign;
# why that must happen for any matrix without negative entries is exercise 5 of the set.) The first uncentred component says "this is a document of this
# corpus"; the contrasts between topics come next. The centred version (the notes' PCA) is available without densifying, `center=True`. Its first three components
# span almost the same space as uncentred components 2 to 4:

# %% slideshow={"slide_type": "fragment"}
centred = lsi.lsi(corpus["text"], k=10, stop_words="english", center=True)
print("distance between the subspaces:",
      dr.rounded(subspace_distance(centred.term_coordinates[:, :3], space.term_coordinates[:, 1:4])))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The distance is the sine of the largest angle between the two subspaces (0: the same, 1: some direction of one
# is orthogonal to the other); about 15 degrees here. Centring mostly removes the average-document direction and
# keeps the contrasts. (Single components need not match: uncentred components 3 and 4 have almost equal singular
# values, so centring may pick another pair of directions in their plane.)
#
# Which contrast comes first once the matrix is centred? On the whole corpus, the words at the two ends of the
# first centred component:

# %% slideshow={"slide_type": "fragment"}
first_centred = lsi.top_terms(centred, component=0, n=5)
print(first_centred)
assert {"coach", "team"} <= set(first_centred["positive"]) and "singer" in set(first_centred["negative"])

# %% [markdown] slideshow={"slide_type": "subslide"}
# Sport (coach, half, club, team) against music (singer, show, album): on the full corpus the largest variance is
# between sport and music, the two topics farthest apart in section 6's map. The notes' "music against art"
# appears on their corpus, which has only those two topics; to see it here, keep only those stories.
#
# ### Music against art, as in the notes
#
# To mirror the New York Times example we keep the music and art stories (and the stories that mix them) and run
# the notes' analysis: PCA of the tf-idf matrix, i.e. `center=True`. First a check that this is PCA: the course's
# `pca` on the dense matrix gives the same components and variances $\lambda_j = s_j^2/(n-1)$.

# %% slideshow={"slide_type": "fragment"}
music_art = corpus[corpus["topic"].isin(["music", "art", "music+art"])].reset_index(drop=True)
ma_space = lsi.lsi(music_art["text"], k=5, stop_words="english", center=True)
ma_pca = pca(ma_space.matrix.toarray(), k=5)
print(len(music_art), "stories")
print("same components as PCA:", np.allclose(ma_pca.components, ma_space.term_coordinates))
print("variances s^2/(n-1) equal PCA's eigenvalues:",
      np.allclose(ma_space.singular_values**2 / (len(music_art) - 1), ma_pca.eigenvalues))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The words at the two ends of the first component:

# %% slideshow={"slide_type": "fragment"}
print(lsi.top_terms(ma_space, component=0, n=12))

# %% [markdown] slideshow={"slide_type": "subslide"}
# One end is music (singer, album, tune, festival, gig, vocalist), the other visual art (painting, painter, museum,
# gallery, artist, picture): the notes' "music vs. art". Both words of the synonym pairs singer / vocalist, song /
# tune and painter / artist sit at the same end, although no story uses both words of a pair. The second
# component:

# %% slideshow={"slide_type": "fragment"}
print(lsi.top_terms(ma_space, component=1, n=8))

# %% [markdown] slideshow={"slide_type": "subslide"}
# The second component splits the music stories: the concert hall (Bartok, quartet, orchestra, opera) against
# popular music (album, festival, singer, tune, song). "bartok" and "quartet" have exactly the same weight because
# they always occur together, twice in each of six stories, in two sentences written from one template ("A string
# quartet from ... gave a concert of Haydn and Bartok", "The quartet will record the Bartok in ..."):

# %% slideshow={"slide_type": "fragment"}
texts = music_art["text"].str.lower()
bartok, quartet = texts.str.count(r"\bbartok\b"), texts.str.count(r"\bquartet\b")
print("stories with bartok:", int((bartok > 0).sum()), "| same counts as quartet in every story:",
      bool((bartok == quartet).all()), "| counts per story:", sorted(set(bartok[bartok > 0])))
assert (bartok > 0).sum() == 6 and (bartok == quartet).all() and set(bartok[bartok > 0]) == {2}

# %% [markdown] slideshow={"slide_type": "subslide"}
# Equal weights come from equal columns, and here the columns are equal because of a template, not a topic. That
# is a caution the notes also make: a component is a pattern of co-occurrence, whatever produced it, and it should
# not be reified into a "topic" without looking at the documents.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 6. A map of the documents
#
# Each document gets coordinates on every component. We plot uncentred components 2 and 3 (the first is the
# "average document" direction) for the whole corpus, coloured by topic.

# %% alt="LSI map of the course corpus: documents on uncentred components 2 and 3, coloured by topic. Music lies at the top left, art at the bottom left and sport on the right (football farthest out), cooking near the middle, and the mixed stories between their two topics." slideshow={"slide_type": "fragment"}
fig, ax = plt.subplots(figsize=(7, 5))
score_scatter(space.document_coordinates, corpus["topic"].astype(str), ax=ax, components=(1, 2),
              labels=("component 2", "component 3"), title="LSI map of the course corpus")
ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5))
plt.show()

# %% [markdown] slideshow={"slide_type": "subslide"}
# Music (top left), art (bottom left) and sport (right) lie far apart, cooking near the middle; the mixed stories
# sit between their two topics. Sport splits in two: football on the far right, the other sports nearer the
# centre (they share fewer words with the football stories than those share with each other). As
# in the notes, two components are enough to separate the topics. Cooking is not lost in the middle: the next
# component picks it out.

# %% slideshow={"slide_type": "fragment"}
cooking = corpus["topic"] == "cooking"
print("mean coordinate 4 of cooking stories:", dr.rounded(space.document_coordinates[cooking, 3].mean()))
print("mean coordinate 4 of the others     :", dr.rounded(space.document_coordinates[~cooking, 3].mean()))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 7. Search in the latent space
#
# A query is a tiny document. *Folding it in* means weighting it like the corpus (counts times the corpus's idf,
# scaled to length 1) and projecting it on the components, $z = q^\top V_k$, exactly as each document $x_i$ maps to
# its coordinates $x_i^\top V_k$. Documents are then ranked by the cosine between $z$ and their coordinates.
# Keyword search ranks them by the cosine in the full word space instead (`space="terms"`), so a document that
# shares no word with the query scores 0.

# %% slideshow={"slide_type": "fragment"}
query = "vocalist"
keyword = lsi.search(space, query, n=10, space="terms")
latent = lsi.search(space, query, n=10, space="latent")
has_word = corpus["text"].str.lower().str.contains(r"\bvocalist\b")


def describe(hits):
    """The hits with their topic, title and whether they contain the query word."""
    rows = corpus.loc[hits["document"], ["topic", "title"]].reset_index(drop=True)
    rows.index = hits.index
    return pd.concat([hits, rows, has_word[hits["document"]].rename("has_word").set_axis(hits.index)], axis=1)


print(describe(latent))

# %% [markdown] slideshow={"slide_type": "subslide"}
# All ten are music stories, and most of them never use the word "vocalist": they say "singer", which the
# latent space has learned to place in the same direction because both words occur with the same neighbours
# (album, audience, tune, ...). Keyword search finds only the stories that contain the word. To compare the two
# with numbers, take one synonym query per topic and count the relevant stories (of that topic, or a mix with it)
# among the top 40 hits (each topic has 40 pure stories, plus a few mixed ones).

# %% slideshow={"slide_type": "fragment"}
queries = {"vocalist": "music", "picture": "art", "cook": "cooking", "manager": "sport"}
relevant_topic = corpus["topic"].astype(str)


def precision_at(space_result, query, topic, space_name, n_top=40):
    hits = lsi.search(space_result, query, n=n_top, space=space_name)["document"]
    return float(relevant_topic[hits].str.contains(topic).mean())


comparison = pd.DataFrame(
    {name: [precision_at(space, q, topic, name) for q, topic in queries.items()] for name in ["terms", "latent"]},
    index=list(queries))
comparison.columns = ["keyword precision@40", "latent precision@40"]
print(comparison)
print("mean:", dr.rounded(comparison.mean().to_numpy()))

# %% [markdown] slideshow={"slide_type": "subslide"}
# Keyword search's precision is limited by how many stories contain the query word: after those, every other
# story scores 0 and the rest of the list is filled arbitrarily (ties go to the lower row number). Latent search
# fills its list with stories of the right topic. A single document shows the difference:

# %% slideshow={"slide_type": "fragment"}
singer_only = next(int(d) for d in latent["document"] if not has_word[d])
keyword_all = lsi.search(space, query, n=n, space="terms").set_index("document")["score"]
latent_all = lsi.search(space, query, n=n, space="latent").set_index("document")["score"]
print(corpus.loc[singer_only, "title"])
print("keyword cosine:", dr.rounded(keyword_all[singer_only]), "| latent cosine:", dr.rounded(latent_all[singer_only]))

# %% [markdown] slideshow={"slide_type": "slide"}
# ## 8. Choosing k
#
# Two views. The singular values say how much of $\|X\|_F^2$ each component carries; search says how useful the
# space is. With $k=1$ every document sits on one line and search cannot tell topics apart; with $k$ equal to the
# rank of $X$ the latent space is the whole row space and latent search ranks like keyword search. Somewhere in
# between the synonyms are merged and the topics kept apart.

# %% alt="Two panels. Left: the share of the squared Frobenius norm carried by each of the first 30 components: the first four stand out and the rest decay slowly. Right: mean precision at 40 of latent search against k on a log axis: it rises to 1.0 at k = 3 and 4 and falls back towards the dashed keyword-search level as k approaches the rank, 174." slideshow={"slide_type": "fragment"}
share = dense_singular_values**2 / np.sum(dense_singular_values**2)
ks = [1, 2, 3, 4, 5, 8, 10, 15, 20, 30, 50, 100, n]
spaces = {k: lsi.lsi(corpus["text"], k=k, stop_words="english") for k in ks}
mean_precision = [np.mean([precision_at(spaces[k], q, t, "latent") for q, t in queries.items()]) for k in ks]

fig, axes = plt.subplots(1, 2, figsize=(10, 3.5))
axes[0].plot(np.arange(1, 31), share[:30], "o-", ms=3)
axes[0].set(xlabel="component", ylabel="share of ||X||^2", title="Singular values squared")
axes[1].semilogx(ks, mean_precision, "o-", label="latent")
axes[1].axhline(comparison.iloc[:, 0].mean(), color="grey", ls="--", label="keyword")
axes[1].set(xlabel="k", ylabel="mean precision@40", title="Search quality against k")
axes[1].legend()
plt.show()
print(pd.Series(mean_precision, index=ks, name="mean precision@40").to_string())

# %% [markdown] slideshow={"slide_type": "subslide"}
# The first four components stand out (one for the average document, then one per contrast between the four
# topics), a few more follow for the sub-topics (football against other sports, concert hall against popular
# music), and the rest of the spectrum decays slowly, as usual for text. Search is best with three or four
# components, as many as the corpus has topics; more components bring back the distinctions between individual
# words and sub-topics, and precision falls towards keyword quality as $k$ approaches the rank
# (174 here). At full rank the projection $V_k V_k^\top$ keeps every document unchanged, so each latent cosine is
# the keyword cosine times one constant, $\|q\| / \|V_k^\top q\|$, and the ranking is the same:

# %% slideshow={"slide_type": "fragment"}
full = spaces[n]
latent_full = lsi.search(full, query, n=n, space="latent").sort_values("document")["score"].to_numpy()
keyword_full = lsi.search(full, query, n=n, space="terms").sort_values("document")["score"].to_numpy()
q = full.weigh([query]).toarray().ravel()
constant = np.linalg.norm(q) / np.linalg.norm(q @ full.term_coordinates)
print("latent cosine = constant x keyword cosine:", np.allclose(latent_full, constant * keyword_full))
print("same precision@40 as keyword search:", mean_precision[-1] == comparison.iloc[:, 0].mean())

# %% [markdown] slideshow={"slide_type": "subslide"}
# In practice $k$ is chosen by the task: a few hundred components for a large collection (Deerwester et al.
# used about 100), fewer for a small one, and checked, as here, on queries with known answers.
#
# ### LSI coordinates as features for a classifier
#
# The CMU notes also suggest using the LSI scores as the inputs of a classifier. The components are learnt
# without labels, so they can come from every text at hand while only a few stories carry a label. Keep 15 stories
# of each pure topic aside as a test set, learn $k = 4$ components from the other 100 texts (their labels unused),
# and classify each test story by the nearest topic centroid (cosine), with only **one** labelled story per topic:

# %% slideshow={"slide_type": "fragment"}
pure = corpus[corpus["topic"].isin(["music", "art", "cooking", "sport"])].reset_index(drop=True)
label = pure["topic"].astype(str).to_numpy()
draw = np.random.default_rng(0)
test = np.zeros(len(pure), dtype=bool)
for topic in np.unique(label):
    test[draw.choice(np.flatnonzero(label == topic), 15, replace=False)] = True
features = lsi.lsi(pure["text"][~test].tolist(), k=4, stop_words="english")
test_texts = pure["text"][test].tolist()
inputs = {"LSI, k = 4": (features.document_coordinates, features.transform(test_texts)),
          "tf-idf words": (features.matrix.toarray(), features.weigh(test_texts).toarray())}

# %% slideshow={"slide_type": "subslide"}
def nearest_centroid_accuracy(train_x, train_y, test_x, test_y):
    """Share of test rows whose most cosine-similar class centroid is their class."""
    classes = np.unique(train_y)
    centroids = np.array([train_x[train_y == c].mean(axis=0) for c in classes])
    cosines = test_x @ centroids.T / np.linalg.norm(centroids, axis=1) / np.linalg.norm(test_x, axis=1)[:, None]
    return float(np.mean(classes[np.argmax(cosines, axis=1)] == test_y))


def mean_accuracy(per_topic, train_label=label[~test]):
    """Mean test accuracy of each input over 20 draws of ``per_topic`` labelled stories per topic."""
    accuracy = {name: [] for name in inputs}
    for repeat in range(20):
        pick = np.random.default_rng(100 + repeat)
        chosen = np.concatenate([pick.choice(np.flatnonzero(train_label == c), per_topic, replace=False)
                                 for c in np.unique(train_label)])
        for name, (train_x, test_x) in inputs.items():
            accuracy[name].append(nearest_centroid_accuracy(train_x[chosen], train_label[chosen], test_x, label[test]))
    return {name: dr.rounded(np.mean(values)) for name, values in accuracy.items()}


one, five = mean_accuracy(1), mean_accuracy(5)
print("one labelled story per topic:", one, "\nfive per topic:", five)
assert one["LSI, k = 4"] == 1.0 and 0.93 < one["tf-idf words"] < 0.95 and set(five.values()) == {1.0}

# %% [markdown] slideshow={"slide_type": "subslide"}
# With one labelled story per topic, the four LSI coordinates classify all 60 test stories correctly in every
# draw, and the full word space gets 94% right: a single story uses only some of its topic's words, and the latent
# space has already merged them with their neighbours. With more labels the two meet (this corpus is easy: five
# per topic classify every test story correctly either way). The unlabelled texts did part of the learning, which
# is the usual reason to put a dimension reduction in front of a classifier.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Summary
#
# - A corpus becomes a sparse $n\times p$ matrix of word counts; tf-idf up-weights rare words
#   ($\log n/\mathrm{df}$) and unit-length rows make dot products cosines.
# - LSI is the truncated SVD $X \approx U_k S_k V_k^\top$; the rows of $U_k S_k$ are document coordinates and the
#   columns of $V_k$ word weights, read from their two ends. Uncentred (classic LSI, sparse) the first component
#   is the average document; centred (the notes' PCA) the first component is the main contrast: sport against
#   music on the whole corpus, music against art on the notes' two topics.
# - Folding a query in ($q^\top V_k$) and ranking by cosine finds documents that share no word with the query,
#   because synonyms share neighbours. $k$ trades merging synonyms against merging topics; at full rank LSI is
#   keyword search again.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Going further (optional): scaling up to the Python standard library's docstrings
#
# Real collections have thousands of documents and tens of thousands of words. A corpus that needs no download:
# every docstring of the standard library of the running Python, read from the source files (nothing is imported).
# Its exact content depends on the Python version, so this section prints only sizes and timings, in cells whose
# output nbval ignores, and asserts what must hold.

# %% slideshow={"slide_type": "fragment"} tags=["nbval-ignore-output"]
start = time.perf_counter()
docs = datasets.load_stdlib_docstrings()
load_seconds = time.perf_counter() - start
start = time.perf_counter()
big = lsi.lsi(docs["text"], k=20, stop_words="english", min_df=2)
lsi_seconds = time.perf_counter() - start
big_n, big_p = big.matrix.shape
print(f"{big_n} docstrings, {big_p} words, {big.matrix.nnz} non-zeros "
      f"({100 * big.matrix.nnz / (big_n * big_p):.2f}% of the matrix)")
print(f"dense float64 matrix: {big_n * big_p * 8 / 1e6:.0f} MB; sparse: "
      f"{(big.matrix.data.nbytes + big.matrix.indices.nbytes + big.matrix.indptr.nbytes) / 1e6:.1f} MB")
print(f"loading: {load_seconds:.1f} s, tf-idf + truncated SVD with k = 20: {lsi_seconds:.1f} s")

# %% slideshow={"slide_type": "subslide"}
assert big_n > 2000 and big_p > 2000, "the standard library has thousands of docstrings and words"
assert big.matrix.nnz < 0.05 * big_n * big_p, "the document matrix is sparse"
assert lsi_seconds < 30, "the sparse path takes seconds, not minutes"
print("thousands of documents, sparse, fast: True")

# %% [markdown] slideshow={"slide_type": "subslide"}
# The dense matrix would take a few hundred MB; the sparse one takes a couple of MB, and the truncated SVD needs
# only products with it. Search runs the same way, but $k = 20$ is coarse for thousands of docstrings on every
# topic: in the run stored here only two of the five hits are about zip archives, and the others merely share the
# vocabulary of files. A larger $k$ separates the topics better (section 8's trade-off again): the second list
# uses $k = 100$. (The hits depend on your Python version.)

# %% slideshow={"slide_type": "fragment"} tags=["nbval-ignore-output"]
for space_k in (big, lsi.lsi(docs["text"], k=100, stop_words="english", min_df=2)):
    hits = lsi.search(space_k, "compress a file into a zip archive", n=5)
    print(f"k = {space_k.k}:")
    print(docs.loc[hits["document"], ["module", "name"]].assign(score=hits["score"].to_numpy()))
