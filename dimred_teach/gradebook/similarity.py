"""``dimred-teach similarity SUBMISSIONS... --out DIR``: which students' code for an exercise is
more alike than that exercise's answers usually are, and which answers are copies of the
course's own code.

It reads the submitted notebooks (the folders ``grade`` was given, however many, so a class
graded in shards is read from its folders), never the grader's reports, and changes no grade;
it never runs a student's code, and every piece of it reaches the page as escaped text.

1. Each notebook's exercise set is found as the grader finds it, and its code split into each
   exercise's answer, the exercise notebook's starter code left out (:mod:`.answer_code`).
2. copydetect (Lingenfelter's implementation of the winnowing fingerprints of MOSS) normalises
   each answer: Pygments' Python tokens with comments and layout dropped, every variable,
   attribute and function name made one letter, every string one letter
   (``copydetect.utils.filter_code``). Its fingerprints are the hashes of every run of
   :data:`K` characters of that text (``copydetect.utils.hashed_kgrams``; a winnowing window of
   1 keeps them all, so they do not depend on the process's string hashing, which picks the
   fingerprints a larger window keeps). The fingerprints of the set's starter code are taken
   out of every answer's.
3. The similarity of two answers to one exercise is Dice's coefficient of their fingerprints,
   ``2 |A ∩ B| / (|A| + |B|)`` in [0, 1] (JPlag's average similarity), for every pair of the
   exercise's answers that have fingerprints (one shorter than :data:`K` normalised characters
   has none: too short to compare).
4. Each score is set against its exercise's own pairs: ``z = (s - mean) / sd`` over them (none
   where every pair scores alike) and the percentile, the share of the exercise's pairs less
   alike. Where every right answer looks alike (a one-line exercise) the mean is high, so two
   identical answers stand out little; in a long exercise they stand out far.
5. ``pairs.csv`` (``a``, ``b``, ``exercise``, ``similarity``, ``z``, ``percentile``) holds every
   pair in which one answer is among the other's :data:`NEAREST` closest classmates, ranked by
   z, then similarity, then exercise and names; ``index.html`` shows side by side the first
   :data:`TOP` whose z is :data:`STANDS_OUT` or more (:mod:`.similarity_page`).
6. Each answer is compared with each function of the course's own code its set could be copied
   from (:mod:`.course_code`): the share of the answer's fingerprints found in the function.
   An answer with at least :data:`MIN_FINGERPRINTS` fingerprints of which :data:`COPIED` or
   more are in one function is a copy of it: ``sources.csv`` (``submission``, ``exercise``,
   ``source``, ``share``) and the page name it.

Every score is rounded when computed (similarity and share to 4 decimals, z to 2, percentile
to 1), before it is compared, ranked or written, so the files are the same on every machine.
Every command's parser is built from :func:`add_arguments`, so what the command needs is
imported where it is used.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._csv_cells import csv_cell

K = 25
"""Fingerprint length in normalised characters: copydetect's noise threshold (its default),
below which a match is too short to mean anything."""
NEAREST = 3
"""``pairs.csv`` holds each answer's this many closest classmates."""
TOP = 20
"""The page shows at most this many pairs side by side."""
STANDS_OUT = 2.0
"""The page shows a pair whose z is at least this: far more alike than its exercise's pairs are."""
MIN_FINGERPRINTS = 20
"""An answer with fewer fingerprints is too short to be called a copy of the course's code."""
COPIED = 0.8
"""An answer with this share of its fingerprints or more in one function of the course's code is a copy of it."""
CHUNK = 40
"""Notebooks read by one worker at a time."""
MISSING = ("similarity needs copydetect, the `similarity` extra: pip install 'dimred-teach[similarity]' "
           "(with the course's constraints.txt)")


@dataclass
class Answer:
    """One submission's code for one exercise: as written (starter code left out), as copydetect
    normalised it, where its characters came from, and its fingerprints (sorted, unique)."""

    submission: str
    exercise_set: str
    exercise: str
    code: str
    filtered: str = ""
    offsets: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=int))
    fingerprints: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


@dataclass(frozen=True)
class Pair:
    """Two answers to one exercise (``a`` before ``b`` by name) and how alike they are."""

    a: str
    b: str
    exercise: str
    similarity: float
    z: float | None
    percentile: float


