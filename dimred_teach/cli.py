"""The ``dimred-teach`` command: ``dimred-teach --help`` lists the commands, ``dimred-teach
COMMAND --help`` one command's arguments. Each command is declared once, with its arguments and
its handler, in the room that owns it (:mod:`dimred_teach.command_registry`)."""

from __future__ import annotations

import sys

# Kept in this order: _fast_start before anything imports nbformat, and the rooms' commands in the
# order they declare their commands, which is the order `dimred-teach --help` lists them in.
# isort: off
from . import _fast_start  # noqa: F401
from .command_registry import main as run_command
from .course import commands as _course_commands  # noqa: F401  (each declares its commands)
from .grading import commands as _grading_commands  # noqa: F401
from .gradebook import commands as _gradebook_commands  # noqa: F401
# isort: on


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` (default: the process's arguments) names; its exit status."""
    return run_command(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
