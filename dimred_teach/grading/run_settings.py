"""A grading run's settings, settled once before any kernel and passed down: the options, the
exercise sets' specs and the sandbox mode that works on this machine (which has failed closed
by then when it cannot keep what it must from the kernels)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .options import GradingOptions
from .results import RegradeRecord
from .sandbox import SandboxMode
from .sandbox_modes import choose
from .submissions import load_specs, resolve_sets

__all__ = ["RunSettings", "settle_run"]


@dataclass(frozen=True)
class RunSettings:
    """What every part of a grading run works from.

    options : the limits and sources (``assignment`` resolved to full set names)
    specs : the grading spec of every exercise set, by full name
    mode : the sandbox mode in use (``auto`` resolved), :mod:`.sandbox_modes`
    cwd : the working folder the submissions' paths are relative to
    """

    options: GradingOptions
    specs: dict[str, dict]
    mode: SandboxMode
    cwd: str = field(default_factory=os.getcwd)

    @property
    def regrade(self) -> RegradeRecord:
        """What every report of the run records for ``dimred-teach regrade``."""
        return RegradeRecord(self.cwd, self.options.record())

    @property
    def limits(self) -> str:
        """The kernels' limits in words, as the reports state them."""
        return self.options.limits_text(self.mode)

    @property
    def accepted_readable(self) -> bool:
        """Whether the run's kernels were let through although files they must not read may be
        readable by them (``--accept-readable-files``; the reports say so)."""
        return self.mode.accepts_readable(self.options.accept_readable_files)


def settle_run(
    options: GradingOptions = GradingOptions(),
    sets: Sequence[str] = (),
    submissions: Sequence | None = None,
    out_dir=None,
    gradebook=None,
) -> RunSettings:
    """The settings of a run with ``options`` grading the exercise sets ``sets`` (``--set``; empty:
    any set) and, when given, the class's ``submissions`` (its notebooks, every shard's, and the
    folders given whole) into ``out_dir`` and ``gradebook``: the mode then hides all of them from
    every kernel of the run where it can (:meth:`.SandboxMode.for_run`), whichever it grades.

    Raises ValueError for a set that names no spec, and SandboxUnavailable when
    ``options.sandbox`` does not work here, or cannot keep from its kernels what they must not
    read: the course, a third-party function a set that may be graded forbids, and (when
    given) the submissions, ``out_dir`` and the gradebook (:meth:`.SandboxMode.check_course`,
    :meth:`.SandboxMode.check_class`; unless ``options.accept_readable_files``).
    """
    specs = load_specs(options.specs_dir)
    if sets:
        options = dataclasses.replace(options, assignment=resolve_sets(sets, specs))
    mode = choose(options.sandbox)
    mode.check_course(options.assignment or tuple(specs), options.accept_readable_files)
    if submissions is not None:
        mode.check_class(submissions, out_dir, gradebook, options.accept_readable_files)
        outputs = [Path(f) for f in (out_dir, gradebook and Path(gradebook).parent) if f is not None]
        mode = mode.for_run(submissions, outputs)
    return RunSettings(options=options, specs=specs, mode=mode)
