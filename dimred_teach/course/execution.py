"""Executing the course's jupytext sources into committed .ipynb files, and checking that
each .py / .ipynb pair holds the same cells.

The .py (py:percent) is the source of truth. ``dimred-teach execute notebooks/01_pca.py``
runs it in a fresh kernel, in its own folder, with BLAS pinned to one thread, and writes
``notebooks/01_pca.ipynb`` with the outputs nbval will compare.

Every notebook the course generates is written exactly as JupyterLab 4 saves it, so that
opening and saving one in JupyterLab changes no byte: nbformat's JSON (indent 1, sorted
keys, non-ASCII kept, a final newline), the metadata a kernel start sets (``kernelspec``
and the kernel's full ``language_info``), consecutive stream outputs of one name merged
into one, no widget views, and no jupytext pairing (a paired notebook is rewritten by jupytext on save and
refused when git makes it newer than its twin). The ``.py`` stays the lecturer's source:
``pair_problems`` (run by ``dimred-teach build --check``) catches a pair that drifted.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient
from traitlets.config import Config

from .._environment import pinned_environment

__all__ = ["KERNELSPEC", "read_source", "execute_source", "notebook_text", "pair_problems", "describe_figures",
           "description_problem"]

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
"""The kernelspec JupyterLab records for the course's kernel."""


def read_source(path: Path) -> nbformat.NotebookNode:
    """Read a py:percent source as an unpaired notebook with deterministic cell ids."""
    notebook = jupytext.read(path)
    for index, cell in enumerate(notebook.cells):
        cell.id = f"cell-{index:03d}"
    notebook.metadata.pop("jupytext", None)
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    return notebook


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _stored_outputs(outputs: list) -> list:
    """The outputs as JupyterLab keeps them: consecutive stream outputs of one name merged
    into one; widget views left out (their models live only in a running kernel, so a
    stored view could never show)."""
    merged: list = []
    for output in outputs:
        if WIDGET_VIEW in output.get("data", {}):
            continue
        previous = merged[-1] if merged else None
        if (output.output_type == "stream" and previous is not None and previous.output_type == "stream"
                and previous.name == output.name):
            previous.text += output.text
        else:
            merged.append(output)
    return merged


def notebook_text(notebook: nbformat.NotebookNode) -> str:
    """The exact text JupyterLab 4 (jupyter_server's contents manager) saves for ``notebook``."""
    return nbformat.writes(notebook) + "\n"


def ipc_kernels() -> Config:
    """Configuration under which the kernels the course starts talk to it over Unix sockets
    (as in the course's JupyterLab, ``.jupyter/``): no TCP port on the machine, and no
    "running over TCP without encryption" warning."""
    from jupyter_core.paths import jupyter_runtime_dir

    runtime = Path(jupyter_runtime_dir())
    runtime.mkdir(parents=True, exist_ok=True)
    config = Config()
    config.KernelManager.transport = "ipc"
    # an absolute socket path (the kernel runs in the notebook's folder); removed at shutdown
    config.KernelManager.ip = str(runtime / f"dimred-teach-{uuid.uuid4().hex}")
    return config


def execute_source(path: Path, timeout: int = 120) -> Path:
    """Execute ``path`` (a .py source) and write the paired .ipynb with outputs.

    Returns the path of the written notebook. Errors in a cell propagate (an executed
    course notebook must run cleanly).
    """
    path = Path(path)
    if path.suffix != ".py":
        raise ValueError(f"path must be a jupytext .py source, got {path}")
    notebook = read_source(path)
    NotebookClient(notebook, timeout=timeout, kernel_name="python3", record_timing=False, config=ipc_kernels(),
                   resources={"metadata": {"path": str(path.parent.resolve())}}).execute(env=pinned_environment())
    notebook.metadata.pop("widgets", None)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            cell.outputs = _stored_outputs(cell.outputs)
            describe_figures(cell, f"{path}, cell {index}")
    target = path.with_suffix(".ipynb")
    target.write_text(notebook_text(notebook), encoding="utf-8")
    return target


FIGURE = "image/png"
PLACEHOLDERS = ("no description", "todo", "alt text", "placeholder", "describe this", "lorem ipsum")


def description_problem(text) -> str | None:
    """Why ``text`` is not a written description of a figure (None when it is one)."""
    if not isinstance(text, str) or len(text.split()) < 8:
        return f"{text!r} is not a description of at least 8 words"
    lowered = text.strip().lower()
    if any(phrase in lowered for phrase in PLACEHOLDERS) or "_images/" in lowered or ".png" in lowered:
        return f"{text!r} is a placeholder or a file path, not a description"
    return None


def describe_figures(cell: nbformat.NotebookNode, where: str) -> None:
    """Copy the cell's ``alt`` metadata (a description, or one per figure in output order)
    into the metadata of its figure outputs, ``output.metadata["image/png"]["alt"]``, where
    the decks and the site read it. ValueError naming the cell when a figure has no real
    description or the number of descriptions differs from the number of figures."""
    figures = [output for output in cell.get("outputs", []) if FIGURE in output.get("data", {})]
    if not figures:
        return
    descriptions = cell.metadata.get("alt")
    descriptions = [descriptions] if isinstance(descriptions, str) else descriptions
    if not isinstance(descriptions, list) or len(descriptions) != len(figures):
        raise ValueError(f"{where} draws {len(figures)} figure(s): its '# %%' line needs alt=\"...\" (or a list of "
                         f"{len(figures)} descriptions) saying what each shows and what to see in it")
    for output, text in zip(figures, descriptions):
        problem = description_problem(text)
        if problem:
            raise ValueError(f"{where}: alt {problem}")
        output.setdefault("metadata", {}).setdefault(FIGURE, {})["alt"] = text


def _cells(notebook) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source.strip()) for cell in notebook.cells]


def pair_problems(source: Path) -> list[str]:
    """Differences between a .py source and its paired .ipynb (empty when in sync)."""
    source = Path(source)
    paired = source.with_suffix(".ipynb")
    if not paired.exists():
        return [f"{source} has no paired {paired.name}"]
    expected = _cells(jupytext.read(source))
    text = paired.read_text(encoding="utf-8")
    notebook = nbformat.reads(text, as_version=4)
    actual = _cells(notebook)
    if expected == actual:
        if "jupytext" in notebook.metadata or notebook_text(notebook) != text:
            return [f"{paired} is not in the form JupyterLab saves: re-run `dimred-teach execute {source}`"]
        return []
    for index, (want, got) in enumerate(zip(expected, actual)):
        if want != got:
            return [f"{paired} differs from {source.name} at cell {index}: re-run `dimred-teach execute {source}`"]
    return [f"{paired} has {len(actual)} cells but {source.name} has {len(expected)}: "
            f"re-run `dimred-teach execute {source}`"]
