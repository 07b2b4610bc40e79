"""The mount namespace of a ``user`` kernel, where a root grader can make one without user
namespaces (:func:`private_namespaces`): what the kernel sees of the machine is decided by
mounts made as root before the kernel starts, and vanishes with it.

* every world-writable folder is a private, size-limited tmpfs (every byte counted);
* the folder of every submission of the run and the run's outputs (``--out``, the gradebook's
  folder) are an empty, read-only tmpfs (:func:`hidden_folders`): no classmate's notebook, no
  report, whatever their permissions say (the kernel never needs its notebook file: the
  grader reads it and sends the kernel its cells);
* what the kernel needs below those is bound back: its own box (its view inside) and the
  installation it runs from (a venv under /tmp, as a CI clone has); nothing else;
* the stubbed copies of the third-party functions its set forbids are bound, read-only, over
  the originals (:func:`.course_view.shadows`), as bubblewrap binds them.

:data:`MOUNT_SCRIPT` makes the mounts as root inside ``unshare`` (new mount, PID and IPC
namespaces), then executes the kernel's command (``setpriv`` to the kernel's user).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence

from . import uids

UNSHARE = ["unshare", "--mount", "--pid", "--ipc", "--fork", "--kill-child", "--mount-proc", "--propagation", "private",
           "--"]

HIDDEN_TMPFS = "size=4k,mode=0755"
"""The empty tmpfs over a hidden folder (root's: the kernel's user cannot write to it)."""

MOUNT_SCRIPT = """import ctypes, json, os, sys
plan = json.loads(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
RDONLY, NOSUID, NODEV, REMOUNT, BIND = 1, 2, 4, 32, 4096
def mount(source, target, kind, flags, data=None):
    if libc.mount(source and os.fsencode(source), os.fsencode(target), kind and kind.encode(), flags,
                  data and data.encode()):
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error), target)
def inside(path, folder):
    return path == folder or path.startswith(folder.rstrip("/") + "/")
kept = [(path, os.open(path, os.O_PATH | os.O_DIRECTORY)) for path in plan["keep"]]
made = []
for place, options, read_only in sorted(plan["covers"], key=lambda cover: cover[0].count("/")):
    if not os.path.isdir(place):
        continue
    mount("tmpfs", place, "tmpfs", NOSUID | NODEV, options)
    made.append((place, read_only))
    for path, fd in kept:
        if inside(path, place):
            os.makedirs(path, mode=0o755, exist_ok=True)
            mount("/proc/self/fd/%d" % fd, path, None, BIND)
for place, read_only in made:
    if read_only:
        mount(None, place, None, REMOUNT | RDONLY | NOSUID | NODEV)
for stand_in, original in plan["shadows"]:
    mount(stand_in, original, None, BIND)
    mount(None, original, None, REMOUNT | BIND | RDONLY)
for _, fd in kept:
    os.close(fd)
os.execvp(sys.argv[2], sys.argv[2:])
"""
"""Run as root in a ``user`` kernel's new mount namespace with a plan (JSON) and the kernel's
command: each cover (folder, tmpfs options, read-only) is mounted, shallowest first (one below
a cover already made is hidden by it and skipped); after each, the kept folders below it are
bound back from descriptors opened before any mount; the hidden covers then become read-only;
each (stand-in, original) pair is bound read-only; then the kernel's command."""


@functools.cache
def private_namespaces() -> bool:
    """Whether this (root) grader can give ``user`` kernels their own mount, PID and IPC
    namespaces without user namespaces (``unshare``; many containers forbid it)."""
    if os.name != "posix" or os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    try:
        run = subprocess.run([*UNSHARE, "mount", "-t", "tmpfs", "tmpfs", "/tmp"], capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return run.returncode == 0


def hidden_folders(submissions: Iterable, outputs: Iterable) -> tuple[str, ...]:
    """The folders a ``user`` kernel's mount namespace covers with an empty tmpfs: the folder
    holding each submission (where its file really is), each folder of ``submissions`` given
    whole (a class's: one mount over it, so the kernel's mount table names no student's folder)
    and each of the run's ``outputs`` (folders: ``--out``, the gradebook's); only the outermost
    of them, and never ``/``, which holds the system the kernel runs on."""
    folders = {os.path.realpath(path) if os.path.isdir(path) else os.path.dirname(os.path.realpath(path))
               for path in submissions}
    folders = (folders | {os.path.realpath(folder) for folder in outputs}) - {"/"}
    return tuple(sorted(f for f in folders if not any(f != g and covered(f, [g]) for g in folders)))


def covered(path, folders: Sequence[str]) -> bool:
    """Whether ``path`` lies in one of ``folders`` (where it really is)."""
    real = os.path.realpath(path)
    return any(real == folder or real.startswith(folder.rstrip("/") + "/") for folder in folders)


def private_command(argv: list[str], scratch_tmpfs: str, keep: Sequence[str], hidden: Sequence[str],
                    shadows: Sequence[tuple[str, str]]) -> list[str]:
    """``argv`` in new mount, PID and IPC namespaces made by :data:`MOUNT_SCRIPT`: a private tmpfs
    (``scratch_tmpfs``, its options) over every world-writable folder, an empty read-only one over
    each ``hidden`` folder, the ``keep`` folders bound back, the ``shadows`` bound over the originals."""
    covers = [[place, scratch_tmpfs, False] for place in uids.world_writable_places()]
    covers += [[folder, HIDDEN_TMPFS, True] for folder in hidden]
    plan = {"covers": covers, "keep": list(keep), "shadows": [list(pair) for pair in shadows]}
    return [*UNSHARE, sys.executable, "-S", "-c", MOUNT_SCRIPT, json.dumps(plan), *argv]