@dataclass(frozen=True)
class Spread:
    """How alike one exercise's answers are: over its ``pairs`` pairs of ``answers`` answers."""

    exercise: str
    answers: int
    too_short: int
    pairs: int
    mean: float
    sd: float


@dataclass(frozen=True)
class CourseCopy:
    """An answer that is a copy of a function of the course's own code."""

    submission: str
    exercise: str
    source: str
    share: float


def _read_notebooks(paths: Sequence[str], root: str) -> list[tuple[str, str, dict[str, str], str]]:
    """For each notebook: its name, set, answers ``{exercise: code}`` and a note when it is
    skipped (a worker's job)."""
    from ..grading.options import GradingOptions
    from ..grading.submissions import display_path, identify_set, is_exercise_notebook, load_specs, read_notebook
    from .answer_code import answers, starter_code

    specs, limit = load_specs(), GradingOptions().max_notebook_bytes
    starters: dict[str, list[str]] = {}
    read = []
    for path in map(Path, paths):
        name = display_path(path)
        try:
            notebook = read_notebook(path, limit)
        except (ValueError, OSError) as error:
            read.append((name, "", {}, f"skipped {name}: {error}"))
            continue
        exercise_set, note = identify_set(notebook, path, specs)
        if exercise_set is None or not is_exercise_notebook(notebook, specs[exercise_set]):
            read.append((name, "", {}, f"skipped {name}: {note or 'not an exercise notebook'}"))
            continue
        if exercise_set not in starters:
            starters[exercise_set] = starter_code(Path(root), exercise_set)
        read.append((name, exercise_set, answers(notebook, specs[exercise_set], starters[exercise_set]), ""))
    return read


def _normalise(codes: Sequence[str]) -> list[tuple[str, np.ndarray]]:
    """copydetect's normalised text of each piece of code, and its offsets (a worker's job:
    Pygments' tokenising is most of the time)."""
    from copydetect.utils import filter_code

    return [filter_code(code, "answer.py", "python") for code in codes]


class _Workers:
    """``jobs`` processes mapping a function over chunks in order (or this process alone for one job)."""

    def __init__(self, jobs: int):
        from concurrent.futures import ProcessPoolExecutor

        self.pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None

    def map(self, function, items: Sequence, size: int, *extra) -> list:
        chunks = [list(items[start:start + size]) for start in range(0, len(items), size)]
        if self.pool is None or len(chunks) < 2:
            return [row for chunk in chunks for row in function(chunk, *extra)]
        return [row for chunk in self.pool.map(function, chunks, *([value] * len(chunks) for value in extra))
                for row in chunk]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def read_answers(paths: Sequence[Path], root: Path, workers: _Workers) -> tuple[list[Answer], int, list[str]]:
    """Every answer of the notebooks in ``paths`` (files, or folders searched), as written; the
    number of notebooks read, and a note for each skipped."""
    from ..grading.submissions import display_path, find_submissions

    try:
        notebooks = [str(path) for path in find_submissions(paths) if path.suffix == ".ipynb"]
    except FileNotFoundError as error:
        raise ValueError(f"SUBMISSIONS: {error}") from None
    if not notebooks:
        raise ValueError(f"SUBMISSIONS: no notebook (.ipynb) in {', '.join(map(display_path, paths))}")
    found, notes, read = [], [], 0
    for name, exercise_set, exercises, note in workers.map(_read_notebooks, notebooks, CHUNK, str(root)):
        if note:
            notes.append(note)
            continue
        read += 1
        found += [Answer(name, exercise_set, exercise, code) for exercise, code in sorted(exercises.items())]
    return found, read, notes


def _kgrams(filtered: str) -> np.ndarray:
    """The fingerprints of a normalised text: copydetect's hashes of its K-grams, sorted and unique."""
    from copydetect.utils import hashed_kgrams

    if len(filtered) < K:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.asarray(hashed_kgrams(filtered, K), dtype=np.int64))


