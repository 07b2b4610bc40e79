"""What the ``dimred-teach grade`` and ``gradescope`` commands do (declared in
:mod:`.commands`), and the GitHub Actions workflow ``ci-template`` writes."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

from .._files import write_new_file
from ..command_registry import InputError
from ..exercise_specs import SPECS_DIR
from .options import GradingOptions
from .results import SubmissionResult
from .run_settings import settle_run
from .sandbox import SandboxUnavailable
from .sandbox_modes import AUTO, CHOICES
from .scheduler import grader_errors
from .submissions import (
    claimed_set,
    display_path,
    find_submissions,
    load_specs,
    read_notebook,
    resolve_sets,
    set_from_file_name,
)
from .watchdog import grade_supervised


def add_grade_arguments(parser: argparse.ArgumentParser) -> None:
    """The grading options shared by ``grade`` and ``gradescope`` (its settings file)."""
    parser.add_argument(
        "--timeout", type=float, default=600, help="seconds per notebook, checks included (default 600)"
    )
    parser.add_argument("--cell-timeout", type=float, default=120, help="seconds per cell (default 120)")
    parser.add_argument("--call-timeout", type=float, default=20,
                        help="seconds per call of a student's function by a check (default 20)")
    defaults = GradingOptions()
    parser.add_argument("--memory-mb", type=int, default=defaults.memory_mb,
                        help=f"address space of each kernel process, MB (default {defaults.memory_mb})")
    parser.add_argument("--processes", type=int, default=defaults.processes,
                        help=f"processes and threads of each kernel's user (default {defaults.processes})")
    parser.add_argument("--open-files", type=int, default=defaults.open_files,
                        help=f"open files of each kernel process (default {defaults.open_files})")
    parser.add_argument("--file-mb", type=int, default=defaults.file_mb,
                        help=f"largest file a kernel may write, MB (default {defaults.file_mb})")
    parser.add_argument("--scratch-mb", type=int, default=defaults.scratch_mb,
                        help=f"disk space of each kernel's scratch folder, MB (default {defaults.scratch_mb})")
    parser.add_argument("--sandbox", choices=CHOICES, default=AUTO,
                        help="isolation of each kernel: auto (default: the strongest that works), bwrap (bubblewrap), "
                             "user (a root grader runs kernels as an unprivileged user), none (not isolated)")
    parser.add_argument("--accept-readable-files", action="store_true",
                        help="with --sandbox user: grade although files the kernels must not read are readable by "
                             "other users (the course's; without mount namespaces also the submissions, what --out "
                             "and the gradebook hold, a third-party function a set forbids); the reports say so")
    parser.add_argument("--set", action="append", metavar="NN",
                        help="the exercise set being graded (04 or 04_mds; repeat or comma-separate for several): "
                             "a notebook of another set, or whose file name and metadata disagree, is not graded")
    parser.add_argument("--startup-timeout", type=float, default=60, help=argparse.SUPPRESS)
    parser.add_argument("--recover-timeout", type=float, default=10, help=argparse.SUPPRESS)


def options_from(args) -> GradingOptions:
    """The GradingOptions the arguments ask for (ValueError when out of range)."""
    return GradingOptions(timeout=args.timeout, cell_timeout=min(args.cell_timeout, args.timeout),
                          call_timeout=args.call_timeout, memory_mb=args.memory_mb, sandbox=args.sandbox,
                          processes=args.processes, open_files=args.open_files, file_mb=args.file_mb,
                          scratch_mb=args.scratch_mb, accept_readable_files=args.accept_readable_files,
                          startup_timeout=args.startup_timeout, recover_timeout=args.recover_timeout,
                          specs_dir=getattr(args, "specs_dir", None) or SPECS_DIR,
                          extra_check_dirs=tuple(Path(d).resolve() for d in getattr(args, "extra_check_dir", [])),
                          seed_key=os.environ.get("DIMRED_TEACH_SEED_KEY", ""))


def check_named_notebooks(named, specs: dict, options: GradingOptions) -> None:
    """ValueError, naming the file and what to do, for a file named on the command line that
    cannot be an exercise notebook of this course: not a ``.ipynb``, or naming no exercise set
    at all (neither in its metadata nor in its file name) when ``--set`` does not say. Notebooks
    found in folders are a class's submissions: their reports say what is wrong with them."""
    for path in map(Path, named):
        if path.is_dir():
            continue
        if path.suffix != ".ipynb":
            raise ValueError(f"{display_path(path)} is not a notebook (.ipynb): grade takes exercise notebooks "
                             "or folders of them")
        try:
            claimed = claimed_set(read_notebook(path, options.max_notebook_bytes))
        except (OSError, ValueError):
            continue  # its report says why it could not be read
        if claimed not in specs and set_from_file_name(path.stem, specs) is None and len(options.assignment) != 1:
            raise ValueError(f"{display_path(path)} names no exercise set of this course in its metadata or file "
                             f"name: rename it NN_topic.ipynb or pass --set NN (the sets: {', '.join(sorted(specs))})")


