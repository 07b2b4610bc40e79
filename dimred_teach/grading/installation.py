"""Where the course and the Python that runs its kernels are installed: what a sandboxed
kernel needs to read (:func:`installation_paths`) and what it must never read
(:func:`secret_folders`), however the course is installed (an editable checkout, a wheel in a
venv whose interpreter is a link or a copy, a system or toolcache Python)."""

from __future__ import annotations

import functools
import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from .sandbox import scrubbed_environment

UNREACHABLE = "the kernels' user cannot reach"
"""How the refusal of an installation the kernels' user cannot reach begins (:func:`unreachable_message`)."""


@functools.lru_cache(maxsize=None)
def _kernel_python_path() -> tuple[str, ...]:
    """The folders the kernel's Python imports from (asked of that Python, once)."""
    with tempfile.TemporaryDirectory(prefix="dimred-path-") as home:
        run = subprocess.run([sys.executable, "-c", "import sys, json; print(json.dumps(sys.path))"],
                             capture_output=True, text=True, timeout=60, cwd=home,
                             env=scrubbed_environment(Path(home), sandboxed=True))
    return tuple(json.loads(run.stdout)) if run.returncode == 0 else ()


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies below it (both absolute, as written)."""
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
    covered by the set's view (:func:`.bubblewrap.hidden_originals`)."""
    checkout = checkout_folder()
    prefix = os.path.realpath(sys.prefix)

    def allowed(path: str) -> bool:
        return checkout is None or not (inside(checkout, path) or (inside(path, checkout)
                                                                    and not inside(path, prefix)))

    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    paths |= set(_kernel_python_path())
    paths = {os.path.realpath(p) for p in paths if p and os.path.isdir(p)}
    paths = {p for p in paths if allowed(p)}
    top = sorted(p for p in paths if not any(p != q and inside(p, q) for q in paths))
    return [p for p in top if p != "/" and not inside(p, "/usr")]


def needed_by_kernels() -> list[tuple[str, bool]]:
    """(path, whether a kernel lists it) for each folder a kernel's user must reach: the
    installation (:func:`installation_paths`: the interpreter, its standard library, the
    packages) and the folder every run's workspace is made in, the kernels' folders and
    views below it (only passed through)."""
    return [(path, True) for path in installation_paths()] + [(os.path.realpath(tempfile.gettempdir()), False)]


def closed_to_others(path: str, listed: bool) -> str | None:
    """The first folder on the way to ``path`` (``path`` included) that a user with no
    relation to the files cannot pass through, or, when ``listed``, cannot list ``path``
    itself; None when nothing is closed."""
    way = [*reversed(Path(path).parents), Path(path)]
    for folder in way:
        try:
            mode = os.stat(folder).st_mode
        except OSError:
            return str(folder)
        needed = stat.S_IXOTH | (stat.S_IROTH if listed and folder == way[-1] else 0)
        if mode & needed != needed:
            return str(folder)
    return None


def unreachable_message(needed: str, closed: str) -> str:
    """One line naming the folder that keeps the kernels' user from ``needed``, and what to do."""
    mode = stat.S_IMODE(os.stat(closed).st_mode) if os.path.exists(closed) else 0
    opening = "o+rx" if closed == needed else "o+x"
    return (f"{UNREACHABLE} {needed}, which the kernels need: {closed} is closed to other users "
            f"(mode {mode:04o}); let them pass (chmod {opening} {closed}), or keep the course and its Python in a "
            "folder other users can enter")
