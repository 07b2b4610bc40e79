"""The main process of a grading run: provisional reports first, then one worker process
per submission (``jobs`` at once), each with its own sandbox slot, temporary folder and
hard deadline; a worker's message is checked against the spec before it becomes a result.

Trouble of the grader's own (its workspace lost, a worker or checks process that died, an
exception in the grader's code) is never the student's: that submission is graded once more
in a fresh worker and kernel, and if the trouble comes back it ends "not graded (grader
error)" (:data:`.checker.GRADER_ERROR`), counted by :func:`grader_errors`; the run goes on.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import multiprocessing
import multiprocessing.connection
import os
import pkgutil
import re
import signal
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from jupyter_client.provisioning import KernelProvisionerFactory

from .. import checks as _checks
from . import cgroup, uids
from .checker import GRADER_ERROR, warm_references
from .options import GradingOptions
from .report_staging import Staging
from .reports import report_names
from .results import SubmissionResult, TestResult, clip, known_mistake, not_graded, not_graded_test
from .run_settings import RunSettings
from .sandbox import SandboxMode, kill_group, remove_tree
from .submission_worker import Job, grade_job
from .submissions import display_path, set_from_file_name
from .written import spec_answers

HIDDEN = "[hidden]"
NOT_FINISHED = "grading did not finish: the grader was stopped or killed while this submission was graded"


def preload(options: GradingOptions, specs: dict, exercise_sets=None) -> None:
    """Import every check and every course module, compile nbformat's schema, and compute the
    expensive reference values of ``exercise_sets`` (default: every set of ``specs``), before any
    submission runs (each worker is a fork of this process)."""
    for directory in options.extra_check_dirs:
        if str(directory) not in _checks.__path__:
            _checks.__path__.append(str(directory))
    import dimred_teach

    for info in pkgutil.iter_modules(dimred_teach.__path__, "dimred_teach."):
        if info.name not in ("dimred_teach.cli", "dimred_teach.__main__"):
            try:
                importlib.import_module(info.name)
            except Exception:  # a module that does not import cannot matter to a check
                pass
    for spec in specs.values():
        for check in spec["checks"]:
            try:
                _checks.get_check(check["exercise_id"])
            except ValueError:
                pass  # reported per exercise when the check is needed
    # once here rather than once per worker: nbformat compiles its notebook schema into a
    # validator at first use (0.1 to 0.2 s of CPU; for notebooks saved by current and older
    # Jupyter), and jupyter_client's provisioner factory reads every installed package's entry
    # points (0.04 s)
    for minor in range(4, nbformat.v4.nbformat_minor + 1):
        nbformat.validator.get_validator(4, minor)
    KernelProvisionerFactory.instance()
    warm_references(sorted(specs if exercise_sets is None else exercise_sets))


def grader_error(result: SubmissionResult) -> str:
    """What of the grader's own went wrong while ``result`` was graded ("" when nothing did):
    a :data:`GRADER_ERROR` message of the submission or of one of its checks."""
    for text in (result.output, *(test.output for test in result.tests if test.mistake == "grader")):
        if GRADER_ERROR in text:
            return text[text.index(GRADER_ERROR):].splitlines()[0]
    return ""


def grader_errors(results: Sequence[SubmissionResult]) -> int:
    """How many submissions ended "not graded (grader error)"."""
    return sum(not result.graded and result.output.startswith(GRADER_ERROR) for result in results)


def scrub(text: str, environment: dict[str, str] | None = None) -> str:
    """``text`` without any value of the grader's environment (8 characters or longer)."""
    values = sorted({v for v in (os.environ if environment is None else environment).values() if len(v) >= 8},
                    key=len, reverse=True)
    for value in values:
        text = text.replace(value, HIDDEN)
    return text


