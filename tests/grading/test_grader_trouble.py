"""Grader trouble is the grader's (issue 37, item 5): the checks' time limit counts the checks
process's CPU time, not the wall clock; a set's expensive reference values are computed once per
run, before any checks process forks; and a failure of the grader's own machinery (a lost
workspace, a checks process killed from outside) ends that submission "not graded (grader
error)" after one retry in a fresh kernel, never as the student's zero, never ending the run,
and the exit status says so (3).

Each failure is injected into a real run of the test-only exercise set 99: the checks are
patched in this process, and every worker and checks process of the run is a fork of it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

import nbformat
import pytest

from dimred_teach import checks
from dimred_teach.cli import main
from dimred_teach.course.execution import read_source
from dimred_teach.course.exercises import build_exercise
from dimred_teach.grading import GradingOptions, grade, plain_data, settle_run
from dimred_teach.grading import checker as checker_module
from dimred_teach.grading.checker import GRADER_ERROR, TOO_BIG, Checker
from test_grading import FIXTURES, SOURCE, _answered

pytestmark = pytest.mark.sandbox

checks.get_check("99.column_means")  # test_grading put set 99 on the checks' path


def _verify_with(monkeypatch, exercise_id: str, verify) -> None:
    """Make ``verify`` the check of ``exercise_id`` in this process and every fork of it."""
    entry = checks.get_check(exercise_id)
    monkeypatch.setitem(checks._REGISTRY, exercise_id, checks.Check(exercise_id, verify, entry.hint))


def _burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def _verdict(exercise_id: str = "99.column_means", timeout: float = 1.0) -> dict:
    checker = Checker(1024, 60, timeout, 2**20)
    try:
        return checker.check(exercise_id, plain_data.encode(("value", [1.0, 2.0, 3.0]), 2**20), 1, call=None)
    finally:
        checker.stop()


def test_the_time_limit_counts_the_checks_cpu_time_not_the_wall_clock(monkeypatch):
    """A check that waits 2.5 s (a loaded machine: the checker gets no CPU) is graded under a
    1 s limit; one that computes 2.5 s is "too slow"."""
    _verify_with(monkeypatch, "99.column_means", lambda answer, rng: time.sleep(2.5))
    assert _verdict()["passed"]
    _verify_with(monkeypatch, "99.column_means", lambda answer, rng: _burn(2.5))
    verdict = _verdict()
    assert not verdict["passed"] and verdict["message"] == TOO_BIG and verdict["mistake"] == "not-graded"


def test_a_checks_process_killed_from_outside_is_a_grader_error(monkeypatch):
    _verify_with(monkeypatch, "99.column_means", lambda answer, rng: os.kill(os.getpid(), signal.SIGKILL))
    verdict = _verdict()
    assert verdict["message"].startswith(GRADER_ERROR) and verdict["mistake"] == "grader", verdict


def test_a_checks_process_out_of_cpu_is_too_slow(monkeypatch):
    """Its CPU limit (RLIMIT_CPU) ends it with SIGXCPU: the answer's cost, not grader trouble."""
    _verify_with(monkeypatch, "99.column_means", lambda answer, rng: _burn(30))
    checker = Checker(1024, 1, 60.0, 2**20)
    try:
        verdict = checker.check("99.column_means", plain_data.encode(("value", [1.0, 2.0, 3.0]), 2**20), 1, call=None)
    finally:
        checker.stop()
    assert verdict["message"] == TOO_BIG, verdict


def test_expensive_references_are_computed_once_before_the_checks_fork():
    """Every argument-free cached reference of a set's checks (the crabs data of sets 01 and 03)
    is in the main process's cache before grading starts, so no checks process computes one
    against its time limit."""
    import importlib
    import inspect

    from dimred_teach.exercise_specs import SPECS_DIR

    sets = sorted(path.stem for path in SPECS_DIR.glob("*.json"))
    references = []
    for exercise_set in sets:
        module = importlib.import_module(f"dimred_teach.checks.set{exercise_set[:2]}")
        references += [value for value in vars(module).values() if callable(getattr(value, "cache_info", None))
                       and getattr(value, "__module__", "") == module.__name__
                       and not inspect.signature(value).parameters]
    assert len(references) >= 2, "the course's checks have references to warm"
    for reference in references:
        reference.cache_clear()
    checker_module.warm_references(sets)
    assert [reference.cache_info().currsize for reference in references] == [1] * len(references)


