"""The kernel sandbox: the interface every isolation mode implements (:class:`SandboxMode`),
the mode that isolates nothing (:class:`NoIsolation`), and what every mode shares: the
kernel's environment, its folder, and removing what a kernel left.

The modes (``--sandbox``), strongest first, each in a module of its own and listed in one
registry (:mod:`.sandbox_modes`, which also picks the strongest that works for ``auto``):

``bwrap`` (:mod:`.bubblewrap`)
    bubblewrap's namespaces: the kernel sees only the installation, read-only, and its set's view
    of the course bound over the package; no network; its own processes only.
``user`` (:mod:`.unprivileged_user`)
    a root grader where user namespaces do not work (many containers): the kernel runs as a
    user id of its own, in mount, PID and IPC namespaces of its own where root can make them
    (:mod:`.mounts`); what permissions alone must keep from it is checked before any kernel
    starts (:mod:`.readable_to_kernels`).
``none``
    the kernel runs as the grader's user: only for trusted notebooks; reports say "not isolated".

A mode is chosen once per run (:func:`.sandbox_modes.choose`), given the run's folders
(:meth:`SandboxMode.for_run`) and, per kernel, a user id (:meth:`SandboxMode.with_uid`); it
then prepares the kernel's folder, wraps the kernel's command, and states what it guarantees.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from .._environment import pinned_environment

ENV_ALLOWLIST = {
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TERM",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "LD_LIBRARY_PATH",
    "MPLCONFIGDIR",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "SYSTEMROOT",
    "COMSPEC",
    "PATHEXT",
    "WINDIR",
    "APPDATA",
    "LOCALAPPDATA",
    "USERPROFILE",
}
"""Environment variables a kernel inherits (plus ``LC_*``); everything else is dropped
(``PYTHONPATH`` too: the kernel imports the course from its set's view only)."""

SMALL_TMPFS_BYTES = 64 * 2**20
"""Size of a kernel's own ``/tmp`` and ``/dev/shm`` (its scratch folder has ``--scratch-mb``)."""

FORBIDDEN_ABSENT = "the set's forbidden code, the checks and solutions absent"
OTHERS_UNREACHABLE = "other submissions unreachable"
GUARANTEES = (
    FORBIDDEN_ABSENT,
    OTHERS_UNREACHABLE,
    "grader processes unreachable",
    "nothing outside its folder readable",
    "no network",
    "every byte it writes counted",
    "nothing left behind",
)
"""The guarantees each report states, held or not (:meth:`SandboxMode.guarantees`)."""


class SandboxUnavailable(RuntimeError):
    """The requested isolation does not work on this machine."""


def scrubbed_environment(workdir: Path, base: dict | None = None, sandboxed: bool = False,
                         view: Path | None = None) -> dict:
    """The kernel's environment: allowlisted variables only, BLAS pinned, a private temp
    folder and IPython folder (no startup scripts), the standard inline figure backend,
    ``view`` (the set's view of the course) as the only extra import path; in a sandbox also
    a private home and matplotlib folder."""
    base = dict(os.environ if base is None else base)
    env = {key: value for key, value in base.items() if key in ENV_ALLOWLIST or key.startswith("LC_")}
    env = pinned_environment(env)
    env.update(TMPDIR=str(workdir), TEMP=str(workdir), TMP=str(workdir),
               IPYTHONDIR=str(workdir / ".ipython"), PYTHONDONTWRITEBYTECODE="1", PYTHONNOUSERSITE="1")
    if view is not None:
        env["PYTHONPATH"] = str(view)
    if sandboxed:
        for key in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "USER", "LOGNAME"):
            env.pop(key, None)
        env.update(HOME=str(workdir), MPLCONFIGDIR=str(workdir / ".matplotlib"))
    return env


@functools.cache
def font_caches() -> tuple[Path, ...]:
    """Matplotlib's font list, copied into each box so a kernel does not rebuild it."""
    try:
        import matplotlib
        from matplotlib import font_manager  # noqa: F401  (builds the cache when missing)
    except ImportError:
        return ()
    return tuple(sorted(Path(matplotlib.get_cachedir()).glob("fontlist-*.json")))