def worker(job: Job, connection) -> None:
    """Entry point of a worker process: sends ("kernel", pgid) then ("result", fields)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

    def notify(pgid: int, uid: int) -> None:
        connection.send_bytes(json.dumps(["kernel", [pgid, uid]]).encode())

    result = grade_job(job, notify)
    remove_tree(job.root)  # also when the main process is gone
    fields = {"exercise_set": result.exercise_set, "output": scrub(result.output), "graded": result.graded,
              "execution_time": result.execution_time, "skipped": result.skipped,
              "tests": [[t.name, t.passed, scrub(t.output), t.mistake] for t in result.tests],
              "written": [answer.to_report() for answer in result.written],
              "notebook_sha256": result.notebook_sha256}
    connection.send_bytes(json.dumps(["result", fields]).encode())
    connection.close()


def accept(base: SubmissionResult, fields, specs: dict, sandbox: str) -> SubmissionResult:
    """The result a worker reported, for the submission the main process gave it: only the
    exercises and written parts of the set's spec, points from the spec; ValueError when malformed."""
    exercise_set = fields["exercise_set"]
    digest = fields.get("notebook_sha256", "")
    if not (isinstance(digest, str) and re.fullmatch(r"(?:[0-9a-f]{64})?", digest)):
        raise ValueError("a notebook digest that is not SHA-256 hex")
    if exercise_set is not None and exercise_set not in specs:
        raise ValueError("an unknown exercise set")
    spec = specs.get(exercise_set)
    if fields.get("skipped") is True:
        return SubmissionResult(base.submission, base.report_name, None, (), clip(str(fields["output"]), 6000),
                                float(fields["execution_time"]), False, sandbox, skipped=True, notebook_sha256=digest)
    reported = {
        name: (bool(passed), clip(str(output), 4000), mistake) for name, passed, output, mistake in fields["tests"]
    }
    tests = []
    for check in spec["checks"] if spec else ():
        exercise_id, points = check["exercise_id"], float(check["points"])
        if exercise_id not in reported:
            tests.append(not_graded_test(exercise_id, points, "not graded: no result"))
            continue
        passed, output, mistake = reported[exercise_id]
        mistake = "" if passed else known_mistake(exercise_id, mistake)
        tests.append(TestResult(exercise_id, points if passed else 0.0, points, passed, output, mistake,
                                _checks.mistake_name(exercise_id, mistake) if mistake else ""))
    if bool(fields["graded"]) and spec is None:
        raise ValueError("graded without an exercise set")
    return SubmissionResult(base.submission, base.report_name, exercise_set, tuple(tests),
                            clip(str(fields["output"]), 6000), float(fields["execution_time"]),
                            bool(fields["graded"]), sandbox, written=spec_answers(fields.get("written"), spec),
                            notebook_sha256=digest)


def provisional(path: Path, name: str, settings: RunSettings) -> SubmissionResult:
    """The report a submission keeps if grading never finishes."""
    exercise_set = set_from_file_name(display_path(path.stem), settings.specs)
    spec = settings.specs.get(exercise_set) if exercise_set else None
    result = not_graded(display_path(path), name, exercise_set, spec, NOT_FINISHED, 0.0, settings.mode.name,
                        settings.limits)
    return marked(dataclasses.replace(result, accepted_readable=settings.accepted_readable, regrade=settings.regrade),
                  settings.mode)


def marked(result: SubmissionResult, mode: SandboxMode) -> SubmissionResult:
    """A result whose output begins with its sandbox ``mode``'s note (``none``: "not isolated")."""
    note = mode.report_note
    if not note or result.output.startswith(note):
        return result
    return dataclasses.replace(result, output=note + ("\n" + result.output if result.output else ""))


@dataclass
class _Running:
    """A worker at work: its process, the end of its pipe, folder, slot and deadline."""

    process: multiprocessing.Process | None
    connection: multiprocessing.connection.Connection | None
    root: str
    slot: int
    started: float
    deadline: float
    pgid: int | None = field(default=None)
    uid: int | None = field(default=None)


