"""Every figure of the course has a written description (issue 23, WCAG 2.1 text alternatives)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from dimred_teach.course.execution import FIGURE, describe_figures, description_problem
from dimred_teach.course.manifest import read_manifest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = [path for lecture in read_manifest(ROOT)
             for path in (lecture.lecture_notebook, lecture.solution_notebook) if path.is_file()]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_every_figure_carries_its_description(path):
    notebook = nbformat.read(path, as_version=4)
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if FIGURE in output.get("data", {}):
                text = output.get("metadata", {}).get(FIGURE, {}).get("alt")
                assert description_problem(text) is None, f"{path.name}, cell {index}: {description_problem(text)}"


def test_the_course_has_figures_to_describe():
    figures = sum(FIGURE in output.get("data", {}) for path in NOTEBOOKS
                  for cell in nbformat.read(path, as_version=4).cells for output in cell.get("outputs", []))
    assert figures >= 60


def figure_cell(alt=None, figures: int = 1) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell("plt.show()")
    cell.outputs = [nbformat.v4.new_output("display_data", data={FIGURE: "iVBORw0KGgo=", "text/plain": "<Figure>"})
                    for _ in range(figures)]
    if alt is not None:
        cell.metadata["alt"] = alt
    return cell


GOOD = "A scatter of the crabs on PC2 and PC3, coloured by group: the four groups sit in four corners."


def test_descriptions_are_copied_onto_each_figure_in_order():
    cell = figure_cell([GOOD, GOOD.replace("PC2 and PC3", "PC1 and PC2")], figures=2)
    describe_figures(cell, "demo")
    assert [output.metadata[FIGURE]["alt"] for output in cell.outputs] == cell.metadata["alt"]
    single = figure_cell(GOOD)
    describe_figures(single, "demo")
    assert single.outputs[0].metadata[FIGURE]["alt"] == GOOD


@pytest.mark.parametrize("alt, figures, message", [
    (None, 1, "needs alt"),
    ([GOOD], 2, r"2 figure\(s\)"),
    ("Figure", 1, "at least 8 words"),
    ("../_images/5be0a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0.png", 1, "at least 8 words"),
    ("see the figure in the folder _images/ of the site, file 5be0.png", 1, "file path"),
    ("No description has been provided for this image.", 1, "placeholder"),
])
def test_a_figure_without_a_real_description_is_refused(alt, figures, message):
    with pytest.raises(ValueError, match=message):
        describe_figures(figure_cell(alt, figures), "notebooks/99_demo.py, cell 3")
