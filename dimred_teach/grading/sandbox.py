"""The kernel sandbox: where, as whom, and with which view of the course a kernel runs.

Three isolations (``--sandbox``):

``bwrap``
    bubblewrap: new user (or, for a root grader, a user id of its own from :mod:`.uids`
    set by ``setpriv`` inside the sandbox, so that the process limit counts), PID, network,
    IPC, UTS and mount namespaces. The filesystem is the Python installation read-only,
    the exercise set's view of the course (:mod:`.view`) bound over the course package,
    and the kernel's own folder, read-only except its answer channel and sockets; the
    kernel's working folder, ``/tmp`` and ``/dev/shm`` are size-limited tmpfs that vanish
    with it (every byte counts, unlinked files included); ``/`` and ``/dev`` are read-only.
    No network; ``/proc`` shows only the sandbox's processes.
``user``
    for a root grader where user namespaces do not work (many containers): the kernel runs
    as a user id of its own that owns only its 0700 folder. Where root can still make mount,
    PID and IPC namespaces (:func:`.mounts.private_namespaces`), the kernel gets them
    (:mod:`.mounts`): a size-limited tmpfs of its own over every world-writable folder, an
    empty one over the run's submissions' folders and outputs, and the stand-ins of the
    third-party functions its set forbids over the originals; otherwise every process of its
    id is killed afterwards, and its files in every world-writable folder and its System V
    IPC objects are removed. It imports the set's view, but the rest of the machine stays
    readable: a run stops before any kernel while a file it must not read is readable by
    other users (:func:`.exposure.require_private`), and the reports state what held
    (:func:`.exposure.guarantees`).
``none``
    the kernel runs as the grader's user: only for trusted notebooks; reports say "not isolated".

``auto`` picks the strongest that works here, probing each once, and says why when it does
not take ``bwrap``. Bubblewrap works however the course is installed (:func:`installation_paths`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .._environment import pinned_environment
from .mounts import private_command, private_namespaces

ENV_ALLOWLIST = {
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TERM", "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "MPLCONFIGDIR",
    "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
    "SYSTEMROOT", "COMSPEC", "PATHEXT", "WINDIR", "APPDATA", "LOCALAPPDATA", "USERPROFILE",
}
"""Environment variables a kernel inherits (plus ``LC_*``); everything else is dropped
(``PYTHONPATH`` too: the kernel imports the course from its set's view only)."""

SMALL_TMPFS_BYTES = 64 * 2**20
"""Size of the kernel's ``/tmp`` and ``/dev/shm`` under bubblewrap (its scratch folder has ``--scratch-mb``)."""

ETC_FILES = ("ld.so.cache", "localtime", "nsswitch.conf", "passwd", "group", "hosts", "fonts", "alternatives")
"""What a kernel sees of /etc under bwrap (no secrets: no shadow, no ssl keys, no machine-id)."""

DESCRIPTIONS = {
    "bwrap": "isolated by bubblewrap (no network, read-only installation, own process namespace)",
    "user": "isolated as an unprivileged user (own scratch folder, cannot signal or read the grader)",
    "none": "not isolated (--sandbox none): the kernel ran as the grader's user",
}


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


@functools.lru_cache(maxsize=None)
def _kernel_python_path() -> tuple[str, ...]:
    """The folders the kernel's Python imports from (asked of that Python, once)."""
    with tempfile.TemporaryDirectory(prefix="dimred-path-") as home:
        run = subprocess.run([sys.executable, "-c", "import sys, json; print(json.dumps(sys.path))"],
                             capture_output=True, text=True, timeout=60, cwd=home,
                             env=scrubbed_environment(Path(home), sandboxed=True))
    return tuple(json.loads(run.stdout)) if run.returncode == 0 else ()


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def checkout_folder() -> str | None:
    """The checkout the course package is installed from in editable mode (None otherwise)."""
    from .view import package_folder

    checkout = package_folder().parent
    return str(checkout) if (checkout / "pyproject.toml").is_file() and (checkout / "solutions").is_dir() else None


def course_folders() -> list[str]:
    """The course package's folders (the checkout's, for an editable install) and the
    checkout itself, if any: none of it may be in a kernel's view."""
    from .view import data_folders, package_folder

    checkout = checkout_folder()
    return [str(package_folder())] + [str(f) for f in data_folders()] + ([checkout] if checkout else [])


def secret_folders() -> list[str]:
    """What a kernel must not read: the package (checks, reference code, forbidden modules),
    its data folder, and a checkout's solutions and tests."""
    checkout = checkout_folder()
    folders = [f for f in course_folders() if f != checkout]
    return folders + ([os.path.join(checkout, "solutions"), os.path.join(checkout, "tests")] if checkout else [])


def installation_paths() -> list[str]:
    """What a sandboxed kernel may read besides its view, however the course is installed
    (editable, a venv whose interpreter is a link or a copy, a system or toolcache Python):
    the venv's own folder (its interpreter link, ``pyvenv.cfg``, its packages), the base
    installation, the folder of the interpreter's real file, and every folder the kernel's
    Python imports from. Never a checkout of the course (its solutions and tests) or a folder
    holding one, except a venv inside it; the installed package inside a bound folder is
    covered by the set's view (:func:`hidden_originals`)."""
    checkout = checkout_folder()
    prefix = os.path.realpath(sys.prefix)

    def allowed(path: str) -> bool:
        return checkout is None or not (_inside(checkout, path) or (_inside(path, checkout)
                                                                     and not _inside(path, prefix)))

    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    paths |= set(_kernel_python_path())
    paths = {os.path.realpath(p) for p in paths if p and os.path.isdir(p)}
    paths = {p for p in paths if allowed(p)}
    top = sorted(p for p in paths if not any(p != q and _inside(p, q) for q in paths))
    return [p for p in top if p != "/" and not _inside(p, "/usr")]


def hidden_originals(readable) -> list[tuple[str, str]]:
    """(folder of the view, original) for each course folder a kernel could otherwise read
    through a bound folder (a package installed in a venv, under /usr, ...): the view's copy
    is bound over the original."""
    from .view import data_folders, package_folder

    package = str(package_folder())
    pairs = [("dimred_teach", package)] + [("dimred_teach/data", str(f)) for f in data_folders()
                                           if not _inside(str(f), package)]
    bound = [*readable, "/usr"]
    return [(inner, original) for inner, original in pairs if any(_inside(original, b) for b in bound)]


@dataclass(frozen=True)
class Sandbox:
    """How a worker starts its kernel (``mode`` is bwrap, user or none; ``uid`` the kernel's
    own user id for a root grader, from :mod:`.uids`; ``private``: a ``user`` kernel gets
    its own mount, PID and IPC namespaces, :func:`.mounts.private_namespaces`, in which the
    ``hidden`` folders are empty: the run's submissions' and outputs', :func:`.mounts.hidden_folders`)."""

    mode: str
    uid: int | None = None
    readable: tuple[str, ...] = ()
    private: bool = False
    hidden: tuple[str, ...] = ()

    @property
    def sweeps(self) -> bool:
        """Whether the kernel's files in world-writable folders and its IPC objects are the
        grader's to count and remove (``user`` mode without namespaces of its own)."""
        return self.mode == "user" and not self.private

    @property
    def description(self) -> str:
        return DESCRIPTIONS[self.mode]

    def prepare(self, box: Path) -> None:
        """Make ``box`` the kernel's folder: ``work`` (its working folder, with a matplotlib
        font cache), ``ipc``, the answer channel; private to the kernel's user (0700)."""
        mpl = box / "work" / ".matplotlib"
        mpl.mkdir(parents=True, exist_ok=True)
        (box / "ipc").mkdir(exist_ok=True)
        for cache in _font_caches():
            shutil.copy(cache, mpl / cache.name)
        os.chmod(box, 0o700)
        if self.uid is not None:
            os.chmod(box.parent, 0o711)
            for folder, subfolders, files in os.walk(box):
                for name in [folder] + [os.path.join(folder, n) for n in subfolders + files]:
                    os.lchown(name, self.uid, self.uid)

    def own_view(self, view: Path, box: Path) -> Path:
        """The view the kernel imports: under ``user``, a copy of the set's ``view`` in its
        own 0700 box, so that no kernel reads another set's view (the run's views folder is
        root's alone; bubblewrap binds the view it needs)."""
        if self.mode != "user":
            return view
        shutil.copytree(view, box / "view", symlinks=True)
        return box / "view"

    def grant(self, path: Path) -> None:
        """Let the kernel read a file the worker wrote into its box."""
        if self.uid is not None:
            os.chown(path, self.uid, self.uid)

    def wrap(self, argv: list[str], box: Path, view: Path, scratch_bytes: int) -> list[str]:
        """The command starting ``argv`` inside this sandbox, seeing the course through ``view``."""
        if self.mode == "user":
            become = ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                      "--no-new-privs", "--pdeathsig=KILL", "--", *argv]
            if not self.private:
                return become
            from .view import shadows  # here: the view module imports the checks

            return private_command(become, f"size={SMALL_TMPFS_BYTES},mode=1777", [str(box), *self.readable],
                                   self.hidden, shadows(view))
        if self.mode == "none":
            return argv
        wrapped = [shutil.which("bwrap") or "bwrap",
                   *bwrap_arguments(self.readable, box, view, scratch_bytes, self.uid), "--"]
        if self.uid is not None:  # root inside the sandbox would be root outside: the process limit would not count
            wrapped += ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups", "--inh-caps=-all",
                        "--no-new-privs", "--"]
        return wrapped + argv


