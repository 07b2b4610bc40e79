"""The commands that build, change and present the course (see :mod:`dimred_teach.command_registry`)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..command_registry import InputError, arg, command

ROOT = arg("--root", type=Path, default=Path("."), help="the course's root folder")
OUT_FILE = (arg("--out", type=Path, help="write the file here instead of printing it"),
            arg("--force", action="store_true", help="overwrite --out if it exists"))


def _checkout(root: Path) -> Path:
    """``--root`` resolved, refused when it is not a course checkout."""
    if not (Path(root) / "course.toml").is_file():
        raise InputError(f"--root: {Path(root).resolve()} is not the course's checkout (no course.toml); "
                         "run in a clone of the course repository or pass --root PATH_TO_CLONE")
    return Path(root).resolve()


@command("build", "generate exercises/, the grading specs and START_HERE.md from the sources",
         arg("--check", action="store_true", help="verify only; exit 1 when anything is stale"), ROOT)
def build(args) -> int:
    from .build import build

    return build(args.root.resolve(), args.check)


@command("execute", "execute .py sources into .ipynb with outputs",
         arg("paths", nargs="+", type=Path, help="notebooks/NN_topic.py or solutions/NN_topic.py"),
         arg("--timeout", type=int, default=120, help="seconds per cell"))
def execute(args) -> None:
    from .execution import execute_source

    for path in args.paths:
        print(f"executed {execute_source(path, timeout=args.timeout)}")


@command("new", "scaffold a lecture and its exercise set",
         arg("number", help="two digits, the next lecture number (e.g. 13)"),
         arg("slug", help="lowercase words joined by _ (the file names: notebooks/NN_slug.py)"),
         arg("title", help="the lecture's title"), ROOT,
         arg("--no-execute", action="store_true", help="write the sources only (execute them later)"),
         input_errors=(ValueError,))
def new(args) -> None:
    from .scaffold import scaffold

    for path in scaffold(args.root, args.number, args.slug, args.title, execute=not args.no_execute):
        print(f"wrote {path}")
    print("next: `dimred-teach build`, then write the lecture and its exercises (README: Adding a lecture)")


@command("remove", "take the last lecture out of the course (files and course.toml row)",
         arg("number", help="two digits, the last lecture's number"), ROOT, input_errors=(ValueError,))
def remove(args) -> None:
    from .lecture_files import remove

    for path in remove(args.root, args.number):
        print(f"deleted {path}")
    print("next: `dimred-teach build` (START_HERE.md and the README's course map), then commit")


@command("rename", "give a lecture a new slug (its files and its course.toml row)",
         arg("number", help="two digits, the lecture's number"),
         arg("slug", help="the new slug: lowercase words joined by _"), ROOT, input_errors=(ValueError,))
def rename(args) -> None:
    from .lecture_files import rename

    for old, new_path in rename(args.root, args.number, args.slug):
        print(f"moved {old} -> {new_path}")
    print("next: `dimred-teach build`, then commit; a student's notebook under the old name still grades as "
          "this set (by its number), with a note saying so")


@command("site", "build the course website (needs the site extra)",
         arg("--out", type=Path, default=Path("_site"), help="folder of the site (default _site)"), ROOT,
         arg("--repository-url", help="link every page to its notebook in this repository"),
         arg("--verbose", action="store_true", help="show Sphinx's progress"),
         folder_out=True, input_errors=(ValueError, RuntimeError))
def site(args) -> None:
    from .site import build_site

    start = time.perf_counter()
    index = build_site(args.root, args.out, repository_url=args.repository_url, quiet=not args.verbose)
    print(f"built {index} in {time.perf_counter() - start:.0f} s; open it in a browser, or serve it with "
          f"`python3 -m http.server -d {args.out}`")


@command("slides", "lecture notebooks as HTML slide decks (needs the site extra)",
         arg("numbers", nargs="*", help="lecture numbers, e.g. 04 (default: every lecture)"),
         arg("--out", type=Path, default=Path("slides"), help="folder of the decks (default slides)"), ROOT,
         arg("--annotate", action="store_true", help="write the slide metadata into notebooks/NN_topic.py instead"),
         arg("--check", action="store_true", help="with --annotate: change nothing, exit 1 if stale"),
         folder_out=True, input_errors=(ValueError, RuntimeError))
def slides(args) -> int:
    from .manifest import read_manifest
    from .slides import annotate_source, build_deck, lecture_notebooks

    root = Path(args.root).resolve()
    if args.check and not args.annotate:
        raise InputError("--check only goes with --annotate")
    if args.annotate:
        sources = [lecture.lecture_source for lecture in read_manifest(root)]
        stale = [source for source in sources if annotate_source(source, check=args.check)]
        for source in stale:
            print(f"{source}: slide metadata out of date, run `dimred-teach slides --annotate`" if args.check
                  else f"{source}: slide metadata written")
        return 1 if args.check and stale else 0
    for notebook in lecture_notebooks(root, args.numbers):
        print(f"wrote {build_deck(notebook, Path(args.out) / f'{notebook.stem}.html')}")
    return 0


@command("ci-template", "the GitHub Actions workflow grading a student's repository",
         arg("--install", help="pip requirement installing the course package, with the repository's "
                               "constraints.txt (default: the repository itself, at the commit being graded)"),
         *OUT_FILE,
         arg("--site", action="store_true", help="the GitHub Pages workflow publishing the course website"))
def ci_template(args) -> int:
    from .._files import write_new_file

    if args.site:
        from .site import site_workflow_template

        text = site_workflow_template(args.install or ".[site]")
    else:
        from ..grading.grade_command import DEFAULT_INSTALL, workflow_template

        text = workflow_template(f'"{args.install}"' if args.install else DEFAULT_INSTALL)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    return write_new_file(args.out, text, args.force)


def classroom50_arguments(parser) -> None:
    from .classroom import add_arguments

    add_arguments(parser)


@command("classroom50", "a Classroom 50 assignment: template repository, autograder and runtime",
         classroom50_arguments, input_errors=(ValueError, OSError))
def classroom50(args) -> int:
    from .classroom import run

    return run(args)


@command("demo-class", "a demo class of exercise notebooks to grade and report on",
         arg("--out", type=Path, required=True, help="folder for the notebooks and class.json"),
         arg("--size", type=int, default=60, help="students (default 60)"),
         arg("--seed", type=int, default=0, help="seed of the students' choices (default 0)"),
         arg("--sets", nargs="+", help="exercise set numbers, e.g. 04 (default: every set)"),
         arg("--root", type=Path, default=Path("."), help="the course's checkout"),
         arg("--every-mistake", action="store_true",
             help="instead of drawing: student K makes the K-th typical mistake of every exercise, so every typical "
                  "mistake appears once (--size and --seed are not used)"),
         folder_out=True, input_errors=(ValueError,))
def demo_class(args) -> None:
    from .demo_class import demo_class

    record = demo_class(_checkout(args.root), args.out, args.size, args.seed, args.sets, args.every_mistake)
    print(f"wrote {len(record['submissions'])} demo notebooks and {args.out / 'class.json'}")
