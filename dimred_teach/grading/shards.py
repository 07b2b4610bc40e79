"""A class graded in shards on many machines, and the shards merged into one run's outputs.

``dimred-teach grade FOLDER --shard K/N --out SHARD_OUT`` grades share ``K`` (counting from 0)
of ``N``: the submissions are ordered by a hash of their path relative to the folder given
(so every machine, whatever order its file system lists them in, makes the same partition)
and dealt out in turn, so the shares differ in size by one at most. Without ``K/N``,
``--shard`` reads them from the engine's environment (:func:`shard_from_environment`).

Each shard's folder holds its reports and ``shard.record`` (JSON): which share it is, a digest
of the whole listing, and for each of its submissions its place in the listing and the
report name one run over the whole class gives it. ``dimred-teach merge SHARD_OUT... --out
DIR`` checks that the shards are the N shares of one listing, each once, and writes what one
run would have: ``DIR/reports/`` (``<name>.json``, ``junit.xml``, ``summary.md``),
``DIR/gradebook.csv`` and the class report ``DIR/class-report/``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .reports import report_names, report_path, write_run_files
from .results import SubmissionResult
from .submissions import display_path

RECORD = "shard.record"
FORMAT = 1
SHARD = re.compile(r"(\d+)/(\d+)")


class ShardError(ValueError):
    """Shards that are not the shares of one listing, each once."""


def parse_shard(value: str, what: str = "--shard") -> tuple[int, int]:
    """``"K/N"`` as (K, N) with 0 <= K < N; ValueError naming ``what`` otherwise."""
    match = SHARD.fullmatch(value.strip())
    if not match or not int(match[1]) < int(match[2]):
        raise ValueError(f"{what} must be K/N with 0 <= K < N (K counts from 0), got {value!r}")
    return int(match[1]), int(match[2])


def shard_from_environment(environ: Mapping[str, str] = os.environ) -> tuple[int, int]:
    """The share an engine's environment names, first found of:

    - ``DIMRED_TEACH_SHARD=K/N`` (any engine; the GitHub Actions template sets it from its matrix);
    - Slurm's job array: ``SLURM_ARRAY_TASK_ID`` (less ``SLURM_ARRAY_TASK_MIN``) of ``SLURM_ARRAY_TASK_COUNT``;
    - a Kubernetes Indexed Job: ``JOB_COMPLETION_INDEX`` of ``DIMRED_TEACH_SHARDS`` (Kubernetes
      does not pass the number of completions; the template sets it).
    """
    if environ.get("DIMRED_TEACH_SHARD"):
        return parse_shard(environ["DIMRED_TEACH_SHARD"], "DIMRED_TEACH_SHARD")
    if environ.get("SLURM_ARRAY_TASK_ID") and environ.get("SLURM_ARRAY_TASK_COUNT"):
        task = int(environ["SLURM_ARRAY_TASK_ID"]) - int(environ.get("SLURM_ARRAY_TASK_MIN", "0"))
        return parse_shard(f"{task}/{environ['SLURM_ARRAY_TASK_COUNT']}", "SLURM_ARRAY_TASK_ID")
    if environ.get("JOB_COMPLETION_INDEX"):
        if not environ.get("DIMRED_TEACH_SHARDS"):
            raise ValueError("--shard: JOB_COMPLETION_INDEX is set but not DIMRED_TEACH_SHARDS, the number of shards")
        return parse_shard(f"{environ['JOB_COMPLETION_INDEX']}/{environ['DIMRED_TEACH_SHARDS']}", "JOB_COMPLETION_INDEX")
    raise ValueError("--shard: no K/N given, and no engine's shard in the environment (DIMRED_TEACH_SHARD, "
                     "SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with DIMRED_TEACH_SHARDS)")


def listing_keys(arguments: Sequence[Path], paths: Sequence[Path]) -> list[str]:
    """Each submission's path relative to the folder argument it was found in (``/``-separated;
    a file given by itself: as given), the same on every machine for the same class."""
    keys = []
    for path in paths:
        folder = next((Path(a) for a in arguments if Path(a).is_dir() and Path(path).is_relative_to(a)), None)
        keys.append(display_path(Path(path).relative_to(folder).as_posix() if folder else Path(path).as_posix()))
    if len(set(keys)) < len(keys):  # the same relative path under two folders given
        keys = [display_path(Path(path).as_posix()) for path in paths]
    return keys


def hash_order(keys: Sequence[str]) -> list[int]:
    """The positions of the listing ordered by the SHA-256 of their key (then the key)."""
    return sorted(range(len(keys)), key=lambda i: (hashlib.sha256(keys[i].encode("utf-8", "replace")).digest(), keys[i]))


def share(keys: Sequence[str], shard: int, shards: int) -> list[int]:
    """The positions in the listing of share ``shard`` of ``shards``: positions in
    :func:`hash_order`, dealt out in turn (sizes differ by one at most)."""
    return sorted(hash_order(keys)[shard::shards])


@dataclass(frozen=True)
class ShardPlan:
    """One shard's part of a listing: the share's paths and what the record will say."""

    shard: int
    shards: int
    paths: list[Path]
    record: dict


class Listing:
    """The whole class as every shard sees it: the notebooks (as
    :func:`.submissions.find_submissions` lists them), their keys, one run's report names and
    the hash order, computed once."""

    def __init__(self, arguments: Sequence[Path], paths: Sequence[Path]):
        self.paths = [Path(path) for path in paths]
        self.keys = listing_keys(arguments, self.paths)
        self.names = report_names(self.paths)
        self.order = hash_order(self.keys)
        self.digest = hashlib.sha256("\n".join(self.keys).encode("utf-8", "replace")).hexdigest()

    def plan(self, shard: int, shards: int, pass_fraction: float) -> ShardPlan:
        """What shard ``shard`` of ``shards`` grades, and its record."""
        chosen = sorted(self.order[shard::shards])
        local = report_names([self.paths[i] for i in chosen])
        entries = [{"index": i, "key": self.keys[i], "report": self.names[i], "local": name}
                   for i, name in zip(chosen, local)]
        record = {"format": FORMAT, "shard": shard, "shards": shards, "listed": len(self.paths),
                  "listing": self.digest, "pass_fraction": pass_fraction, "submissions": entries}
        return ShardPlan(shard, shards, [self.paths[i] for i in chosen], record)


def plan_shard(arguments: Sequence[Path], paths: Sequence[Path], shard: int, shards: int,
               pass_fraction: float) -> ShardPlan:
    """The share of ``paths`` (the whole listing) that shard ``shard`` of ``shards`` grades."""
    return Listing(arguments, paths).plan(shard, shards, pass_fraction)


def write_record(out: Path, plan: ShardPlan) -> None:
    (Path(out) / RECORD).write_text(json.dumps(plan.record, indent=1) + "\n", encoding="utf-8")


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
                report = json.loads(path.read_text(encoding="utf-8"))
                results[entry["index"]] = SubmissionResult.from_gradescope(report, entry["report"])
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise ShardError(f"SHARD_OUT: {path} (shard {record['shard']}/{shards}) is missing or is not "
                                 f"a report ({type(error).__name__})") from None
    if sorted(results) != list(range(first["listed"])):
        raise ShardError(f"SHARD_OUT: the shards hold {len(results)} of the {first['listed']} submissions listed")
    order = range(first["listed"])
    return [results[i] for i in order], first["pass_fraction"], [files[i] for i in order]


def merge(folders: Sequence[Path], out: Path, root: Path, roster: Path | None = None
          ) -> tuple[list[SubmissionResult], float, str]:
    """Write one run's outputs from the shards into ``out``: ``reports/``, ``gradebook.csv``,
    ``class-report/`` (and ``students/`` with a roster: :mod:`..course.lms`); returns the
    results, the pass fraction and the class report's account."""
    from ..course.class_outputs import class_report
    from ..course.lms import student_outputs

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


def command_merge(args) -> int:
    """``dimred-teach merge SHARD_OUT... --out DIR``: exit 0 when every submission reaches the
    pass fraction, 1 otherwise, 2 when the shards are refused."""
    import sys

    try:
        results, pass_fraction, account = merge(args.shard_outs, args.out, args.root, args.roster)
    except (ValueError, OSError) as error:  # ShardError, or a roster that cannot be used
        print(f"error: {error}", file=sys.stderr)
        return 2
    counted = [r for r in results if not r.skipped]
    passed = sum(r.passes(pass_fraction) for r in counted)
    print(f"merged {len(args.shard_outs)} shard(s): {len(results)} submission(s), {passed} of {len(counted)} reach "
          f"{pass_fraction:.0%} of the points; {args.out / 'reports'}, {args.out / 'gradebook.csv'}\n{account}")
    return 0 if passed == len(counted) else 1