def bwrap_arguments(readable, box: Path, view: Path, scratch_bytes: int, uid: int | None = None) -> list[str]:
    """bubblewrap's options: namespaces, read-only installation and view, a read-only box
    whose channel and sockets are writable, size-limited tmpfs for the working folder,
    ``/tmp`` and ``/dev/shm``, and a read-only ``/`` and ``/dev``.

    With ``uid`` (a root grader) no user namespace: the sandbox keeps only the
    capabilities ``setpriv`` needs to become ``uid`` (and to start in its private folder),
    and gives them up doing so.
    """
    from .view import shadows  # here: the view module imports the checks
    # JPY_PARENT_PID names a process the kernel cannot see here (it would think its parent
    # gone and quit); --die-with-parent does that job instead
    if uid is None:
        identity = ["--unshare-all", "--cap-drop", "ALL", "--uid", "65534", "--gid", "65534"]
    else:
        identity = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                    "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                    "--cap-add", "CAP_DAC_OVERRIDE"]  # to enter the kernel's 0700 folder; setpriv drops all three
    writable = ["--perms", "01777", "--size"]  # tmpfs that vanish with the sandbox, counted to the byte
    args = identity + ["--die-with-parent", "--new-session", "--unsetenv", "JPY_PARENT_PID", "--hostname", "grader",
                       "--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev",
                       *writable, str(SMALL_TMPFS_BYTES), "--tmpfs", "/dev/shm",
                       *writable, str(SMALL_TMPFS_BYTES), "--tmpfs", "/tmp"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = "/" + name
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    if uid is not None:  # folders bwrap creates on the way to a bound path are root's own (0700) otherwise
        ancestors = {str(parent) for path in [*readable, str(box), str(view), "/etc/x"] for parent in Path(path).parents}
        for folder in sorted(ancestors - {"/", "/usr", "/tmp"}, key=lambda f: (f.count("/"), f)):
            args += ["--perms", "0755", "--dir", folder]
    for name in ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    for path in readable:
        args += ["--ro-bind", path, path]
    for inner, original in hidden_originals(readable):  # the installed package: only the set's view of it
        args += ["--ro-bind", str(view / inner), original]
    for stand_in, original in shadows(view):  # third-party functions the set forbids
        args += ["--ro-bind", stand_in, original]
    args += ["--ro-bind", str(view), str(view), "--ro-bind", str(box), str(box)]
    for entry in sorted(box.iterdir()):
        if entry.is_dir() and entry.name != "work":
            args += ["--bind", str(entry), str(entry)]
    work = box / "work"
    args += [*writable, str(scratch_bytes), "--tmpfs", str(work), "--perms", "01777", "--dir", str(work / ".matplotlib")]
    for cache in _font_caches():
        args += ["--ro-bind", str(cache), str(work / ".matplotlib" / cache.name)]
    return args + ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", str(work)]


@functools.lru_cache(maxsize=None)
def _font_caches() -> tuple[Path, ...]:
    """Matplotlib's font list, copied into each box so a kernel does not rebuild it."""
    try:
        import matplotlib
        from matplotlib import font_manager  # noqa: F401  (builds the cache when missing)
    except ImportError:
        return ()
    return tuple(sorted(Path(matplotlib.get_cachedir()).glob("fontlist-*.json")))


def _probe(mode: str) -> str | None:
    """Why ``mode`` cannot start Python here (None when it can)."""
    from . import uids
    from .view import build_view, package_folder

    root = Path(tempfile.mkdtemp(prefix="dimred-probe-"))
    allocation = uids.allocate() if mode != "none" and os.geteuid() == 0 else None
    sandbox = dataclasses.replace(base_sandbox(mode), uid=allocation.uid if allocation else None)
    try:
        build_view("00_probe", root / "view")
        box = root / "box"
        (box / "work").mkdir(parents=True)
        sandbox.prepare(box)
        view = sandbox.own_view(root / "view", box)
        os.chmod(root, 0o711)
        # the kernel's own interpreter imports the view, and (bwrap) finds no trace of what the
        # view leaves out where the package is installed
        hidden = [str(package_folder() / name) for name in ("grading", "exercise_specs")] if mode == "bwrap" else []
        script = ("import os, dimred_teach; print(os.getuid(), any(map(os.path.exists, "
                  f"{hidden!r})), dimred_teach.__file__.startswith({str(view)!r}))")
        argv = sandbox.wrap([sys.executable, "-c", script], box, view, 2**24)
        run = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd="/",
                             env=scrubbed_environment(box / "work", sandboxed=True, view=view))
        if run.returncode != 0:
            return (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
        uid, seen, from_view = run.stdout.split()
        if uid == "0" and os.getuid() == 0:
            return "the kernel would still run as root"
        if seen != "False":
            return "the installed package (the grader, the specs) would be readable in the sandbox"
        if from_view != "True":
            return "the kernel would not import the exercise set's view of the course"
        return None
    except (OSError, subprocess.SubprocessError, RuntimeError) as error:
        return str(error)
    finally:
        if allocation is not None:
            uids.release(allocation, sweep_files=sandbox.sweeps)  # a bwrap or namespaced probe left nothing outside
        remove_tree(root)


@functools.lru_cache(maxsize=None)
def choose(mode: str) -> str:
    """The isolation to use for ``mode`` (``auto`` -> the strongest that works); raises
    :class:`SandboxUnavailable` saying why the requested one does not work."""
    reasons = {}
    for candidate in ("bwrap", "user") if mode == "auto" else (mode,):
        if candidate == "none":
            return "none"
        if candidate == "bwrap" and not shutil.which("bwrap"):
            reasons[candidate] = "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
        elif candidate == "user" and (os.name != "posix" or os.geteuid() != 0 or not shutil.which("setpriv")):
            reasons[candidate] = "needs a root grader and setpriv (util-linux)"
        else:
            reasons[candidate] = _probe(candidate)
            if reasons[candidate] is None:
                failed = "; ".join(f"{k} does not: {v}" for k, v in reasons.items() if v)
                if failed:  # never a weaker mode in silence
                    print(f"sandbox: {candidate}, the strongest that works here ({failed})", file=sys.stderr, flush=True)
                return candidate
    raise SandboxUnavailable("no sandbox works here: " + "; ".join(f"{k}: {v}" for k, v in reasons.items())
                             + " (grade trusted notebooks only with --sandbox none)")


@functools.lru_cache(maxsize=None)
def base_sandbox(mode: str) -> Sandbox:
    """The sandbox of an already chosen ``mode``, before a worker gives it a user id."""
    return Sandbox(mode, readable=tuple(installation_paths()) if mode in ("bwrap", "user") else (),
                   private=mode == "user" and private_namespaces())


def needs_uid(mode: str) -> bool:
    """Whether kernels in ``mode`` run as a user id of their own (a root grader's bwrap, and user)."""
    return mode == "user" or (mode == "bwrap" and os.name == "posix" and os.geteuid() == 0)


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
