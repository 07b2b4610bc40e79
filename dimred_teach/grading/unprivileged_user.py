"""``--sandbox user``: for a root grader where user namespaces do not work (many containers),
each kernel runs as a user id of its own (:mod:`.uids`) that owns only its 0700 folder.

Where root can still make mount, PID and IPC namespaces (:func:`.mounts.private_namespaces`),
the kernel gets them (:mod:`.mounts`): a size-limited tmpfs of its own over every
world-writable folder, an empty one over the run's submissions' folders and outputs, and the
stand-ins of the third-party functions its set forbids over the originals; otherwise every
process of its id is killed afterwards, and its files in every world-writable folder and its
System V IPC objects are removed. It imports the set's view, but the rest of the machine stays
readable: a run stops before any kernel while a file it must not read is readable by other
users (:func:`.readable_to_kernels.require_private`), and the reports state what held (:meth:`guarantees`).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from ..checks import policy
from . import mounts, uids
from .installation import closed_to_others, installation_paths, leftover_folders, needed_by_kernels, unreachable_message
from .readable_to_kernels import accepts_readable, exposed_course, require_private
from .sandbox import FORBIDDEN_ABSENT, GUARANTEES, OTHERS_UNREACHABLE, SMALL_TMPFS_BYTES, SandboxMode

BEYOND_THE_RUN = "; what lies beyond the run (an earlier class's folder) only as its own permissions keep it"
"""What a ``user`` kernel reaches of other submissions that are not the run's: the machine is readable."""


@dataclass(frozen=True)
class UnprivilegedUser(SandboxMode):
    """Kernels as user ids of their own (``private``: in mount, PID and IPC namespaces of their
    own, in which the ``hidden`` folders are empty: :func:`.mounts.hidden_folders`)."""

    name = "user"
    description = "isolated as an unprivileged user (own scratch folder, cannot signal or read the grader)"
    automatic = True

    private: bool = False

    @classmethod
    def configured(cls) -> UnprivilegedUser:
        return cls(private=mounts.private_namespaces())

    def missing(self) -> str | None:
        """A grader that is not root, or lacks setpriv; or what the kernels need (the interpreter,
        the installation, the run's folder) that their user cannot reach (:func:`passages`)."""
        if os.name != "posix" or os.geteuid() != 0 or not shutil.which("setpriv"):
            return "needs a root grader and setpriv (util-linux)"
        try:
            self.passages()
        except PermissionError as closed:
            return str(closed)
        return None

    def passages(self) -> list[str]:
        """The folders closed to other users on the way to what the kernels need: with mount
        namespaces each becomes, in the kernel's, an empty folder through which only what the
        kernels need is bound back (a kernel could not read in it anyway); without, or where
        what the kernels need is closed itself, PermissionError naming it and what to do."""
        found = []
        for needed, listed in needed_by_kernels():
            closed = closed_to_others(needed, listed)
            if closed is not None and (not self.private or closed == needed):
                raise PermissionError(unreachable_message(needed, closed))
            if closed is not None:
                found.append(closed)
        return found

    def for_run(self, submissions=(), outputs=()) -> UnprivilegedUser:
        """Hidden besides what the mode hid already: the folders of ``submissions`` (files, or
        folders given whole) and the ``outputs`` (:func:`.mounts.hidden_folders`), the folders
        closed to others on the way to what the kernels need (:meth:`passages`), and what the
        installation leaves beside it (:func:`.installation.leftover_folders`: ``.git``, ...)."""
        hidden = mounts.hidden_folders(submissions, [*self.hidden, *outputs])
        hidden = set(hidden) | (set(self.passages()) | set(leftover_folders()) if self.private else set())
        return dataclasses.replace(self, readable=tuple(installation_paths()), hidden=tuple(sorted(hidden)))

    @property
    def needs_uid(self) -> bool:
        return True

    @property
    def counts_processes(self) -> bool:
        return True

    @property
    def sweeps(self) -> bool:
        return not self.private

    def check_course(self, exercise_sets, accept: bool) -> None:
        require_private(self.private, exercise_sets=exercise_sets, accept=accept)
        uids.world_writable_places()  # walked once, before the workers fork

    def check_class(self, submissions, out_dir, gradebook, accept: bool) -> None:
        require_private(self.private, submissions, out_dir, gradebook, accept=accept)

    def accepts_readable(self, accept: bool) -> bool:
        return accepts_readable(accept)

    def own_view(self, view: Path, box: Path) -> Path:
        """A copy of the set's ``view`` in the kernel's own 0700 box, so that no kernel reads
        another set's view (the run's views folder is root's alone)."""
        shutil.copytree(view, box / "view", symlinks=True)
        return box / "view"

    def wrap(self, argv: list[str], box: Path, view: Path, scratch_bytes: int) -> list[str]:
        become = ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                  "--no-new-privs", "--pdeathsig=KILL", "--", *argv]
        if not self.private:
            return become
        from .course_view import shadows  # here: the view module imports the checks

        return mounts.private_command(become, f"size={SMALL_TMPFS_BYTES},mode=1777", [str(box), *self.readable],
                                      self.hidden, shadows(view))

    def guarantees(self, exercise_set: str | None = None, accepted: bool = False) -> dict[str, str]:
        held = dict.fromkeys(GUARANTEES, "held")
        held["no network"] = "not held: --sandbox user has no network namespace"
        held["nothing outside its folder readable"] = "not held: every world-readable file is" + (
            ", but for the run's submissions and outputs" if self.private else "")
        missing = []
        exposed = exposed_course(self.private)
        if exposed:
            missing.append("the course's files are readable by the kernel's user (" + ", ".join(exposed)
                           + "); make them private to root, as the Gradescope bundle does")
        third_party = policy.third_party(exercise_set) if exercise_set and not self.private else ()
        if third_party:
            missing.append(f"{', '.join(third_party)}, which set {policy.set_number(exercise_set)} forbids, is the "
                           "original: without mount namespaces nothing covers it")
        if missing:
            held[FORBIDDEN_ABSENT] = "not held: " + "; ".join(missing)
        if self.private:
            held[OTHERS_UNREACHABLE] = (
                "held for the run's submissions (their folders, a folder given whole) and outputs: "
                "an empty tmpfs in its mount namespace" + BEYOND_THE_RUN
            )
            held["every byte it writes counted"] = ("held: its folder and open unlinked files are measured; every "
                                                    "world-writable folder is a size-limited tmpfs of its own")
            held["nothing left behind"] = "held: its tmpfs and IPC namespace vanish with it, its processes are killed"
            return held
        if accepted:
            held[OTHERS_UNREACHABLE] = ("not held: graded with --accept-readable-files, so a submission, an earlier "
                                        "report or the gradebook may be readable by the kernel's user")
        else:
            held[OTHERS_UNREACHABLE] = ("held for the run's submissions and outputs: their permissions, which "
                                        "dimred-teach grade checks before any kernel" + BEYOND_THE_RUN)
        held["every byte it writes counted"] = ("held for its folder, open unlinked files, its files in every "
                                                "world-writable folder and its System V shared memory")
        held["nothing left behind"] = ("held: its processes are killed, its files in every world-writable "
                                       "folder and its System V IPC objects removed")
        return held
