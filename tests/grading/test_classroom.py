"""Classroom 50 and the CI template from the lecturer's, the student's and the runner's seats
(issue 51). GitHub Classroom was retired in 2026; `dimred-teach classroom50` writes an
assignment's template repository, the autograder for the organisation's classroom50 repository
and its runtime block. The autograder runs here as Classroom 50's runner runs it: the documented
environment, the student's checkout as working directory, an ordinary user (created as
.ci/ordinary-user.sh creates one, when the tests run as root), and its result.json must pass a
JSON schema written from Classroom 50's contract (tests/grading/fixtures/). `ci-template`'s
workflow, in a fork that follows the README, grades the answers the student commits in my-work/.
"""

from __future__ import annotations

import ast
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema
import nbformat
import pytest
import yaml

from dimred_teach.cli import main
from dimred_teach.course.classroom import GRADER_SOURCE
from dimred_teach.exercise_specs import load_spec
from dimred_teach.grading.reports import junit
from dimred_teach.grading.results import SubmissionResult, TestResult
from test_grading_installs import _own_python

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[2]
TAG = "v-test"
POINTS = {entry["exercise_id"]: entry["points"] for entry in load_spec("04_mds")["checks"]}
SCHEMA = json.loads((ROOT / "tests" / "grading" / "fixtures" / "classroom50-result-v1.schema.json").read_text())
STUDENT = "dimred-ci-student"
GIT = ["git", "-c", "user.name=someone", "-c", "user.email=someone@example.org"]


def validate_workflow(path: Path) -> None:
    """GitHub's workflow schema (SchemaStore's copy inside check-jsonschema: offline)."""
    result = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                             str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def steps_of(path: Path) -> list[dict]:
    (job,) = yaml.safe_load(path.read_text())["jobs"].values()
    return job["steps"]


def step(steps: list[dict], starts: str) -> dict:
    (found,) = [s for s in steps if s.get("name", "").startswith(starts)]
    return found


def git_repository(folder: Path, *tags: str) -> None:
    """``folder`` as a git repository of one commit holding everything in it."""
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "start"], *(["tag", tag] for tag in tags)):
        subprocess.run(GIT + command, cwd=folder, check=True)


@pytest.fixture(scope="module")
def grader(tmp_path_factory) -> str:
    """The lecturer's pinned source: a git repository of this working tree, tagged."""
    repository = tmp_path_factory.mktemp("lecturer-course") / "course"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (repository / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, repository / name)
    git_repository(repository, TAG)
    return f"git+file://{repository}@{TAG}"


@pytest.fixture(scope="module")
def assignment(tmp_path_factory, grader) -> Path:
    out = tmp_path_factory.mktemp("lecturer") / "assignment"
    assert main(["classroom50", "--root", str(ROOT), "--out", str(out), "--classroom", "dimred", "--assignment",
                 "mds", "--set", "04", "--grader", grader]) == 0
    return out


def uv() -> str | None:
    return shutil.which("uv")


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    """A fresh environment standing in for the runner's Python: `python -m pip` in a step runs
    uv's pip on it when uv is here (the same resolution, in seconds, offline from the cache the
    course's own install filled), else pip itself."""
    base = tmp_path_factory.mktemp("runner")
    venv = base / "venv"
    if uv():
        subprocess.run([uv(), "venv", "--quiet", "--python", sys.executable, str(venv)], check=True)
        pip = f'"{uv()}" pip "$@" --offline --quiet --python "{venv}/bin/python"'
    else:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = f'"{venv}/bin/python" -m pip "$@"'
    shim = (f'python() {{ if [ "$1" = -m ] && [ "$2" = pip ]; then shift 2; {pip}; '
            f'else "{venv}/bin/python" "$@"; fi; }}\n')

    def run(command: str, cwd: Path, **env) -> subprocess.CompletedProcess:
        environment = {**os.environ, "PATH": f"{venv}/bin:{os.environ['PATH']}", "RUNNER_TEMP": str(base),
                       **{k: str(v) for k, v in env.items()}}
        environment.pop("VIRTUAL_ENV", None)
        return subprocess.run(["bash", "-euo", "pipefail", "-c", shim + command], cwd=cwd, env=environment,
                              capture_output=True, text=True, timeout=600)

    return run


