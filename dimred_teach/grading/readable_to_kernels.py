"""What a ``user`` kernel could read that it must not, and the refusal before any kernel starts
when the grader cannot keep it from the kernel (:mod:`.unprivileged_user` fails closed with it).

Under bubblewrap a kernel sees only what is bound. A ``user`` kernel sees the machine: with
mount namespaces of its own (:mod:`.mounts`) the grader hides the run's submissions and
outputs and covers the third-party functions its set forbids; without them, permissions are
all there is, and the grader checks them. A guarantee the grader cannot establish stops the
run before any kernel with one line naming the file and the fix (fail closed), unless the
lecturer accepts the weaker guarantee (``--accept-readable-files``); the reports then say
"not held".
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..checks import policy
from .course_view import third_party_files
from .installation import secret_folders, source_leftovers
from .mounts import covered, hidden_folders
from .sandbox import SandboxUnavailable

ACCEPT_VARIABLE = "DIMRED_TEACH_ACCEPT_READABLE_FILES"
"""Set to 1 (or pass ``--accept-readable-files``) to grade in ``user`` mode although files the
kernels must not read are readable by other users (every report then says so)."""

def accepts_readable(accept: bool) -> bool:
    """Whether a run accepts the weaker guarantees of readable files: ``accept``
    (``--accept-readable-files``) or :data:`ACCEPT_VARIABLE` = 1."""
    return accept or os.environ.get(ACCEPT_VARIABLE) == "1"


def readable_by_others(path) -> bool:
    """Whether a user with no relation to the files (another uid, no groups) can read ``path``."""
    path = Path(path).absolute()
    try:
        for parent in list(path.parents)[::-1]:
            if not os.stat(parent).st_mode & stat.S_IXOTH:
                return False
        return bool(os.stat(path).st_mode & stat.S_IROTH)
    except OSError:
        return False


def enterable_by_others(folder) -> bool:
    """Whether a user with no relation to the files can pass through ``folder`` (or, when it
    does not exist yet, the folder it would be made in) and so read the 0644 files in it."""
    folder = Path(folder).absolute()
    while not folder.exists():
        folder = folder.parent
    return all(os.stat(f).st_mode & stat.S_IXOTH for f in [folder, *folder.parents])


def exposed_course(private: bool) -> list[str]:
    """The course's secret folders (:func:`.installation.secret_folders`) another user can read,
    and, unless ``private`` (kernels with mount namespaces of their own, where they are hidden),
    what an installation leaves beside it (:func:`.installation.source_leftovers`: a checkout's
    ``.git``, ``build/``, ``dist/``, the tree a wheel was built in)."""
    leftovers = [] if private else source_leftovers()
    return [f for f in [*secret_folders(), *leftovers] if os.path.exists(f) and readable_by_others(f)]


def exposures(private: bool, submissions: Iterable = (), out_dir=None, gradebook=None,
              exercise_sets: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(what a ``user`` kernel could read or call, the fix) for each file it must not reach
    that nothing keeps from it: the course's secret folders other users can read
    (:func:`exposed_course`); a submission they can read (``submissions``: the notebooks, and
    the folders given whole, which only widen what the kernels' mount namespaces hide), an
    ``out_dir`` they can enter that holds something already (an earlier run's reports, another
    run's staging: a report published there while this run grades) or that they can write to,
    a ``gradebook`` they can read, unless the kernel's mount namespace hides its folder
    (:func:`.mounts.hidden_folders`); and without such a namespace the original of each
    third-party function one of ``exercise_sets`` forbids. ``private``: the kernels have mount
    namespaces of their own (:func:`.mounts.private_namespaces`)."""
    submissions = [Path(p) for p in submissions]
    outputs = [Path(f) for f in (out_dir, gradebook and Path(gradebook).parent) if f is not None]
    hidden = hidden_folders(submissions, outputs) if private else ()
    found = [(f"{f} is readable by other users, so a kernel could read the checks or solutions",
              f"make it private to root (chmod -R go-rwx {f}; the Gradescope bundle does this for the course)")
             for f in exposed_course(private)]
    found += [(f"{p} is readable by other users, so a kernel could read a classmate's submission",
               f"make it private to root (chmod -R go-rwx {p.parent})")
              for p in submissions if not p.is_dir() and readable_by_others(p) and not covered(p, hidden)]
    if out_dir is not None and not covered(out_dir, hidden) and enterable_by_others(out_dir):
        made = Path(out_dir).is_dir()
        held = sorted(os.listdir(out_dir)) if made else []
        if held:
            found.append((f"{out_dir} is readable by other users and holds {held[0]} already, so a kernel could read "
                          "an earlier run's reports, or those another run publishes there while this one grades",
                          f"grade into an empty --out or one private to root (chmod go-rwx {out_dir})"))
        elif made and os.stat(out_dir).st_mode & stat.S_IWOTH:
            found.append((f"{out_dir} is writable by other users, so a kernel could put links there that the "
                          "reports would be written through", f"make it private to root (chmod go-rwx {out_dir})"))
    if gradebook is not None and not covered(gradebook, hidden) and readable_by_others(gradebook):
        found.append((f"{gradebook} is readable by other users, so a kernel could read an earlier run's gradebook",
                      f"make it private to root (chmod go-rwx {gradebook})"))
    if not private:
        found += [(f"nothing covers {original} without mount namespaces, so a kernel could call {name}, which set "
                   f"{policy.set_number(exercise_set)} forbids",
                   "grade where root can make mount namespaces (unshare)")
                  for exercise_set in exercise_sets for name, original in third_party_files(exercise_set)]
    return found


def require_private(private: bool, submissions: Iterable = (), out_dir=None, gradebook=None,
                    exercise_sets: Sequence[str] = (), accept: bool = False) -> None:
    """For ``user`` mode: raise :class:`.sandbox.SandboxUnavailable`, before any kernel
    starts, with one line naming the first of the :func:`exposures` and its fix, unless the
    weaker guarantee is accepted (:func:`accepts_readable`)."""
    found = [] if accepts_readable(accept) else exposures(private, submissions, out_dir, gradebook, exercise_sets)
    if found:
        what, fix = found[0]
        raise SandboxUnavailable(f"--sandbox user: {what}; {fix}, use bubblewrap, or accept this with "
                                 "--accept-readable-files")

