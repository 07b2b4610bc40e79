"""``dimred-teach merge SHARD_OUT... --out DIR``: the shards of one class (``grade --shard
K/N``, :mod:`dimred_teach.grading.shards`) put back together into exactly what one run over the
whole class writes: ``DIR/reports/`` (``<name>.json``, ``junit.xml``, ``summary.md``),
``DIR/gradebook.csv``, the class report ``DIR/class-report/`` and, with a roster,
``DIR/students/``. The shards must be the N shares of one listing, each given once.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

from ..grading.reports import report_path, write_run_files
from ..grading.results import ReportError, SubmissionResult, read_report
from ..grading.shards import FORMAT, RECORD, ShardError
from .class_outputs import class_report
from .lms import student_outputs


def _read_record(folder: Path) -> dict:
    try:
        record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ShardError(f"SHARD_OUT: {folder} is not the --out folder of `grade --shard` "
                         f"(no readable {RECORD}: {type(error).__name__})") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ShardError(f"SHARD_OUT: {folder / RECORD} is not a shard record of this version")
    return record


def merged_results(folders: Sequence[Path]) -> tuple[list[SubmissionResult], float, list[Path]]:
    """Every submission's result from the shards' folders, in the order of one run over the
    whole listing, the run's pass fraction, and each result's report file. ShardError naming
    the shard that is missing or given twice, or shards of different listings."""
    folders = [Path(folder) for folder in folders]
    records = [_read_record(folder) for folder in folders]
    first = records[0]
    for folder, record in zip(folders, records):
        for field in ("shards", "listed", "listing", "pass_fraction"):
            if record.get(field) != first.get(field):
                raise ShardError(f"SHARD_OUT: {folder} is a shard of another run than {folders[0]} "
                                 f"(its {field} differs: {record.get(field)!r} and {first.get(field)!r})")
    shards = first["shards"]
    seen: dict[int, Path] = {}
    for folder, record in zip(folders, records):
        if record["shard"] in seen:
            raise ShardError(f"SHARD_OUT: shard {record['shard']}/{shards} is given twice: {seen[record['shard']]} "
                             f"and {folder}")
        seen[record["shard"]] = folder
    missing = [k for k in range(shards) if k not in seen]
    if missing:
        raise ShardError(f"SHARD_OUT: shard(s) {', '.join(f'{k}/{shards}' for k in missing)} missing "
                         f"({len(seen)} of {shards} given)")
    results: dict[int, SubmissionResult] = {}
    files: dict[int, Path] = {}
    for folder, record in zip(folders, records):
        for entry in record["submissions"]:
            path = files[entry["index"]] = report_path(folder, entry["local"])
            try:
                results[entry["index"]] = read_report(path, entry["report"])
            except ReportError as error:
                raise ShardError(f"SHARD_OUT: {path} (shard {record['shard']}/{shards}) is missing or is not "
                                 f"a report ({error})") from None
    if sorted(results) != list(range(first["listed"])):
        raise ShardError(f"SHARD_OUT: the shards hold {len(results)} of the {first['listed']} submissions listed")
    order = range(first["listed"])
    return [results[i] for i in order], first["pass_fraction"], [files[i] for i in order]


def merge(folders: Sequence[Path], out: Path, root: Path, roster: Path | None = None
          ) -> tuple[list[SubmissionResult], float, str]:
    """Write one run's outputs from the shards into ``out``: ``reports/``, ``gradebook.csv``,
    ``class-report/`` (and ``students/`` with a roster: :mod:`.lms`); returns the results,
    the pass fraction and the class report's account."""
    results, pass_fraction, files = merged_results(folders)
    out = Path(out)
    (out / "reports").mkdir(parents=True, exist_ok=True)
    for result, path in zip(results, files):  # as the shard wrote it: the guarantees of the machine it ran on
        shutil.copyfile(path, report_path(out / "reports", result.report_name))
    write_run_files(results, out / "reports", pass_fraction, out / "gradebook.csv")
    try:
        account = class_report([out / "reports"], out / "class-report", root)
    except ValueError as error:  # a class of notebooks none of which is an exercise notebook
        account = f"no class report: {error}"
    if roster is not None:  # a bad roster raises, naming --roster
        account += "\n" + student_outputs([out / "reports"], roster, out / "students", root)
    return results, pass_fraction, account