# --- the lecturer's files ------------------------------------------------------------------------

def test_the_assignment_holds_the_template_the_autograder_and_the_runtime(assignment, grader, tmp_path):
    template = assignment / "template"
    tracked = {p.relative_to(template).as_posix() for p in template.rglob("*") if p.is_file()}
    assert {"README.md", ".gitignore", "pyproject.toml", "constraints.txt", "exercises/04_mds.ipynb",
            "notebooks/04_mds.ipynb", "notebooks/12_missing_values_recommenders.ipynb", "dimred_teach/mds.py",
            "data/crabs.csv"} <= tracked
    assert not [name for name in tracked if name.startswith(("solutions/", "tests/", "my-work/", ".github/"))]
    assert not [name for name in tracked if name.startswith("exercises/") and name != "exercises/04_mds.ipynb"]
    clone = tmp_path / "clone"
    shutil.copytree(template, clone)
    subprocess.run(["git", "init", "-q"], cwd=clone, check=True)
    ignored = subprocess.run(["git", "check-ignore", "--no-index", "exercises/04_mds.ipynb", "data/crabs.csv",
                              "result.json", "release-body.md"], cwd=clone, capture_output=True, text=True)
    assert ignored.stdout.split() == ["result.json", "release-body.md"]  # the answers are tracked
    readme = (template / "README.md").read_text()
    assert "Classroom 50" in readme and "`exercises/04_mds.ipynb`" in readme and "GitHub Classroom" not in readme
    bundle = assignment / "classroom50" / "dimred" / "autograders" / "mds"
    assert sorted(p.name for p in bundle.iterdir()) == ["autograder.py", "constraints.txt"]
    assert (bundle / "constraints.txt").read_text() == (ROOT / "constraints.txt").read_text()
    autograder = (bundle / "autograder.py").read_text()
    assert f"GRADER = {json.dumps(grader)}" in autograder and 'SETS = ["04_mds"]' in autograder
    compile(autograder, "autograder.py", "exec")
    imported = {name.split(".")[0] for node in ast.walk(ast.parse(autograder))
                for name in ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                             else [node.module] if isinstance(node, ast.ImportFrom) else [])}
    assert imported <= sys.stdlib_module_names  # it runs on the runner's bare Python
    assert json.loads((assignment / "runtime.json").read_text()) == {"runs-on": "ubuntu-latest", "python": "3.11",
                                                                     "apt": ["bubblewrap"]}


@pytest.mark.parametrize("source", [
    "git+https://github.com/org/course@v1.0", "git+ssh://git@github.com/org/course@v1.0",
    "git+ssh://github.com/org/course@0123abcd", "https://example.org/dist/dimred_teach-1.0-py3-none-any.whl",
    "git+file:///srv/course@v1"])
def test_the_grader_takes_every_source_its_help_names(source, tmp_path):
    """Issue 51.7: the old `classroom --help` offered a wheel's URL, then refused it (and git+ssh)."""
    assert GRADER_SOURCE.fullmatch(source)
    assert main(["classroom50", "--root", str(ROOT), "--out", str(tmp_path / "a"), "--classroom", "c1",
                 "--assignment", "a1", "--set", "04", "--grader", source]) == 0
    assert f"GRADER = {json.dumps(source)}" in (tmp_path / "a/classroom50/c1/autograders/a1/autograder.py").read_text()


