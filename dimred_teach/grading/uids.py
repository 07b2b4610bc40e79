"""User ids for kernels: ids no account has, unique across every grader run on the machine.

A root grader runs each kernel as a user id of its own (and the group id of the same
number). An id is taken only where the system's account database (``getpwuid`` and
``getgrgid``, that is NSS: ``/etc/passwd`` and any directory service, LDAP, NIS, SSSD,
systemd's dynamic users) knows no user and no group of that number, and never from the
reserved ids (0 to 999 and the distribution's system range, ``SYS_UID_MAX`` in
``/etc/login.defs``; 65534 ``nobody``, 65535 and 4294967295, the 16- and 32-bit ``-1``)
or a range of ``/etc/subuid`` / ``/etc/subgid`` (other users' containers map them). A
kernel with a real person's id could read and change that person's files, and the sweep
after it would delete them.

The ids come from :data:`DEFAULT_RANGE`, 70000 to 73999: above the ids ``useradd`` and
systemd give people (up to 60000 and 61183), above systemd's dynamic users (61184 to 65519)
and ``nobody``, and below the ranges ``useradd`` hands out for containers (100000 up). A site
whose directory uses these ids sets another range with the environment variable
:data:`RANGE_VARIABLE` (``first-last``, inclusive), for the grader and its clean-up alike.

An id is taken under an exclusive ``flock`` on its lock file in a root-only folder, held by
the worker for as long as its kernel lives (the kernel cannot release it: it never sees the
file); the lock file stays, and marks the id as one this grader allocated
(:func:`is_kernel_id`): only such ids' files and processes are ever looked for, killed or
deleted. An id is never taken while any process of it lives, so a concurrent run, or a
leftover of an earlier one, can neither share an id with a new kernel nor lose its kernel to
another run's clean-up (which kills an id's processes only while holding its lock).
"""

from __future__ import annotations

import fcntl
import functools
import grp
import os
import pwd
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

DEFAULT_RANGE = range(70000, 74000)
RANGE_VARIABLE = "DIMRED_TEACH_KERNEL_IDS"
RESERVED = frozenset({65534, 65535, 2**32 - 1})
"""``nobody``/``nogroup``, and ``(uid_t) -1`` in 16 and 32 bits (never valid owners)."""
LOCKS = Path("/run/dimred-teach-uids") if os.path.isdir("/run") else Path("/var/lock/dimred-teach-uids")
PSEUDO_FILESYSTEMS = frozenset({"proc", "sysfs", "cgroup", "cgroup2", "devpts", "mqueue", "debugfs", "tracefs",
                                "securityfs", "pstore", "bpf", "configfs", "fusectl", "binfmt_misc", "autofs",
                                "hugetlbfs", "nsfs", "efivarfs", "rpc_pipefs", "selinuxfs"})
"""Filesystems that hold no files a kernel could leave (IPC is swept on its own: :func:`remove_ipc`)."""


@dataclass
class Allocation:
    """A user id and the open lock file that reserves it (released by :func:`release`)."""

    uid: int
    fd: int


def configured_range(environ=os.environ) -> range:
    """The ids kernels may get: :data:`RANGE_VARIABLE` (``first-last``) or :data:`DEFAULT_RANGE`."""
    text = environ.get(RANGE_VARIABLE, "").strip()
    if not text:
        return DEFAULT_RANGE
    match = re.fullmatch(r"(\d+)\s*-\s*(\d+)", text)
    if not match or not 0 < int(match[1]) <= int(match[2]) < 2**31:
        raise ValueError(f"{RANGE_VARIABLE} must be 'first-last' (user ids, first <= last), got {text!r}")
    return range(int(match[1]), int(match[2]) + 1)