def grade(paths: Sequence[Path], out_dir: Path, settings: RunSettings, jobs: int = 1,
          pass_fraction: float = 1.0, gradebook: Path | None = None,
          on_result: Callable[[SubmissionResult], None] | None = None, workspace: Path | None = None,
          staging: Staging | None = None, staged: Sequence[SubmissionResult] = ()) -> list[SubmissionResult]:
    """Grade notebooks and write the reports into ``out_dir``: staged while a kernel of the run
    may be alive (:mod:`.report_staging`), published when the last one is gone.

    Parameters
    ----------
    paths : notebook files (folders are not expanded here; see :func:`find_submissions`)
    out_dir : receives ``<name>.json`` per submission, ``junit.xml`` and ``summary.md``
    settings : the run's settings (:func:`.run_settings.settle_run`: its options, specs and sandbox mode)
    jobs : submissions graded at once, each in its own worker process and kernel
    pass_fraction : used for the pass/fail column of the summary
    gradebook : optional CSV file with one row per submission
    on_result : called in the main process as each submission finishes
    workspace : an empty folder for the run's views and submission folders (removed here
        when made here; :func:`.watchdog.grade_supervised` passes its own and removes it even
        when this process is killed)
    staging : the run's staging folder in ``out_dir`` (opened, published and closed here when
        None; :func:`.watchdog.grade_supervised` passes its own, publishes it again and closes it
        even when this process is killed)
    staged : each submission's provisional result (:func:`provisional`), in the order of
        ``paths``, already staged in ``staging`` by the caller; made and staged here when empty

    Returns
    -------
    list of SubmissionResult, in the order of ``paths``.

    The sandbox mode has failed closed already, where it must, when ``settings`` was settled.
    """
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    paths = [Path(p) for p in paths]
    own_staging = staging is None
    staging = Staging.open(out_dir) if own_staging else staging
    results = list(staged) or [provisional(path, name, settings) for path, name in zip(paths, report_names(paths))]
    try:
        if not staged:
            for result in results:
                staging.stage(result)
        _grade_staged(paths, results, settings, jobs, staging, on_result, workspace, gradebook)
    finally:
        staging.publish(results, pass_fraction, gradebook)  # every kernel of the run is gone by now
        if own_staging:
            staging.close()
    return results


def _grade_staged(paths: list[Path], results: list[SubmissionResult], settings: RunSettings, jobs: int,
                  staging: Staging, on_result: Callable[[SubmissionResult], None] | None,
                  workspace: Path | None, gradebook: Path | None) -> None:
    """Run :func:`grade`'s workers: each result replaces its provisional one in ``results`` and
    is staged as it comes; returns when every worker and kernel of the run is gone, also when
    interrupted."""
    outputs = [staging.out_dir] + ([Path(gradebook).parent] if gradebook is not None else [])
    named = {result.exercise_set for result in results}
    preload(settings.options, settings.specs, None if None in named else named | set(settings.options.assignment))
    own_workspace = workspace is None
    workspace = Path(tempfile.mkdtemp(prefix="dimred-run-") if own_workspace else workspace)

    def done(result: SubmissionResult) -> None:
        staging.stage(result)
        if on_result is not None:
            on_result(result)

    pool = _Workers(paths, results, settings, settings.mode.for_run(paths, outputs), jobs, workspace, done)
    try:
        pool.run()
    finally:
        pool.stop_all()
        if own_workspace:
            remove_tree(workspace)


