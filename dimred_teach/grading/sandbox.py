"""The kernel sandbox: where and as whom a submission's kernel runs.

Three isolations (``--sandbox``):

``bwrap``
    bubblewrap: new user (or, for a root grader, the user id :data:`USER_BASE_UID` + slot
    set by ``setpriv`` inside the sandbox, so that the process limit counts), PID,
    network, IPC, UTS and mount namespaces; the filesystem is
    the Python installation and the course package, read-only, plus the submission's own
    scratch folder (``box``); no network; ``/proc`` shows only the sandbox's processes; a
    new session; everything in it dies with the worker that started it. The modules the
    exercise set may not use are replaced by files that raise ImportError.
``user``
    for a root grader where user namespaces do not work (many containers): the kernel runs
    as a dedicated unprivileged user id (one per worker slot, :data:`USER_BASE_UID` + slot,
    no account needed) that owns only the scratch folder; afterwards every process of that
    user is killed.
``none``
    the kernel runs as the grader's user: only for trusted notebooks; reports say "not isolated".

``auto`` picks the strongest that works here, probing each once.
"""

from __future__ import annotations

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

from ..execution import pinned_environment

ENV_ALLOWLIST = {
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TERM",
    "PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "MPLCONFIGDIR",
    "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
    "SYSTEMROOT", "COMSPEC", "PATHEXT", "WINDIR", "APPDATA", "LOCALAPPDATA", "USERPROFILE",
}
"""Environment variables a kernel inherits (plus ``LC_*``); everything else is dropped."""

USER_BASE_UID = 64100
"""Worker slot ``n`` of ``--sandbox user`` runs its kernels as user id ``USER_BASE_UID + n``."""

ETC_FILES = ("ld.so.cache", "localtime", "nsswitch.conf", "passwd", "group", "hosts", "fonts", "alternatives")
"""What a kernel sees of /etc under bwrap (no secrets: no shadow, no ssl keys, no machine-id)."""

DESCRIPTIONS = {
    "bwrap": "isolated by bubblewrap (no network, read-only installation, own process namespace)",
    "user": "isolated as an unprivileged user (own scratch folder, cannot signal or read the grader)",
    "none": "not isolated (--sandbox none): the kernel ran as the grader's user",
}


class SandboxUnavailable(RuntimeError):
    """The requested isolation does not work on this machine."""


def scrubbed_environment(workdir: Path, base: dict | None = None, sandboxed: bool = False) -> dict:
    """The kernel's environment: allowlisted variables only, BLAS pinned, a private temp
    folder and IPython folder (no startup scripts), the standard inline figure backend;
    in a sandbox also a private home and matplotlib folder."""
    base = dict(os.environ if base is None else base)
    env = {key: value for key, value in base.items() if key in ENV_ALLOWLIST or key.startswith("LC_")}
    env = pinned_environment(env)
    env.update(TMPDIR=str(workdir), TEMP=str(workdir), TMP=str(workdir),
               IPYTHONDIR=str(workdir / ".ipython"), PYTHONDONTWRITEBYTECODE="1")
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


def installation_paths(extra: tuple[Path, ...] = ()) -> list[str]:
    """What a sandboxed kernel may read: Python, its packages and the course package."""
    import dimred_teach
    import dimred_teach.data

    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    paths |= set(_kernel_python_path()) | {os.path.dirname(os.path.realpath(dimred_teach.__file__))}
    paths |= set(dimred_teach.data.__path__) | {str(p) for p in extra}
    paths = {os.path.realpath(p) for p in paths if p and os.path.isdir(p)}
    # a folder under another one is bound with it; /usr itself is bound separately
    top = sorted(p for p in paths if not any(p != q and p.startswith(q.rstrip("/") + "/") for q in paths))
    return [p for p in top if p != "/" and not p.startswith("/usr/") and p != "/usr"]


