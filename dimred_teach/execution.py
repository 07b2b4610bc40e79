"""Executing the course's jupytext sources into committed .ipynb files, and checking that
each .py / .ipynb pair holds the same cells.

The .py (py:percent) is the source of truth. ``dimred-teach execute notebooks/01_pca.py``
runs it in a fresh kernel, in its own folder, with BLAS pinned to one thread, and writes
``notebooks/01_pca.ipynb`` with the outputs nbval will compare.
"""

from __future__ import annotations

import os
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

__all__ = ["PINNED_THREADS", "pinned_environment", "read_source", "execute_source", "pair_problems"]

PINNED_THREADS = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "VECLIB_MAXIMUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
}
"""One BLAS thread: results then do not depend on the machine's core count."""


def pinned_environment(base: dict | None = None) -> dict:
    """A copy of the environment with BLAS threads pinned and a non-interactive backend."""
    env = dict(os.environ if base is None else base)
    env.update(PINNED_THREADS)
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    return env


def read_source(path: Path) -> nbformat.NotebookNode:
    """Read a py:percent source as a notebook with deterministic cell ids."""
    notebook = jupytext.read(path)
    for index, cell in enumerate(notebook.cells):
        cell.id = f"cell-{index:03d}"
    notebook.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    notebook.metadata.setdefault("jupytext", {})["formats"] = "ipynb,py:percent"
    return notebook


def execute_source(path: Path, timeout: int = 120) -> Path:
    """Execute ``path`` (a .py source) and write the paired .ipynb with outputs.

    Returns the path of the written notebook. Errors in a cell propagate (an executed
    course notebook must run cleanly).
    """
    path = Path(path)
    if path.suffix != ".py":
        raise ValueError(f"path must be a jupytext .py source, got {path}")
    notebook = read_source(path)
    saved = {key: os.environ.get(key) for key in PINNED_THREADS}
    os.environ.update(PINNED_THREADS)  # the kernel inherits this process's environment
    try:
        NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent.resolve())}}).execute()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    notebook.metadata.pop("widgets", None)
    target = path.with_suffix(".ipynb")
    nbformat.write(notebook, target)
    return target


def _cells(notebook) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source.strip()) for cell in notebook.cells]


def pair_problems(source: Path) -> list[str]:
    """Differences between a .py source and its paired .ipynb (empty when in sync)."""
    source = Path(source)
    paired = source.with_suffix(".ipynb")
    if not paired.exists():
        return [f"{source} has no paired {paired.name}"]
    expected = _cells(jupytext.read(source))
    actual = _cells(nbformat.read(paired, as_version=4))
    if expected == actual:
        return []
    for index, (want, got) in enumerate(zip(expected, actual)):
        if want != got:
            return [f"{paired} differs from {source.name} at cell {index}: re-run `dimred-teach execute {source}`"]
    return [f"{paired} has {len(actual)} cells but {source.name} has {len(expected)}: re-run `dimred-teach execute {source}`"]