@pytest.mark.parametrize("arguments, named", [
    (["--grader", "git+https://github.com/org/course"], "--grader"),  # no tag or commit: not pinned
    (["--grader", "git+ssh://git@github.com/org/course"], "--grader"),
    (["--grader", "http://example.org/dimred_teach-1.0-py3-none-any.whl"], "--grader"),
    (["--grader", "https://example.org/course.zip"], "--grader"),
    (["--grader", 'git+https://h/c@v1"; import os'], "--grader"),
    (["--classroom", "Dimred Class"], "--classroom"),
    (["--assignment", "mds_1"], "--assignment"),
    (["--set", "77"], "--set 77"),
])
def test_bad_classroom50_arguments_are_one_line_and_write_nothing(arguments, named, tmp_path, capsys):
    given = {"--grader": "git+https://github.com/org/course@v1", "--classroom": "dimred", "--assignment": "mds",
             "--set": "04", **dict(zip(arguments[::2], arguments[1::2]))}
    assert main(["classroom50", "--root", str(ROOT), "--out", str(tmp_path / "new"),
                 *[part for pair in given.items() for part in pair]]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: ") and named in line
    assert list(tmp_path.iterdir()) == []


def test_an_out_folder_that_holds_files_is_refused(tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "file").write_text("mine")
    assert main(["classroom50", "--root", str(ROOT), "--out", str(tmp_path / "taken"), "--classroom", "dimred",
                 "--assignment", "mds", "--grader", f"git+https://h/c@{TAG}"]) == 2
    assert capsys.readouterr().err.startswith("error: --out:")
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["file"]


def test_the_retired_classroom_commands_are_gone(capsys):
    for command in ("classroom", "classroom-grade"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "invalid choice" in capsys.readouterr().err


def test_points_are_named_in_the_singular_and_the_plural():
    """Issue 51.7: junit.xml's test names once read "(1 points)"."""
    tests = (TestResult("04.a", 1.0, 1.0, True, ""), TestResult("04.b", 0.0, 2.0, False, "no"))
    xml = junit([SubmissionResult("04_mds.ipynb", "04_mds", "04_mds", tests, "", 1.0, True)])
    assert 'name="04.a (1 point)"' in xml and 'name="04.b (2 points)"' in xml and "1 points" not in xml


# --- the runner's seat ---------------------------------------------------------------------------

def _world_readable_folder() -> Path:
    """A new folder under /tmp that every user can enter (pytest's are private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="dimred-classroom50-test-", dir="/tmp"))
    folder.chmod(0o755)
    return folder


@pytest.fixture(scope="module")
def student():
    """The runner's ordinary user (``runner`` on GitHub's hosted runners): created when the tests
    run as root, as .ci/ordinary-user.sh creates its lecturer; else the user running the tests."""
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid())
    if subprocess.run(["id", STUDENT], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", STUDENT], check=True)
    return pwd.getpwnam(STUDENT)


@pytest.fixture(scope="module")
def runner_python(grader):
    """The runner's Python (as actions/setup-python installs it: an installation of its own)
    with the grader already installed from the pinned source, as in a runtime image; every user
    can run it."""
    folder = _world_readable_folder()
    python, environment = _own_python(folder, {})  # {}: only what it adds (LD_LIBRARY_PATH)
    install = ([uv(), "pip", "install", "--offline", "--quiet", "--system", "--break-system-packages", "--python",
                str(python)] if uv() else [str(python), "-m", "pip", "install", "--quiet"])
    subprocess.run([*install, "-c", str(ROOT / "constraints.txt"), f"dimred-teach @ {grader}"], check=True,
                   timeout=900, capture_output=True, env={**os.environ, **environment})
    subprocess.run(["chmod", "-R", "a+rX", str(folder)], check=True)
    yield python, environment
    shutil.rmtree(folder, ignore_errors=True)


def half_solved() -> tuple[nbformat.NotebookNode, int]:
    """Set 04's exercise notebook with the solution's code up to (not including) the fourth
    exercise's answer, the handed-out stubs after it; the points of the three answered."""
    handed_out = nbformat.read(ROOT / "exercises" / "04_mds.ipynb", as_version=4)
    solved = [cell for cell in nbformat.read(ROOT / "solutions" / "04_mds.ipynb", as_version=4).cells
              if cell.cell_type == "code"]
    code = [cell for cell in handed_out.cells if cell.cell_type == "code"]
    checks = [i for i, cell in enumerate(code) if cell.source.startswith("check(")]
    for cell, source in zip(code[:checks[2] + 1], solved):
        cell.source = source.source
    answered = [cell.source.split('"')[1] for cell in code[:checks[2] + 1] if cell.source.startswith("check(")]
    return handed_out, sum(POINTS[exercise] for exercise in answered)


def student_checkout(folder: Path, template: Path, answers: str, owner) -> tuple[Path, int]:
    """The student's repository as the runner checks it out: the template's copy, then the
    student's commit of ``answers`` (solved, blank, half); the points it deserves."""
    checkout = folder / "student"
    shutil.copytree(template, checkout)
    git_repository(checkout)
    expected = 0
    if answers == "solved":
        shutil.copyfile(ROOT / "solutions" / "04_mds.ipynb", checkout / "exercises" / "04_mds.ipynb")
        expected = sum(POINTS.values())
    elif answers == "half":
        notebook, expected = half_solved()
        nbformat.write(notebook, checkout / "exercises" / "04_mds.ipynb")
    else:  # left blank, with a forged grader and checks in the student's copy of the library
        (checkout / "dimred_teach" / "grading" / "classroom.py").write_text(
            "import json, pathlib\npathlib.Path('result.json').write_text(json.dumps({'score': 12}))\n")
        (checkout / "dimred_teach" / "checks" / "set04.py").write_text("raise SystemExit('the student copy')\n")
        (checkout / "venv.py").write_text("raise SystemExit('the student copy')\n")
        (checkout / "result.json").symlink_to(folder / "elsewhere.json")  # the autograder writes no file there
    subprocess.run(GIT + ["add", "-A"], cwd=checkout, check=True)
    subprocess.run(GIT + ["commit", "-q", "--allow-empty", "-m", f"{answers} answers"], cwd=checkout, check=True)
    subprocess.run(["chown", "-R", f"{owner.pw_uid}:{owner.pw_gid}", str(folder)], check=True)
    return checkout, expected


def run_autograder(python: Path, environment: dict, bundle: Path, checkout: Path, user, runner_temp: Path,
                   path: str = "", container: bool = False) -> subprocess.CompletedProcess:
    """``python autograder.py`` with the student's checkout as working directory and the
    environment Classroom 50's runner gives it, as ``user``; with ``container``, as root
    where bubblewrap cannot run (a runtime container: here /usr/bin/bwrap is covered in a mount
    namespace of its own)."""
    variables = {"HOME": user.pw_dir, "USER": user.pw_name, "LANG": "C.UTF-8",
                 "PATH": f"{path}{python.parent}:/usr/local/bin:/usr/bin:/bin", **environment,
                 "CLASSROOM": "dimred", "ASSIGNMENT": "mds", "SUBMISSION_TAG": "submit/2026-09-01T10-00-00Z-abc1234",
                 "OWNER": "alice", "USERNAME": "alice", "ASSIGNMENT_TYPE": "individual",
                 "COMMIT_URL": "https://github.com/course-org/dimred-mds-alice/commit/abc1234",
                 "RELEASE_URL": "https://github.com/course-org/dimred-mds-alice/releases/tag/submit%2F2026",
                 "REVIEW_URL": "https://github.com/course-org/dimred-mds-alice/compare/0000000...abc1234",
                 "GITHUB_ACTIONS": "true", "RUNNER_TEMP": str(runner_temp), "CLASSROOM50_BUNDLE_DIR": str(bundle)}
    command = ["env", "-i", *(f"{k}={v}" for k, v in variables.items()), str(python), str(bundle / "autograder.py")]
    if user.pw_uid != os.geteuid():
        command = ["runuser", "-u", user.pw_name, "--", *command]
    if container:
        command = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                   'mount --bind /dev/null "$(command -v bwrap)" && exec "$@"', "sh", *command]
    return subprocess.run(command, cwd=checkout, capture_output=True, text=True, timeout=900)


