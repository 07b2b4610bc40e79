"""Grading specs written by ``dimred-teach build``: one JSON file per exercise set, naming
its check cells and their points. The course tooling writes them; the grader and the
checks' proofs read them."""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["SPECS_DIR", "spec_path", "load_spec"]

SPECS_DIR = Path(__file__).parent
"""The folder of the specs (inside the installed package)."""


def spec_path(exercise_set: str) -> Path:
    """Where the grading spec of an exercise set is stored inside the package."""
    return SPECS_DIR / f"{exercise_set}.json"


def load_spec(exercise_set: str) -> dict:
    """The grading spec written by ``dimred-teach build`` for ``exercise_set``."""
    path = spec_path(exercise_set)
    if not path.is_file():
        known = sorted(p.stem for p in SPECS_DIR.glob("*.json"))
        raise ValueError(f"exercise_set {exercise_set!r} is unknown; known sets: {known}")
    return json.loads(path.read_text())
