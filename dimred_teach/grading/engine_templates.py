"""``dimred-teach class-template ENGINE --shards N``: the files that grade a class on an
existing engine in N shards and merge them (:mod:`.shards`): a GitHub Actions workflow for
the lecturer's repository of submissions, a Slurm job-array script, a Kubernetes Indexed Job
with its merge Job. Each runs the grader in bubblewrap, says at its top what the engine must
allow, and cannot wait forever: the workflow's jobs and the Slurm jobs have time limits, and
the Kubernetes Jobs deadlines, the merge failing with the missing shards' numbers.

``--install`` (the pinned requirement of the course's grader) is what the GitHub jobs install,
with the course's constraints.txt, and what the Kubernetes image must hold; the Slurm script
runs the ``dimred-teach`` of the checkout it is started from, so it takes none."""

from __future__ import annotations

import re
from importlib.resources import files

TEMPLATES = {"github": "class-workflow.yml", "slurm": "class-slurm.sh", "kubernetes": "class-kubernetes.yml"}
SAFE = re.compile(r"[A-Za-z0-9_./:@=<>!~+-]+( @ [A-Za-z0-9_./:@+#-]+)?")
"""What a requirement, an image or a folder may hold: it lands unquoted in YAML or in shell text."""


def class_template(engine: str, shards: int, install: str | None, submissions: str = "submissions",
                   image: str = "registry.example.org/dimred-teach:latest") -> str:
    """The text of ``engine``'s template for ``shards`` shards."""
    if engine not in TEMPLATES:
        raise ValueError(f"ENGINE must be one of {', '.join(TEMPLATES)}, got {engine!r}")
    if not isinstance(shards, int) or not 1 <= shards <= 1000:
        raise ValueError(f"--shards must be a whole number from 1 to 1000, got {shards!r}")
    if engine == "slurm" and install is not None:
        raise ValueError("--install: the slurm script installs nothing (it runs the dimred-teach of the course's "
                         "checkout it is started from, or $DIMRED_TEACH); leave --install out")
    if engine != "slurm" and install is None:
        raise ValueError(f"--install: the {engine} template needs the grader's pinned requirement "
                         "('dimred-teach @ git+https://.../dimred-teach@v1' or a wheel's URL)")
    for name, value in (("--install", install), ("--submissions", submissions), ("--image", image)):
        if value is not None and not SAFE.fullmatch(value):
            raise ValueError(f"{name} may hold letters, digits and ._/:@=<>!~+- only, got {value!r}")
    text = files("dimred_teach.grading.templates").joinpath(TEMPLATES[engine]).read_text()
    for key, value in (("__SHARD_LIST__", ", ".join(map(str, range(shards)))), ("__SHARDS__", str(shards)),
                       ("__LAST__", str(shards - 1)), ("__INSTALL__", install or ""), ("__SUBMISSIONS__", submissions),
                       ("__IMAGE__", image)):
        text = text.replace(key, value)
    return text