def answered_set99(root: Path) -> tuple[Path, dict, nbformat.NotebookNode]:
    """Set 99's specs folder (made under ``root``), its spec, and its exercise notebook as an
    honest student fills it in (test_grading's fixture, for a run of one's own)."""
    exercise, _, spec = build_exercise(SOURCE)
    (root / "specs").mkdir()
    (root / "specs" / "99_grading_fixture.json").write_text(json.dumps(spec))
    return root / "specs", spec, _answered({"exercise": exercise, "solution": read_source(SOURCE)})


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory):
    """Set 99's specs and three honest submissions."""
    root = tmp_path_factory.mktemp("trouble")
    specs, spec, notebook = answered_set99(root)
    paths = [root / f"99_grading_fixture-{name}.ipynb" for name in ("ann", "ben", "cat")]
    for path in paths:
        nbformat.write(notebook, path)
    options = GradingOptions(timeout=60, cell_timeout=20, call_timeout=10, recover_timeout=4, memory_mb=2048,
                             specs_dir=specs, extra_check_dirs=(FIXTURES,))
    return {"root": root, "paths": paths, "options": options, "max": float(spec["max_score"])}


def test_a_workspace_removed_mid_run_costs_no_submission(fixture_run, tmp_path):
    """Something outside the run removes its workspace after the first result: the run goes
    on, and every submission is graded."""
    workspace = Path(tempfile.mkdtemp(prefix="trouble-"))  # short: kernels' sockets live below it

    def remove_workspace(result):
        shutil.rmtree(workspace, ignore_errors=True)

    try:
        results = grade(fixture_run["paths"], tmp_path / "out", settle_run(fixture_run["options"]), workspace=workspace,
                        on_result=remove_workspace)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    assert [(r.graded, r.score) for r in results] == [(True, fixture_run["max"])] * 3, [r.output for r in results]


def test_a_killed_checks_process_is_retried_once_in_a_fresh_kernel(fixture_run, tmp_path, monkeypatch):
    """The first checks process of "ben" is killed from outside: ben is graded again and
    keeps full marks; the others are not touched."""
    marker = tmp_path / "killed-once"
    original = checks.get_check("99.center").verify

    def killed_once(answer, rng):
        if not marker.exists():
            marker.write_text("")
            os.kill(os.getpid(), signal.SIGKILL)
        original(answer, rng)

    _verify_with(monkeypatch, "99.center", killed_once)
    results = grade(fixture_run["paths"][1:2], tmp_path / "out", settle_run(fixture_run["options"]))
    assert marker.exists()
    assert (results[0].graded, results[0].score) == (True, fixture_run["max"]), results[0].output


def test_a_checks_process_killed_every_time_is_not_graded_grader_error(fixture_run, tmp_path, monkeypatch):
    """Killed on both tries of every submission: each ends "not graded (grader error)" (no
    points, no mistake of the student's named), the run goes on to the last one, and
    ``dimred-teach grade`` exits with status 3."""
    tries = tmp_path / "tries"
    tries.mkdir()

    def killed(answer, rng):
        tries.joinpath(str(os.getpid())).write_text("")
        os.kill(os.getpid(), signal.SIGKILL)

    _verify_with(monkeypatch, "99.center", killed)
    out = tmp_path / "out"
    status = main(["grade", "--out", str(out), "--jobs", "2", "--timeout", "60", "--cell-timeout", "20",
                   "--specs-dir", str(fixture_run["root"] / "specs"), "--extra-check-dir", str(FIXTURES),
                   *map(str, fixture_run["paths"])])
    assert status == 3
    assert len(list(tries.iterdir())) == 2 * 3  # each submission tried twice, in its own checks process
    for path in fixture_run["paths"]:
        report = json.loads((out / f"{path.stem}.json").read_text())
        assert report["extra_data"]["graded"] is False and report["output"].startswith(GRADER_ERROR), report
        assert report["score"] == 0 and all(t["output"].startswith(GRADER_ERROR) and
                                            t["extra_data"]["mistake"] == "not-graded" for t in report["tests"])


def test_a_world_writable_folder_removed_after_the_scan_costs_no_kernel(fixture_run, tmp_path):
    """A ``user`` kernel with namespaces of its own gets a private tmpfs over every world-writable
    folder the run found before its first kernel. Another program's open folder (here in
    /var/cache, as a package may leave one) removed after that scan is left out, and every
    submission is graded (before, each kernel's mount failed and the run ended in grader
    errors: the Gradescope fixture's kernels beside test_grading_construction's class)."""
    from dimred_teach.grading import mounts, uids

    assert mounts.private_namespaces(), "root cannot unshare here: user mode with namespaces is untested"
    gone = Path(tempfile.mkdtemp(prefix="dimred-gone-", dir="/var/cache"))
    try:
        os.chmod(gone, 0o1777)
        uids.world_writable_places.cache_clear()
        assert str(gone) in uids.world_writable_places()  # the run's scan, kept for the run
    finally:
        gone.rmdir()
    options = dataclasses.replace(fixture_run["options"], sandbox="user", accept_readable_files=True)
    try:
        results = grade(fixture_run["paths"][:2], tmp_path / "out", settle_run(options))
    finally:
        uids.world_writable_places.cache_clear()
    assert [(r.graded, r.score) for r in results] == [(True, fixture_run["max"])] * 2, [r.output for r in results]
