"""``dimred-teach new NN slug "Title"``: scaffold a lecture and its exercise set.

The scaffold is a small course unit that already works, written in the order the build
needs: the checks module (``dimred_teach/checks/setNN.py``, with a real property check),
its proofs (``tests/check_cases/setNN.py``, a correct variant and typical mistakes), the
solution source (one exercise: the mean of each column, with its check cell), the lecture
source (the course's header and one section), and last the manifest row. It then executes
the lecture and the solution, so that ``dimred-teach build`` and the check proofs pass on
it as generated; the lecturer replaces the example with the lecture's content.
"""

from __future__ import annotations

from pathlib import Path

from .exercises import install_guard
from .manifest import MANIFEST, NUMBER, Lecture, check_new_slug, course_repository, manifest_row, read_manifest

__all__ = ["scaffold"]

MINUTES = 30
EXERCISE_MINUTES = 10


def _checks_module(number: str, title: str) -> str:
    return f'''"""Checks of exercise set {number}, {title}."""

from __future__ import annotations

import numpy as np

from . import register
from .properties import answer_array, expect, expect_close, in_random_order, is_close

FORBIDS = ()
"""What this set's answers may not use (modules or functions of the library)."""

MISTAKES = {{
    "divides-by-n-minus-1": "divided by n - 1 instead of n",
    "not-centring": "means that do not centre the columns",
}}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


def _data(rng: np.random.Generator) -> np.ndarray:
    """A fresh data set with more rows than columns and columns far from zero, shape (n, p)."""
    n, p = int(rng.integers(5, 30)), int(rng.integers(2, 5))
    return rng.normal(loc=rng.uniform(-10, 10, size=p), scale=rng.uniform(0.5, 3.0, size=p), size=(n, p))


@register("{number}.column_means", hint="sum each column over the rows and divide by the number of rows n")
def _column_means(answer, rng):
    for X in in_random_order(rng, [_data(rng) for _ in range(int(rng.integers(4, 7)))]):
        n, p = X.shape
        means = answer_array(answer(X.copy()), "column_means(X)", shape=(p,))
        expect(not is_close(means, X.sum(axis=0) / (n - 1), 1e-9),
               "column_means(X) divides by n - 1: a mean divides the column's sum by the number of rows n",
               mistake="divides-by-n-minus-1")
        expect_close((X - means).sum(axis=0), np.zeros(p),
                     "subtracting column_means(X) from every row should leave columns that sum to zero",
                     scale=float(np.abs(X).sum(axis=0).max()), mistake="not-centring")
'''


def _check_cases(number: str, title: str) -> str:
    return f'''"""Variants and mutants of exercise set {number}, {title}."""

import numpy as np

from . import Mutant, Variant, in_float32, solution

CASES = {{
    "{number}.column_means": (
        [
            Variant("the solution", solution("{number}.column_means")),
            Variant("float32", lambda: in_float32(solution("{number}.column_means")())),
            Variant("a loop over the rows", lambda: lambda X: sum(row for row in X) / len(X)),
        ],
        [
            Mutant("row means", lambda: lambda X: X.mean(axis=1), r"shape", "wrong-form"),
            Mutant("divides by n - 1", lambda: lambda X: X.sum(axis=0) / (len(X) - 1), r"divides by n - 1",
                   "divides-by-n-minus-1"),
            Mutant("the column sums", lambda: lambda X: X.sum(axis=0), r"sum to zero", "not-centring"),
        ],
    ),
}}
'''


def _solution_source(lecture: Lecture) -> str:
    n = lecture.number
    return f'''# %% [markdown]
# # Solutions {n} · {lecture.title}
#
# *Time: about {EXERCISE_MINUTES} minutes.*
#
# **Objectives.** After this set you can
# 1. compute the mean of each column of a data matrix.
#
# Goes with `notebooks/{lecture.stem}.ipynb`.
#
# Each exercise ends with a `check(...)` cell. It tests *properties* of your answer (a function you write is called
# on fresh random data) and prints `[passed]` or `[not yet]` with a hint. Do not edit the check cells: the grader
# restores them.

# %%
import numpy as np

import dimred_teach as dr
from dimred_teach import check

dr.setup_notebook()

# %% [markdown]
# ## Exercise 1 · The mean of each column *({EXERCISE_MINUTES} min, lecture §1)*
#
# Write `column_means(X)` returning the length-$p$ vector of the column means of the $n\\times p$ matrix `X`
# (rows are points): $\\bar x_j = \\frac1n \\sum_i x_{{ij}}$.

# %%
def column_means(X):
    """The mean of each column of X, shape (p,), for X of shape (n, p)."""
    return X.sum(axis=0) / X.shape[0]  # SOLUTION


# %%
check("{n}.column_means", column_means)
'''


