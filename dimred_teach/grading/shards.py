"""A class graded in shards on many machines, and the shards merged into one run's outputs.

``dimred-teach grade FOLDER --shard K/N --out SHARD_OUT`` grades share ``K`` (counting from 0)
of ``N``: the submissions are ordered by a hash of their path relative to the folder given
(so every machine, whatever order its file system lists them in, makes the same partition)
and dealt out in turn, so the shares differ in size by one at most. Without ``K/N``,
``--shard`` reads them from the engine's environment (:func:`shard_from_environment`).

Each shard's folder holds its reports and ``shard.record`` (JSON, :data:`RECORD`, format
:data:`FORMAT`): which share it is, a digest of the whole listing, and for each of its
submissions its place in the listing and the report name one run over the whole class gives
it. Putting the shards back together is the gradebook's (:mod:`dimred_teach.gradebook.merge`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .reports import report_names
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
        return parse_shard(
            f"{environ['JOB_COMPLETION_INDEX']}/{environ['DIMRED_TEACH_SHARDS']}", "JOB_COMPLETION_INDEX"
        )
    raise ValueError(
        "--shard: no K/N given, and no engine's shard in the environment (DIMRED_TEACH_SHARD, "
        "SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with DIMRED_TEACH_SHARDS)"
    )


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
    return sorted(
        range(len(keys)), key=lambda i: (hashlib.sha256(keys[i].encode("utf-8", "replace")).digest(), keys[i])
    )


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
