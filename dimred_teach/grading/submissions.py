"""What to grade: the grading specs, the submitted notebooks, and which exercise set each is."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

import nbformat

from ..exercises import SPECS_DIR
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


def identify_set(notebook: dict, path: Path, specs: dict) -> tuple[str | None, str]:
    """The exercise set of a submission and a note saying how it was found."""
    metadata = notebook.get("metadata")
    claimed = metadata.get("dimred_teach") if isinstance(metadata, dict) else None
    claimed = claimed.get("exercise_set") if isinstance(claimed, dict) else None
    by_name = set_from_file_name(path.stem, specs)
    name = display_path(path.name)
    if isinstance(claimed, str) and claimed in specs:
        note = "" if by_name in (None, claimed) else (
            f"graded as exercise set {claimed} (the notebook's metadata); its file name suggests {by_name}")
        return claimed, note
    if by_name is not None:
        shown = clip(repr(claimed), 80)
        note = "" if claimed is None else f"the notebook's metadata names no known exercise set ({shown}); graded as {by_name} from its file name"
        return by_name, note
    return None, (f"cannot tell which exercise set {name} belongs to: its metadata names "
                  f"{clip(repr(claimed), 80)} and its file name matches none of {sorted(specs)}")


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