def _lecture_source(lecture: Lecture) -> str:
    guard = install_guard(course_repository(lecture.root))  # build --check requires it in the first code cell
    return f'''# %% [markdown]
# # {lecture.number} · {lecture.title}
#
# **{lecture.summary}**
#
# *Time: {lecture.time}.* *Prerequisites: notebook 01.*
#
# **Learning objectives.** After this notebook you can
# 1. centre a data matrix by subtracting its column means, and check that the centred columns sum to zero.
#
# **Notes followed.** Name here the sections of the lecture notes this lecture follows (and list them in
# `{MANIFEST}`).
#
# **Conventions.** Rows are points: $\\mathbf X$ is $n \\times p$.

# %%
{guard}
import numpy as np

import dimred_teach as dr
from dimred_teach.datasets import load_crabs

dr.setup_notebook()

# %% [markdown]
# ## 1. Centring
#
# The mean of column $j$ is $\\bar x_j = \\frac1n\\sum_i x_{{ij}}$; subtracting it from every row centres the data,
# and each centred column then sums to zero.

# %%
X = load_crabs()[["FL", "RW", "CL", "CW", "BD"]].to_numpy()
means = X.mean(axis=0)
centred = X - means
print("column means:", dr.rounded(means))
print("largest column sum after centring:", dr.rounded(np.abs(centred.sum(axis=0)).max()))
assert np.allclose(centred.sum(axis=0), 0)

# %% [markdown]
# ## Summary
#
# * Centring subtracts the column means; the centred columns sum to zero.
#
# **Exercises:** `exercises/{lecture.stem}.ipynb`.
'''


def scaffold(root: Path, number: str, slug: str, title: str, execute: bool = True) -> list[Path]:
    """Write lecture ``number``'s sources and its manifest row under ``root``; returns the files written.

    Raises ValueError naming the argument when ``number`` is not the next lecture's, ``slug``
    is not lowercase words joined by ``_``, ``title`` is empty, or a file already exists.
    """
    root = Path(root).resolve()
    lectures = read_manifest(root)
    expected = f"{len(lectures) + 1:02d}"
    if not NUMBER.fullmatch(str(number)) or number != expected:
        raise ValueError(f"number must be the next lecture's, {expected!r}; got {number!r}")
    check_new_slug(lectures, slug)
    title = title.strip()
    if not title or "\n" in title:
        raise ValueError("title must be one non-empty line")
    lecture = Lecture(root=root, number=number, slug=slug, title=title, minutes=MINUTES,
                      summary=f"{title}: centring a data matrix (the scaffold's example; replace it).",
                      notes=(), exercises=True)
    files = {
        root / "dimred_teach" / "checks" / f"set{number}.py": _checks_module(number, title),
        root / "tests" / "check_cases" / f"set{number}.py": _check_cases(number, title),
        lecture.solution_source: _solution_source(lecture),
        lecture.lecture_source: _lecture_source(lecture),
    }
    existing = [str(path) for path in files if path.exists()]
    if existing:
        raise ValueError(f"number: lecture {number} has files already: {', '.join(existing)}")
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    from .slides import annotate_source

    annotate_source(lecture.lecture_source)
    manifest = root / MANIFEST
    manifest.write_text(manifest.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + manifest_row(
        number, slug, title, MINUTES, lecture.summary, [], True), encoding="utf-8")
    written = [*files, manifest]
    if execute:
        from .execution import execute_source

        written += [execute_source(lecture.solution_source), execute_source(lecture.lecture_source)]
    return written
