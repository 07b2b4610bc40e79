"""``dimred-teach classroom50``: an assignment for Classroom 50 (``foundation50/classroom50``),
the community's successor of GitHub Classroom, which GitHub retired in 2026.

``--out DIR`` receives three things:

``template/``
    the assignment's template repository (push it to the organisation, mark it as a template,
    register the assignment with it): the executed lecture notebooks (``notebooks/``), the blank
    exercise notebooks of the assignment's sets as the student's tracked working files
    (``exercises/``; every push carries the answers), the library and its data for the
    notebooks' own ``check()`` cells (``dimred_teach/``, ``data/``, ``pyproject.toml``,
    ``constraints.txt``; no ``solutions/``, no tests), a README for students and a
    ``.gitignore``. No ``.github/workflows/autograde.yaml``: Classroom 50 writes its own.
``classroom50/CLASSROOM/autograders/ASSIGNMENT/``
    what goes into the organisation's ``classroom50`` repository: ``autograder.py``, which
    installs the grader pinned by ``--grader`` and grades a submission (see
    ``grading/templates/classroom50-autograder.py`` and :mod:`dimred_teach.grading.classroom`),
    and the course's ``constraints.txt`` it installs with.
``runtime.json``
    the assignment's ``runtime`` block (``gh teacher assignment add ... --runtime runtime.json``):
    an Ubuntu runner, the Python the constraints were made for, and bubblewrap from apt.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import tempfile
from importlib.resources import files
from pathlib import Path

__all__ = ["GRADER_SOURCE", "add_arguments", "classroom50", "run"]

GRADER_SOURCE = re.compile(r"git\+(https|ssh|file)://([\w.-]+@)?[^\s@\"'$`\\]+@[\w.-]+"
                           r"|(https|file)://[^\s@\"'$`\\]+/[\w.]+-[\w.!+]+-[\w.]+-[\w.]+-[\w.]+\.whl")
"""A pinned grader, as pip names it: the course's git repository at a tag or commit
(``git+https://github.com/ORG/REPO@v1.0``, ``git+ssh://git@github.com/ORG/REPO@v1.0``;
``git+file:///path/to/course@v1.0`` for a trial on one machine), or a wheel's URL
(``https://example.org/dimred_teach-1.0-py3-none-any.whl``)."""
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{1,38}")
"""Classroom 50's short names of a classroom and of an assignment."""
PYTHON = "3.11"
"""The runner's Python: the oldest the course supports, the one its constraints.txt was made for."""
LIBRARY = ("dimred_teach", "data")
FILES = ("pyproject.toml", "constraints.txt")
IGNORED = ".venv/\n__pycache__/\n*.egg-info/\n.ipynb_checkpoints/\ngrading-out/\nresult.json\nrelease-body.md\n"


def _copy_tree(source: Path, target: Path) -> None:
    for path in sorted(source.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)


def _template(root: Path, staging: Path, chosen: set[str]) -> None:
    """The template repository in ``staging``, with the exercise notebooks of ``chosen``."""
    from .manifest import read_manifest

    rows = []
    for lecture in read_manifest(root):
        (staging / "notebooks").mkdir(parents=True, exist_ok=True)
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
    readme = files("dimred_teach.course.templates").joinpath("classroom-README.md").read_text()
    (staging / "README.md").write_text(readme.replace("__COURSE_TABLE__", "\n".join(rows)))
    (staging / ".gitignore").write_text(IGNORED)


def classroom50(root: Path, out: Path, classroom: str, assignment: str, grader: str, sets=()) -> Path:
    """Write the Classroom 50 assignment ``assignment`` of the classroom ``classroom`` for the
    course at ``root`` into the new folder ``out`` (module docstring): its exercise sets
    ``sets`` (``--set`` values; default every set), graded by ``grader``. ValueError naming the
    argument for a bad one; nothing is written then. Returns ``out``."""
    from ..grading.classroom import whole_points
    from ..grading.submissions import load_specs, resolve_sets
    from .manifest import read_manifest

    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ValueError(f"--out: {out} exists and is not an empty folder; name a new folder")
    for name, value in (("--classroom", classroom), ("--assignment", assignment)):
        if not SLUG.fullmatch(value):
            raise ValueError(f"{name}: {value!r} is not a Classroom 50 short name (2 to 39 lowercase letters, digits "
                             "and -, starting with a letter or digit)")
    if not GRADER_SOURCE.fullmatch(grader):
        raise ValueError(f"--grader: {grader!r} is not a pinned grader: give the course's git URL at a tag or commit "
                         "(git+https://github.com/ORG/REPO@v1.0, git+ssh://git@github.com/ORG/REPO@v1.0) or a wheel's "
                         "URL (https://.../dimred_teach-1.0-py3-none-any.whl)")
    specs = load_specs()
    chosen = sorted(resolve_sets(sets, specs) if sets else
                    (lecture.stem for lecture in read_manifest(root) if lecture.exercises))
    for check in (check for exercise_set in chosen for check in specs[exercise_set]["checks"]):
        whole_points(check["points"], f"--set: {check['exercise_id']}")
    staging = Path(tempfile.mkdtemp(prefix=".classroom50-", dir=out.parent if out.parent.exists() else None))
    try:
        _template(root, staging / "template", set(chosen))
        bundle = staging / "classroom50" / classroom / "autograders" / assignment
        bundle.mkdir(parents=True)
        autograder = files("dimred_teach.grading.templates").joinpath("classroom50-autograder.py").read_text()
        (bundle / "autograder.py").write_text(autograder.replace("__GRADER__", json.dumps(grader))
                                              .replace("__SETS_LIST__", json.dumps(chosen))
                                              .replace("__SETS__", ", ".join(chosen)))
        shutil.copyfile(root / "constraints.txt", bundle / "constraints.txt")
        runtime = {"runs-on": "ubuntu-latest", "python": PYTHON, "apt": ["bubblewrap"]}
        (staging / "runtime.json").write_text(json.dumps(runtime, indent=1) + "\n")
        if out.exists():
            out.rmdir()
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, required=True, help="a new folder for the assignment's files")
    parser.add_argument("--classroom", required=True, help="the classroom's short name in Classroom 50")
    parser.add_argument("--assignment", required=True, help="the assignment's slug in Classroom 50")
    parser.add_argument(
        "--set",
        action="append",
        metavar="NN",
        help="the assignment's exercise sets (04 or 04_mds; repeat or comma-separate; default: every set)",
    )
    parser.add_argument("--grader", required=True,
                        help="the grader the autograder installs, pinned: the course's git URL at a tag or commit "
                             "(git+https://github.com/ORG/REPO@v1.0 or git+ssh://git@github.com/ORG/REPO@v1.0) or a "
                             "wheel's URL (https://.../dimred_teach-1.0-py3-none-any.whl)")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the course's checkout (default: here)")


def run(args) -> int:
    out = classroom50(args.root.resolve(), args.out, args.classroom, args.assignment, args.grader, args.set or ())
    print(f"wrote {out}: push {out / 'template'} as the assignment's template repository, add "
          f"{out / 'classroom50'}'s files to your classroom50 repository, and register the assignment with "
          f"--runtime {out / 'runtime.json'} (docs/grading.md#classroom-50)")
    return 0
