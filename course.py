"""Set up and run the course from a clean clone, with Python 3.11 or newer and its venv module
(Debian/Ubuntu: python3-venv); ``test`` and ``browser-test`` also need bubblewrap, and say so.

    python3 course.py lab                open the course in JupyterLab (your exercises: my-work/)
    python3 course.py lab --lecturer     the same, with every file visible and writable
    python3 course.py grade [FILE ...]   grade your exercises in my-work/ (reports in grading-out/)
    python3 course.py test [ARGS ...]    run every test except the browser tests (ARGS go to pytest)
    python3 course.py browser-test       drive JupyterLab in Chromium (tests/browser)
    python3 course.py build [--check]    regenerate exercises/ from solutions/ (--check: verify only)
    python3 course.py execute PATH.py... execute lecture or solution sources into their .ipynb

Every command creates ``.venv`` on first use and installs the package with the pinned
versions in ``constraints.txt`` (with pip, or with uv when ``uv`` is on the PATH), so every
student and every CI run gets the same library versions and hence the same printed digits.
The course's tools then live in ``.venv/bin`` (``.venv/bin/dimred-teach``,
``.venv/bin/pytest``); this script calls them for you.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
WORK_FOLDER = "my-work"
PINNED_THREADS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                  "VECLIB_MAXIMUM_THREADS": "1", "NUMEXPR_NUM_THREADS": "1"}
UNSET = ("MPLBACKEND",)  # the stored figures come from the kernels' inline backend
EXTRAS = {"lab": "lab", "grade": "", "build": "", "execute": "lab", "test": "test", "browser-test": "test,browser"}
"""The package's extra each command installs: grading and building need only the core; JupyterLab,
RISE and the lectures' widgets are the ``lab`` extra (``execute`` runs lectures that use widgets)."""
SYSTEM_NEEDS = {"test": ("bwrap", "bubblewrap"), "browser-test": ("bwrap", "bubblewrap")}
"""Programs a command needs from the system (the grader's tests sandbox kernels with bubblewrap),
with the Debian/Ubuntu package that installs each."""


def missing_system_program(command: str, which=shutil.which) -> str | None:
    """One line saying how to install the program ``command`` needs and lacks, or None."""
    if command not in SYSTEM_NEEDS:
        return None
    program, package = SYSTEM_NEEDS[command]
    if which(program):
        return None
    return (f"error: `course.py {command}` needs {package} ({program}, the grader's sandbox), which is not on PATH; "
            f"install it (Debian/Ubuntu: sudo apt-get install {package}; Fedora: sudo dnf install {package}) "
            f"and run the command again")


def course_environment(base: dict | None = None) -> dict:
    """The environment the committed outputs came from: BLAS on one thread, no MPLBACKEND."""
    env = dict(os.environ if base is None else base, **PINNED_THREADS)
    for name in UNSET:
        env.pop(name, None)
    return env


def lab_environment(root: Path, lecturer: bool = False, base: dict | None = None) -> dict:
    """The environment of the course's JupyterLab: its own settings in ``root/.jupyter``."""
    return dict(course_environment(base), JUPYTER_CONFIG_DIR=str(root / ".jupyter"),
                DIMRED_TEACH_LAB="lecturer" if lecturer else "student")


def seed_work_folder(root: Path) -> list[str]:
    """Copy into ``root/my-work`` every exercise notebook it does not hold yet.

    A file already there is never touched, so a student's answers survive every course
    update, and a set added by an update arrives on the next ``lab``. Deleting a copy
    brings back a blank one. Returns the names copied.
    """
    work = root / WORK_FOLDER
    work.mkdir(exist_ok=True)
    copied = []
    for exercise in sorted((root / "exercises").glob("*.ipynb")):  # the build writes only exercise sets there
        target = work / exercise.name
        if not target.exists():
            shutil.copyfile(exercise, target)
            copied.append(exercise.name)
    return copied


GRADES_MY_WORK = f"dimred-teach grade {WORK_FOLDER}"
"""What the grading workflow of ``dimred-teach ci-template`` runs: a repository holding it grades
the student's notebooks in my-work/ on every push, so git must keep them."""
KEEP_IN_GIT = f"""# Written by `python3 course.py lab`: this repository's workflow grades {WORK_FOLDER}/ on every
# push, so git keeps your notebooks here (the course's .gitignore leaves everything else out).
# Commit and push them to have them graded: git add {WORK_FOLDER} && git commit && git push
!*.ipynb
"""


