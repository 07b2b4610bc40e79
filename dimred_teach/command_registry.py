"""The ``dimred-teach`` command line: one registry of commands, each declared once (its
arguments and its handler) in the room of the package that owns it: ``course/commands.py``
(building and teaching the course), ``grading/commands.py`` (grading notebooks, and the files
that grade on other machines) and ``gradebook/commands.py`` (everything after grading).

A handler receives the parsed arguments and returns an exit status (``None`` counts as 0).
Input it cannot use, it raises as :class:`InputError` (or as one of the exceptions its
declaration names in ``input_errors``): the command line prints it once, as one line
``error: ...``, and exits with status 2. Only the chosen command's arguments are built, so a
command imports no other command's module, and a handler imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Argument", "Command", "InputError", "arg", "command", "main", "registered"]


class InputError(ValueError):
    """Input a command cannot use: one line, naming the argument and what to pass instead."""


@dataclass(frozen=True)
class Argument:
    """One ``ArgumentParser.add_argument`` call: its names and options."""

    names: tuple[str, ...]
    options: dict


def arg(*names: str, **options) -> Argument:
    """An argument of a command, as ``add_argument(*names, **options)`` takes it."""
    return Argument(names, options)


ArgumentSource = Argument | Callable[[argparse.ArgumentParser], None]
"""An argument, or a function adding a group of arguments several commands share."""


@dataclass(frozen=True)
class Command:
    """A command of ``dimred-teach``.

    name, help : what ``dimred-teach --help`` lists
    arguments : its arguments, in order
    handler : ``handler(args) -> int | None``, the exit status
    folder_out : its ``--out`` names a folder, so a file there is refused before anything runs
    input_errors : exceptions that mean bad input anywhere in this handler (beside
        :class:`InputError`), printed as one line with exit status 2
    """

    name: str
    help: str
    arguments: tuple[ArgumentSource, ...]
    handler: Callable[[argparse.Namespace], int | None]
    folder_out: bool = False
    input_errors: tuple[type[BaseException], ...] = ()


_COMMANDS: dict[str, Command] = {}


def command(name: str, help: str, *arguments: ArgumentSource, folder_out: bool = False,
            input_errors: tuple[type[BaseException], ...] = ()):
    """Declare the decorated function as the handler of command ``name``."""
    def register(handler):
        if name in _COMMANDS:
            raise RuntimeError(f"the command {name!r} is declared twice")
        _COMMANDS[name] = Command(name, help, tuple(arguments), handler, folder_out, tuple(input_errors))
        return handler
    return register


def registered() -> dict[str, Command]:
    """Every declared command, by name (the rooms' ``commands`` modules must be imported)."""
    return dict(_COMMANDS)


def _chosen(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option."""
    return next((word for word in argv if not word.startswith("-")), None)


def parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser of every command, with the arguments of the one ``argv`` chooses."""
    top = argparse.ArgumentParser(prog="dimred-teach", description="The dimred-teach course tools.")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = _chosen(argv)
    for name, declared in _COMMANDS.items():
        command_parser = sub.add_parser(name, help=declared.help, description=declared.help)
        if name == chosen:
            for argument in declared.arguments:
                if isinstance(argument, Argument):
                    command_parser.add_argument(*argument.names, **argument.options)
                else:
                    argument(command_parser)
    return top


def main(argv: Sequence[str]) -> int:
    """Parse ``argv``, run the chosen command's handler, and return its exit status."""
    args = parser(argv).parse_args(argv)
    declared = _COMMANDS[args.command]
    try:
        out = getattr(args, "out", None)
        if declared.folder_out and isinstance(out, Path) and out.exists() and not out.is_dir():
            raise InputError(f"--out: {out} is a file; name a folder (new or existing) for the output")
        status = declared.handler(args)
    except (InputError, *declared.input_errors) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0 if status is None else status