def _incidence(*groups: Sequence[np.ndarray]):
    """One sparse 0/1 matrix per group of fingerprint arrays (a row per array), over one
    shared vocabulary of fingerprints."""
    from scipy import sparse

    arrays = [array for group in groups for array in group]
    vocabulary, columns = np.unique(np.concatenate(arrays + [np.zeros(0, dtype=np.int64)]), return_inverse=True)
    matrices, start = [], 0
    for group in groups:
        lengths = [len(array) for array in group]
        stop = start + sum(lengths)
        indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        matrices.append(sparse.csr_matrix((np.ones(stop - start), columns[start:stop], indptr),
                                          shape=(len(group), len(vocabulary))))
        start = stop
    return matrices


def _rounded(values, digits: int):
    return np.round(values, digits) + 0.0  # no negative zero


def compare_exercise(exercise: str, chosen: Sequence[Answer]) -> tuple[list[Pair], Spread]:
    """The pairs of one exercise's answers ``pairs.csv`` holds, and how alike its answers are."""
    comparable = [answer for answer in chosen if len(answer.fingerprints)]
    n = len(comparable)
    if n < 2:
        return [], Spread(exercise, n, len(chosen) - n, 0, 0.0, 0.0)
    (matrix,) = _incidence([answer.fingerprints for answer in comparable])
    shared = (matrix @ matrix.T).toarray()
    sizes = np.diff(matrix.indptr).astype(float)
    scores = _rounded(2 * shared / (sizes[:, None] + sizes[None, :]), 4)
    upper = scores[np.triu_indices(n, 1)]
    mean, sd = float(upper.mean()), float(upper.std())
    ordered = np.sort(upper)
    names = [answer.submission for answer in comparable]
    name_rank = np.argsort(np.argsort(names, kind="stable"), kind="stable")
    chosen_pairs = set()
    for i in range(n):
        others = np.lexsort((name_rank, -scores[i]))  # most alike first, then by name
        chosen_pairs.update(tuple(sorted((i, j))) for j in [j for j in others if j != i][:NEAREST])
    pairs = []
    for i, j in sorted(chosen_pairs):
        score = float(scores[i, j])
        z = float(_rounded((score - mean) / sd, 2)) if sd > 1e-9 else None
        percentile = float(_rounded(100 * np.searchsorted(ordered, score, side="left") / len(ordered), 1))
        a, b = sorted((names[i], names[j]))
        pairs.append(Pair(a, b, exercise, score, z, percentile))
    return pairs, Spread(exercise, n, len(chosen) - n, len(upper), float(_rounded(mean, 4)), float(_rounded(sd, 4)))


def rank(pairs: Sequence[Pair]) -> list[Pair]:
    """The pairs most unusual for their exercise first (a pair without a z last), then the most
    alike, then by exercise and names."""
    return sorted(pairs, key=lambda p: (p.z is None, -(p.z or 0.0), -p.similarity, p.exercise, p.a, p.b))


def course_copies(answers_of_set: Sequence[Answer], sources: Sequence[tuple[str, np.ndarray]]) -> list[CourseCopy]:
    """The answers of one set that are copies of a function of the course's own code
    (``sources``: each function's label and fingerprints)."""
    candidates = [answer for answer in answers_of_set if len(answer.fingerprints) >= MIN_FINGERPRINTS]
    if not candidates or not sources:
        return []
    answers_matrix, sources_matrix = _incidence([a.fingerprints for a in candidates], [s for _, s in sources])
    shares = _rounded((answers_matrix @ sources_matrix.T).toarray() / np.diff(answers_matrix.indptr)[:, None], 4)
    copies = []
    for answer, row in zip(candidates, shares):
        best = int(np.argmax(row))  # the first of equal shares: sources are in a stable order
        if row[best] >= COPIED:
            copies.append(CourseCopy(answer.submission, answer.exercise, sources[best][0], float(row[best])))
    return copies


def _write_csv(path: Path, header: list[str], rows) -> None:
    """A CSV file; ``rows`` hold numbers as written and names already through ``csv_cell``."""
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        writer.writerows(rows)


