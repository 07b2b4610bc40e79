"""The outer deadline of a grading command: the run happens in a child process (its own
session), and this process, which no kernel is given any handle on, ends it when it stops
making progress, then writes the final reports from what was finished.

Each worker has its own hard deadline in the grading process; the watchdog covers the
grading process itself being stopped (SIGSTOP), hung or killed.
"""

from __future__ import annotations

import json
import os
import select
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from . import uids
from .options import GradingOptions
from .reports import report_names, report_path, write_reports
from .results import SubmissionResult
from .scheduler import grade, provisional
from .run_settings import RunSettings, settle_run
from .sandbox import remove_tree


def _finished(out_dir: Path, fallback: SubmissionResult) -> SubmissionResult:
    """A submission's report as the grading process left it (``fallback`` when unreadable)."""
    try:
        report = json.loads(report_path(out_dir, fallback.report_name).read_text())
        return SubmissionResult.from_gradescope(report, fallback.report_name)
    except (OSError, ValueError, KeyError, TypeError):
        return fallback


def grade_supervised(paths: Sequence[Path], out_dir: Path, options: GradingOptions | RunSettings, jobs: int = 1,
                     pass_fraction: float = 1.0, gradebook: Path | None = None,
                     on_result: Callable[[SubmissionResult], None] | None = None,
                     patience: float | None = None) -> list[SubmissionResult]:
    """:func:`grade` in a child process, stopped when no submission finishes for
    ``patience`` seconds (default ``options.hard_limit + 30``, after the grading process's
    own deadline for each worker); always returns every submission's result. ``options`` may
    be the run's :class:`.run_settings.RunSettings`, computed once by the caller."""
    if not hasattr(os, "fork"):
        return grade(paths, out_dir, options, jobs, pass_fraction, gradebook, on_result)
    paths = [Path(p) for p in paths]
    plan = settle_run(options)
    names = report_names(paths)
    fallbacks = [provisional(path, name, plan.specs, plan.sandbox, plan.limits) for path, name in zip(paths, names)]
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    write_reports(fallbacks, out_dir, pass_fraction, gradebook)
    workspace = Path(tempfile.mkdtemp(prefix="dimred-run-"))  # removed here even if the grading process is killed
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the grading process
        os.close(reader)
        os.setsid()
        status = 1
        try:
            def report(result: SubmissionResult) -> None:
                os.write(writer, b".")
                if on_result is not None:
                    on_result(result)

            grade(paths, out_dir, plan, jobs, pass_fraction, gradebook, report, workspace)
            status = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(status)
    os.close(writer)
    patience = plan.options.hard_limit + 30.0 if patience is None else patience
    last_progress = time.monotonic()
    stopped = False
    while os.waitpid(child, os.WNOHANG) == (0, 0):
        ready, _, _ = select.select([reader], [], [], 1.0)
        if ready and os.read(reader, 64):
            last_progress = time.monotonic()
        elif time.monotonic() - last_progress > patience:
            stopped = True
            break
    os.close(reader)
    try:  # the grading process's session: itself when stopped, its workers in any case
        os.killpg(child, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if stopped:  # the workers held their kernels' user ids: released now, so their leftovers can be found
        os.waitpid(child, 0)
        for uid in sorted(uids.in_use()):
            uids.clean_up(uid)  # skipped for ids another run holds
    remove_tree(workspace)
    results = [_finished(Path(out_dir), fallback) for fallback in fallbacks]
    write_reports(results, out_dir, pass_fraction, gradebook)
    return results
