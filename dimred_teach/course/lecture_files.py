"""The files of a lecture, and ``dimred-teach remove`` and ``rename``.

A lecture ``NN_slug`` owns its sources (``notebooks/NN_slug.py``, ``solutions/NN_slug.py``),
their executed notebooks, its generated exercise files and grading spec, and its exercise
set's checks and proofs (``dimred_teach/checks/setNN.py``, ``tests/check_cases/setNN.py``).
:func:`orphans` finds such files that no row of ``course.toml`` claims (``build --check``
reports them); :func:`remove` takes the last lecture out of the course, files and row;
:func:`rename` gives a lecture a new slug. Exercise ids (``"NN.name"``) carry the number,
never the slug, so a rename keeps every check, grade and class report valid.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from .manifest import MANIFEST, Lecture, check_new_slug, find_lecture, read_manifest

__all__ = ["owned_files", "orphans", "remove", "rename"]

STEM_FOLDERS = ("notebooks", "solutions", "exercises")
"""Folders whose files are named ``NN_slug.py`` or ``NN_slug.ipynb``."""
SET_FILES = ("dimred_teach/checks/set{number}.py", "tests/check_cases/set{number}.py")
SPECS = "dimred_teach/exercise_specs"
"""An exercise set's checks and their proofs, named by the number alone."""
STEM = re.compile(r"(\d\d)_([a-z][a-z0-9_]*)\.(?:py|ipynb)")
SET_FILE = re.compile(r"set(\d\d)\.py")


def owned_files(lecture: Lecture) -> list[Path]:
    """Every file of ``lecture`` that exists under its root (sources, notebooks, generated
    exercise files, its grading spec, its set's checks and proofs)."""
    root = lecture.root
    candidates = [root / folder / f"{lecture.stem}{suffix}" for folder in STEM_FOLDERS for suffix in (".py", ".ipynb")]
    candidates += [root / SPECS / f"{lecture.stem}.json"]
    candidates += [root / pattern.format(number=lecture.number) for pattern in SET_FILES]
    return [path for path in candidates if path.is_file()]


def orphans(root: Path, lectures: list[Lecture]) -> list[Path]:
    """Lecture files under ``root`` that no lecture of the manifest claims: a stem
    ``NN_slug`` not in the manifest, or a set's checks or proofs for a number with no
    exercise set."""
    stems = {lecture.stem for lecture in lectures}
    sets = {lecture.number for lecture in lectures if lecture.exercises}
    found = [path for folder in STEM_FOLDERS for path in sorted((root / folder).glob("*"))
             if (match := STEM.fullmatch(path.name)) and f"{match[1]}_{match[2]}" not in stems]
    for pattern in SET_FILES:
        folder = (root / pattern).parent
        found += [path for path in sorted(folder.glob("set*.py"))
                  if (match := SET_FILE.fullmatch(path.name)) and match[1] not in sets]
    return found


def _manifest_rows(root: Path) -> tuple[str, list[tuple[int, int]]]:
    """The manifest's text and the character span of each ``[[lecture]]`` row, in order."""
    text = (root / MANIFEST).read_text(encoding="utf-8")
    starts = [match.start() for match in re.finditer(r"^\[\[lecture\]\]", text, re.M)]
    return text, list(zip(starts, starts[1:] + [len(text)]))


def remove(root: Path, number: str) -> list[Path]:
    """Delete the last lecture's files and its manifest row; returns the files deleted.

    Only the last lecture can go: numbers are exercise ids in every grade and report, so the
    lectures after a removed one could not move up without changing what students were graded
    on. ValueError naming ``number`` otherwise.
    """
    root = Path(root).resolve()
    lecture = find_lecture(root, number)
    last = read_manifest(root)[-1]
    if lecture.number != last.number:
        raise ValueError(f"number: only the last lecture ({last.number}) can be removed; lecture {lecture.number} "
                         f"is followed by others, whose numbers are the ids of their exercises and grades")
    text, spans = _manifest_rows(root)
    start, end = spans[-1]
    files = owned_files(lecture)
    (root / MANIFEST).write_text(text[:start].rstrip("\n") + "\n", encoding="utf-8")
    for path in files:
        path.unlink()
    return files


def rename(root: Path, number: str, slug: str) -> list[tuple[Path, Path]]:
    """Give lecture ``number`` the slug ``slug``: its stem files move and its manifest row
    changes; returns the (old, new) paths. Run ``dimred-teach build`` after it."""
    root = Path(root).resolve()
    lecture = find_lecture(root, number)
    check_new_slug(read_manifest(root), slug)
    stem = f"{lecture.number}_{slug}"
    moves = [(path, path.with_name(stem + path.suffix)) for path in owned_files(lecture) if path.stem == lecture.stem]
    existing = [str(new) for _, new in moves if new.exists()]
    if existing:
        raise ValueError(f"slug: files of that name exist already: {', '.join(existing)}")
    text, spans = _manifest_rows(root)
    index = [other.number for other in read_manifest(root)].index(lecture.number)
    start, end = spans[index]
    row = re.sub(r'^slug = ".*"$', f'slug = "{slug}"', text[start:end], count=1, flags=re.M)
    new_text = text[:start] + row + text[end:]
    tomllib.loads(new_text)  # the edit kept the manifest valid TOML
    (root / MANIFEST).write_text(new_text, encoding="utf-8")
    for old, new in moves:
        old.rename(new)
    return moves
