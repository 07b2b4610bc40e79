"""``--sandbox bwrap``: each kernel in bubblewrap's namespaces, seeing only what is bound.

New user (or, for a root grader, a user id of its own from :mod:`.uids` set by ``setpriv``
inside the sandbox, so that the process limit counts), PID, network, IPC, UTS and mount
namespaces. The filesystem is the Python installation read-only, the exercise set's view of
the course (:mod:`.course_view`) bound over the course package, and the kernel's own folder,
read-only except its answer channel and sockets; the kernel's working folder, ``/tmp`` and
``/dev/shm`` are size-limited tmpfs that vanish with it (every byte counts, unlinked files
included); ``/`` and ``/dev`` are read-only. No network; ``/proc`` shows only the sandbox's
processes. Bubblewrap works however the course is installed
(:func:`.installation.installation_paths`).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from .installation import inside, installation_paths, leftover_folders, source_trees
from .sandbox import GUARANTEES, SMALL_TMPFS_BYTES, SandboxMode, font_caches

ETC_FILES = ("ld.so.cache", "localtime", "nsswitch.conf", "passwd", "group", "hosts", "fonts", "alternatives")
"""What a kernel sees of /etc under bwrap (no secrets: no shadow, no ssl keys, no machine-id)."""


@dataclass(frozen=True)
class Bubblewrap(SandboxMode):
    """Kernels in bubblewrap (``/usr/bin/bwrap`` and user namespaces, or a root grader)."""

    name = "bwrap"
    description = "isolated by bubblewrap (no network, read-only installation, own process namespace)"
    automatic = True

    def missing(self) -> str | None:
        return (
            None if shutil.which("bwrap") else "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
        )

    def for_run(self, submissions=(), outputs=()) -> Bubblewrap:
        """Nothing of a run's submissions or outputs is bound, so nothing needs hiding."""
        return dataclasses.replace(self, readable=tuple(installation_paths()))

    @property
    def needs_uid(self) -> bool:
        """A root grader's kernels: root inside the sandbox would be root outside."""
        return os.name == "posix" and os.geteuid() == 0

    @property
    def counts_processes(self) -> bool:
        return True

    def wrap(self, argv: list[str], box: Path, view: Path, scratch_bytes: int) -> list[str]:
        wrapped = [
            shutil.which("bwrap") or "bwrap",
            *bwrap_arguments(self.readable, box, view, scratch_bytes, self.uid),
            "--",
        ]
        if self.uid is not None:  # root inside the sandbox would be root outside: the process limit would not count
            wrapped += ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups", "--inh-caps=-all",
                        "--no-new-privs", "--"]
        return wrapped + argv

    def guarantees(self, exercise_set: str | None = None, accepted: bool = False) -> dict[str, str]:
        return dict.fromkeys(GUARANTEES, "held")

    def probe_absent(self) -> list[str]:
        """What the view leaves out, where the package is installed, and the solutions of the
        course's source trees, wherever they are."""
        from .course_view import package_folder

        return ([str(package_folder() / name) for name in ("grading", "exercise_specs")]
                + [os.path.join(tree, "solutions") for tree in source_trees()])


def hidden_originals(readable, covers=()) -> list[tuple[str, str]]:
    """(folder of the view, original) for each course folder a kernel could otherwise read
    through a bound folder (a package installed in a venv, under /usr, ...), outside the
    ``covers`` (:func:`covered_sources`): the view's copy is bound over the original."""
    from .course_view import data_folders, package_folder

    package = str(package_folder())
    pairs = [("dimred_teach", package)] + [("dimred_teach/data", str(f)) for f in data_folders()
                                           if not inside(str(f), package)]
    bound = [*readable, "/usr"]
    return [(inner, original) for inner, original in pairs
            if any(inside(original, b) for b in bound) and not any(inside(original, c) for c in covers)]


def covered_sources(readable) -> list[str]:
    """The course's source folders a kernel could otherwise read through a bound folder (``/usr``,
    or one of the installation's): a checkout (under ``/usr/local/src``, or inside a venv, as
    ``pip install -e`` of a repository makes it), the tree a wheel was built in, and what an
    installation leaves beside it (:func:`.installation.source_leftovers`). Each is an empty,
    read-only tmpfs in the sandbox, through which only what the kernel needs is bound back."""
    places = set(source_trees()) | set(leftover_folders())
    bound = [*readable, "/usr"]
    places = {p for p in places if any(inside(p, b) for b in bound)}
    return sorted(p for p in places if not any(p != q and inside(p, q) for q in places))


