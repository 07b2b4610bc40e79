"""A class of set 04 for the similarity tests: six honest ways to write classical MDS, one of
them copied in disguise, one pasted from the course's library, in two folders (a class graded
in shards is read from every folder)."""

from __future__ import annotations

import inspect
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]

HONEST = {  # six ways to write classical MDS, each a student's own
    "eigh": '''def my_classical_mds(D, k):
    n = D.shape[0]
    J = np.eye(n) - np.ones((n, n)) / n
    B = -0.5 * J @ (D ** 2) @ J
    w, V = np.linalg.eigh(B)
    order = np.argsort(w)[::-1][:k]
    return V[:, order] * np.sqrt(np.maximum(w[order], 0))
''',
    "svd": '''def my_classical_mds(D, k):
    D2 = np.asarray(D, dtype=float) ** 2
    row = D2.mean(axis=1, keepdims=True)
    col = D2.mean(axis=0, keepdims=True)
    B = -(D2 - row - col + D2.mean()) / 2
    U, s, _ = np.linalg.svd(B)
    return U[:, :k] * np.sqrt(s[:k])
''',
    "loops": '''def my_classical_mds(D, k):
    n = len(D)
    B = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            B[i, j] = D[i, j] ** 2
    means = B.mean(axis=0)
    B = B - means[None, :] - means[:, None] + means.mean()
    B *= -0.5
    values, vectors = np.linalg.eigh(B)
    values, vectors = values[::-1], vectors[:, ::-1]
    Z = np.empty((n, k))
    for c in range(k):
        Z[:, c] = vectors[:, c] * np.sqrt(max(values[c], 0.0))
    return Z
''',
    "subset": '''import scipy.linalg

def my_classical_mds(D, k):
    n = D.shape[0]
    H = np.identity(n) - 1.0 / n
    gram = -H.dot(np.square(D)).dot(H) / 2.0
    lam, vec = scipy.linalg.eigh(gram, subset_by_index=[n - k, n - 1])
    lam, vec = lam[::-1], vec[:, ::-1]
    return vec @ np.diag(np.sqrt(np.clip(lam, 0, None)))
''',
    "eig": '''def my_classical_mds(D, k):
    sq = D * D
    n = sq.shape[0]
    centre = np.full((n, n), -1.0 / n) + np.eye(n)
    inner = centre.dot(sq).dot(centre) * -0.5
    evals, evecs = np.linalg.eig(inner)
    evals, evecs = evals.real, evecs.real
    idx = evals.argsort()[-k:][::-1]
    lengths = np.sqrt(np.abs(evals[idx]))
    return evecs[:, idx] * lengths
''',
    "outer": '''def my_classical_mds(D, k):
    n = D.shape[0]
    ones = np.ones(n) / n
    D2 = D ** 2
    B = -0.5 * (D2 - np.outer(D2 @ ones, np.ones(n)) - np.outer(np.ones(n), ones @ D2) + ones @ D2 @ ones)
    vals, vecs = np.linalg.eigh((B + B.T) / 2)
    top = vals.argsort()[::-1][:k]
    scale = np.sqrt(np.clip(vals[top], a_min=0.0, a_max=None))
    return np.einsum("ij,j->ij", vecs[:, top], scale)
''',
}
DISGUISED = '''def my_classical_mds(dist, dims):
    # classical MDS: double centring, then the eigendecomposition
    size = len(dist)
    gram = np.zeros((size, size))   # the squared distances first


    for a in range(size):
        for b in range(size): gram[a, b] = dist[a, b]**2
    m = gram.mean(axis = 0)
    # centre the rows and the columns
    gram = gram - m[None,:] - m[:,None] + m.mean()
    gram *= -0.5
    ev, evec = np.linalg.eigh(gram)
    ev, evec = ev[::-1], evec[:,::-1]   # largest first
    out = np.empty((size, dims))
    for col in range(dims):
        out[:,col] = evec[:,col]*np.sqrt(max(ev[col],0.0))
    return out
'''
"""The "loops" answer with every name changed, re-formatted and commented."""
RIGHT_B = "B = -0.5 * (D2 - D2.mean(axis=0) - D2.mean(axis=1)[:, None] + D2.mean())"


def library_copy() -> str:
    """The course library's classical MDS pasted in under the exercise's name."""
    from dimred_teach import mds

    source = inspect.getsource(mds.classical_mds)
    return "def my_classical_mds(D, k, squared=False):\n" + source.split("\n", 1)[1]


def exercise_notebook(mds_code: str, b_code: str = RIGHT_B) -> nbformat.NotebookNode:
    """Set 04's exercise notebook with its first two answers filled in."""
    notebook = nbformat.read(ROOT / "exercises" / "04_mds.ipynb", as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.startswith("def my_classical_mds"):
            cell.source = mds_code
        elif cell.cell_type == "code" and "B = ..." in cell.source:
            cell.source = b_code
    return notebook


WRONG_B = {"svd": "B = D2 - D2.mean(axis=0) - D2.mean(axis=1)[:, None] + D2.mean()",
           "eig": "B = -0.5 * (D2 - D2.mean(axis=0))"}
CLASS = {"section-a/ana": HONEST["loops"], "section-b/bo": DISGUISED, "section-a/cy": library_copy(),
         **{f"section-{'ab'[number % 2]}/{name}": code for number, (name, code) in enumerate(HONEST.items())
            if name != "loops"}}
"""Two folders (a class graded in shards reads every folder): ana wrote "loops", bo copied it in
disguise, cy pasted the library; five more wrote their own. Every right answer to the one-line
04.recover_b is the same; two students got it wrong (:data:`WRONG_B`)."""


def write_class(folder: Path) -> None:
    """:data:`CLASS` as exercise notebooks in ``folder``."""
    for who, code in CLASS.items():
        (folder / who).mkdir(parents=True)
        nbformat.write(exercise_notebook(code, WRONG_B.get(Path(who).name, RIGHT_B)), folder / who / "04_mds.ipynb")