def keep_work_in_git(root: Path) -> bool:
    """In a repository whose workflow grades ``my-work/`` (a fork with the workflow of
    ``dimred-teach ci-template``), make git keep the notebooks there: write
    ``my-work/.gitignore``, which re-includes them past the course's ``/my-work/*``. Elsewhere
    (the course's own repository) my-work/ stays ignored. Returns whether it wrote the file."""
    marker = root / WORK_FOLDER / ".gitignore"
    workflows = [*(root / ".github" / "workflows").glob("*.yml"), *(root / ".github" / "workflows").glob("*.yaml")]
    if marker.exists() or not any(GRADES_MY_WORK in path.read_text(errors="replace") for path in workflows):
        return False
    marker.parent.mkdir(exist_ok=True)
    marker.write_text(KEEP_IN_GIT)
    return True


def run(*command: str | Path, env: dict | None = None) -> None:
    print("+", " ".join(str(part) for part in command), flush=True)
    subprocess.run([str(part) for part in command], cwd=ROOT, env=env, check=True)


def included_extras(extra: str) -> set[str]:
    """What an install of the package with ``extra`` ("lab", "test,browser"; "" the core alone)
    brings: the core (""), ``extra``'s extras and those they require in turn ("test" requires
    ``dimred-teach[lab]``)."""
    import tomllib

    optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    found, todo = {""}, [name for name in extra.split(",") if name]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += [needed for requirement in optional[name] if requirement.startswith("dimred-teach[")
                     for needed in requirement[len("dimred-teach["):requirement.index("]")].split(",")]
    return found


def install(extra: str) -> None:
    """Install the package (with ``extra``) into .venv, unless an install that brought every
    extra it needs (``lab`` brings the core too) was done already with this very
    pyproject.toml and constraints.txt. The stamp ``.venv/course-installed`` records the
    extras installed and a digest of both files."""
    if not (BIN / "python").exists() and not (BIN / "python.exe").exists():
        create_venv(shutil.which("uv"))
    target = f".[{extra}]" if extra else "."
    stamp = VENV / "course-installed"
    recipe = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + (ROOT / "constraints.txt").read_bytes()
    ).hexdigest()
    recorded, *installed = stamp.read_text().split("\n") if stamp.is_file() else [""]
    installed = set(installed) if recorded == recipe else set()
    needed = included_extras(extra)
    if needed <= installed:
        return
    run(*install_command(target, shutil.which("uv")))
    stamp.write_text("\n".join([recipe, *sorted(installed | needed)]))


class MissingVenv(Exception):
    """This Python cannot create a virtual environment with pip (Debian's python3 without python3-venv)."""


def create_venv(uv: str | None) -> None:
    """Create .venv with pip in it: with this Python's venv, or where it lacks ensurepip (Debian's
    python3 without python3-venv) with ``uv venv --seed`` when uv is on the PATH."""
    print(f"creating {VENV}", flush=True)
    try:
        import ensurepip  # noqa: F401  (Debian and Ubuntu ship it in python3-venv)
    except ImportError:
        if not uv:
            raise MissingVenv(
                f"error: this Python ({sys.executable}) cannot create a virtual environment: install "
                f"python3-venv (Debian/Ubuntu: sudo apt-get install python3-venv) and run the command again"
            ) from None
        run(uv, "venv", "--quiet", "--seed", "--python", sys.executable, VENV)
        return
    venv.EnvBuilder(with_pip=True).create(VENV)


def install_command(target: str, uv: str | None) -> list[str | Path]:
    """The command that installs ``target`` into .venv with the pinned versions: pip, or uv when
    ``uv`` (its path) is given, which resolves and unpacks the same versions in a few seconds
    where pip takes most of a minute. Both write the installed modules' bytecode, so the first
    test run (and every sandboxed grading kernel, which may not write it) imports warm."""
    if uv:
        return [uv, "pip", "install", "--quiet", "--python", BIN / "python", "--compile-bytecode",
                "-c", "constraints.txt", "-e", target]
    return [BIN / "python", "-m", "pip", "install", "--quiet", "-c", "constraints.txt", "-e", target]


