"""``dimred-teach class-template ENGINE --shards N``: the files that grade a class on an
existing engine in N shards and merge them (:mod:`.shards`): a GitHub Actions workflow for
the lecturer's repository of submissions, a Slurm job-array script, a Kubernetes Indexed Job
with its merge Job. Each runs the grader in bubblewrap and says, at its top, what the
engine must allow."""

from __future__ import annotations

import re
from importlib.resources import files


TEMPLATES = {"github": "class-workflow.yml", "slurm": "class-slurm.sh", "kubernetes": "class-kubernetes.yml"}
SAFE = re.compile(r"[A-Za-z0-9_./:@=<>!~+-]+( @ [A-Za-z0-9_./:@+#-]+)?")
"""What a requirement, an image or a folder may hold: it lands unquoted in YAML or in shell text."""


def class_template(engine: str, shards: int, install: str, submissions: str = "submissions",
                   image: str = "registry.example.org/dimred-teach:latest") -> str:
    """The text of ``engine``'s template for ``shards`` shards."""
    if engine not in TEMPLATES:
        raise ValueError(f"ENGINE must be one of {', '.join(TEMPLATES)}, got {engine!r}")
    if not isinstance(shards, int) or not 1 <= shards <= 1000:
        raise ValueError(f"--shards must be a whole number from 1 to 1000, got {shards!r}")
    for name, value in (("--install", install), ("--submissions", submissions), ("--image", image)):
        if not SAFE.fullmatch(value):
            raise ValueError(f"{name} may hold letters, digits and ._/:@=<>!~+- only, got {value!r}")
    text = files("dimred_teach.grading.templates").joinpath(TEMPLATES[engine]).read_text()
    for key, value in (("__SHARD_LIST__", ", ".join(map(str, range(shards)))), ("__SHARDS__", str(shards)),
                       ("__LAST__", str(shards - 1)), ("__INSTALL__", install), ("__SUBMISSIONS__", submissions),
                       ("__IMAGE__", image)):
        text = text.replace(key, value)
    return text
