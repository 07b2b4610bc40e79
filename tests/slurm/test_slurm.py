"""Issue 41: a class graded on a real Slurm cluster, as the lecturer would: the job-array
script `dimred-teach class-template slurm` writes, submitted with sbatch over a demo class of
every set in 4 shards, then its dependent merge job; the merge equals one run's outputs.

The cluster (slurmctld and slurmd on localhost) is brought up by .ci/slurm.sh, which runs
this file with ``--slurm``; a cluster that does not come up fails the test, saying why.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from class_reports import assert_same_outputs
from dimred_teach.cli import main

ROOT = Path(__file__).resolve().parents[2]
DIMRED_TEACH = Path(sys.executable).with_name("dimred-teach")
SHARDS = 4


def logs() -> str:
    folder = Path(os.environ.get("DIMRED_SLURM_LOGS", "/nonexistent"))
    return "".join(f"\n--- {path.name}:\n" + path.read_text(errors="replace")[-1500:]
                   for path in sorted(folder.glob("*.log")))


def wait_for_the_node(seconds: float = 60) -> None:
    """The node idle, or fail with what sinfo and the daemons' logs say."""
    deadline, state = time.monotonic() + seconds, ""
    while time.monotonic() < deadline:
        done = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], capture_output=True, text=True)
        state = (done.stdout + done.stderr).strip()
        if done.returncode == 0 and state.split() and state.split()[0].rstrip("*~#") in ("idle", "mixed", "allocated"):
            return
        time.sleep(1)
    raise AssertionError(f"Slurm did not come up in {seconds:g} s (sinfo: {state!r}); logs:{logs()}")


def test_a_class_graded_as_a_slurm_job_array_merges_to_one_runs_outputs(tmp_path):
    wait_for_the_node()
    assert main(["demo-class", "--out", str(tmp_path / "class"), "--size", "1", "--seed", "7",
                 "--root", str(ROOT)]) == 0
    notebooks = len(list((tmp_path / "class").rglob("*.ipynb")))
    environment = {**os.environ, "DIMRED_TEACH_SEED_KEY": "the lecturer's secret key for the Slurm test",
                   "DIMRED_TEACH": str(DIMRED_TEACH)}
    started = time.monotonic()
    single = subprocess.run(
        [
            str(DIMRED_TEACH),
            "grade",
            str(tmp_path / "class"),
            "--jobs",
            "2",
            "--sandbox",
            "bwrap",
            "--out",
            str(tmp_path / "single/reports"),
            "--gradebook",
            str(tmp_path / "single/gradebook.csv"),
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert single.returncode in (0, 1), single.stderr[-3000:]
    one_run = time.monotonic() - started
    assert main(["class-report", str(tmp_path / "single/reports"), "--out", str(tmp_path / "single/class-report"),
                 "--root", str(ROOT)]) == 0

    assert main(["class-template", "slurm", "--shards", str(SHARDS), "--out", str(tmp_path / "grade-class.sh")]) == 0
    started = time.monotonic()
    submitted = subprocess.run(
        ["bash", str(tmp_path / "grade-class.sh"), str(tmp_path / "class"), str(tmp_path / "graded")],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert submitted.returncode == 0, submitted.stderr + logs()
    while subprocess.run(["squeue", "-h", "-o", "%i"], capture_output=True, text=True).stdout.strip():
        assert time.monotonic() - started < 400, (
            subprocess.run(["squeue"], capture_output=True, text=True).stdout + logs()
        )
        time.sleep(2)
    on_slurm = time.monotonic() - started
    shard_logs = "".join(path.read_text() for path in sorted((tmp_path / "graded/logs").glob("*.log")))
    records = sorted(p.parent.name for p in (tmp_path / "graded").glob("shard-*/shard.record"))
    assert records == [f"shard-{k}" for k in range(SHARDS)], shard_logs
    assert f"merged {SHARDS} shard(s): {notebooks} submission(s)" in shard_logs, shard_logs
    assert_same_outputs(tmp_path / "single", tmp_path / "graded" / "class", notebooks)
    print(f"{notebooks} notebooks: one run {one_run:.0f} s; {SHARDS} shards and the merge on Slurm {on_slurm:.0f} s")
