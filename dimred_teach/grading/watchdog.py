"""The outer deadline of a grading command: the run happens in a child process (its own
session), and this process, which no kernel is given any handle on, ends it when it stops
making progress or when the command is interrupted, then publishes the reports the run staged
(:mod:`.report_staging`) once no kernel of the run is left.

Each worker has its own hard deadline in the grading process; the watchdog covers the
grading process itself being stopped (SIGSTOP), hung or killed.
"""

from __future__ import annotations

import os
import select
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from . import uids
from .report_staging import Staging
from .reports import report_names
from .results import ReportError, SubmissionResult, read_report
from .run_settings import RunSettings
from .sandbox import remove_tree
from .scheduler import grade, provisional


def _finished(staging: Staging, fallback: SubmissionResult) -> SubmissionResult:
    """A submission's report as the grading process staged it (``fallback`` when unreadable)."""
    try:
        return read_report(staging.staged(fallback.report_name), fallback.report_name)
    except ReportError:
        return fallback


def _stop(child: int) -> None:
    """Kill the grading process's session (itself when stopped, its workers in any case) and reap it."""
    try:
        os.killpg(child, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        os.waitpid(child, 0)
    except ChildProcessError:  # reaped already: it ended on its own
        pass


def _wait(child: int, reader: int, patience: float) -> None:
    """Return when the grading process has ended, or when no submission finished (a byte on
    ``reader``) for ``patience`` seconds."""
    last_progress = time.monotonic()
    while os.waitpid(child, os.WNOHANG) == (0, 0):
        ready, _, _ = select.select([reader], [], [], 1.0)
        if ready and os.read(reader, 64):
            last_progress = time.monotonic()
        elif time.monotonic() - last_progress > patience:
            return


def grade_supervised(paths: Sequence[Path], out_dir: Path, settings: RunSettings, jobs: int = 1,
                     pass_fraction: float = 1.0, gradebook: Path | None = None,
                     on_result: Callable[[SubmissionResult], None] | None = None,
                     patience: float | None = None) -> list[SubmissionResult]:
    """:func:`grade` in a child process, stopped when no submission finishes for
    ``patience`` seconds (default ``options.hard_limit + 30``, after the grading process's
    own deadline for each worker); always returns every submission's result, and publishes
    the reports this run staged once none of its kernels is left, also when interrupted.
    ``settings``: the run's settings (:func:`.run_settings.settle_run`)."""
    if not hasattr(os, "fork"):
        return grade(paths, out_dir, settings, jobs, pass_fraction, gradebook, on_result)
    paths = [Path(p) for p in paths]
    fallbacks = [provisional(path, name, settings) for path, name in zip(paths, report_names(paths))]
    staging = Staging.open(out_dir)
    workspace = Path(tempfile.mkdtemp(prefix="dimred-run-"))  # removed here even if the grading process is killed
    child = None
    try:
        for fallback in fallbacks:
            staging.stage(fallback)
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

                grade(paths, out_dir, settings, jobs, pass_fraction, gradebook, report, workspace, staging, fallbacks)
                status = 0
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(status)
        os.close(writer)
        _wait(child, reader, settings.options.hard_limit + 30.0 if patience is None else patience)
        os.close(reader)
    finally:
        if child is not None:
            _stop(child)
        uids.clean_up_leftovers()  # kernels its killed workers left: no kernel of the run is alive from here
        remove_tree(workspace)
        results = [_finished(staging, fallback) for fallback in fallbacks]
        staging.publish(results, pass_fraction, gradebook)
        staging.close()
    return results
