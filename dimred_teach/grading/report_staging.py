"""Where a run's reports wait while any kernel of the run is alive: a folder of its own under
``--out``, ``<out>/.grading-XXXXXXXX/``, that only the grader's user can read or list (0700,
files 0600), so no kernel reads a classmate's report, whatever the permissions of ``--out``.

The reports are published into ``--out`` (with the modes the lecturer's umask gives, as any
file the grader writes) together with ``junit.xml``, ``summary.md`` and the gradebook only
when no kernel of the run is alive: at the end of the run, and when it is interrupted.

Each staging folder is locked (``flock`` on its ``lock`` file) by its run for as long as any
process of the run lives (the grading process's workers inherit the lock; kernels are started
without it). A run that opens its staging first publishes what a killed run staged (a folder
whose lock is free: no process of that run is left) and removes it; a folder another run holds
is left alone, so two runs can grade into one ``--out``.
"""

from __future__ import annotations

import fcntl
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from . import uids
from .reports import report_path, report_text, write_reports
from .results import SubmissionResult
from .sandbox import remove_tree

PREFIX = ".grading-"
"""How a staging folder's name starts (a report name never starts with a dot)."""
STAGING_NAME = re.compile(r"\.grading-[A-Za-z0-9_]+")
"""A staging folder ready to be used (one still being made ends in ``.new``)."""


def _held_lock(folder: Path) -> int | None:
    """A descriptor holding the lock of a staging folder, or None when its run still lives."""
    try:
        fd = os.open(folder / "lock", os.O_RDWR | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _publish_left(folder: Path, out_dir: Path) -> None:
    """Publish the reports a killed run staged in ``folder`` (a leftover kernel of it killed
    first), then remove the folder."""
    uids.clean_up_leftovers()
    for staged in sorted(folder.glob("*.json")):
        if not staged.name.startswith(".") and not staged.is_symlink():
            report_path(out_dir, staged.stem).write_bytes(staged.read_bytes())
    remove_tree(folder)


class Staging:
    """A run's staging folder in ``out_dir``, locked for the run (:meth:`open`)."""

    def __init__(self, out_dir: Path, folder: Path, lock: int):
        self.out_dir, self.folder, self.lock = out_dir, folder, lock

    @classmethod
    def open(cls, out_dir: Path) -> Staging:
        """Make ``out_dir`` if needed, publish what killed runs left in it, and make this run's
        staging folder: made under a name no other run takes for a leftover, locked, then renamed."""
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        for folder in sorted(out_dir.iterdir()):
            if STAGING_NAME.fullmatch(folder.name) and folder.is_dir() and not folder.is_symlink():
                fd = _held_lock(folder)
                if fd is not None:
                    _publish_left(folder, out_dir)
                    os.close(fd)
        making = Path(tempfile.mkdtemp(prefix=PREFIX, suffix=".new", dir=out_dir))  # 0700
        lock = os.open(making / "lock", os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        fcntl.flock(lock, fcntl.LOCK_EX)
        folder = out_dir / making.name.removesuffix(".new")
        os.rename(making, folder)
        return cls(out_dir, folder, lock)

    def staged(self, name: str) -> Path:
        """Where the report named ``name`` is staged."""
        return report_path(self.folder, name)

    def stage(self, result: SubmissionResult) -> None:
        """Write ``result``'s report into the staging folder (0600, replaced in one step)."""
        final = self.staged(result.report_name)
        partial = final.with_name("." + final.name)
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(report_text(result))
        os.replace(partial, final)

    def publish(self, results: Sequence[SubmissionResult], pass_fraction: float, gradebook: Path | None = None) -> None:
        """Write the reports, ``junit.xml``, ``summary.md`` and the gradebook into ``--out``:
        call only when no kernel of the run is alive."""
        write_reports(results, self.out_dir, pass_fraction, gradebook)

    def close(self) -> None:
        """Remove the staging folder and release its lock (after :meth:`publish`)."""
        remove_tree(self.folder)
        os.close(self.lock)
