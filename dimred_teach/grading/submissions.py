"""What to grade: the grading specs, the submitted notebooks, and which exercise set each is."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

import nbformat

from ..exercise_specs import SPECS_DIR
from .results import clip


def load_specs(specs_dir: Path = SPECS_DIR) -> dict[str, dict]:
    """Every grading spec in ``specs_dir``, by exercise set."""
    specs = {}
    for path in sorted(Path(specs_dir).glob("*.json")):
        spec = json.loads(path.read_text())
        if spec.get("exercise_set") != path.stem or not spec.get("checks"):
            raise ValueError(f"{path} is not a grading spec written by `dimred-teach build`")
        specs[path.stem] = spec
    return specs


def find_submissions(paths: Iterable[Path]) -> list[Path]:
    """The notebooks to grade: files as given, folders searched for ``*.ipynb``.

    Raises FileNotFoundError for a path that does not exist.
    """
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise FileNotFoundError(f"submission {display_path(path)} does not exist")
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def display_path(path) -> str:
    """A path as printable text: bytes that are not UTF-8 become U+FFFD."""
    return os.fsencode(path).decode("utf-8", "replace")


def set_from_file_name(stem: str, specs: dict) -> str | None:
    """The exercise set a file name (without suffix) points to, if exactly one."""
    if stem in specs:
        return stem
    candidates = [name for name in specs if stem.startswith(name)] or [
        name for name in specs if re.match(r"\d\d_", stem) and name[:3] == stem[:3]]
    return candidates[0] if len(candidates) == 1 else None


def resolve_sets(names, specs: dict) -> tuple[str, ...]:
    """The full set names that ``--set`` values name (``04``, ``04_mds``, comma-separated);
    ValueError for a value naming no set, or several."""
    resolved = []
    for value in (part.strip() for name in names for part in str(name).split(",") if part.strip()):
        matches = [name for name in specs if name == value or name[:2] == value]
        if len(matches) != 1:
            raise ValueError(f"--set {value} names no exercise set (the sets are {', '.join(sorted(specs))})")
        resolved.append(matches[0])
    return tuple(dict.fromkeys(resolved))


def claimed_set(notebook: dict):
    """What the notebook's metadata says its exercise set is (anything, or None)."""
    metadata = notebook.get("metadata")
    claimed = metadata.get("dimred_teach") if isinstance(metadata, dict) else None
    return claimed.get("exercise_set") if isinstance(claimed, dict) else None


def identify_set(notebook: dict, path: Path, specs: dict, assignment: tuple[str, ...] = ()) -> tuple[str | None, str]:
    """The exercise set a submission is graded as, and a note saying how it was found; None
    and the reason when it is not graded.

    The assignment (``--set``) decides: a notebook whose metadata or file name names another
    set is not graded, nor one whose file name and metadata disagree (the student controls
    both). A notebook naming no set is graded as the assignment's set when it has one.
    """
    claimed = claimed_set(notebook)
    by_name = set_from_file_name(path.stem, specs)
    name = display_path(path.name)
    known = claimed if isinstance(claimed, str) and claimed in specs else None
    if known and by_name and known != by_name:
        return None, (f"not graded: {name} says exercise set {known} in its metadata but {by_name} in its file name; "
                      "submit the exercise notebook of the set you were given, under its own name")
    found = known or by_name
    if assignment and found and found not in assignment:
        return None, (f"not graded: {name} is exercise set {found}, and this assignment is "
                      f"{' and '.join(assignment)}")
    if found:
        note = "" if claimed is None or known else (
            f"the notebook's metadata names no known exercise set ({clip(repr(claimed), 80)}); graded as {found} "
            "from its file name")
        return found, note
    if len(assignment) == 1:
        return assignment[0], f"graded as {assignment[0]}, the assignment's exercise set"
    return None, (f"cannot tell which exercise set {name} belongs to: its metadata names "
                  f"{clip(repr(claimed), 80)} and its file name matches none of {sorted(assignment or specs)}")


def is_exercise_notebook(notebook: dict, spec: dict) -> bool:
    """Whether a notebook is (a copy of) the set's exercise notebook: exercise metadata, or one
    of its check cells by id or by its ``check("NN.name"`` call. A lecture notebook saved into
    a student's folder has none of them."""
    if claimed_set(notebook) is not None:
        return True
    ids = {check.get("cell_id") for check in spec["checks"]}
    calls = [f'check("{check["exercise_id"]}"' for check in spec["checks"]]
    for cell in notebook.get("cells", []):
        if not isinstance(cell, dict):
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if cell.get("id") in ids or any(call in source for call in calls):
            return True
    return False


def notebook_digest(notebook: dict) -> str:
    """SHA-256 (hex) of a notebook's content (its JSON with sorted keys): what was graded, whatever
    the file's formatting."""
    return hashlib.sha256(json.dumps(notebook, sort_keys=True).encode()).hexdigest()


def read_notebook(path: Path, max_bytes: int) -> dict:
    """The submission as a v4 notebook; ValueError with a plain reason otherwise.

    Only a regular file (not a symlink, device or pipe) of at most ``max_bytes`` is read,
    and no reason quotes the file's content.
    """
    name = display_path(Path(path).name)
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{name} is not a regular file (a link, folder, device or pipe): submit the notebook itself")
    if info.st_size > max_bytes:
        raise ValueError(f"{name} is {info.st_size} bytes, more than the {max_bytes} a submission may have")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise ValueError(f"{name} is not a regular file: submit the notebook itself")
        raw = file.read(max_bytes + 1)
    try:
        notebook = nbformat.reads(raw.decode("utf-8"), as_version=4)
    except Exception as error:  # not UTF-8, not JSON, not a notebook: all the same to a student
        raise ValueError(f"{name} is not a Jupyter notebook ({type(error).__name__})") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError(f"{name} is not a Jupyter notebook (it has no list of cells)")
    return notebook