def similarity(paths: Sequence[Path], out: Path, root: Path, jobs: int = 2) -> str:
    """Compare the answers of the notebooks in ``paths``; write ``pairs.csv``, ``sources.csv`` and
    ``index.html`` into ``out``; returns a one-line account."""
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"--jobs must be a whole number of processes, at least 1; got {jobs!r}")
    try:
        import copydetect  # noqa: F401  (before the workers start: they inherit it)
    except ImportError:
        raise ValueError(MISSING) from None
    from .answer_code import starter_code
    from .course_code import course_sources
    from .similarity_page import write_page

    workers = _Workers(jobs)
    try:
        found, read, notes = read_answers(paths, root, workers)
        sets = sorted({answer.exercise_set for answer in found})
        starters = {exercise_set: starter_code(root, exercise_set) for exercise_set in sets}
        sources = {exercise_set: course_sources(exercise_set) for exercise_set in sets}
        codes = list(dict.fromkeys([answer.code for answer in found] + [code for s in sets for code in starters[s]]
                                   + [code for s in sets for _, code in sources[s]]))  # each text normalised once
        normalised = dict(zip(codes, workers.map(_normalise, codes, CHUNK)))
    finally:
        workers.close()
    fingerprints: dict[str, np.ndarray] = {}
    for filtered, _ in normalised.values():
        if filtered not in fingerprints:
            fingerprints[filtered] = _kgrams(filtered)
    boilerplate = {s: np.unique(np.concatenate([fingerprints[normalised[code][0]] for code in starters[s]]
                                               + [np.zeros(0, dtype=np.int64)])) for s in sets}
    by_exercise: dict[str, list[Answer]] = defaultdict(list)
    for answer in found:
        answer.filtered, answer.offsets = normalised[answer.code]
        answer.fingerprints = np.setdiff1d(fingerprints[answer.filtered], boilerplate[answer.exercise_set], True)
        by_exercise[answer.exercise].append(answer)
    pairs, spreads = [], []
    for exercise in sorted(by_exercise):
        exercise_pairs, spread = compare_exercise(exercise, by_exercise[exercise])
        pairs += exercise_pairs
        spreads.append(spread)
    pairs = rank(pairs)
    copies = [copy for s in sets for copy in course_copies(
        [answer for answer in found if answer.exercise_set == s],
        [(label, np.setdiff1d(fingerprints[normalised[code][0]], boilerplate[s], True)) for label, code in sources[s]])]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _write_csv(
        out / "pairs.csv",
        ["a", "b", "exercise", "similarity", "z", "percentile"],
        (
            [
                csv_cell(p.a),
                csv_cell(p.b),
                csv_cell(p.exercise),
                f"{p.similarity:.4f}",
                "" if p.z is None else f"{p.z:.2f}",
                f"{p.percentile:.1f}",
            ]
            for p in pairs
        ),
    )
    _write_csv(out / "sources.csv", ["submission", "exercise", "source", "share"],
               ([csv_cell(c.submission), csv_cell(c.exercise), csv_cell(c.source), f"{c.share:.4f}"] for c in copies))
    write_page(out / "index.html", pairs, spreads, copies, found, boilerplate, read)
    account = (f"{read} notebook(s), {len(found)} answer(s) to {len(spreads)} exercise(s): {len(pairs)} pair(s) of "
               f"closest classmates, {len(copies)} copy(ies) of the course's code: {out / 'index.html'}, "
               f"{out / 'pairs.csv'}, {out / 'sources.csv'}")
    return account + "".join(f"\n{note}" for note in notes)


def add_arguments(parser) -> None:
    """The command line of ``dimred-teach similarity``."""
    parser.add_argument("submissions", nargs="+", type=Path,
                        help="exercise notebooks, or folders searched for *.ipynb (every folder of the class)")
    parser.add_argument("--out", type=Path, required=True, help="folder for index.html, pairs.csv and sources.csv")
    parser.add_argument("--root", type=Path, default=Path.cwd(),
                        help="the course's checkout (its exercises/ hold the starter code left out)")
    parser.add_argument("--jobs", type=int, default=2, help="processes reading the notebooks (default 2)")


__all__ = ["similarity", "read_answers", "compare_exercise", "course_copies", "rank", "add_arguments",
           "Answer", "Pair", "Spread", "CourseCopy", "K", "NEAREST", "TOP", "STANDS_OUT", "MIN_FINGERPRINTS",
           "COPIED"]
