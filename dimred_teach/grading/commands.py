"""The commands that grade notebooks, here or on other machines (see
:mod:`dimred_teach.command_registry`): ``grade``, ``gradescope``, ``regrade`` and
``class-template``."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..command_registry import arg, command


def grading_options(parser: argparse.ArgumentParser) -> None:
    """The options of a grading run (limits, sandbox, sets), shared by the commands that grade."""
    from .grade_command import add_grade_arguments

    add_grade_arguments(parser)


SUBMISSIONS = arg("submissions", nargs="+", type=Path, help="exercise notebooks, or folders searched for *.ipynb")
REPORTS_OUT = arg("--out", type=Path, required=True, help="folder for the reports")


@command("grade", "grade submitted exercise notebooks (CI and instructors)",
         SUBMISSIONS, REPORTS_OUT, grading_options,
         arg("--jobs", type=int, default=1, help="submissions graded at once (default 1)"),
         arg("--pass-fraction", type=float, default=1.0,
             help="fraction of the points every submission needs for exit status 0 (default 1.0)"),
         arg("--gradebook", type=Path, help="also write one CSV row per submission to this file"),
         arg("--shard", nargs="?", const="", metavar="K/N",
             help="grade share K (from 0) of N, the same share on every machine; without K/N, read them from the "
                  "engine (Slurm array, Kubernetes Indexed Job, DIMRED_TEACH_SHARD)"),
         arg("--specs-dir", type=Path, help=argparse.SUPPRESS),  # tests: a fixture's specs
         arg("--extra-check-dir", type=Path, action="append", default=[], help=argparse.SUPPRESS),
         folder_out=True)
def grade(args) -> int:
    from .grade_command import command_grade

    return command_grade(args)


@command("gradescope", "write a Gradescope autograder bundle (zip)",
         arg("--out", type=Path, required=True, help="the zip to write (e.g. autograder.zip)"), grading_options,
         arg("--jobs", type=int, default=2, help="notebooks of one submission graded at once (default 2)"),
         arg("--visibility", default="visible",
             help="Gradescope visibility of each test: visible (default), hidden, after_due_date, after_published"),
         arg("--source", type=Path, help="the course checkout to bundle (default: this package's)"),
         arg("--force", action="store_true", help="overwrite --out if it exists"))
def gradescope(args) -> int:
    from .grade_command import command_gradescope

    return command_gradescope(args)


def regrade_arguments(parser: argparse.ArgumentParser) -> None:
    from .regrade import add_arguments

    add_arguments(parser)


@command("regrade", "grade a run's notebooks again with the grader installed now, into a new folder, and list "
         "what changes", regrade_arguments, folder_out=True, input_errors=(ValueError, FileNotFoundError))
def regrade(args) -> int:
    from .regrade import run

    return run(args)


@command("class-template", "grade a class in shards on GitHub Actions, Slurm or Kubernetes",
         arg("engine", choices=["github", "slurm", "kubernetes"], help="the engine"),
         arg("--shards", type=int, default=4, help="shards graded at once (default 4)"),
         arg("--install",
             help="github and kubernetes: pip requirement of the course's grader, pinned: a git URL at a tag "
                  "('dimred-teach @ git+https://.../dimred-teach@v1') or a wheel's URL"),
         arg("--submissions", default="submissions", help="the folder of the class's notebooks (default submissions)"),
         arg("--image", default="registry.example.org/dimred-teach:latest",
             help="kubernetes: the container image holding the course package and bubblewrap"),
         arg("--out", type=Path, help="write the file here instead of printing it"),
         arg("--force", action="store_true", help="overwrite --out if it exists"),
         input_errors=(ValueError,))
def class_template(args) -> int:
    import sys

    from .._files import write_new_file
    from .engine_templates import class_template

    text = class_template(args.engine, args.shards, args.install, args.submissions, args.image)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    return write_new_file(args.out, text, args.force)
