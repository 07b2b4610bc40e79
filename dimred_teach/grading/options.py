"""The limits and sources of a grading run (:class:`GradingOptions`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ..exercises import SPECS_DIR

SANDBOXES = ("auto", "bwrap", "user", "none")
"""``--sandbox`` choices: ``auto`` picks the strongest of ``bwrap`` and ``user`` that works here."""


@dataclass(frozen=True)
class GradingOptions:
    """Limits and sources of a grading run.

    timeout : seconds for the whole notebook, its checks included (kernel start excluded)
    cell_timeout : seconds per cell (capped by what is left of ``timeout``)
    call_timeout : seconds per call of a student's function by a check
    recover_timeout : seconds an interrupted kernel has to answer again before it is stopped
    startup_timeout : seconds a kernel has to start
    memory_mb : address-space limit of the kernel process
    sandbox : isolation of the kernels, one of :data:`SANDBOXES`
    specs_dir : where the grading specs are (the installed package's by default)
    extra_check_dirs : folders added to ``dimred_teach.checks`` (test fixtures)
    max_answer_bytes : largest pickled answer or function result accepted
    max_notebook_bytes : largest submission file read
    max_message_bytes : largest kernel message received (bigger outputs are dropped)
    """

    timeout: float = 600.0
    cell_timeout: float = 120.0
    call_timeout: float = 20.0
    recover_timeout: float = 10.0
    startup_timeout: float = 60.0
    memory_mb: int = 4096
    sandbox: str = "auto"
    specs_dir: Path = SPECS_DIR
    extra_check_dirs: tuple[Path, ...] = ()
    max_answer_bytes: int = 64 * 2**20
    max_notebook_bytes: int = 64 * 2**20
    max_message_bytes: int = 8 * 2**20

    def __post_init__(self):
        for name in ("timeout", "cell_timeout", "call_timeout", "recover_timeout", "startup_timeout"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
        if not (isinstance(self.memory_mb, int) and self.memory_mb >= 256):
            raise ValueError(f"memory_mb must be an integer >= 256, got {self.memory_mb!r}")
        if self.sandbox not in SANDBOXES:
            raise ValueError(f"sandbox must be one of {', '.join(SANDBOXES)}, got {self.sandbox!r}")

    @property
    def hard_limit(self) -> float:
        """Seconds after which the main process kills a submission's worker."""
        return self.timeout + self.startup_timeout + 2 * self.recover_timeout + 10.0