def _system() -> list[str]:
    """The system's folders, read-only: ``/usr`` and the top-level folders (or links) into it."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = "/" + name
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args


def _folders_on_the_way(paths, within: str | None, covers) -> list[str]:
    """``--dir`` options making, 0755, the folders on the way to ``paths`` below ``within`` (None:
    those in no cover), for a root grader: bwrap makes the folders it needs root's own (0700)."""
    ancestors = {str(parent) for path in paths for parent in Path(path).parents}
    ancestors = {a for a in ancestors - {"/", "/usr", "/tmp"}
                 if (within is None and not any(inside(a, c) for c in covers))
                 or (within is not None and a != within and inside(a, within))}
    return [
        arg
        for folder in sorted(ancestors, key=lambda f: (f.count("/"), f))
        for arg in ("--perms", "0755", "--dir", folder)
    ]


def bwrap_arguments(readable, box: Path, view: Path, scratch_bytes: int, uid: int | None = None) -> list[str]:
    """bubblewrap's options: namespaces, read-only installation and view, the course's sources
    an empty read-only tmpfs wherever they lie (:func:`covered_sources`), a read-only box whose
    channel and sockets are writable, size-limited tmpfs for the working folder, ``/tmp`` and
    ``/dev/shm``, and a read-only ``/`` and ``/dev``.

    With ``uid`` (a root grader) no user namespace: the sandbox keeps only the
    capabilities ``setpriv`` needs to become ``uid`` (and to start in its private folder),
    and gives them up doing so.
    """
    from .course_view import shadows  # here: the view module imports the checks
    # JPY_PARENT_PID names a process the kernel cannot see here (it would think its parent
    # gone and quit); --die-with-parent does that job instead
    if uid is None:
        identity = ["--unshare-all", "--cap-drop", "ALL", "--uid", "65534", "--gid", "65534"]
    else:
        identity = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                    "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                    "--cap-add", "CAP_DAC_OVERRIDE"]  # to enter the kernel's 0700 folder; setpriv drops all three
    writable = ["--perms", "01777", "--size"]  # tmpfs that vanish with the sandbox, counted to the byte
    covers = covered_sources(readable)
    within = {path: next((c for c in covers if inside(path, c)), None) for path in readable}
    args = identity + ["--die-with-parent", "--new-session", "--unsetenv", "JPY_PARENT_PID", "--hostname", "grader",
                       *_system(), "--proc", "/proc", "--dev", "/dev",
                       *writable, str(SMALL_TMPFS_BYTES), "--tmpfs", "/dev/shm",
                       *writable, str(SMALL_TMPFS_BYTES), "--tmpfs", "/tmp"]
    if uid is not None:
        args += _folders_on_the_way([*readable, str(box), str(view), "/etc/x"], None, covers)
    for name in ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    for path in readable:
        args += [] if within[path] else ["--ro-bind", path, path]
    for cover in covers:  # a source folder: empty, but for what the kernel needs inside it
        args += ["--perms", "0755", "--size", "65536", "--tmpfs", cover]
        if uid is not None:
            args += _folders_on_the_way([p for p in readable if within[p] == cover], cover, covers)
        args += [a for p in readable if within[p] == cover for a in ("--ro-bind", p, p)]
    for inner, original in hidden_originals(readable, covers):  # the installed package: only the set's view of it
        args += ["--ro-bind", str(view / inner), original]
    for stand_in, original in shadows(view):  # third-party functions the set forbids
        args += ["--ro-bind", stand_in, original]
    args += ["--ro-bind", str(view), str(view), "--ro-bind", str(box), str(box)]
    for entry in sorted(box.iterdir()):
        if entry.is_dir() and entry.name != "work":
            args += ["--bind", str(entry), str(entry)]
    work = box / "work"
    args += [
        *writable,
        str(scratch_bytes),
        "--tmpfs",
        str(work),
        "--perms",
        "01777",
        "--dir",
        str(work / ".matplotlib"),
    ]
    for cache in font_caches():
        args += ["--ro-bind", str(cache), str(work / ".matplotlib" / cache.name)]
    args += [a for cover in covers for a in ("--remount-ro", cover)]
    return args + ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", str(work)]
