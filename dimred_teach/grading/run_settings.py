"""A grading run's settings, settled once and passed down: the options, the exercise sets'
specs and the sandbox that works on this machine."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import uids
from .options import GradingOptions
from .results import RegradeRecord
from .exposure import accepts_readable, require_private
from .sandbox import choose
from .submissions import load_specs, resolve_sets

__all__ = ["RunSettings", "settle_run"]


@dataclass(frozen=True)
class RunSettings:
    """What every part of a grading run works from.

    options : the limits and sources (``assignment`` resolved to full set names)
    specs : the grading spec of every exercise set, by full name
    sandbox : the isolation in use: ``bwrap``, ``user`` or ``none`` (``auto`` resolved)
    cwd : the working folder the submissions' paths are relative to
    """

    options: GradingOptions
    specs: dict[str, dict]
    sandbox: str
    cwd: str = field(default_factory=os.getcwd)

    @property
    def regrade(self) -> RegradeRecord:
        """What every report of the run records for ``dimred-teach regrade``."""
        return RegradeRecord(self.cwd, self.options.record())

    @property
    def limits(self) -> str:
        """The kernels' limits in words, as the reports state them."""
        return self.options.limits_text(self.sandbox)

    @property
    def accepted_readable(self) -> bool:
        """Whether the run's ``user`` kernels were let through although files they must not
        read may be readable by other users (``--accept-readable-files``; the reports say so)."""
        return self.sandbox == "user" and accepts_readable(self.options.accept_readable_files)


def settle_run(options: GradingOptions | RunSettings = GradingOptions(), sets: Sequence[str] = ()) -> RunSettings:
    """The settings of a run with ``options`` grading the exercise sets ``sets`` (``--set``; empty:
    any set). Settings pass through unchanged.

    Raises ValueError for a set that names no spec, and SandboxUnavailable when
    ``options.sandbox`` does not work here, or is ``user`` and the course's files are readable
    by other users, or a set that may be graded forbids a third-party function that nothing
    covers (:func:`.exposure.require_private`; unless ``options.accept_readable_files``).
    """
    if isinstance(options, RunSettings):
        return options
    specs = load_specs(options.specs_dir)
    if sets:
        options = dataclasses.replace(options, assignment=resolve_sets(sets, specs))
    sandbox = choose(options.sandbox)
    if sandbox == "user":  # what keeps the course from the kernels: checked before any starts
        require_private(exercise_sets=options.assignment or tuple(specs), accept=options.accept_readable_files)
        uids.world_writable_places()  # walked once, before the workers fork
    return RunSettings(options=options, specs=specs, sandbox=sandbox)
