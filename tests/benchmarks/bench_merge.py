"""Merging a class graded in shards (``dimred-teach merge``): 1,000 shards of 5 notebooks
each, synthetic reports of every set written by the grader's own report writer. Ours reads
and checks the 1,000 shard records and 5,000 reports and writes one run's reports, junit.xml,
summary.md, gradebook and class report; the peer only copies the 5,000 report files into one
folder (what a merge by hand would do, checking nothing); the floor only parses them."""

import atexit
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from dimred_teach.exercise_specs import SPECS_DIR, load_spec
from dimred_teach.gradebook.merge import merge
from dimred_teach.grading.reports import write_report
from dimred_teach.grading.results import SubmissionResult, TestResult
from dimred_teach.grading.shards import Listing, write_record

from .harness import Benchmark

SHARDS, PER_SHARD = 1000, 5
ROOT = Path(__file__).resolve().parents[2]


def _shards(folder: Path) -> list[Path]:
    rng = np.random.default_rng(0)
    sets = sorted(path.stem for path in SPECS_DIR.glob("*.json"))
    specs = {name: load_spec(name)["checks"] for name in sets}
    paths = [folder / "class" / f"student-{n:04d}" / f"{sets[n % len(sets)]}.ipynb" for n in range(SHARDS * PER_SHARD)]
    folders, listing = [], Listing([folder / "class"], paths)
    for shard in range(SHARDS):
        plan = listing.plan(shard, SHARDS, 1.0)
        out = folder / f"shard-{shard}"
        out.mkdir()
        for path, entry in zip(plan.paths, plan.record["submissions"]):
            exercise_set = path.stem
            tests = tuple(TestResult(c["exercise_id"], float(c["points"]) * passed, float(c["points"]), bool(passed),
                                     "", "" if passed else "other", "" if passed else "a failure")
                          for c, passed in zip(specs[exercise_set], rng.integers(0, 2, len(specs[exercise_set]))))
            write_report(SubmissionResult(str(path), entry["local"], exercise_set, tests, "", 1.0, True, "bwrap"), out)
        write_record(out, plan)
        folders.append(out)
    return folders


def benchmarks():
    work = Path(tempfile.mkdtemp(prefix="dimred-bench-merge-"))
    atexit.register(shutil.rmtree, work, True)
    folders = _shards(work)
    reports = [path for folder in folders for path in folder.glob("*.json")]

    def ours():
        shutil.rmtree(work / "merged", ignore_errors=True)
        merge(folders, work / "merged", ROOT)

    def copy():
        shutil.rmtree(work / "copied", ignore_errors=True)
        (work / "copied").mkdir()
        for number, path in enumerate(reports):
            shutil.copyfile(path, work / "copied" / f"{number}.json")

    yield Benchmark(
        f"merge: {SHARDS} shards of {PER_SHARD} notebooks (reports, gradebook, class report)",
        ours=ours,
        baselines={"copy the report files into one folder": copy},
        floor=("json.loads of every report", lambda: [json.loads(path.read_text()) for path in reports]),
        why="the merge checks every share and rewrites junit.xml, summary.md, the gradebook and the class report",
        notes=lambda: f"{len(reports)} reports in {SHARDS} shard folders; the merged class report is "
                      f"{(work / 'merged/class-report/index.html').stat().st_size // 1024} KB",
        repeat=2, warmup=False)
