"""GitHub Classroom and the CI template from the lecturer's and the runner's seat (issue 39):
`dimred-teach classroom` writes a starter repository whose workflow is valid for GitHub, installs
the grader from the pinned source, grades a solved and a blank notebook in bubblewrap and hands
Classroom's reporter the points it must add up; `ci-template`'s workflow installs what exists."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dimred_teach.cli import main
from dimred_teach.grading.classroom import classroom_result, encoded_result
from dimred_teach.grading.results import SubmissionResult, TestResult

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[2]
TAG = "v-test"
SET_04_POINTS = 12


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
    git = ["git", "-c", "user.name=lecturer", "-c", "user.email=lecturer@example.org"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "course"], ["tag", TAG]):
        subprocess.run(git + command, cwd=repository, check=True)
    return f"git+file://{repository}@{TAG}"


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    """A fresh environment standing in for the runner's Python: `python -m pip` in a step runs
    uv's pip on it when uv is here (the same resolution, in seconds, offline from the cache the
    course's own install filled), else pip itself."""
    base = tmp_path_factory.mktemp("runner")
    venv = base / "venv"
    uv = shutil.which("uv") or next((p for p in ["/opt/uvtools/bin/uv"] if Path(p).is_file()), None)
    if uv:
        subprocess.run([uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True)
        pip = f'"{uv}" pip "$@" --offline --quiet --python "{venv}/bin/python"'
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


@pytest.fixture(scope="module")
def template(tmp_path_factory, grader):
    out = tmp_path_factory.mktemp("lecturer") / "assignment"
    assert main(["classroom", "--root", str(ROOT), "--out", str(out), "--grader", grader, "--set", "04"]) == 0
    return out


def test_the_template_holds_what_a_student_works_with_and_no_solutions(template, tmp_path):
    tracked = {p.relative_to(template).as_posix() for p in template.rglob("*") if p.is_file()}
    assert {"README.md", ".gitignore", "pyproject.toml", "constraints.txt", ".github/workflows/classroom.yml",
            "exercises/04_mds.ipynb", "notebooks/04_mds.ipynb", "notebooks/12_missing_values_recommenders.ipynb",
            "dimred_teach/mds.py", "data/crabs.csv"} <= tracked
    assert not [name for name in tracked if name.startswith(("solutions/", "tests/", "my-work/"))]
    assert not [name for name in tracked if name.startswith("exercises/") and name != "exercises/04_mds.ipynb"]
    clone = tmp_path / "clone"
    shutil.copytree(template, clone)
    subprocess.run(["git", "init", "-q"], cwd=clone, check=True)
    result = subprocess.run(["git", "check-ignore", "--no-index", "exercises/04_mds.ipynb", "data/crabs.csv"],
                            cwd=clone, capture_output=True, text=True)
    assert result.returncode == 1  # the answers are tracked: every push carries them
    readme = template / "README.md"
    assert "feedback" in readme.read_text() and "`exercises/04_mds.ipynb`" in readme.read_text()


def test_the_classroom_workflow_is_valid_and_reports_through_classroom(template, grader):
    workflow = template / ".github" / "workflows" / "classroom.yml"
    validate_workflow(workflow)
    document = yaml.safe_load(workflow.read_text())
    job = document["jobs"]["run-autograding-tests"]
    assert document["name"] == job["name"] == "Autograding Tests"  # the check run the reporter writes to
    assert document["permissions"]["checks"] == "write" and "github-classroom[bot]" in job["if"]
    steps = job["steps"]
    grade, report = step(steps, "Grade"), step(steps, "Report")
    assert "--sandbox bwrap" in grade["run"] and "--set 04_mds" in grade["run"]
    assert report["uses"] == "classroom-resources/autograding-grading-reporter@v1"
    assert report["with"]["runners"] == grade["id"]
    assert report["env"] == {f"{grade['id'].upper()}_RESULTS": f"${{{{ steps.{grade['id']}.outputs.result }}}}"}
    install = step(steps, "Install")
    assert install["env"]["GRADER"] == grader and "constraints.txt" not in install["run"].replace(
        "$RUNNER_TEMP/grader/constraints.txt", "")  # nothing of the student's repository
    pinned = [s["uses"] for s in steps if "uses" in s and s is not report]
    assert pinned and all(len(uses.split("@")[1]) == 40 for uses in pinned), pinned


@pytest.mark.parametrize("answers", ["solved", "blank"])
def test_the_workflow_grades_and_hands_classroom_the_points(template, runner, tmp_path, answers):
    """The workflow's own install and grade commands, run as the runner runs them."""
    repository = tmp_path / "student"
    shutil.copytree(template, repository)
    if answers == "solved":
        shutil.copyfile(ROOT / "solutions" / "04_mds.ipynb", repository / "exercises" / "04_mds.ipynb")
    steps = steps_of(repository / ".github" / "workflows" / "classroom.yml")
    install = step(steps, "Install")
    installed = runner(install["run"], repository, **install.get("env", {}))
    assert installed.returncode == 0, installed.stderr
    (repository / "dimred_teach" / "checks" / "set04.py").write_text("raise SystemExit('the student copy')\n")
    output = tmp_path / "github_output"
    graded = runner(step(steps, "Grade")["run"], repository, GITHUB_OUTPUT=output,
                    GITHUB_STEP_SUMMARY=tmp_path / "summary.md")
    assert graded.returncode == 0, graded.stdout + graded.stderr
    (line,) = output.read_text().splitlines()
    name, _, value = line.partition("=")
    result = json.loads(base64.b64decode(value))
    assert name == "result" and result["version"] == 1 and result["max_score"] == SET_04_POINTS
    scores = sum(test["score"] for test in result["tests"])
    assert {"name", "status", "score", "message"} <= set(result["tests"][0])
    if answers == "solved":
        assert result["status"] == "pass" and scores == SET_04_POINTS
    else:
        assert result["status"] == "fail" and scores == 0
        assert all(test["status"] == "fail" and test["message"] for test in result["tests"])
    assert "dimred-teach grade" in (tmp_path / "summary.md").read_text()  # the run's summary page
    assert json.loads((repository / "grading-report" / "04_mds.json").read_text())["extra_data"]["sandbox"] == "bwrap"


def test_a_missing_or_ungradable_notebook_is_an_error_worth_nothing():
    tests = (TestResult("04.a", 2.0, 2.0, True, "ok"), TestResult("04.b", 0.0, 1.0, False, "not yet"))
    graded = SubmissionResult("exercises/04_mds.ipynb", "04_mds", "04_mds", tests, "", 1.0, True)
    missing = SubmissionResult("06_random_projections.ipynb", "06", "06", (TestResult("06.a", 0.0, 6.0, False, "x"),),
                               "no notebook", 0.0, False)
    result = classroom_result([graded, missing])
    assert result["status"] == "error" and result["max_score"] == 9
    assert [t["score"] for t in result["tests"]] == [2.0, 0.0, 0.0]
    assert classroom_result([graded])["status"] == "fail"
    assert json.loads(base64.b64decode(encoded_result(result))) == result


def test_bad_classroom_arguments_are_one_line_and_write_nothing(tmp_path, capsys):
    existing = tmp_path / "taken"
    existing.mkdir()
    (existing / "file").write_text("mine")
    assert main(["classroom", "--root", str(ROOT), "--out", str(existing), "--grader", f"git+https://h/c@{TAG}"]) == 2
    assert main(["classroom", "--root", str(ROOT), "--out", str(tmp_path / "new"),
                 "--grader", "git+https://github.com/org/course"]) == 2  # no tag: not pinned
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and errors[0].startswith("error: --out:") and errors[1].startswith("error: --grader:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"] and [p.name for p in existing.iterdir()] == ["file"]


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
    installed = runner(install, ROOT)  # the course repository at its commit
    assert installed.returncode == 0, installed.stderr
    student = tmp_path / "student"
    (student / "exercises").mkdir(parents=True)
    shutil.copyfile(ROOT / "solutions" / "04_mds.ipynb", student / "exercises" / "04_mds.ipynb")
    graded = runner(step(steps, "Grade")["run"], student)
    assert graded.returncode == 0 and "1 of 1 submission(s) reach 100%" in graded.stdout, graded.stdout + graded.stderr
    assert main(["ci-template", "--install", "dimred-teach @ git+https://example.org/course.git@v1"]) == 0
    assert 'pip install -c constraints.txt "dimred-teach @ git+https://example.org/course.git@v1"' in capsys.readouterr().out


def test_every_template_and_data_file_is_in_the_package_data():
    """A wheel carries only what package-data names: the Classroom README template once was not
    (and set 05's LSI space, data/corpus_lsi.json, is the data folder's first JSON file)."""
    import fnmatch
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for package, folder in (("dimred_teach.course.templates", ROOT / "dimred_teach/course/templates"),
                            ("dimred_teach.grading.templates", ROOT / "dimred_teach/grading/templates"),
                            ("dimred_teach.data", ROOT / "data")):
        files = [p.relative_to(folder).as_posix() for p in folder.rglob("*")
                 if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
        missing = [f for f in files if not any(fnmatch.fnmatch(f, pattern) for pattern in data[package])]
        assert files and not missing, (package, missing)
