"""A control group per kernel: limits on the whole process tree, not on each process.

The rlimits of ``kernel_launcher.py`` hold per process (memory, open files, CPU time) or per
user id (RLIMIT_NPROC), so a kernel may still have ``processes`` processes of ``memory_mb``
each, all busy. A root grader that can write to the cgroup filesystem (cgroup v2, or v1's
``pids``, ``memory`` and ``cpu`` hierarchies) puts each kernel into a group of its own,
named after the worker process, with

- ``pids.max``: processes and threads of the whole tree (a fork bomb stops there);
- a memory limit for the whole tree (the kernel is killed by the OOM killer beyond it);
- a CPU quota of one core, so a kernel that keeps every process busy cannot starve the
  other submissions of a ``--jobs`` run.

The kernel joins its group before bubblewrap or ``setpriv`` starts (see :func:`join_command`),
so everything it ever starts is inside. Elsewhere (a grader that is not root, or cgroups
mounted read-only) :func:`available` is False and only the rlimits hold.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PREFIX = "dimred-teach-kernel-"
CPU_PERIOD_US = 100_000
"""The CPU quota is one period of CPU time per period: one core."""

JOIN = ("import os, sys\n"
        "for procs in sys.argv[1].split(os.pathsep):\n"
        "    with open(procs, 'w') as file:\n"
        "        file.write(str(os.getpid()))\n"
        "os.execvp(sys.argv[2], sys.argv[2:])\n")
"""Run by the kernel's first process: join the groups, then become the real command."""


@functools.cache
def hierarchies() -> tuple[tuple[Path, tuple[str, ...]], ...]:
    """The writable cgroup folders to create groups in, each with the controllers it has
    (``pids`` always among them); empty when this process cannot use cgroups."""
    if os.name != "posix" or os.geteuid() != 0:
        return ()
    unified = ROOT / "cgroup.controllers"
    if unified.exists():  # cgroup v2 mounted at the root
        controllers = unified.read_text().split()
        if "pids" not in controllers or not os.access(ROOT, os.W_OK):
            return ()
        wanted = [c for c in ("pids", "memory", "cpu") if c in controllers]
        try:
            (ROOT / "cgroup.subtree_control").write_text(" ".join("+" + c for c in wanted))
        except OSError:
            return ()
        enabled = (ROOT / "cgroup.subtree_control").read_text().split()
        return ((ROOT, tuple(c for c in wanted if c in enabled)),) if "pids" in enabled else ()
    found = []
    for name, controller in (("pids", "pids"), ("memory", "memory"), ("cpu", "cpu"), ("cpu,cpuacct", "cpu")):
        folder = ROOT / name
        if (folder / "cgroup.procs").exists() and os.access(folder, os.W_OK) and not folder.is_symlink():
            if all(controller not in c for _, c in found):
                found.append((folder, (controller,)))
    return tuple(found) if any("pids" in c for _, c in found) else ()


def available() -> bool:
    """Whether kernels of this grader can be put into control groups."""
    return bool(hierarchies())


def _groups(owner: int) -> list[tuple[Path, tuple[str, ...]]]:
    return [(folder / f"{PREFIX}{owner}", controllers) for folder, controllers in hierarchies()]


def create(max_tasks: int, memory_bytes: int) -> list[str]:
    """Create this worker's groups with their limits; the ``cgroup.procs`` files to join."""
    procs = []
    for group, controllers in _groups(os.getpid()):
        group.mkdir(exist_ok=True)
        if "pids" in controllers:
            (group / "pids.max").write_text(str(max_tasks))
        if "memory" in controllers:
            limit = group / ("memory.max" if (group / "memory.max").exists() else "memory.limit_in_bytes")
            limit.write_text(str(memory_bytes))
        if "cpu" in controllers:
            if (group / "cpu.max").exists():
                (group / "cpu.max").write_text(f"{CPU_PERIOD_US} {CPU_PERIOD_US}")
            else:
                (group / "cpu.cfs_period_us").write_text(str(CPU_PERIOD_US))
                (group / "cpu.cfs_quota_us").write_text(str(CPU_PERIOD_US))
        procs.append(str(group / "cgroup.procs"))
    return procs


def join_command(procs: list[str], argv: list[str]) -> list[str]:
    """``argv`` run inside the groups whose ``cgroup.procs`` files are ``procs``."""
    return [sys.executable, "-S", "-c", JOIN, os.pathsep.join(procs), *argv] if procs else argv


def remove_stale() -> None:
    """Kill what is left in the groups of workers that have ended, and remove the groups
    (called after every submission, from the worker or the main process)."""
    for folder, _ in hierarchies():
        for group in folder.glob(PREFIX + "*"):
            owner = group.name[len(PREFIX):]
            if owner.isdigit() and (int(owner) == os.getpid() or not _alive(int(owner))):
                _empty_and_remove(group)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _empty_and_remove(group: Path) -> None:
    """SIGKILL every process in ``group`` until it is empty (at most about a second), then remove it."""
    for _ in range(50):
        try:
            pids = [int(p) for p in (group / "cgroup.procs").read_text().split()]
            if not pids:
                group.rmdir()
                return
        except OSError:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.02)
