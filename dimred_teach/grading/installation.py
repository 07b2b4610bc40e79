"""Where the course and the Python that runs its kernels are installed: what a sandboxed
kernel needs to read (:func:`installation_paths`) and what it must never read
(:func:`secret_folders`), however the course is installed (an editable checkout, a wheel in a
venv whose interpreter is a link or a copy, a system or toolcache Python)."""

from __future__ import annotations

import functools
import importlib.metadata
import json
import os
import stat
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

from .sandbox import scrubbed_environment

UNREACHABLE = "the kernels' user cannot reach"
"""How the refusal of an installation the kernels' user cannot reach begins (:func:`unreachable_message`)."""


@functools.cache
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
    from .course_view import package_folder

    checkout = package_folder().parent
    return str(checkout) if (checkout / "pyproject.toml").is_file() and (checkout / "solutions").is_dir() else None


def course_folders() -> list[str]:
    """The course package's folders (the checkout's, for an editable install) and the
    checkout itself, if any: none of it may be in a kernel's view."""
    from .course_view import data_folders, package_folder

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
    covered by the set's view (:func:`.bubblewrap.hidden_originals`), a source tree inside one
    by an empty folder (:func:`.bubblewrap.covered_sources`). Nothing under ``/usr`` (always
    there) but what lies in a source tree."""
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
    trees = source_trees()  # under /usr, the system's folder, a source tree is covered: what is in it, bound back
    return [p for p in top if p != "/" and (not inside(p, "/usr") or any(inside(p, tree) for tree in trees))]


def install_source() -> tuple[str, bool] | None:
    """Where the installed course came from, as pip and uv record it (``direct_url.json``): (the
    folder or file, whether it is installed editable); None when nothing was recorded (an install
    from an index) or the place is gone."""
    records = (dist.read_text("direct_url.json") for dist in importlib.metadata.distributions(name="dimred-teach"))
    try:  # the first distribution that has a record (a checkout's egg-info on the path has none)
        record = json.loads(next(text for text in records if text))
        url = urllib.parse.urlparse(record["url"])
    except (StopIteration, ValueError, KeyError, TypeError, AttributeError):
        return None
    path = os.path.realpath(urllib.parse.unquote(url.path))
    if url.scheme != "file" or not os.path.exists(path):
        return None
    return path, bool(record.get("dir_info", {}).get("editable"))


def source_trees() -> list[str]:
    """The course's source folders an installation points to: the checkout an editable install
    runs from, and the folder a wheel or a non-editable install was built from (one holding
    ``pyproject.toml`` beside the wheel's ``dist/`` folder, or the folder installed from)."""
    trees = {checkout_folder()}
    source = install_source()
    if source is not None:
        path = source[0]
        tree = path if os.path.isdir(path) else os.path.dirname(os.path.dirname(path))
        trees.add(tree if os.path.isfile(os.path.join(tree, "pyproject.toml")) else None)
    return sorted(t for t in trees if t)


def _git_folders(tree: str) -> list[str]:
    """The git repository of a source tree: its ``.git`` folder, or for a worktree (``.git`` a file
    naming its folder) that folder and the repository's common folder."""
    dot_git = os.path.join(tree, ".git")
    if os.path.isdir(dot_git) or not os.path.isfile(dot_git):
        return [dot_git] if os.path.isdir(dot_git) else []
    try:
        named = Path(dot_git).read_text().strip().removeprefix("gitdir:").strip()
        folder = os.path.realpath(os.path.join(tree, named))
        common = os.path.realpath(os.path.join(folder, Path(folder, "commondir").read_text().strip()))
    except OSError:
        return []
    return [folder, common]


def source_leftovers() -> list[str]:
    """What an installation leaves beside it that holds the course's sources, beyond
    :func:`secret_folders`: each source tree's git repository (``git show HEAD:solutions/...``),
    ``build/`` (pip's copy of the package) and ``dist/`` (the wheels, the whole package), the
    package, data, solutions and tests of a tree the course was built from (not run from), and a
    wheel installed from outside any tree."""
    found = []
    source = install_source()
    for tree in source_trees():
        found += _git_folders(tree) + [os.path.join(tree, name) for name in ("build", "dist")]
        if tree != checkout_folder():
            found += [os.path.join(tree, name) for name in ("dimred_teach", "data", "solutions", "tests")]
    if source is not None and os.path.isfile(source[0]) and not any(inside(source[0], t) for t in source_trees()):
        found.append(source[0])
    secret = set(secret_folders())
    return sorted({f for f in found if os.path.exists(f) and f not in secret})


def leftover_folders() -> list[str]:
    """The folders holding :func:`source_leftovers` (a wheel file: the folder it is in), for a
    sandbox to show as empty ones."""
    return sorted({f if os.path.isdir(f) else os.path.dirname(f) for f in source_leftovers()})


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