def check_result(checkout: Path, expected: int, sandbox: str = "bwrap") -> dict:
    """result.json against the schema and the contract's sums; release-body.md written."""
    result = json.loads((checkout / "result.json").read_text())
    jsonschema.validate(result, SCHEMA)
    assert [test["test-name"] for test in result["tests"]] == list(POINTS)
    assert [test["max-score"] for test in result["tests"]] == list(POINTS.values())
    assert all(test["score"] == (test["max-score"] if test["passed"] else 0) for test in result["tests"])
    assert (result["score"], result["max-score"]) == (expected, sum(POINTS.values()))
    assert result["score"] == sum(test["score"] for test in result["tests"])
    for test in result["tests"]:
        assert bool(test["mistake"]) != test["passed"] and test["message"]  # a failed one names its mistake
    assert (result["classroom"], result["assignment"], result["owner"]) == ("dimred", "mds", "alice")
    assert result["review"].endswith("compare/0000000...abc1234") and result["sandbox"] == sandbox
    body = (checkout / "release-body.md").read_text()
    assert body.startswith(f"### {expected} of {sum(POINTS.values())} points") and "exercises/04_mds.ipynb" in body
    return result


@pytest.mark.skipif(not shutil.which("bwrap"), reason="needs bubblewrap")
@pytest.mark.parametrize("answers", ["solved", "blank", "half"])
def test_the_autograder_grades_and_writes_result_json_as_the_runner_runs_it(assignment, runner_python, student,
                                                                          answers):
    folder = _world_readable_folder()
    try:
        bundle = folder / "classroom50-runtime" / "mds"  # where the runner unpacks the assignment's bundle
        shutil.copytree(assignment / "classroom50" / "dimred" / "autograders" / "mds", bundle)
        (folder / "temp").mkdir()
        checkout, expected = student_checkout(folder, assignment / "template", answers, student)
        python, environment = runner_python
        ran = run_autograder(python, environment, bundle, checkout, student, folder / "temp")
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "the grader of this Python" in ran.stdout and not list((folder / "temp").iterdir())  # not installed
        result = check_result(checkout, expected)
        assert not (checkout / "result.json").is_symlink() and not (folder / "elsewhere.json").exists()
        if answers == "solved":
            assert all(test["passed"] for test in result["tests"])
        elif answers == "blank":
            assert not any(test["passed"] for test in result["tests"])
            assert {test["mistake"] for test in result["tests"]} <= {"no-answer", "raised"}
        else:
            assert 0 < result["score"] < result["max-score"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(not shutil.which("bwrap") or not uv() or os.geteuid() != 0,
                    reason="needs bubblewrap, and uv with its cache (offline) as root")
def test_the_autograder_installs_the_pinned_grader_then_grades_and_writes_result_json(assignment, tmp_path):
    """Where the runner's Python lacks the grader, the autograder installs it from the pinned
    source into a folder of its own outside the checkout (uv, offline from its cache here), the
    package readable by its user alone, and grades with it: here as in a runtime container, as
    root without bubblewrap, so in the grader's `user` sandbox, which refuses to start while the
    course's files are readable by the kernels' users."""
    folder = _world_readable_folder()
    try:
        python, environment = _own_python(folder, {})  # the runner's Python, as setup-python installs it: no grader
        subprocess.run(["chmod", "-R", "a+rX", str(folder)], check=True)
        bundle = folder / "classroom50-runtime" / "mds"
        shutil.copytree(assignment / "classroom50" / "dimred" / "autograders" / "mds", bundle)
        (folder / "temp").mkdir()
        root = pwd.getpwuid(0)
        checkout, expected = student_checkout(folder, assignment / "template", "solved", root)
        ran = run_autograder(python, {**environment, "UV_OFFLINE": "1"}, bundle, checkout, root,
                             folder / "temp", path=f"{Path(uv()).parent}:{os.environ['PATH']}:", container=True)
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "installing the grader" in ran.stdout
        (installed,) = (folder / "temp").glob("dimred-grader-*/venv")
        package = next(installed.glob("lib/python3*/site-packages/dimred_teach"))
        assert package.stat().st_mode & 0o077 == 0
        check_result(checkout, expected, sandbox="user")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_missing_variable_or_no_sandbox_is_an_infrastructure_error(tmp_path, capsys):
    """Exit status 2 and no result.json: the runner then records an error, not a score of 0."""
    from dimred_teach.grading.classroom import grade_checkout

    assert grade_checkout(tmp_path, ["04"], environment={"CLASSROOM": "dimred"}) == 2
    assert "ASSIGNMENT, SUBMISSION_TAG, COMMIT_URL, RELEASE_URL not set" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_only_the_regular_notebooks_inside_exercises_are_copied_for_grading(tmp_path):
    """A student's links (to a folder or a file outside, or exercises/ itself a link) bring
    nothing of the runner's into the grading; checkpoints stay out."""
    from dimred_teach.grading.classroom import _private_copies

    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.ipynb").write_text("{}")
    work = tmp_path / "checkout" / "exercises"
    (work / ".ipynb_checkpoints").mkdir(parents=True)
    (work / ".ipynb_checkpoints" / "04_mds-checkpoint.ipynb").write_text("{}")
    (work / "04_mds.ipynb").write_text("{}")
    (work / "linked").symlink_to(tmp_path / "outside")
    (work / "05_lsi.ipynb").symlink_to(tmp_path / "outside" / "secret.ipynb")
    copies = _private_copies(tmp_path / "checkout", tmp_path / "private")
    assert [p.relative_to(tmp_path).as_posix() for p in copies] == ["private/04_mds.ipynb"]
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "exercises").symlink_to(tmp_path / "outside")
    assert _private_copies(tmp_path / "other", tmp_path / "private-2") == []