@dataclass(frozen=True)
class SandboxMode:
    """One way of isolating kernels: what it needs of the machine, what it checks before any
    kernel starts (failing closed), how it prepares a kernel's folder and wraps its command,
    and what its reports say. A mode named on the command line becomes one object per run
    (:func:`.sandbox_modes.choose`, then :meth:`for_run`) and one per kernel (:meth:`with_uid`).

    uid : the kernel's own user id, for a root grader (:mod:`.uids`); set per kernel
    readable : what the kernel may read besides its view (:func:`.installation.installation_paths`)
    hidden : folders the kernel must not see whatever their permissions (the run's submissions'
        and outputs'), where the mode can hide them
    """

    name: ClassVar[str] = ""
    """What ``--sandbox`` and every report call the mode."""
    description: ClassVar[str] = ""
    """How ``summary.md`` says the kernels were isolated ("Kernels were ...")."""
    automatic: ClassVar[bool] = False
    """Whether ``--sandbox auto`` may take it (the registry lists the modes strongest first)."""
    report_note: ClassVar[str] = ""
    """The line every report of the mode begins with (empty: none)."""

    uid: int | None = None
    readable: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()

    @classmethod
    def configured(cls) -> SandboxMode:
        """The mode as this machine runs it, before a run gives it its folders."""
        return cls()

    def missing(self) -> str | None:
        """What this machine lacks for the mode, before any probe (None: nothing)."""
        return None

    def unavailable(self) -> str | None:
        """Why the mode does not work here (None when it does): :meth:`missing`, else :meth:`probe`."""
        return self.missing() or self.probe()

    def for_run(self, submissions: Iterable = (), outputs: Iterable = ()) -> SandboxMode:
        """The mode for a run grading ``submissions`` (files) into ``outputs`` (folders)."""
        return self

    def with_uid(self, uid: int | None) -> SandboxMode:
        """The mode for one kernel running as ``uid``."""
        return dataclasses.replace(self, uid=uid)

    @property
    def needs_uid(self) -> bool:
        """Whether each kernel runs as a user id of its own (:mod:`.uids`)."""
        return False

    @property
    def counts_processes(self) -> bool:
        """Whether the process limit holds: RLIMIT_NPROC counts the processes of a real user
        id and root ignores it, so it is set only where the kernel has a user id of its own."""
        return False

    @property
    def sweeps(self) -> bool:
        """Whether the kernel's files in world-writable folders and its IPC objects are the
        grader's to count and remove (nothing else makes them vanish with the kernel)."""
        return False

    def check_course(self, exercise_sets: Sequence[str], accept: bool) -> None:
        """Fail closed before any kernel of a run that may grade ``exercise_sets``: raise
        :class:`SandboxUnavailable`, in one line naming what and the fix, when the mode cannot keep
        the course's secrets from its kernels (unless the weaker guarantee is ``accept``-ed)."""

    def check_class(self, submissions: Sequence, out_dir, gradebook, accept: bool) -> None:
        """Fail closed, as :meth:`check_course`, for a class's ``submissions``, ``out_dir``
        and ``gradebook``."""

    def accepts_readable(self, accept: bool) -> bool:
        """Whether the run's kernels were let through although files they must not read may
        be readable by them (``--accept-readable-files``: the reports say so)."""
        return False

    def prepare(self, box: Path) -> None:
        """Make ``box`` the kernel's folder: ``work`` (its working folder, with a matplotlib
        font cache), ``ipc``, the answer channel; private to the kernel's user (0700)."""
        mpl = box / "work" / ".matplotlib"
        mpl.mkdir(parents=True, exist_ok=True)
        (box / "ipc").mkdir(exist_ok=True)
        for cache in font_caches():
            shutil.copy(cache, mpl / cache.name)
        os.chmod(box, 0o700)
        if self.uid is not None:
            os.chmod(box.parent, 0o711)
            for folder, subfolders, files in os.walk(box):
                for name in [folder] + [os.path.join(folder, n) for n in subfolders + files]:
                    os.lchown(name, self.uid, self.uid)

    def own_view(self, view: Path, box: Path) -> Path:
        """The view of the course the kernel imports (the set's ``view``, or a copy in ``box``)."""
        return view

    def grant(self, path: Path) -> None:
        """Let the kernel read a file the worker wrote into its box."""
        if self.uid is not None:
            os.chown(path, self.uid, self.uid)

    def wrap(self, argv: list[str], box: Path, view: Path, scratch_bytes: int) -> list[str]:
        """The command starting ``argv`` in this sandbox, seeing the course through ``view``."""
        return argv

    def environment(self, workdir: Path, view: Path) -> dict:
        """The kernel's environment (:func:`scrubbed_environment`)."""
        return scrubbed_environment(workdir, sandboxed=True, view=view)

    def guarantees(self, exercise_set: str | None = None, accepted: bool = False) -> dict[str, str]:
        """What a kernel of ``exercise_set`` cannot do, guarantee by guarantee (:data:`GUARANTEES`):
        "held", or why not (``accepted``: its run accepted weaker guarantees)."""
        raise NotImplementedError

    def probe_absent(self) -> list[str]:
        """Paths the probe's kernel must not find (what the mode hides by what it binds)."""
        return []

    def probe(self) -> str | None:
        """Why this mode cannot start the kernel's own Python here, as the kernel's user,
        importing a set's view, finding its packages (ipykernel, not imported) and none of
        :meth:`probe_absent`; None when it can."""
        from . import uids
        from .course_view import build_view  # here: the view module imports the checks

        root = Path(tempfile.mkdtemp(prefix="dimred-probe-"))
        allocation = uids.allocate() if self.needs_uid else None
        mode = self.for_run().with_uid(allocation.uid if allocation else None)
        try:
            build_view("00_probe", root / "view")
            box = root / "box"
            (box / "work").mkdir(parents=True)
            mode.prepare(box)
            view = mode.own_view(root / "view", box)
            os.chmod(root, 0o711)
            script = ("import importlib.util, os, dimred_teach; print(os.getuid(), any(map(os.path.exists, "
                      f"{mode.probe_absent()!r})), dimred_teach.__file__.startswith({str(view)!r}), "
                      "importlib.util.find_spec('ipykernel') is not None)")
            argv = mode.wrap([sys.executable, "-c", script], box, view, 2**24)
            run = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd="/",
                                 env=scrubbed_environment(box / "work", sandboxed=True, view=view))
            if run.returncode != 0:
                return (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
            uid, seen, from_view, packages = run.stdout.split()
            if uid == "0" and os.getuid() == 0:
                return "the kernel would still run as root"
            if seen != "False":
                return "the installed package (the grader, the specs) would be readable in the sandbox"
            if from_view != "True":
                return "the kernel would not import the exercise set's view of the course"
            if packages != "True":
                return "the kernel's Python would not find its packages (ipykernel): is its venv out of its reach?"
            return None
        except (OSError, subprocess.SubprocessError, RuntimeError) as error:
            return str(error)
        finally:
            if allocation is not None:
                uids.release(allocation, sweep_files=mode.sweeps)  # a bwrap or namespaced probe left nothing outside
            remove_tree(root)


@dataclass(frozen=True)
class NoIsolation(SandboxMode):
    """``--sandbox none``: the kernel runs as the grader's user, only for trusted notebooks."""

    name = "none"
    description = "not isolated (--sandbox none): the kernel ran as the grader's user"
    report_note = "not isolated: graded with --sandbox none, the kernel ran as the grader's user"

    def unavailable(self) -> str | None:
        return None

    def environment(self, workdir: Path, view: Path) -> dict:
        return scrubbed_environment(workdir, sandboxed=False, view=view)

    def guarantees(self, exercise_set: str | None = None, accepted: bool = False) -> dict[str, str]:
        return {name: "not held: --sandbox none runs the kernel as the grader's user" for name in GUARANTEES}


def remove_tree(root) -> None:
    """Remove a folder a kernel may have filled: never follows a link, never recurses in
    Python (``rm`` walks any depth), makes folders writable first, and never raises."""
    try:
        subprocess.run(["chmod", "-R", "u+rwx", "--", str(root)], timeout=120, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", "--one-file-system", "--", str(root)], timeout=300, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        pass


def kill_group(pgid: int | None) -> None:
    """SIGKILL a process group (a kernel, or bwrap with its whole sandbox)."""
    if pgid and os.name == "posix":
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
