"""User ids for kernels, unique across every grader run on the machine.

A root grader runs each kernel as a user id of its own (no account needed). Ids are taken
from :data:`FIRST_UID` upwards under an exclusive ``flock`` on a lock file in a root-only
folder, held by the worker for as long as its kernel lives (the kernel cannot release it:
it never sees the file). An id is never taken while any process of it lives, so a
concurrent run, or a leftover of an earlier one, can neither share an id with a new kernel
nor lose its kernel to another run's clean-up (which kills an id's processes only while
holding its lock).
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

FIRST_UID = 64100
COUNT = 4000
LOCKS = Path("/run/dimred-teach-uids") if os.path.isdir("/run") else Path("/var/lock/dimred-teach-uids")
SWEPT = ("/tmp", "/var/tmp", "/dev/shm")
"""World-writable places a kernel under ``--sandbox user`` can write to; emptied of its files afterwards."""


@dataclass
class Allocation:
    """A user id and the open lock file that reserves it (released by :func:`release`)."""

    uid: int
    fd: int


def processes_of(uid: int) -> list[int]:
    """The process ids of every process (thread group) whose real user id is ``uid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    found.append(int(entry))
            except OSError:
                pass
    return found


def is_kernel_id(number: int) -> bool:
    """Whether ``number`` is a kernel's user id (and group id: a kernel's user has only the group
    of the same number), of this run or any other."""
    return FIRST_UID <= number < FIRST_UID + COUNT


def in_use() -> set[int]:
    """The kernel user ids (of any run) that have a process now."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                uid = os.stat(f"/proc/{entry}").st_uid
            except OSError:
                continue
            if is_kernel_id(uid):
                found.add(uid)
    return found


def _open_to_kernels(folder: os.stat_result, permission: int) -> bool:
    """Whether a kernel's user may have had ``permission`` (0o2 write, 0o1 search) on a folder
    with status ``folder``: as anyone else, or as a kernel that owns it or its group. A folder
    a kernel owns counts whatever its mode says, since that kernel may have changed the mode
    (and added access lists) since; the mode and access lists of any other folder are its
    owner's (root's, the system's), which no kernel can change."""
    return bool(folder.st_mode & permission or is_kernel_id(folder.st_uid)
                or (is_kernel_id(folder.st_gid) and folder.st_mode & (permission << 3)))


def could_create(folder: os.stat_result) -> bool:
    """Whether a kernel's user may have put an entry into the folder (creating, linking or
    renaming one there needs write permission on it)."""
    return _open_to_kernels(folder, 0o2)


def could_enter(folder: os.stat_result) -> bool:
    """Whether a kernel's user may have reached what is below the folder (search permission)."""
    return _open_to_kernels(folder, 0o1)


def _lock_folder() -> Path:
    LOCKS.mkdir(mode=0o700, exist_ok=True)
    os.chmod(LOCKS, 0o700)
    return LOCKS


def allocate() -> Allocation:
    """Reserve a free kernel user id (RuntimeError when all :data:`COUNT` are in use)."""
    folder = _lock_folder()
    for uid in range(FIRST_UID, FIRST_UID + COUNT):
        fd = os.open(folder / f"{uid}.lock", os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        if processes_of(uid):  # a leftover that nobody cleans up: never share its id
            os.close(fd)
            continue
        return Allocation(uid, fd)
    raise RuntimeError(f"all {COUNT} kernel user ids from {FIRST_UID} are in use")


def kill_all(uid: int) -> None:
    """SIGKILL every process of ``uid`` (as that user: kill(-1) reaches exactly its processes)."""
    if not processes_of(uid):
        return
    for _ in range(3):  # a process forking while it is killed gets another round
        subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", sys.executable, "-S", "-c",
                        "import os, signal\ntry:\n    os.kill(-1, signal.SIGKILL)\nexcept OSError:\n    pass"],
                       timeout=30, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not processes_of(uid):
            return


def sweep(uid: int) -> None:
    """Delete what ``uid`` left in the world-writable places of :data:`SWEPT`."""
    for place in SWEPT:
        if os.path.isdir(place):
            subprocess.run(["find", place, "-xdev", "-mindepth", "1", "-uid", str(uid), "-delete"], timeout=120,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def clean_up(uid: int, fd: int | None = None, sweep_files: bool = True) -> None:
    """Kill ``uid``'s processes and (``sweep_files``) delete its files in :data:`SWEPT`, holding
    its lock (``fd`` when the caller holds it; else taken here, and skipped when another run
    holds it now). A bubblewrap kernel needs no sweep: its /tmp and /dev/shm were its own."""
    own = fd is None
    if own:
        try:
            fd = os.open(_lock_folder() / f"{uid}.lock", os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # BlockingIOError included: another run has this id now, and its kernel is not ours
            if fd is not None:
                os.close(fd)
            return
    try:
        kill_all(uid)
        if sweep_files:
            sweep(uid)
    except (OSError, subprocess.SubprocessError):
        pass
    finally:
        if own:
            os.close(fd)


def release(allocation: Allocation, sweep_files: bool = True) -> None:
    """Clean up after the kernel and give the id back."""
    clean_up(allocation.uid, allocation.fd, sweep_files)
    os.close(allocation.fd)
