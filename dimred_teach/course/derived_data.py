"""Data the build computes with the library and ships in ``data/``, so that an exercise set's
set-up loads a result instead of computing it in the student's kernel (issue 37: a computation
that answers one of the set's exercises never runs there).

``data/corpus_lsi.json`` is the LSI space of the course corpus that exercise set 05 starts from
(:func:`dimred_teach.datasets.load_corpus_space`; its tf-idf weighting is exercise 05.tfidf).
``dimred-teach build`` writes it when it is missing or when a fresh computation differs from it;
``build --check`` reports that. Numbers are compared to :data:`PRECISION`, not by bytes: another
BLAS may change the last bits, and the library fixes the signs of the components, so a correct
file stays as it is on every machine.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import datasets, lsi

__all__ = ["PRECISION", "CORPUS_SPACE", "corpus_space", "space_json", "differences", "derived_data_problems",
           "write_derived_data"]

PRECISION = 1e-9
"""Largest absolute difference between a stored number and its fresh computation."""
CORPUS_SPACE = {"k": 10, "stop_words": "english"}
"""The options of ``lsi.lsi`` for the course corpus's shipped space."""


def corpus_space() -> lsi.LSIResult:
    """The LSI space of the course corpus, computed: ``lsi.lsi(texts, k=10, stop_words="english")``."""
    return lsi.lsi(datasets.load_corpus()["text"], **CORPUS_SPACE)


def space_json(space: lsi.LSIResult) -> str:
    """An uncentred LSI space as the text of ``data/corpus_lsi.json``: one JSON object, each list
    of numbers on one line, and the rows of the coordinates and of the tf-idf matrix (as its
    column indices and weights) one per line, so a change shows in a diff where it is."""
    if space.mean is not None:
        raise ValueError("space must be uncentred (mean None): the file has no mean")
    matrix = space.matrix.tocsr()
    rows = [[matrix.indices[a:b].tolist(), matrix.data[a:b].tolist()]
            for a, b in zip(matrix.indptr[:-1], matrix.indptr[1:])]
    fields = {
        "made_by": "lsi.lsi(datasets.load_corpus()['text'], "
                   + ", ".join(f"{key}={value!r}" for key, value in CORPUS_SPACE.items()) + ")",
        "vocabulary": list(space.vocabulary),
        "stop_words": sorted(space.stop_words),
        "idf": space.idf.tolist(),
        "singular_values": space.singular_values.tolist(),
        "total_sum_of_squares": space.total_sum_of_squares,
        "term_coordinates": space.term_coordinates.tolist(),
        "document_coordinates": space.document_coordinates.tolist(),
        "matrix": rows,
    }
    lines = []
    for key, value in fields.items():
        if isinstance(value, list) and value and isinstance(value[0], list):
            text = "[\n" + ",\n".join(f"  {json.dumps(row)}" for row in value) + "\n ]"
        else:
            text = json.dumps(value)
        lines.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _same(stored, fresh) -> bool:
    """Whether two JSON values agree: numbers to :data:`PRECISION`, everything else exactly."""
    if isinstance(stored, list) and isinstance(fresh, list):
        return len(stored) == len(fresh) and all(_same(a, b) for a, b in zip(stored, fresh))
    numbers = (int, float)
    if (isinstance(stored, numbers) and isinstance(fresh, numbers)
            and not isinstance(stored, bool) and not isinstance(fresh, bool)):
        return abs(stored - fresh) <= PRECISION
    return stored == fresh


def differences(stored_text: str, fresh_text: str) -> list[str]:
    """The fields of a stored file that differ from a fresh one (numbers by more than
    :data:`PRECISION`); every field when the stored text is not a JSON object."""
    fresh = json.loads(fresh_text)
    try:
        stored = json.loads(stored_text)
    except json.JSONDecodeError:
        return list(fresh)
    if not isinstance(stored, dict):
        return list(fresh)
    return [key for key in {**stored, **fresh} if not _same(stored.get(key), fresh.get(key))]


def _corpus_space_file(root: Path) -> Path:
    return Path(root) / "data" / datasets.CORPUS_SPACE_FILE


def _stale(root: Path) -> tuple[Path, str, list[str]] | None:
    """(path, fresh text, differing fields) of the shipped space when it needs writing; None when
    it agrees, or when ``root`` has no ``data`` folder (a course that does not hold the package)."""
    path = _corpus_space_file(root)
    if not path.parent.is_dir():
        return None
    fresh = space_json(corpus_space())
    if not path.is_file():
        return path, fresh, ["the file"]
    different = differences(path.read_text(encoding="utf-8"), fresh)
    return (path, fresh, different) if different else None


def derived_data_problems(root: Path) -> list[str]:
    """What ``build --check`` reports about the derived data files of the course at ``root``."""
    stale = _stale(root)
    if stale is None:
        return []
    path, _, different = stale
    what = "is missing" if different == ["the file"] else (
        f"differs from a fresh lsi.lsi by more than {PRECISION:g} in {', '.join(different)}")
    return [f"{path} {what}: run `dimred-teach build`"]


def write_derived_data(root: Path) -> list[Path]:
    """Write each derived data file of the course at ``root`` that is missing or differs; returns
    the paths written."""
    stale = _stale(root)
    if stale is None:
        return []
    path, fresh, _ = stale
    path.write_text(fresh, encoding="utf-8")
    return [path]