def chooses_workers(args: list[str]) -> bool:
    """Whether pytest ``args`` choose the workers themselves (``-n``, or ``-p no:xdist``)."""
    return any(arg == "-n" or arg.startswith(("-n", "--numprocesses", "-p")) for arg in args)


ONE_FILE_PER_WORKER = ["--dist", "loadfile", "--no-loadscope-reorder"]
"""pytest-xdist's options for both test commands: each file on one worker, files handed out in the
order tests/conftest.py gives."""


def parallel(args: list[str]) -> list[str]:
    """pytest-xdist's options: one worker per core (at most 4), each file on one worker (a
    notebook's cells run in order in one kernel; a module's shared grading run is built
    once), files in the order tests/conftest.py gives; none when ``args`` choose."""
    if chooses_workers(args):
        return []
    return ["-n", str(max(1, min(os.cpu_count() or 1, 4))), *ONE_FILE_PER_WORKER]


def browser_parallel(args: list[str]) -> list[str]:
    """Two workers for the browser tests where there are two cores, each file on one (a
    worker that runs JupyterLab tests starts its own JupyterLab, see tests/browser/conftest.py),
    files in the order tests/conftest.py gives."""
    if chooses_workers(args) or (os.cpu_count() or 1) < 2:
        return []
    return ["-n", "2", *ONE_FILE_PER_WORKER]


def test_environment(env: dict) -> dict:
    """``env`` for pytest: bytecode written and reused (``__pycache__``, which git ignores),
    even where the shell sets PYTHONDONTWRITEBYTECODE. Without it every test process, and
    every worker, compiles the test modules again (about 4 s each on 2 cores). The
    installed packages keep the bytecode pip compiled, so a fresh clone starts warm."""
    env = dict(env)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def headless() -> bool:
    return sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def lab(args: list[str]) -> None:
    lecturer = args == ["--lecturer"]
    if args and not lecturer:
        raise SystemExit(f"usage: python3 course.py lab [--lecturer] (got {' '.join(args)})")
    if keep_work_in_git(ROOT):
        print(
            f"This repository's workflow grades {WORK_FOLDER}/ on every push, so git now keeps your notebooks there "
            f"({WORK_FOLDER}/.gitignore): hand them in with git add {WORK_FOLDER} && git commit && git push",
            flush=True,
        )
    copied = seed_work_folder(ROOT)
    if copied:
        kept = (ROOT / WORK_FOLDER / ".gitignore").exists()
        print(f"Copied {len(copied)} exercise notebook(s) into {WORK_FOLDER}/ (your own copies; "
              f"git {'keeps' if kept else 'ignores'} them): {', '.join(copied)}", flush=True)
    options = ["--no-browser"] if headless() else []
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        options.append("--allow-root")  # containers and cloud shells often run as root
    if headless():
        print("No screen here: JupyterLab serves on localhost; open the URL it prints below.", flush=True)
    run(BIN / "jupyter", "lab", "--ip=127.0.0.1", *options, env=lab_environment(ROOT, lecturer))


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in EXTRAS:
        print(__doc__, file=sys.stderr)
        return 2
    command, args = argv[0], argv[1:]
    missing = missing_system_program(command)
    if missing:
        print(missing, file=sys.stderr)
        return 2
    env = course_environment()
    try:
        install(EXTRAS[command])
        if command == "lab":
            lab(args)
        elif command == "grade":
            submissions = args or [WORK_FOLDER]
            if not args and not (ROOT / WORK_FOLDER).is_dir():
                print(f"{WORK_FOLDER}/ does not exist yet: run `python3 course.py lab` first", file=sys.stderr)
                return 2
            run(BIN / "dimred-teach", "grade", *submissions, "--out", "grading-out", env=env)
        elif command in ("build", "execute"):
            run(BIN / "dimred-teach", command, *args, env=env)
        elif command == "test":
            run(BIN / "dimred-teach", "build", "--check", env=env)
            run(BIN / "python", "-m", "pytest", *parallel(args), *args, env=test_environment(env))
        else:
            run(BIN / "python", "-m", "pytest", "tests/browser", "--browser", *browser_parallel(args), *args,
                env=test_environment(env))
    except MissingVenv as error:
        print(error, file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as error:
        return error.returncode or 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
