"""The limits and sources of a grading run (:class:`GradingOptions`)."""

from __future__ import annotations

import hmac
import math
import secrets
from dataclasses import dataclass, field, fields
from pathlib import Path

from ..exercise_specs import SPECS_DIR
from . import cgroup
from .sandbox_modes import AUTO, CHOICES

NOT_RECORDED = frozenset({"specs_dir", "extra_check_dirs", "seed_key"})
"""Options a report does not record: the grader's own sources, and the secret seed key."""


@dataclass(frozen=True)
class GradingOptions:
    """Limits and sources of a grading run.

    timeout : seconds for the whole notebook, its checks included (kernel start excluded)
    cell_timeout : seconds per cell (capped by what is left of ``timeout``)
    call_timeout : seconds per call of a student's function by a check
    recover_timeout : seconds an interrupted kernel has to answer again before it is stopped
    startup_timeout : seconds a kernel has to start
    memory_mb : address-space limit of each kernel process (the heaviest solution notebook
        peaks at about 1.1 GB of address space, 0.2 GB resident, with BLAS on one thread)
    processes : processes and threads the kernel's user may have at once (a kernel has
        about 12 threads); not enforced under ``--sandbox none`` (see :meth:`limits_text`)
    open_files : open file descriptors per kernel process
    file_mb : largest file a kernel may write
    scratch_mb : disk space of the kernel's scratch folder (all files together)
    cpu_seconds : CPU time of each kernel process (a backstop; default ``2 * timeout + 60``)
    sandbox : isolation of the kernels, one of :data:`.sandbox_modes.CHOICES`
    accept_readable_files : grade in ``user`` mode although files the kernels must not read are
        readable by other users (the course's; without mount namespaces also a third-party function
        a set forbids and, checked by ``dimred-teach grade``, the submissions, --out and the
        gradebook: :func:`.readable_to_kernels.exposures`); the reports say "not held"; otherwise such a run
        stops before any kernel
    specs_dir : where the grading specs are (the installed package's by default)
    extra_check_dirs : folders added to ``dimred_teach.checks`` (test fixtures)
    assignment : the exercise sets being graded (``--set``, full names); a notebook of another
        set is not graded; empty: any set, each notebook by its metadata and file name
    check_memory_mb : address space of the process running a submission's checks
    check_cpu_seconds : CPU time of that process (a backstop)
    check_timeout : seconds one check may compute (its calls of the student's functions excluded);
        beyond it, or beyond the memory, the exercise is "not graded: ... too large or too slow"
    max_answer_bytes : largest answer or function result accepted (bytes of the data format)
    max_notebook_bytes : largest submission file read
    max_message_bytes : largest kernel message received (bigger outputs are dropped)
    seed_key : a secret making the checks' random instances a function of the key, the
        submission (its path and its content) and the exercise (``DIMRED_TEACH_SEED_KEY``;
        shards of one run then give the reports one run gives); empty: fresh instances every time
    """

    timeout: float = 600.0
    cell_timeout: float = 120.0
    call_timeout: float = 20.0
    recover_timeout: float = 10.0
    startup_timeout: float = 60.0
    memory_mb: int = 2048
    processes: int = 64
    open_files: int = 1024
    file_mb: int = 256
    scratch_mb: int = 1024
    cpu_seconds: int | None = None
    sandbox: str = AUTO
    accept_readable_files: bool = False
    specs_dir: Path = SPECS_DIR
    extra_check_dirs: tuple[Path, ...] = ()
    assignment: tuple[str, ...] = ()
    check_memory_mb: int = 3072
    check_cpu_seconds: int = 1800
    check_timeout: float = 60.0
    max_answer_bytes: int = 64 * 2**20
    max_notebook_bytes: int = 64 * 2**20
    max_message_bytes: int = 8 * 2**20
    seed_key: str = field(default="", repr=False)

    def check_seed(self, submission: str, exercise_id: str) -> int:
        """The seed of an exercise's random instances: HMAC-SHA256 of ``submission`` (its path and
        content) and the exercise under :attr:`seed_key` when set, else fresh."""
        if not self.seed_key:
            return secrets.randbits(32)
        digest = hmac.new(self.seed_key.encode(), f"{submission}\0{exercise_id}".encode("utf-8", "replace"), "sha256")
        return int.from_bytes(digest.digest()[:4], "big")

    def __post_init__(self):
        for name in ("timeout", "cell_timeout", "call_timeout", "recover_timeout", "startup_timeout", "check_timeout"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
        if not (isinstance(self.memory_mb, int) and self.memory_mb >= 256):
            raise ValueError(f"memory_mb must be an integer >= 256, got {self.memory_mb!r}")
        for name, least in (("processes", 16), ("open_files", 64), ("file_mb", 1), ("scratch_mb", 16)):
            value = getattr(self, name)
            if not (isinstance(value, int) and value >= least):
                raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")
        if self.cpu_seconds is not None and not (isinstance(self.cpu_seconds, int) and self.cpu_seconds >= 1):
            raise ValueError(f"cpu_seconds must be a positive integer, got {self.cpu_seconds!r}")
        if self.sandbox not in CHOICES:
            raise ValueError(f"sandbox must be one of {', '.join(CHOICES)}, got {self.sandbox!r}")

    def record(self) -> dict:
        """The options as plain data for a report (what ``regrade`` grades with again): all but
        the seed key (a secret), and the specs and check folders (the installed grader's)."""
        return {f.name: list(value) if isinstance(value := getattr(self, f.name), tuple) else value
                for f in fields(self) if f.name not in NOT_RECORDED}

    @classmethod
    def from_record(cls, record, **sources) -> GradingOptions:
        """The options a :meth:`record` holds, with ``sources`` (``specs_dir``, ``extra_check_dirs``,
        ``seed_key``) of the grader at hand; ValueError for a record that is not one."""
        names = {f.name for f in fields(cls)} - NOT_RECORDED
        if not isinstance(record, dict) or set(record) - names:
            raise ValueError(f"not a record of grading options (unknown: {sorted(set(record or {}) - names)})")
        values = dict(record)
        if "assignment" in values:
            if not isinstance(values["assignment"], list) or not all(isinstance(v, str) for v in values["assignment"]):
                raise ValueError("its assignment is not a list of exercise sets")
            values["assignment"] = tuple(values["assignment"])
        return cls(**values, **sources)

    @property
    def cpu_limit(self) -> int:
        """CPU seconds of each kernel process."""
        return self.cpu_seconds or int(2 * self.timeout + 60)

    def limits_text(self, mode) -> str:
        """The kernel's resource limits in words, as reports state them, in sandbox ``mode``
        (:class:`.sandbox.SandboxMode`: whether the process limit holds there)."""
        if cgroup.available():
            return (f"a control group of {self.processes} processes/threads, {self.memory_mb} MB memory and one CPU "
                    f"core for the whole kernel; per process {self.open_files} open files, {self.file_mb} MB per file, "
                    f"{self.cpu_limit} s CPU; {self.scratch_mb} MB scratch")
        processes = f"{self.processes} processes/threads" if mode.counts_processes else "processes not limited"
        return (f"{self.memory_mb} MB memory, {processes}, {self.open_files} open files, {self.file_mb} MB per file, "
                f"{self.scratch_mb} MB scratch, {self.cpu_limit} s CPU")

    @property
    def hard_limit(self) -> float:
        """Seconds after which the main process kills a submission's worker."""
        return self.timeout + self.startup_timeout + 2 * self.recover_timeout + 10.0
