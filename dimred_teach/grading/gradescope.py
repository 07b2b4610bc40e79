"""Gradescope at class scale: ``dimred-teach gradescope`` writes the autograder bundle, and
``python -m dimred_teach.grading.gradescope`` is what its ``run_autograder`` runs.

The bundle (a zip, unpacked by Gradescope into ``/autograder/source``):

``setup.sh``
    installs bubblewrap, a virtual environment, the pinned requirements, then the course
    package from ``course/`` (its source, included in the bundle).
``run_autograder``
    grades ``$AUTOGRADER_ROOT/submission/*.ipynb`` (``AUTOGRADER_ROOT`` defaults to
    ``/autograder``) into ``$AUTOGRADER_ROOT/results/results.json``, one test per exercise
    with the configured ``visibility`` after the always visible test "What was graded", and
    prints the instructor's log (assignment, sandbox, points and seconds per notebook);
    ``AUTOGRADER_PYTHON`` picks the Python (default: the one ``setup.sh`` installed).
``requirements.txt``, ``constraints.txt``
    the package's core dependencies (what grading needs: no JupyterLab), pinned to the
    course's known-good versions.
``settings.json``
    the grader's options (limits, sandbox, jobs, visibility) and the assignment's exercise
    sets: one notebook per set is graded (named ``NN_slug.ipynb`` if there is one, else the
    first by name), duplicates and notebooks of other sets are reported, not added, and a
    set with no notebook scores 0, so the total never exceeds the assignment's points.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import tempfile
import time
import zipfile
from importlib.resources import files
from pathlib import Path

from .options import GradingOptions
from .results import FAILED, PASSED, SubmissionResult, not_graded
from .run_settings import RunSettings, settle_run
from .submissions import display_path, identify_set, read_notebook
from .watchdog import grade_supervised

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
SETTINGS = ("timeout", "cell_timeout", "call_timeout", "memory_mb", "processes", "open_files", "file_mb", "scratch_mb",
            "sandbox")
COURSE_FILES = ("pyproject.toml", "README.md", "constraints.txt")
COURSE_FOLDERS = ("dimred_teach", "data")


def course_root(source: Path | None = None) -> Path:
    """The course checkout the bundle is built from (its package source and constraints)."""
    root = Path(source) if source else Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file() or not (root / "constraints.txt").is_file():
        raise ValueError(f"{root} is not a dimred-teach course checkout (no pyproject.toml and constraints.txt); "
                         "pass --source")
    return root


def pinned_requirements(root: Path) -> str:
    """``requirements.txt``: the package's dependencies at the versions in constraints.txt."""
    import tomllib

    pins = {}
    for line in (root / "constraints.txt").read_text().splitlines():
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", line.strip())
        if match:
            pins[match.group(1).lower().replace("_", "-")] = line.strip()
    dependencies = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    lines = ["# The course package's dependencies, pinned; transitive pins in constraints.txt.", "-c constraints.txt"]
    for dependency in dependencies:
        name = re.match(r"[A-Za-z0-9_.-]+", dependency).group().lower().replace("_", "-")
        if name not in pins:
            raise ValueError(f"constraints.txt pins no version of {name}")
        lines.append(pins[name])
    return "\n".join(lines) + "\n"