def command_grade(args) -> int:
    """``dimred-teach grade``: the exit status (0 all pass, 1 otherwise, 2 usage error, 3 when
    the grader's own trouble left a submission not graded)."""
    if not 0.0 <= args.pass_fraction <= 1.0:
        raise InputError(f"--pass-fraction must be between 0 and 1, got {args.pass_fraction}")
    if args.jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {args.jobs}")
    try:
        options = options_from(args)
        paths = find_submissions(args.submissions)
        if not paths:
            raise ValueError("no notebooks (*.ipynb) found in " + ", ".join(map(str, args.submissions)))
        # the mode keeps the course, the whole class given (every shard's) and its reports from the kernels,
        # or none starts
        settings = settle_run(options, args.set or (), [*args.submissions, *paths], args.out, args.gradebook)
        shard = None
        if getattr(args, "shard", None) is not None:  # grade one share of the listing (grading/shards.py)
            from .shards import parse_shard, plan_shard, shard_from_environment

            shard = plan_shard(args.submissions, paths, *(parse_shard(args.shard) if args.shard
                                                         else shard_from_environment()), args.pass_fraction)
            paths = shard.paths
        if not settings.specs:
            raise ValueError(f"no grading specs in {options.specs_dir}: was `dimred-teach build` run?")
        check_named_notebooks(args.submissions, settings.specs, settings.options)
        args.out.mkdir(parents=True, exist_ok=True)
    except (ValueError, OSError, SandboxUnavailable) as error:
        raise InputError(str(error)) from None
    if shard is not None:
        from .shards import write_record

        write_record(args.out, shard)
        print(f"shard {shard.shard}/{shard.shards}: {len(paths)} of {shard.record['listed']} submission(s)", flush=True)
        if not paths:
            return 0

    def progress(result: SubmissionResult) -> None:
        mark = ("skipped" if result.skipped else "pass" if result.passes(args.pass_fraction)
                else "fail" if result.graded else "not graded")
        print(f"{result.submission}: {result.score:g} / {result.max_score:g} ({mark}, {result.execution_time:.1f} s)",
              flush=True)

    results = grade_supervised(paths, args.out, settings, jobs=args.jobs, pass_fraction=args.pass_fraction,
                               gradebook=args.gradebook, on_result=progress)
    append_step_summary(args.out)
    counted = [r for r in results if not r.skipped]
    passed = sum(r.passes(args.pass_fraction) for r in counted)
    skipped = f" ({len(results) - len(counted)} skipped: not exercise notebooks)" if len(counted) < len(results) else ""
    print(f"{passed} of {len(counted)} submission(s) reach {args.pass_fraction:.0%} of the points{skipped}; "
          f"sandbox: {settings.mode.name}; "
          f"reports in {args.out}")
    troubled = grader_errors(results)
    if troubled:
        print(f"{troubled} submission(s) not graded because of the grader's own trouble (exit status 3): grade them "
              "again", file=sys.stderr)
        return 3
    return 0 if passed == len(counted) else 1


def append_step_summary(out: Path) -> None:
    """Append ``out/summary.md`` to the run's summary page on GitHub Actions ($GITHUB_STEP_SUMMARY)."""
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            with open(summary, "a") as file:
                file.write((out / "summary.md").read_text())
        except OSError as error:
            print(f"warning: could not append to $GITHUB_STEP_SUMMARY ({error})", file=sys.stderr)


def workflow_template(install: str) -> str:
    """The GitHub Actions workflow for a student's repository; ``install`` is what its pip installs
    (``-e .``, or a quoted requirement)."""
    from importlib.resources import files

    text = files("dimred_teach.grading.templates").joinpath("grade-workflow.yml").read_text()
    return text.replace("__INSTALL__", install)


DEFAULT_INSTALL = "-e ."
"""What the CI workflow installs without ``--install``: the repository it runs in, at the commit
being graded (a course repository holds the package, its data and its constraints.txt), in place
as in a course checkout (the grader's sandbox needs the package outside the Python installation)."""


def command_gradescope(args) -> int:
    """``dimred-teach gradescope --out bundle.zip``: write the Gradescope autograder bundle."""
    from .gradescope import build_bundle

    try:
        options = options_from(args)
        options = dataclasses.replace(options, assignment=resolve_sets(args.set or (), load_specs(options.specs_dir)))
        data = build_bundle(options, jobs=args.jobs, visibility=args.visibility, source=args.source)
    except (ValueError, OSError) as error:
        raise InputError(str(error)) from None
    if not options.assignment:
        print("warning: no --set: this bundle grades every exercise set a submission holds, so a student's total "
              "depends on what is uploaded; name the assignment's sets (--set 04, or --set 04,06)", file=sys.stderr)
    return write_new_file(args.out, data, args.force)
