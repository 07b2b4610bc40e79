"""``dimred-teach classroom --out DIR --grader SOURCE``: the starter repository a lecturer uploads
as a GitHub Classroom template.

It holds what a student works with and nothing more: the executed lecture notebooks
(``notebooks/``), the blank exercise notebooks as the student's tracked working files
(``exercises/``; every push carries the answers), the library and its data (``dimred_teach/``,
``data/``, ``pyproject.toml``, ``constraints.txt``; no ``solutions/``, no tests), a README for
students, a ``.gitignore``, and ``.github/workflows/classroom.yml``. That workflow installs the
grader from ``SOURCE``, the course repository at a tag the lecturer pins, grades the
notebooks in bubblewrap with ``dimred-teach classroom-grade`` and reports the points through
Classroom's grading reporter (see :mod:`dimred_teach.grading.classroom`).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from importlib.resources import files
from pathlib import Path

from ..grading.submissions import load_specs, resolve_sets
from .manifest import read_manifest

__all__ = ["GRADER_SOURCE", "classroom_template"]

GRADER_SOURCE = re.compile(r"git\+(https|file)://[^\s@\"'$`\\]+@[\w.\-]+")
"""A pinned grader: the course's git repository at a tag or commit
(``git+https://github.com/ORG/REPO@v1.0``; ``git+file://`` for a trial run on one machine). The
workflow installs it editable from a clone outside the student's repository, so the sandbox sees
the package as it does in a course checkout."""
LIBRARY = ("dimred_teach", "data")
FILES = ("pyproject.toml", "constraints.txt")
IGNORED = ".venv/\n__pycache__/\n*.egg-info/\n.ipynb_checkpoints/\ngrading-out/\ngrading-report/\n"


def _copy_tree(source: Path, target: Path) -> None:
    for path in sorted(source.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)


def classroom_template(root: Path, out: Path, grader: str, sets=()) -> Path:
    """Write the starter repository of the course at ``root`` into the new folder ``out``, its
    workflow installing the grader from ``grader`` and grading the exercise sets ``sets``
    (``--set`` values; default every set). ValueError naming the argument for a bad one;
    nothing is written then. Returns ``out``."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ValueError(f"--out: {out} exists and is not an empty folder; name a new folder")
    if not GRADER_SOURCE.fullmatch(grader):
        raise ValueError(f"--grader: {grader!r} is not a pinned source: give the course's git URL at a tag "
                         "or commit (git+https://github.com/ORG/REPO@v1.0)")
    lectures = read_manifest(root)
    chosen = set(resolve_sets(sets, load_specs()) if sets else
                 (lecture.stem for lecture in lectures if lecture.exercises))
    staging = Path(tempfile.mkdtemp(prefix=".classroom-", dir=out.parent if out.parent.exists() else None))
    try:
        rows = []
        for lecture in lectures:
            (staging / "notebooks").mkdir(exist_ok=True)
            shutil.copyfile(lecture.lecture_notebook, staging / "notebooks" / lecture.lecture_notebook.name)
            exercise = "-"
            if lecture.stem in chosen:
                (staging / "exercises").mkdir(exist_ok=True)
                shutil.copyfile(lecture.exercise_notebook, staging / "exercises" / lecture.exercise_notebook.name)
                exercise = f"`exercises/{lecture.stem}.ipynb`"
            rows.append(f"| `notebooks/{lecture.stem}.ipynb` | {exercise} | **{lecture.title}.** {lecture.summary} |")
        for folder in LIBRARY:
            _copy_tree(root / folder, staging / folder)
        for name in FILES:
            shutil.copyfile(root / name, staging / name)
        templates = files("dimred_teach.course.templates")
        (staging / "README.md").write_text(
            templates.joinpath("classroom-README.md").read_text().replace("__COURSE_TABLE__", "\n".join(rows)))
        (staging / ".gitignore").write_text(IGNORED)
        workflow = staging / ".github" / "workflows" / "classroom.yml"
        workflow.parent.mkdir(parents=True)
        workflow.write_text(templates.joinpath("classroom-workflow.yml").read_text()
                            .replace("__GRADER__", grader).replace("__SETS__", ",".join(sorted(chosen))))
        if out.exists():
            out.rmdir()
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out