def build_bundle(options: GradingOptions, jobs: int = 2, visibility: str = "visible",
                 source: Path | None = None) -> bytes:
    """The autograder zip, as bytes."""
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}, got {visibility!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    root = course_root(source)
    settings = {name: getattr(options, name) for name in SETTINGS} | {
        "jobs": jobs, "visibility": visibility, "assignment": list(options.assignment)}
    templates = files("dimred_teach.grading.templates")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name in ("setup.sh", "run_autograder"):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o755 << 16
            bundle.writestr(info, templates.joinpath(f"gradescope-{name}").read_text())
        bundle.writestr("requirements.txt", pinned_requirements(root))
        bundle.writestr("constraints.txt", (root / "constraints.txt").read_text())
        bundle.writestr("settings.json", json.dumps(settings, indent=1) + "\n")
        for name in COURSE_FILES:
            bundle.write(root / name, f"course/{name}")
        for folder in COURSE_FOLDERS:
            for path in sorted((root / folder).rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                    bundle.write(path, f"course/{path.relative_to(root).as_posix()}")
    return buffer.getvalue()


SUBMITTED = "What was graded"
"""The test that lists what the submission held and which notebook of each set was graded: always
visible, whatever ``--visibility`` hides, so a student whose work is in another file sees why."""


def results_json(results: list[SubmissionResult], visibility: str, notes: list[str] = ()) -> dict:
    """Gradescope's ``results.json`` for the graded notebooks of one submission, with ``notes``
    (duplicates, other sets) in its output and, always visible, in the test :data:`SUBMITTED`."""
    several = len(results) > 1
    tests, outputs = [], []
    for result in results:
        report = result.to_gradescope(visibility)
        name = display_path(Path(result.submission).name)
        for test in report["tests"]:
            test["name"] = f"{name}: {test['name']}" if several else test["name"]
            tests.append(test)
        outputs.append(
            f"{name}: {result.score:g} / {result.max_score:g}" + (f"\n{result.output}" if result.output else "")
        )
    outputs += list(notes)
    graded = [f"graded: {display_path(Path(r.submission).name)}" for r in results if r.graded]
    submitted = "\n".join(graded + list(notes)) or "no notebook (*.ipynb) was submitted"
    tests.insert(
        0,
        {
            "name": SUBMITTED,
            "score": 0,
            "max_score": 0,
            "status": PASSED if graded and not notes else FAILED,
            "output": submitted,
            "visibility": "visible",
        },
    )
    return {"score": sum(r.score for r in results), "execution_time": round(sum(r.execution_time for r in results), 1),
            "output": "\n\n".join(outputs) or "no notebook (*.ipynb) was submitted", "visibility": visibility,
            "stdout_visibility": "hidden", "tests": tests}


def one_per_set(paths: list[Path], specs: dict, options: GradingOptions) -> tuple[dict[str, Path], list[str]]:
    """The notebook graded for each exercise set (of the assignment, when it names sets) and
    notes on every other uploaded notebook: a duplicate of a set, or not of the assignment."""
    chosen: dict[str, list[Path]] = {}
    notes = []
    for path in paths:
        try:
            notebook = read_notebook(path, options.max_notebook_bytes)
        except (OSError, ValueError):
            notebook = {}
        found, note = identify_set(notebook, path, specs, options.assignment)
        if found is None or (options.assignment and not notebook):
            notes.append(f"{display_path(path.name)}: {note or 'not readable'}; not graded")
        else:
            chosen.setdefault(found, []).append(path)
    graded = {}
    for exercise_set, candidates in sorted(chosen.items()):
        exact = [p for p in candidates if p.name == f"{exercise_set}.ipynb"]
        graded[exercise_set] = (exact or sorted(candidates, key=lambda p: p.name))[0]
        notes += [
            f"{display_path(p.name)}: another notebook of exercise set {exercise_set}; only "
            f"{display_path(graded[exercise_set].name)} is graded"
            for p in candidates
            if p != graded[exercise_set]
        ]
    return graded, notes


def grade_one_per_set(paths: list[Path], reports: Path, settings: RunSettings,
                      jobs: int) -> tuple[list[SubmissionResult], list[str]]:
    """Grade one notebook of each exercise set among ``paths`` (:func:`one_per_set`) into
    ``reports``; every set of the assignment without a notebook scores 0, not graded. Returns the
    results (the assignment's sets in order, then the others) and the notes on the other notebooks."""
    options, specs = settings.options, settings.specs
    graded, notes = one_per_set(paths, specs, options)
    results = grade_supervised(list(graded.values()), reports, settings, jobs=jobs) if graded else []
    for missing in (s for s in options.assignment if s not in graded):
        results.append(not_graded(f"{missing}.ipynb", missing, missing, specs[missing],
                                  f"no notebook of exercise set {missing} was submitted"))
    return results, notes


def instructor_log(options: GradingOptions, results: list[SubmissionResult], notes: list[str],
                   seconds: float) -> str:
    """The lines ``run_autograder`` prints for the instructor (Gradescope keeps them, hidden from
    the student): the assignment, the sandbox, each notebook's points and time, the notes."""
    lines = [f"dimred-teach autograder: assignment {', '.join(options.assignment) or 'any exercise set (no --set)'}; "
             f"sandbox {options.sandbox}"]
    for result in results:
        lines.append(f"{result.submission}: {result.score:g} / {result.max_score:g}, "
                     f"{'graded' if result.graded else 'not graded'}, sandbox {result.sandbox or '-'}, "
                     f"{result.execution_time:.1f} s")
    lines += [f"note: {note}" for note in notes]
    lines.append(f"total {sum(r.score for r in results):g} / {sum(r.max_score for r in results):g} in {seconds:.1f} s")
    return "\n".join(lines)


def run_autograder(root: Path) -> int:
    """Grade ``root/submission/*.ipynb`` into ``root/results/results.json`` with the
    bundle's settings (``root/source/settings.json``) and print the instructor's log; the
    exit status is 0 once written."""
    started = time.monotonic()
    settings = json.loads((root / "source" / "settings.json").read_text())
    options = GradingOptions(**{name: settings[name] for name in SETTINGS},
                             assignment=tuple(settings.get("assignment", ())))
    paths = sorted(p for p in (root / "submission").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    with tempfile.TemporaryDirectory(prefix="dimred-gradescope-") as reports:
        results, notes = grade_one_per_set(paths, Path(reports), settle_run(options), int(settings["jobs"]))
    (root / "results").mkdir(parents=True, exist_ok=True)
    (root / "results" / "results.json").write_text(
        json.dumps(results_json(results, settings["visibility"], notes), indent=1))
    print(instructor_log(options, results, notes, time.monotonic() - started), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dimred_teach.grading.gradescope",
                                     description="Run the Gradescope autograder on a submission.")
    parser.add_argument("--root", type=Path, default=Path("/autograder"), help="Gradescope's root folder")
    return run_autograder(parser.parse_args(argv).root)


if __name__ == "__main__":
    sys.exit(main())