@functools.cache
def _system_ids_end() -> int:
    """One past the distribution's system ids (``SYS_UID_MAX``/``SYS_GID_MAX`` of login.defs, at least 999)."""
    end = 1000
    try:
        for line in Path("/etc/login.defs").read_text().splitlines():
            words = line.split()
            if len(words) == 2 and words[0] in ("SYS_UID_MAX", "SYS_GID_MAX") and words[1].isdigit():
                end = max(end, int(words[1]) + 1)
    except OSError:
        pass
    return end


@functools.cache
def _subordinate_ranges() -> tuple[range, ...]:
    """The ranges of /etc/subuid and /etc/subgid (``name:first:count``)."""
    found = []
    for path in ("/etc/subuid", "/etc/subgid"):
        try:
            lines = Path(path).read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            fields = line.strip().split(":")
            if len(fields) == 3 and fields[1].isdigit() and fields[2].isdigit():
                found.append(range(int(fields[1]), int(fields[1]) + int(fields[2])))
    return tuple(found)


def reserved(number: int) -> bool:
    """Whether ``number`` is never a kernel's: a system id, ``nobody``, a ``-1``, or a subordinate id."""
    return (number < _system_ids_end() or number in RESERVED
            or any(number in ids for ids in _subordinate_ranges()))


def has_account(number: int) -> bool:
    """Whether the account database (NSS) knows a user or a group with id ``number``."""
    for lookup in (pwd.getpwuid, grp.getgrgid):
        try:
            lookup(number)
            return True
        except KeyError:
            pass
        except OSError:  # a directory service that does not answer: assume the worst
            return True
    return False


def candidates(ids: range, account: Callable[[int], bool] = has_account) -> Iterator[int]:
    """The ids of ``ids`` a kernel may get, lowest first: not reserved, no account (``account``)."""
    return (number for number in ids if not reserved(number) and not account(number))


def allocated_ids() -> frozenset[int]:
    """Every id this grader (any run on the machine) has ever given a kernel and that still
    belongs to no account: those with a lock file in :data:`LOCKS`."""
    try:
        info = os.stat(LOCKS)
    except OSError:
        return frozenset()
    return _allocated_ids(info.st_mtime_ns, info.st_ino)


@functools.lru_cache(maxsize=4)
def _allocated_ids(mtime_ns: int, inode: int) -> frozenset[int]:
    """:func:`allocated_ids` for one state of the lock folder (a new lock file changes its time)."""
    try:
        names = os.listdir(LOCKS)
    except OSError:
        return frozenset()
    numbers = {int(name[:-5]) for name in names if name.endswith(".lock") and name[:-5].isdigit()}
    return frozenset(number for number in numbers if not reserved(number) and not _known_account(number))


@functools.cache
def _known_account(number: int) -> bool:
    return has_account(number)


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
    """Whether ``number`` is a user id (and group id: a kernel's user has only the group of the
    same number) this grader gave a kernel, in this run or any other (:func:`allocated_ids`)."""
    return number in allocated_ids()


def in_use() -> set[int]:
    """The kernel user ids (of any run) that have a process now."""
    kernels, found = allocated_ids(), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                uid = os.stat(f"/proc/{entry}").st_uid
            except OSError:
                continue
            if uid in kernels:
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


def allocate(ids: range | None = None, account: Callable[[int], bool] = has_account) -> Allocation:
    """Reserve a free kernel user id from ``ids`` (default :func:`configured_range`) that no
    account has (``account``: the account database); RuntimeError when none is free."""
    ids = configured_range() if ids is None else ids
    folder = _lock_folder()
    for uid in candidates(ids, account):
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
    raise RuntimeError(f"no kernel user id is free in {ids.start}-{ids.stop - 1} (ids of accounts, reserved ids "
                       f"and ids in use are skipped; set {RANGE_VARIABLE}=first-last for another range)")


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


