"""The commands that work on a graded class (see :mod:`dimred_teach.command_registry`):
``class-report``, ``similarity``, ``written``, ``gradebook`` and ``merge``."""

from __future__ import annotations

from pathlib import Path

from ..command_registry import InputError, arg, command

ROOT = arg("--root", type=Path, default=Path("."),
           help="the course's root folder (for the lecture sections to revisit)")


@command("class-report", "what a class got wrong, from the reports of grade",
         arg("reports", nargs="+", type=Path,
             help="--out folders of grade, report files (<name>.json) or gradebooks (.csv)"),
         arg("--out", type=Path, required=True, help="folder for index.html and the CSV files"), ROOT,
         arg("--students", action="store_true", help="add a table of the submissions (numbered)"),
         arg("--names", action="store_true", help="name the submissions in that table"),
         arg("--site-url", default="",
             help="the course website's address: each section to revisit links to its page"),
         folder_out=True, input_errors=(ValueError, FileNotFoundError))
def class_report(args) -> None:
    from .class_outputs import class_report

    if args.names and not args.students:
        raise InputError("--names: the names appear only in the table of --students")
    print(class_report(args.reports, args.out, args.root, names=args.names, students=args.students,
                       site_url=args.site_url))


def similarity_arguments(parser) -> None:
    from .similarity import add_arguments

    add_arguments(parser)


@command("similarity", "students' code alike beyond what its exercise explains, and copies of the course's code",
         similarity_arguments, folder_out=True, input_errors=(ValueError,))
def similarity(args) -> None:
    from .similarity import similarity

    print(similarity(args.submissions, args.out, args.root, args.jobs))


def written_arguments(parser) -> None:
    from .written_pages import add_arguments

    add_arguments(parser)


@command("written", "the class's written answers, one page per exercise, and written-scores.csv to fill in",
         written_arguments, folder_out=True, input_errors=(ValueError, FileNotFoundError))
def written(args) -> int:
    from .written_pages import run

    return run(args)


@command("gradebook", "points per student from a roster, Canvas and Moodle files, feedback pages",
         arg("reports", nargs="+", type=Path, help="--out folders of grade, or report files"),
         arg("--roster", type=Path, required=True,
             help="CSV: id, name, and folder or pattern per student (email, login, section optional)"),
         arg("--out", type=Path, required=True,
             help="folder for students.csv, canvas.csv, moodle.csv, feedback/ and unmatched.csv"), ROOT,
         arg("--written", type=Path,
             help="the written answers' points: written-scores.csv of `dimred-teach written`, filled in"),
         input_errors=(ValueError, FileNotFoundError))
def gradebook(args) -> None:
    from .lms import student_outputs

    print(student_outputs(args.reports, args.roster, args.out, args.root, args.written))


@command(
    "merge",
    "one run's reports, gradebook and class report from grade --shard's",
    arg("shard_outs", nargs="+", type=Path, metavar="SHARD_OUT", help="the --out folders of every shard of one run"),
    arg("--out", type=Path, required=True, help="folder for reports/, gradebook.csv and class-report/"),
    ROOT,
    arg("--roster", type=Path, help="also write DIR/students/ as `gradebook --roster` does"),
    input_errors=(ValueError, OSError),
)
def merge(args) -> int:
    from .merge import merge

    results, pass_fraction, account = merge(args.shard_outs, args.out, args.root, args.roster)
    counted = [r for r in results if not r.skipped]
    passed = sum(r.passes(pass_fraction) for r in counted)
    print(f"merged {len(args.shard_outs)} shard(s): {len(results)} submission(s), {passed} of {len(counted)} reach "
          f"{pass_fraction:.0%} of the points; {args.out / 'reports'}, {args.out / 'gradebook.csv'}\n{account}")
    return 0 if passed == len(counted) else 1