@dataclass(frozen=True)
class Sandbox:
    """How one worker slot starts kernels (``mode`` is bwrap, user or none)."""

    mode: str
    uid: int | None = None
    readable: tuple[str, ...] = ()

    @property
    def description(self) -> str:
        return DESCRIPTIONS[self.mode]

    def prepare(self, box: Path) -> None:
        """Make ``box`` the kernel's scratch folder (owned by its user, a matplotlib cache)."""
        mpl = box / "work" / ".matplotlib"
        mpl.mkdir(parents=True, exist_ok=True)
        for cache in _font_caches():
            shutil.copy(cache, mpl / cache.name)
        if self.uid is not None:
            os.chmod(box.parent, 0o711)
            for folder, subfolders, files in os.walk(box):
                for name in [folder] + [os.path.join(folder, n) for n in subfolders + files]:
                    os.lchown(name, self.uid, self.uid)

    def grant(self, path: Path) -> None:
        """Let the kernel read a file the worker wrote into its box."""
        if self.uid is not None:
            os.chown(path, self.uid, self.uid)

    def wrap(self, argv: list[str], box: Path, blocked_files: dict[str, str]) -> list[str]:
        """The command starting ``argv`` inside this sandbox.

        ``blocked_files`` maps a module file the kernel must not use to a stand-in file
        (bwrap binds the stand-in over it; the other modes rely on the import hook).
        """
        if self.mode == "user":
            return ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                    "--no-new-privs", "--pdeathsig=KILL", "--", *argv]
        if self.mode == "none":
            return argv
        wrapped = [shutil.which("bwrap") or "bwrap", *bwrap_arguments(self.readable, box, blocked_files, self.uid), "--"]
        if self.uid is not None:  # root inside the sandbox would be root outside: the process limit would not count
            wrapped += ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups", "--inh-caps=-all",
                        "--no-new-privs", "--"]
        return wrapped + argv

    def clean_up(self) -> None:
        """Stop whatever the kernel left running (``user``: every process of its user id; a
        bwrap sandbox's processes die with its PID namespace)."""
        if self.mode == "user":
            subprocess.run(["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups", sys.executable,
                            "-S", "-c", "import os, signal\ntry:\n    os.kill(-1, signal.SIGKILL)\nexcept OSError:\n    pass"],
                           timeout=30, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def bwrap_arguments(readable, box: Path, blocked_files: dict[str, str], uid: int | None = None) -> list[str]:
    """bubblewrap's options: namespaces, read-only installation, writable ``box`` only.

    With ``uid`` (a root grader) no user namespace: the sandbox keeps only the
    capabilities ``setpriv`` needs to become ``uid`` and gives them up doing so.
    """
    # JPY_PARENT_PID names a process the kernel cannot see here (it would think its parent
    # gone and quit); --die-with-parent does that job instead
    if uid is None:
        identity = ["--unshare-all", "--cap-drop", "ALL", "--uid", "65534", "--gid", "65534"]
    else:
        identity = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                    "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    args = identity + ["--die-with-parent", "--new-session", "--unsetenv", "JPY_PARENT_PID", "--hostname", "grader",
                       "--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = "/" + name
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    if uid is not None:  # folders bwrap creates on the way to a bound path are root's own (0700) otherwise
        ancestors = {str(parent) for path in [*readable, str(box), "/etc/x"] for parent in Path(path).parents}
        for folder in sorted(ancestors - {"/", "/usr"}, key=lambda f: (f.count("/"), f)):
            args += ["--perms", "0755", "--dir", folder]
    for name in ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    for path in readable:
        args += ["--ro-bind", path, path]
    caches = sorted({os.path.join(os.path.dirname(f), "__pycache__") for f in blocked_files})
    for original, stand_in in blocked_files.items():
        args += ["--ro-bind", stand_in, original]
    for cache in caches:
        if os.path.isdir(cache):
            args += ["--tmpfs", cache]  # no compiled copy of a blocked module either
    return args + ["--bind", str(box), str(box), "--chdir", str(box / "work")]


@functools.lru_cache(maxsize=None)
def _font_caches() -> tuple[Path, ...]:
    """Matplotlib's font list, copied into each box so a kernel does not rebuild it."""
    try:
        import matplotlib
        from matplotlib import font_manager  # noqa: F401  (builds the cache when missing)
    except ImportError:
        return ()
    return tuple(sorted(Path(matplotlib.get_cachedir()).glob("fontlist-*.json")))


def _probe(sandbox: Sandbox) -> str | None:
    """Why ``sandbox`` cannot start Python here (None when it can)."""
    root = Path(tempfile.mkdtemp(prefix="dimred-probe-"))
    try:
        box = root / "box"
        (box / "work").mkdir(parents=True)
        sandbox.prepare(box)
        argv = sandbox.wrap([sys.executable, "-c", "import os; open('probe', 'w').write(str(os.getuid()))"], box, {})
        run = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=box / "work",
                             env=scrubbed_environment(box / "work", sandboxed=True))
        if run.returncode != 0 or not (box / "work" / "probe").exists():
            return (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
        if sandbox.mode != "none" and (box / "work" / "probe").read_text() == str(os.getuid()) and os.getuid() == 0:
            return "the kernel would still run as root"
        return None
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@functools.lru_cache(maxsize=None)
def choose(mode: str, extra_readable: tuple[Path, ...] = ()) -> str:
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
            reasons[candidate] = _probe(slot_sandbox(candidate, 0, extra_readable))
            if reasons[candidate] is None:
                return candidate
    raise SandboxUnavailable("no sandbox works here: " + "; ".join(f"{k}: {v}" for k, v in reasons.items())
                             + " (grade trusted notebooks only with --sandbox none)")


@functools.lru_cache(maxsize=None)
def slot_sandbox(mode: str, slot: int, extra_readable: tuple[Path, ...] = ()) -> Sandbox:
    """The sandbox of worker slot ``slot`` for an already chosen ``mode``."""
    if mode == "user":
        return Sandbox("user", USER_BASE_UID + slot)
    if mode == "bwrap":
        uid = USER_BASE_UID + slot if os.name == "posix" and os.geteuid() == 0 else None
        return Sandbox("bwrap", uid, readable=tuple(installation_paths(extra_readable)))
    return Sandbox("none")


def kill_group(pgid: int | None) -> None:
    """SIGKILL a process group (a kernel, or bwrap with its whole sandbox)."""
    if pgid and os.name == "posix":
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