class _Workers:
    """The worker processes of one run, ``jobs`` at once: each grades one submission in a
    folder of its own under the run's ``workspace``; a result of grader trouble is tried once
    more, every other one replaces its provisional result and is handed to ``done``."""

    def __init__(self, paths: list[Path], results: list[SubmissionResult], settings: RunSettings,
                 sandbox: SandboxMode, jobs: int, workspace: Path, done: Callable[[SubmissionResult], None]):
        self.paths, self.results, self.settings, self.sandbox = paths, results, settings, sandbox
        self.workspace, self.views, self.done = workspace, workspace / "views", done
        self.context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                                   else "spawn")
        self.pending = list(range(len(paths)))
        self.running: dict[int, _Running] = {}
        self.free_slots = list(range(jobs))
        self.retried: set[int] = set()
        self.make_workspace()

    def make_workspace(self) -> None:
        """The run's folders, made again when something outside the run removed them."""
        self.workspace.mkdir(exist_ok=True)
        self.views.mkdir(exist_ok=True)
        os.chmod(self.workspace, 0o711)  # kernels of other user ids reach their own folders, and list nothing
        os.chmod(self.views, 0o700)  # and no set's view: bubblewrap binds a kernel's, a user kernel gets its own copy

    def run(self) -> None:
        """Until every submission has its result: start workers, read what they send, stop the overdue."""
        hard_limit = self.settings.options.hard_limit
        while self.pending or self.running:
            while self.pending and self.free_slots:
                self.start(self.pending.pop(0), self.free_slots.pop(0))
            waitables = {entry.connection: index for index, entry in self.running.items()}
            for connection in multiprocessing.connection.wait(list(waitables), timeout=1.0):
                self.receive(waitables[connection])
            for index in [i for i, entry in self.running.items() if time.monotonic() > entry.deadline]:
                self.running[index].process.kill()
                self.finish(index, self.broken(index, f"grading took longer than {hard_limit:g} s and was stopped"))

    def start(self, index: int, slot: int) -> None:
        """A worker grading submission ``index`` in ``slot``, in a folder of its own."""
        now = time.monotonic()
        try:
            self.make_workspace()
            root = tempfile.mkdtemp(prefix="dimred-grade-", dir=self.workspace)
        except OSError as error:  # the grader's, not the submission's
            self.running[index] = _Running(None, None, "", slot, now, now)
            self.finish(index, self.broken(index, f"{GRADER_ERROR}: the grader could not make this submission's "
                                                  f"folder ({type(error).__name__}: {clip(error, 300)})"))
            return
        receiver, sender = self.context.Pipe(duplex=False)
        job = Job(os.fspath(self.paths[index]), self.results[index].submission, self.results[index].report_name, root,
                  self.settings.options, self.settings.specs, self.sandbox, str(self.views))
        process = self.context.Process(target=worker, args=(job, sender), daemon=True)
        process.start()
        sender.close()
        self.running[index] = _Running(process, receiver, root, slot, now, now + self.settings.options.hard_limit)

    def receive(self, index: int) -> None:
        """What submission ``index``'s worker sent: its kernel, or its result (or that it died)."""
        entry = self.running[index]
        try:
            kind, payload = json.loads(entry.connection.recv_bytes())
            if kind == "kernel":
                entry.pgid, entry.uid = (int(number) or None for number in payload)
            else:
                self.finish(index, accept(self.results[index], payload, self.settings.specs, self.sandbox.name))
        except (EOFError, OSError, ValueError, TypeError, KeyError):
            entry.process.join(1)
            code = entry.process.exitcode
            how = f"killed by signal {-code}" if code and code < 0 else f"exit status {code}"
            self.finish(index, self.broken(index, f"{GRADER_ERROR}: the grading process of this submission died "
                                                  f"({how}); the submission may have killed it"))

    def broken(self, index: int, message: str) -> SubmissionResult:
        base = self.results[index]
        spec = self.settings.specs.get(base.exercise_set)
        elapsed = time.monotonic() - self.running[index].started
        return not_graded(base.submission, base.report_name, base.exercise_set, spec, message, elapsed,
                          self.sandbox.name)

    def finish(self, index: int, result: SubmissionResult) -> None:
        """Submission ``index``'s worker is done: clean up after it, then try once more after
        grader trouble, or keep the result."""
        entry = self.running.pop(index)
        if entry.process is not None:  # None: the worker never started
            entry.connection.close()
            entry.process.join(5)
            if entry.process.is_alive():
                entry.process.kill()
                entry.process.join(5)
        self.clean_up(entry)
        self.free_slots.append(entry.slot)
        trouble = grader_error(result)
        if trouble and index not in self.retried:  # once more, in a fresh worker and kernel
            self.retried.add(index)
            self.pending.insert(0, index)
            return
        if trouble:
            base = self.results[index]
            result = not_graded(base.submission, base.report_name, base.exercise_set,
                                self.settings.specs.get(base.exercise_set),
                                f"{trouble} (twice; the submission was graded again in a fresh kernel)",
                                result.execution_time, self.sandbox.name)
        settings = self.settings
        result = dataclasses.replace(result, limits=settings.limits, accepted_readable=settings.accepted_readable,
                                     regrade=settings.regrade)
        self.results[index] = result = marked(result, self.sandbox)
        self.done(result)

    def clean_up(self, entry: _Running) -> None:
        """Kill what a worker's kernel left and remove its folder."""
        kill_group(entry.pgid)
        if entry.uid:
            uids.clean_up(entry.uid, sweep_files=self.sandbox.sweeps)  # skipped when another run holds the id by now
        cgroup.remove_stale()
        if entry.root:
            remove_tree(entry.root)

    def stop_all(self) -> None:
        """Kill every worker still running, and its kernel (the run is over or interrupted)."""
        for entry in list(self.running.values()):
            entry.process.kill()
            self.clean_up(entry)
