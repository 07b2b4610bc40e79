"""Issue 41: a class graded in shards (``grade --shard K/N``) on many machines and merged
(``merge``) gives what one run gives; a set of shards with a share missing or given twice is
refused, naming the share."""

from __future__ import annotations

import csv
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from class_reports import assert_same_outputs
from dimred_teach.cli import main
from dimred_teach.gradebook.merge import merged_results
from dimred_teach.grading.reports import write_report
from dimred_teach.grading.results import SubmissionResult, TestResult
from dimred_teach.grading.shards import (
    ShardError,
    listing_keys,
    parse_shard,
    plan_shard,
    shard_from_environment,
    write_record,
)

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[2]
DIMRED_TEACH = Path(sys.executable).with_name("dimred-teach")


def shared_keys(keys, shard, shards):
    """The keys of the files given by themselves that shard ``shard`` of ``shards`` grades."""
    return [
        entry["key"] for entry in plan_shard([], [Path(key) for key in keys], shard, shards, 1.0).record["submissions"]
    ]


def test_the_partition_is_the_same_whatever_the_listing_order_and_balanced():
    keys = [f"student-{n:03d}/{s:02d}_set.ipynb" for n in range(37) for s in (1, 4, 7)]
    shares = [shared_keys(keys, k, 4) for k in range(4)]
    shuffled = keys[:]
    random.Random(1).shuffle(shuffled)
    assert [sorted(shared_keys(shuffled, k, 4)) for k in range(4)] == [sorted(s) for s in shares]
    assert sorted(key for s in shares for key in s) == sorted(keys)  # each once
    assert max(map(len, shares)) - min(map(len, shares)) <= 1
    # dealt by hash, not by folder: every share holds several students and sets
    assert all(len({key.split("/")[0] for key in s}) > 10 for s in shares)


def test_the_keys_are_relative_to_the_folder_given(tmp_path):
    for where in ("a/class", "b/deeper/class"):
        (tmp_path / where / "s1").mkdir(parents=True)
    paths_a = [tmp_path / "a/class/s1/04_mds.ipynb"]
    paths_b = [tmp_path / "b/deeper/class/s1/04_mds.ipynb"]
    assert listing_keys([tmp_path / "a/class"], paths_a) == listing_keys([tmp_path / "b/deeper/class"], paths_b) == [
        "s1/04_mds.ipynb"]


@pytest.mark.parametrize("environ, expected", [
    ({"DIMRED_TEACH_SHARD": "2/5"}, (2, 5)),
    ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}, (3, 4)),
    ({"SLURM_ARRAY_TASK_ID": "11", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "10"}, (1, 4)),
    ({"JOB_COMPLETION_INDEX": "0", "DIMRED_TEACH_SHARDS": "8"}, (0, 8)),
])
def test_the_share_is_read_from_the_engine(environ, expected):
    assert shard_from_environment(environ) == expected


