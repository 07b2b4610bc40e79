"""Every exercise set, end to end: the generated exercise notebook runs to its end with
every check saying "not yet", and the executed solution notebook shows every check passed.
"""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from dimred_teach.course.manifest import read_manifest
from dimred_teach.exercise_specs import load_spec

pytestmark = pytest.mark.slow(seconds=90)

ROOT = Path(__file__).resolve().parents[2]
SETS = [lecture.stem for lecture in read_manifest(ROOT) if lecture.exercises]


def check_outputs(notebook) -> dict[str, str]:
    """Printed text of each check cell, keyed by cell id."""
    texts = {}
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.id.startswith("check-"):
            texts[cell.id] = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    return texts


def test_there_are_exercise_sets():
    assert len(SETS) >= 2


@pytest.mark.parametrize("exercise_set", SETS)
def test_generated_exercises_run_and_report_not_yet(exercise_set):
    spec = load_spec(exercise_set)
    notebook = nbformat.read(ROOT / "exercises" / f"{exercise_set}.ipynb", as_version=4)
    assert notebook.metadata["dimred_teach"]["exercise_set"] == exercise_set
    NotebookClient(notebook, timeout=60, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "exercises")}}).execute()  # raises on any cell error
    outputs = check_outputs(notebook)
    assert sorted(outputs) == sorted(c["cell_id"] for c in spec["checks"])
    for cell_id, text in outputs.items():
        assert text.startswith("[not yet]"), f"{cell_id} printed {text!r}"
        assert "hint:" in text


@pytest.mark.parametrize("exercise_set", SETS)
def test_solution_checks_all_pass(exercise_set):
    spec = load_spec(exercise_set)
    notebook = nbformat.read(ROOT / "solutions" / f"{exercise_set}.ipynb", as_version=4)
    passed = [cell.source.strip() for cell in notebook.cells if cell.cell_type == "code"
              and any("[passed]" in o.get("text", "") for o in cell.get("outputs", []))]
    assert sorted(passed) == sorted(c["source"].strip() for c in spec["checks"])
    assert spec["max_score"] == sum(c["points"] for c in spec["checks"]) > 0
    assert len(spec["checks"]) >= 4, "every exercise set has at least 4 exercises"