# --- a student's fork and the CI template ------------------------------------------------------------

def test_a_fork_following_the_readme_grades_and_hands_in_what_it_commits(grader, runner, tmp_path):
    """Issue 51.2: ci-template graded exercises/ (blank), while `course.py lab` keeps the
    student's work in my-work/, which git ignored: every push was 0. In a repository whose
    workflow grades my-work/, `course.py lab` keeps it in git, the student commits an answer,
    and the workflow's commands, run in a clone of the pushed fork, grade that answer."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("course_script", ROOT / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    fork = tmp_path / "fork"
    subprocess.run(["git", "clone", "-q", grader.removeprefix("git+file://").rsplit("@", 1)[0], str(fork)], check=True)
    assert main(["ci-template", "--out", str(fork / ".github" / "workflows" / "grade.yml")]) == 0
    subprocess.run(GIT + ["add", ".github"], cwd=fork, check=True)
    subprocess.run(GIT + ["commit", "-q", "-m", "grade my work"], cwd=fork, check=True)
    # python3 course.py lab: the exercises copied into my-work/, kept in git here
    assert course.keep_work_in_git(fork) and len(course.seed_work_folder(fork)) == 14
    shutil.copyfile(ROOT / "solutions" / "04_mds.ipynb", fork / "my-work" / "04_mds.ipynb")  # the student's answer
    subprocess.run(GIT + ["add", "my-work"], cwd=fork, check=True)
    subprocess.run(GIT + ["commit", "-q", "-m", "my answers"], cwd=fork, check=True)
    committed = subprocess.run(["git", "ls-files", "my-work"], cwd=fork, capture_output=True, text=True).stdout.split()
    assert "my-work/04_mds.ipynb" in committed and "my-work/.gitignore" in committed and len(committed) == 15
    checkout = tmp_path / "runner-checkout"  # actions/checkout of the pushed commit
    subprocess.run(["git", "clone", "-q", str(fork), str(checkout)], check=True)
    steps = steps_of(checkout / ".github" / "workflows" / "grade.yml")
    for name in ("Install", "Find"):
        done = runner(step(steps, name)["run"], checkout)
        assert done.returncode == 0, done.stdout + done.stderr
    graded = runner(step(steps, "Grade")["run"], checkout)
    assert graded.returncode == 1, graded.stdout + graded.stderr  # 13 sets still blank: the run fails, as documented
    report = json.loads((checkout / "grading-report" / "04_mds.json").read_text())
    assert report["score"] == report["max_score"] == sum(POINTS.values())
    assert json.loads((checkout / "grading-report" / "01_pca_lagrangian.json").read_text())["score"] == 0
    # in the course's own repository (no such workflow) my-work/ stays out of git
    assert not course.keep_work_in_git(tmp_path / "nothing")


def test_without_a_committed_notebook_the_workflow_says_what_to_do(tmp_path, runner):
    assert main(["ci-template", "--out", str(tmp_path / "grade.yml")]) == 0
    found = runner(step(steps_of(tmp_path / "grade.yml"), "Find")["run"], tmp_path)
    assert found.returncode == 1 and "python3 course.py lab" in found.stdout and "my-work/" in found.stdout


def test_the_ci_template_installs_the_repository_and_is_valid(tmp_path, runner, capsys):
    target = tmp_path / "grade.yml"
    assert main(["ci-template", "--out", str(target)]) == 0
    assert main(["ci-template", "--out", str(target)]) == 2  # no silent overwrite
    validate_workflow(target)
    document = yaml.safe_load(target.read_text())
    assert document["concurrency"]["cancel-in-progress"] is True
    job = document["jobs"]["grade"]
    assert "github.event.pull_request.head.repo.full_name != github.repository" in job["if"]  # no second run
    steps = job["steps"]
    assert all(len(s["uses"].split("@")[1]) == 40 for s in steps if "uses" in s)
    sandbox = step(steps, "Let the grader")["run"]
    assert sandbox.index("apt-get update") < sandbox.index("apt-get install")
    install = step(steps, "Install")["run"]
    assert install == "python -m pip install -c constraints.txt -e ."
    assert "dimred-teach grade my-work " in step(steps, "Grade")["run"]
    assert main(["ci-template", "--install", "dimred-teach @ git+https://example.org/course.git@v1"]) == 0
    assert (
        'pip install -c constraints.txt "dimred-teach @ git+https://example.org/course.git@v1"'
        in capsys.readouterr().out
    )


def test_every_template_and_data_file_is_in_the_package_data():
    """A wheel carries only what package-data names (and the modules): the Classroom README
    template once was not (and set 05's LSI space, data/corpus_lsi.json, is the data folder's
    first JSON file); the autograder's template is a .py file but no module."""
    import fnmatch
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for package, folder in (("dimred_teach.course.templates", ROOT / "dimred_teach/course/templates"),
                            ("dimred_teach.grading.templates", ROOT / "dimred_teach/grading/templates"),
                            ("dimred_teach.data", ROOT / "data")):
        files = [p.relative_to(folder).as_posix() for p in folder.rglob("*")
                 if p.is_file() and not (p.suffix == ".py" and p.stem.isidentifier()) and p.suffix != ".pyc"
                 and "__pycache__" not in p.parts]
        missing = [f for f in files if not any(fnmatch.fnmatch(f, pattern) for pattern in data[package])]
        assert files and not missing, (package, missing)
    assert "classroom50-autograder.py" in [p.name for p in (ROOT / "dimred_teach/grading/templates").iterdir()]