@pytest.mark.parametrize("environ, named", [
    ({}, "--shard: no K/N given"),
    ({"JOB_COMPLETION_INDEX": "1"}, "DIMRED_TEACH_SHARDS"),
    ({"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, "SLURM_ARRAY_TASK_ID"),
    ({"DIMRED_TEACH_SHARD": "1of4"}, "DIMRED_TEACH_SHARD"),
])
def test_a_missing_or_bad_share_names_where_it_came_from(environ, named):
    with pytest.raises(ValueError, match=re.escape(named)):
        shard_from_environment(environ)


@pytest.mark.parametrize("value", ["4/4", "-1/4", "1", "a/b", "0/0"])
def test_a_bad_shard_argument_is_refused(value):
    with pytest.raises(ValueError, match="--shard must be K/N"):
        parse_shard(value)


def synthetic_shards(tmp_path: Path, shards: int, listed: int = 10) -> list[Path]:
    """The --out folders of ``shards`` shards of a listing of ``listed`` notebooks, with
    reports written by the grader's report writer (no grading)."""
    class_dir = tmp_path / "class"
    paths = [class_dir / f"student-{n}" / "04_mds.ipynb" for n in range(listed)]
    folders = []
    for k in range(shards):
        plan = plan_shard([class_dir], paths, k, shards, 1.0)
        folder = tmp_path / f"shard{k}"
        folder.mkdir(parents=True)
        for path, entry in zip(plan.paths, plan.record["submissions"]):
            test = TestResult("04.recover_b", 2.0, 2.0, True, "")
            write_report(SubmissionResult(str(path), entry["local"], "04_mds", (test,), "", 1.0, True), folder)
        write_record(folder, plan)
        folders.append(folder)
    return folders


def test_merge_refuses_a_missing_a_repeated_or_a_foreign_share(tmp_path, capsys):
    folders = synthetic_shards(tmp_path, 4)
    assert len(merged_results(folders)[0]) == 10
    with pytest.raises(ShardError, match="shard\\(s\\) 2/4 missing"):
        merged_results(folders[:2] + folders[3:])
    with pytest.raises(ShardError, match="shard 1/4 is given twice"):
        merged_results(folders + [folders[1]])
    other = synthetic_shards(tmp_path / "other", 4, listed=11)
    with pytest.raises(ShardError, match="another run"):
        merged_results(folders[:3] + other[3:])
    (folders[2] / json.loads((folders[2] / "shard.record").read_text())["submissions"][0]["local"]).with_suffix(
        ".json").unlink()
    with pytest.raises(ShardError, match="shard 2/4\\) is missing or is not a report"):
        merged_results(folders)
    assert main(["merge", str(folders[0]), str(tmp_path / "class"), "--out", str(tmp_path / "merged")]) == 2
    error = capsys.readouterr().err
    assert "SHARD_OUT:" in error and "is not the --out folder of `grade --shard`" in error


def test_shards_merged_give_one_runs_reports_gradebook_and_class_report(tmp_path):
    """A demo class of two sets graded once, and in 3 shards (listed in different orders:
    the shards are given in another order too), merged: every file equal, timings aside."""
    assert main(["demo-class", "--out", str(tmp_path / "class"), "--size", "3", "--seed", "4", "--sets", "01", "04",
                 "--root", str(ROOT)]) == 0
    environment = {**os.environ, "DIMRED_TEACH_SEED_KEY": "the lecturer's secret key"}

    def grade(*arguments: str) -> None:
        done = subprocess.run([str(DIMRED_TEACH), "grade", "class", "--jobs", "2", *arguments], cwd=tmp_path,
                              env=environment, capture_output=True, text=True, timeout=600)
        assert done.returncode in (0, 1), done.stderr[-3000:]

    grade("--out", "single/reports", "--gradebook", "single/gradebook.csv")
    assert main(["class-report", str(tmp_path / "single/reports"), "--out", str(tmp_path / "single/class-report"),
                 "--root", str(ROOT)]) == 0
    for k in range(3):
        environment["DIMRED_TEACH_SHARD"] = f"{k}/3"
        grade("--shard", "--out", f"shard{k}")
    sizes = [len(json.loads((tmp_path / f"shard{k}" / "shard.record").read_text())["submissions"]) for k in range(3)]
    assert sizes == [2, 2, 2]
    assert main(["merge", *(str(tmp_path / f"shard{k}") for k in (2, 0, 1)), "--out", str(tmp_path / "merged"),
                 "--root", str(ROOT)]) == 1  # not every demo student reaches full marks
    assert_same_outputs(tmp_path / "single", tmp_path / "merged", 6)
    assert "graded on random instances with seed" in (tmp_path / "merged/reports/summary.md").read_text()


def test_merge_with_a_roster_writes_the_gradebook_by_student(tmp_path):
    folders = synthetic_shards(tmp_path, 3, listed=4)
    (tmp_path / "roster.csv").write_text(
        "id,name,folder\n" + "".join(f"S{n},Student {n},student-{n}\n" for n in range(4))
    )
    assert main(["merge", *map(str, folders), "--out", str(tmp_path / "merged"), "--roster",
                 str(tmp_path / "roster.csv")]) == 0
    with (tmp_path / "merged/students/students.csv").open(newline="") as file:
        rows = list(csv.reader(file))
    assert rows[1:] == [[f"S{n}", f"Student {n}", "2", "2", "2", "1"] for n in range(4)]
    (tmp_path / "roster.csv").write_text("id,name\nS0,Student 0\n")
    assert main(["merge", *map(str, folders), "--out", str(tmp_path / "merged"), "--roster",
                 str(tmp_path / "roster.csv")]) == 2