def _mounts() -> list[tuple[str, str, bool]]:
    """(mount point, filesystem type, read-only) of every mount this process sees."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        before, _, after = line.partition(" - ")
        fields = before.split()
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), fields[4])
        found.append((point, after.split()[0], "ro" in fields[5].split(",")))
    return found


@functools.cache
def world_writable_places() -> tuple[str, ...]:
    """Every folder in which any user may create files (write and search permission for
    others, sticky or not), on every writable mounted filesystem that holds files: found by
    walking each, not taken from a list (``/tmp``, ``/var/tmp``, ``/dev/shm``, ``/run/lock``,
    a spool or cache folder a package left open, ...). Folders others cannot enter are not
    walked, and below a place found nothing more is looked for (the sweep covers it). Walked
    once per process (a run walks it in its main process, before any kernel starts: about
    2 s here for a 26 GB root filesystem)."""
    places = []
    for point, kind, read_only in _mounts():
        if read_only or kind in PSEUDO_FILESYSTEMS or not os.path.isdir(point):
            continue
        if not all(os.stat(parent).st_mode & 0o001 for parent in Path(point).parents):
            continue  # no other user reaches this mount
        run = subprocess.run(["find", point, "-xdev", "(", "-type", "d", "!", "-perm", "-0001", "-prune", ")", "-o",
                              "(", "-type", "d", "-perm", "-0002", "-print0", "-prune", ")"],
                             capture_output=True, timeout=600, stdin=subprocess.DEVNULL)
        places += [os.fsdecode(p) for p in run.stdout.split(b"\0") if p]
    places = sorted(set(places))
    return tuple(p for p in places if not any(p != q and p.startswith(q.rstrip("/") + "/") for q in places))


def sweep(uid: int) -> None:
    """Delete what ``uid`` left in the world-writable places (:func:`world_writable_places`)."""
    for place in world_writable_places():
        if os.path.isdir(place):
            subprocess.run(["find", place, "-xdev", "-mindepth", "1", "-uid", str(uid), "-delete"], timeout=120,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


IPC_KINDS = (("shm", "-m"), ("msg", "-q"), ("sem", "-s"))
"""System V IPC objects: (``/proc/sysvipc`` file, ``ipcrm`` option)."""


def ipc_objects(uid: int) -> list[tuple[str, int, int]]:
    """The System V shared-memory segments, message queues and semaphore sets that ``uid``
    created or owns (in the grader's IPC namespace): (kind, id, bytes; 0 for all but shm)."""
    found = []
    for kind, _ in IPC_KINDS:
        try:
            header, *rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        except OSError:
            continue
        names = header.split()
        for row in rows:
            fields = dict(zip(names, row.split()))
            if str(uid) in (fields.get("uid"), fields.get("cuid")):
                ident = next(v for k, v in fields.items() if k.endswith("id") and k not in ("uid", "cuid"))
                found.append((kind, int(ident), int(fields.get("size", 0))))
    return found


def remove_ipc(uid: int) -> None:
    """Remove every System V IPC object of ``uid`` (a channel to later kernels otherwise)."""
    options = dict(IPC_KINDS)
    for kind, ident, _ in ipc_objects(uid):
        subprocess.run(["ipcrm", options[kind], str(ident)], timeout=30, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def clean_up(uid: int, fd: int | None = None, sweep_files: bool = True) -> None:
    """Kill ``uid``'s processes and (``sweep_files``) delete its files in the world-writable places and its
    System V IPC objects, holding its lock (``fd`` when the caller holds it; else taken here,
    and skipped when another run holds it now). A bubblewrap kernel needs no sweep: its /tmp,
    /dev/shm and IPC namespace were its own."""
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
            remove_ipc(uid)
    except (OSError, subprocess.SubprocessError):
        pass
    finally:
        if own:
            os.close(fd)


def clean_up_leftovers() -> None:
    """:func:`clean_up` after every kernel id that has a process left (:func:`in_use`) and no
    live run holding its lock: the kernels of a run killed with its workers."""
    for uid in sorted(in_use()):
        clean_up(uid)


def release(allocation: Allocation, sweep_files: bool = True) -> None:
    """Clean up after the kernel and give the id back."""
    clean_up(allocation.uid, allocation.fd, sweep_files)
    os.close(allocation.fd)
