"""The ``dimred-teach`` command.

Subcommands
-----------
build [--check]     generate exercises/, the grading specs and START_HERE.md from the sources;
                    with --check, change nothing and exit 1 if anything is stale or a
                    .py/.ipynb pair disagrees
execute PATH.py...  run jupytext sources and write their executed .ipynb
grade NB.ipynb... --out DIR
                    grade submitted exercise notebooks (or folders of them) in fresh
                    sandboxed kernels (--sandbox auto|bwrap|user|none); reports
                    DIR/<name>.json (Gradescope), junit.xml, summary.md;
                    exit 0 when every submission reaches --pass-fraction, 1 otherwise;
                    --shard K/N grades one stable share (see `merge`)
gradescope --out BUNDLE.zip
                    write a Gradescope autograder bundle (setup.sh, run_autograder, pinned
                    requirements, the grader's settings, the course package's source)
ci-template         print (or --out FILE: write) the GitHub Actions grading workflow;
                    with --site, the workflow publishing the course website instead
classroom --out DIR --grader SOURCE [--set NN...]
                    write the starter repository a lecturer uploads as a GitHub Classroom
                    template (lectures, exercise notebooks, the library, a students' README
                    and a workflow installing the grader from SOURCE and reporting points)
classroom-grade NB.ipynb... --out DIR [--set NN...]
                    what that workflow runs: grade one notebook per set, write the reports
                    and the step output `result` that Classroom's grading reporter reads
site [--out DIR]    build the course website from the executed notebooks (site extra)
class-report REPORTS... --out DIR
                    what a class got wrong: mistakes.csv, exercises.csv and index.html from the
                    reports of `grade` (its --out folders, reports or gradebooks)
written REPORTS... --out DIR [--anonymous]
                    the written answers, one page per exercise (rubric, model answer, identical
                    answers grouped), and written-scores.csv for the lecturer to fill in
gradebook REPORTS... --roster CSV --out DIR [--written SCORES]
                    points per student and set, Canvas's and Moodle's import files, and each
                    student's feedback page
regrade OUT --out NEW_OUT
                    grade the notebooks of OUT's reports again with the grader installed now
                    (their options and paths are in the reports) and write changes.csv
class-template github|slurm|kubernetes --shards N [--out FILE]
                    the files grading a class in N shards on that engine, then merging them
merge SHARD_OUT... --out DIR
                    one run's reports, gradebook.csv and class report from the --out folders
                    of `grade --shard K/N` (refuses a missing or repeated share)
demo-class --out DIR --size N --seed S [--sets NN...]
                    N demo students' exercise notebooks per set (right answers, blanks and the
                    proofs' typical mistakes) and class.json, what they were built with
new NN slug "Title"  scaffold lecture NN and its exercise set (manifest row, lecture, solution,
                    checks, check cases), ready for `build`
slides NN... [--out DIR]
                    write each lecture notebook as one self-contained HTML slide deck;
                    slides --annotate [--check] writes (checks) the slide metadata of
                    notebooks/*.py (site extra)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import _fast_start  # noqa: F401  (first: before anything imports nbformat)

FOLDER_OUT = ("grade", "classroom-grade", "demo-class", "class-report", "written", "regrade", "site", "slides")
"""The commands whose ``--out`` is a folder: a file there is refused before anything is written."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dimred-teach", description="The dimred-teach course tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    build_parser = sub.add_parser("build", help="generate exercises/ from solutions/")
    build_parser.add_argument("--check", action="store_true", help="verify only; exit 1 when anything is stale")
    build_parser.add_argument("--root", type=Path, default=Path.cwd(), help="the course's root folder")
    execute_parser = sub.add_parser("execute", help="execute .py sources into .ipynb with outputs")
    execute_parser.add_argument("paths", nargs="+", type=Path, help="notebooks/NN_topic.py or solutions/NN_topic.py")
    execute_parser.add_argument("--timeout", type=int, default=120, help="seconds per cell")
    from .grading.command import add_grade_arguments

    grade_parser = sub.add_parser("grade", help="grade submitted exercise notebooks (CI and instructors)")
    grade_parser.add_argument("submissions", nargs="+", type=Path, help="exercise notebooks, or folders searched for *.ipynb")
    grade_parser.add_argument("--out", type=Path, required=True, help="folder for the reports")
    add_grade_arguments(grade_parser)
    grade_parser.add_argument("--jobs", type=int, default=1, help="submissions graded at once (default 1)")
    grade_parser.add_argument("--pass-fraction", type=float, default=1.0,
                              help="fraction of the points every submission needs for exit status 0 (default 1.0)")
    grade_parser.add_argument("--gradebook", type=Path, help="also write one CSV row per submission to this file")
    grade_parser.add_argument("--shard", nargs="?", const="", metavar="K/N",
                              help="grade share K (from 0) of N, the same share on every machine; without K/N, "
                                   "read them from the engine (Slurm array, Kubernetes Indexed Job, DIMRED_TEACH_SHARD)")
    grade_parser.add_argument("--specs-dir", type=Path, help=argparse.SUPPRESS)  # tests: a fixture's specs
    grade_parser.add_argument("--extra-check-dir", type=Path, action="append", default=[], help=argparse.SUPPRESS)
    gradescope_parser = sub.add_parser("gradescope", help="write a Gradescope autograder bundle (zip)")
    gradescope_parser.add_argument("--out", type=Path, required=True, help="the zip to write (e.g. autograder.zip)")
    add_grade_arguments(gradescope_parser)
    gradescope_parser.add_argument("--jobs", type=int, default=2, help="notebooks of one submission graded at once (default 2)")
    gradescope_parser.add_argument("--visibility", default="visible",
                                   help="Gradescope visibility of each test: visible (default), hidden, "
                                        "after_due_date, after_published")
    gradescope_parser.add_argument("--source", type=Path, help="the course checkout to bundle (default: this package's)")
    gradescope_parser.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    ci_parser = sub.add_parser("ci-template", help="the GitHub Actions workflow grading a student's repository")
    ci_parser.add_argument("--install", help="pip requirement installing the course package, with the "
                                             "repository's constraints.txt (default: the repository itself, "
                                             "at the commit being graded)")
    ci_parser.add_argument("--out", type=Path, help="write the workflow here (e.g. .github/workflows/grade.yml)")
    ci_parser.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    ci_parser.add_argument("--site", action="store_true", help="the GitHub Pages workflow publishing the course website")
    classroom_parser = sub.add_parser("classroom", help="the starter repository of a GitHub Classroom assignment")
    classroom_parser.add_argument("--out", type=Path, required=True, help="a new folder for the repository")
    classroom_parser.add_argument("--grader", required=True,
                                  help="where the workflow installs the grader from, pinned: a git URL at a tag "
                                       "(git+https://github.com/ORG/REPO@v1.0) or a wheel's URL")
    classroom_parser.add_argument("--set", action="append", metavar="NN",
                                  help="the exercise sets of the assignment (default: every set)")
    classroom_parser.add_argument("--root", type=Path, default=Path.cwd(), help="the course's checkout")
    classroom_grade_parser = sub.add_parser("classroom-grade", help="grade a Classroom repository's notebooks "
                                                                    "and write the reporter's `result`")
    classroom_grade_parser.add_argument("submissions", nargs="+", type=Path, help="exercise notebooks or folders")
    classroom_grade_parser.add_argument("--out", type=Path, required=True, help="folder for the reports")
    add_grade_arguments(classroom_grade_parser)
    classroom_grade_parser.add_argument("--jobs", type=int, default=2, help="notebooks graded at once (default 2)")
    site_parser = sub.add_parser("site", help="build the course website (needs the site extra)")
    site_parser.add_argument("--out", type=Path, default=Path("_site"), help="folder of the site (default _site)")
    site_parser.add_argument("--root", type=Path, default=Path.cwd(), help="the course's root folder")
    site_parser.add_argument("--repository-url", help="link every page to its notebook in this repository")
    site_parser.add_argument("--verbose", action="store_true", help="show Sphinx's progress")
    slides_parser = sub.add_parser("slides", help="lecture notebooks as HTML slide decks (needs the site extra)")
    slides_parser.add_argument("numbers", nargs="*", help="lecture numbers, e.g. 04 (default: every lecture)")
    slides_parser.add_argument("--out", type=Path, default=Path("slides"), help="folder of the decks (default slides)")
    slides_parser.add_argument("--root", type=Path, default=Path.cwd(), help="the course's root folder")
    slides_parser.add_argument("--annotate", action="store_true",
                               help="write the slide metadata into notebooks/NN_topic.py instead")
    slides_parser.add_argument("--check", action="store_true", help="with --annotate: change nothing, exit 1 if stale")
    new_parser = sub.add_parser("new", help="scaffold a lecture and its exercise set")
    new_parser.add_argument("number", help="two digits, the next lecture number (e.g. 13)")
    new_parser.add_argument("slug", help="lowercase words joined by _ (the file names: notebooks/NN_slug.py)")
    new_parser.add_argument("title", help="the lecture's title")
    new_parser.add_argument("--root", type=Path, default=Path.cwd(), help="the course's root folder")
    new_parser.add_argument("--no-execute", action="store_true", help="write the sources only (execute them later)")
    remove_parser = sub.add_parser("remove", help="take the last lecture out of the course (files and course.toml row)")
    remove_parser.add_argument("number", help="two digits, the last lecture's number")
    remove_parser.add_argument("--root", type=Path, default=Path.cwd(), help="the course's root folder")
    rename_parser = sub.add_parser("rename", help="give a lecture a new slug (its files and its course.toml row)")
    rename_parser.add_argument("number", help="two digits, the lecture's number")
    rename_parser.add_argument("slug", help="the new slug: lowercase words joined by _")
    rename_parser.add_argument("--root", type=Path, default=Path.cwd(), help="the course's root folder")
    report_parser = sub.add_parser("class-report", help="what a class got wrong, from the reports of grade")
    report_parser.add_argument("reports", nargs="+", type=Path,
                               help="--out folders of grade, report files (<name>.json) or gradebooks (.csv)")
    report_parser.add_argument("--out", type=Path, required=True, help="folder for index.html and the CSV files")
    report_parser.add_argument("--root", type=Path, default=Path.cwd(),
                               help="the course's root folder (for the lecture sections to revisit)")
    report_parser.add_argument("--students", action="store_true", help="add a table of the submissions (numbered)")
    report_parser.add_argument("--names", action="store_true", help="name the submissions in that table")
    report_parser.add_argument("--site-url", default="",
                               help="the course website's address: each section to revisit links to its page")
    book_parser = sub.add_parser("gradebook", help="points per student from a roster, Canvas and Moodle files, "
                                                   "feedback pages")
    book_parser.add_argument("reports", nargs="+", type=Path, help="--out folders of grade, or report files")
    book_parser.add_argument("--roster", type=Path, required=True,
                             help="CSV: id, name, and folder or pattern per student (email, login, section optional)")
    book_parser.add_argument("--out", type=Path, required=True,
                             help="folder for students.csv, canvas.csv, moodle.csv, feedback/ and unmatched.csv")
    book_parser.add_argument("--root", type=Path, default=Path.cwd(),
                             help="the course's root folder (for the lecture sections to revisit)")
    book_parser.add_argument("--written", type=Path, help="the written answers' points: written-scores.csv of "
                                                          "`dimred-teach written`, filled in")
    from .gradebook import written_pages
    from .grading import regrade

    regrade.add_arguments(sub.add_parser("regrade", help="grade a run's notebooks again with the grader installed "
                                                         "now, into a new folder, and list what changes"))

    written_pages.add_arguments(sub.add_parser("written", help="the class's written answers, one page per exercise, "
                                                              "and written-scores.csv to fill in"))
    engine_parser = sub.add_parser("class-template", help="grade a class in shards on GitHub Actions, Slurm or Kubernetes")
    engine_parser.add_argument("engine", choices=["github", "slurm", "kubernetes"], help="the engine")
    engine_parser.add_argument("--shards", type=int, default=4, help="shards graded at once (default 4)")
    engine_parser.add_argument("--install", required=True,
                               help="pip requirement installing the course's grader, pinned: a git URL at a tag "
                                    "('dimred-teach @ git+https://.../dimred-teach@v1') or a wheel's URL")
    engine_parser.add_argument("--submissions", default="submissions",
                               help="the folder of the class's notebooks (default submissions)")
    engine_parser.add_argument("--image", default="registry.example.org/dimred-teach:latest",
                               help="kubernetes: the container image holding the course package and bubblewrap")
    engine_parser.add_argument("--out", type=Path, help="write the file here instead of printing it")
    engine_parser.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    merge_parser = sub.add_parser("merge", help="one run's reports, gradebook and class report from grade --shard's")
    merge_parser.add_argument("shard_outs", nargs="+", type=Path, metavar="SHARD_OUT",
                              help="the --out folders of every shard of one run")
    merge_parser.add_argument("--out", type=Path, required=True,
                              help="folder for reports/, gradebook.csv and class-report/")
    merge_parser.add_argument("--root", type=Path, default=Path.cwd(),
                              help="the course's root folder (for the lecture sections to revisit)")
    merge_parser.add_argument("--roster", type=Path, help="also write DIR/students/ as `gradebook --roster` does")
    demo_parser = sub.add_parser("demo-class", help="a demo class of exercise notebooks to grade and report on")
    demo_parser.add_argument("--out", type=Path, required=True, help="folder for the notebooks and class.json")
    demo_parser.add_argument("--size", type=int, default=60, help="students (default 60)")
    demo_parser.add_argument("--seed", type=int, default=0, help="seed of the students' choices (default 0)")
    demo_parser.add_argument("--sets", nargs="+", help="exercise set numbers, e.g. 04 (default: every set)")
    demo_parser.add_argument("--root", type=Path, default=Path.cwd(), help="the course's checkout")
    args = parser.parse_args(argv)
    if args.command in FOLDER_OUT and args.out.exists() and not args.out.is_dir():
        print(f"error: --out: {args.out} is a file; name a folder (new or existing) for the output", file=sys.stderr)
        return 2

    if args.command == "ci-template" and args.site:
        from .course.site import command_site_template

        return command_site_template(args)
    if args.command in ("grade", "gradescope", "ci-template"):
        from .grading import command

        return {"grade": command.command_grade, "gradescope": command.command_gradescope,
                "ci-template": command.command_ci_template}[args.command](args)
    if args.command == "classroom-grade":
        from .grading.classroom import command_classroom_grade

        return command_classroom_grade(args)
    if args.command == "classroom":
        from .course.classroom import classroom_template

        try:
            out = classroom_template(args.root.resolve(), args.out, args.grader, args.set or ())
        except (ValueError, OSError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        print(f"wrote the Classroom template repository {out}: push it to GitHub as a template repository")
        return 0
    if args.command == "site":
        from .course.site import command_site

        return command_site(args)
    if args.command == "slides":
        from .course.slides import command_slides

        return command_slides(args)
    if args.command == "new":
        from .course.scaffold import command_new

        return command_new(args)
    if args.command in ("remove", "rename"):
        from .course import lecture_files

        return {"remove": lecture_files.command_remove, "rename": lecture_files.command_rename}[args.command](args)
    if args.command == "class-report":
        from .gradebook.class_outputs import class_report

        if args.names and not args.students:
            parser.error("--names: the names appear only in the table of --students")
        try:
            print(class_report(args.reports, args.out, args.root, names=args.names, students=args.students,
                               site_url=args.site_url))
        except (ValueError, FileNotFoundError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        return 0
    if args.command == "gradebook":
        from .gradebook.lms import student_outputs

        try:
            print(student_outputs(args.reports, args.roster, args.out, args.root, args.written))
        except (ValueError, FileNotFoundError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        return 0
    if args.command in ("written", "regrade"):
        try:
            return {"written": written_pages, "regrade": regrade}[args.command].run(args)
        except (ValueError, FileNotFoundError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    if args.command == "class-template":
        from .grading.engines import command_class_template

        return command_class_template(args)
    if args.command == "merge":
        from .gradebook.merge import command_merge

        return command_merge(args)
    if args.command == "demo-class":
        from .course.demo_class import demo_class

        if not (args.root / "course.toml").is_file():
            print(f"error: --root: {args.root.resolve()} is not the course's checkout (no course.toml); run demo-class "
                  "in a clone of the course repository or pass --root PATH_TO_CLONE", file=sys.stderr)
            return 2
        try:
            record = demo_class(args.root.resolve(), args.out, args.size, args.seed, args.sets)
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        print(f"wrote {len(record['submissions'])} notebooks of {args.size} demo students and {args.out / 'class.json'}")
        return 0
    if args.command == "build":
        from .course.build import build

        return build(args.root.resolve(), args.check)
    from .course.execution import execute_source

    for path in args.paths:
        print(f"executed {execute_source(path, timeout=args.timeout)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
