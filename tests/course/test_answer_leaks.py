"""No answer in the course: ``dimred-teach build --check`` refuses lectures or exercise
notebooks that show a value exercise's answer (dimred_teach/course/answer_leaks.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import nbformat
import numpy as np
import pytest

from dimred_teach import cli
from dimred_teach.checks import _REGISTRY, evaluate, get_check
from dimred_teach.checks.set01 import covariance, crab_matrix
from dimred_teach.checks.set04 import eurodist_without, relative_spectrum
from dimred_teach.course.answer_leaks import MANY_RIGHT_ANSWERS, answer_leaks, shows, value_exercises
from dimred_teach.course.manifest import read_manifest
from dimred_teach.mds import double_center

ROOT = Path(__file__).resolve().parents[2]
LECTURES = read_manifest(ROOT)

def notebook(path: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / path, as_version=4)


def all_value_exercises() -> set[str]:
    return {exercise_id for lecture in LECTURES if lecture.exercises
            for exercise_id in value_exercises(lecture.stem, lecture.solution_source)}


def test_the_course_shows_no_answer():
    assert answer_leaks(LECTURES) == []


def test_every_value_exercise_registers_its_answer_or_is_listed():
    unregistered = {e for e in all_value_exercises() if get_check(e).answer is None}
    assert unregistered == set(MANY_RIGHT_ANSWERS)


@pytest.mark.parametrize("exercise_id", sorted(e for e in _REGISTRY if _REGISTRY[e].answer is not None))
def test_a_registered_answer_passes_its_check(exercise_id):
    assert evaluate(exercise_id, get_check(exercise_id).answer(), seed=0).passed


def test_the_answers_the_course_showed_are_found():
    """The leaks issue 38 found, with the answers the exercises had then."""
    top_direction_of_all_crabs = np.linalg.eigh(covariance(crab_matrix()))[1][:, -1]
    assert shows(notebook("notebooks/03_biplots.ipynb"), top_direction_of_all_crabs, setup=False)
    spectrum_of_all_cities = relative_spectrum(double_center(eurodist_without(None) ** 2))
    assert shows(notebook("notebooks/04_mds.ipynb"), spectrum_of_all_cities, setup=False)
    lecture_star = np.array([[0.0, 1, 1, 1], [1, 0, 2, 2], [1, 2, 0, 2], [1, 2, 2, 0]])
    assert shows(notebook("notebooks/04_mds.ipynb"), lecture_star, setup=False)
    assert evaluate("04.non_euclidean_metric", lecture_star).mistake == "tight-triangle"  # it no longer passes
    rank_of_the_ratings = 4  # 12.best_rank: make_ratings(..., rank=4, ...) in the set-up
    assert shows(notebook("exercises/12_missing_values_recommenders.ipynb"), rank_of_the_ratings, setup=True)
    assert not shows(notebook("notebooks/12_missing_values_recommenders.ipynb"), rank_of_the_ratings, setup=False)


def test_the_build_refuses_a_course_that_shows_an_answer(monkeypatch, capsys):
    spectrum_of_all_cities = relative_spectrum(double_center(eurodist_without(None) ** 2))
    monkeypatch.setitem(_REGISTRY, "04.eurodist_spectrum",
                        dataclasses.replace(get_check("04.eurodist_spectrum"), answer=lambda: spectrum_of_all_cities))
    assert [str(leak) for leak in answer_leaks(LECTURES)] == [
        "04.eurodist_spectrum: notebooks/04_mds.ipynb shows the answer (cell 20)"]
    assert cli.main(["build", "--check", "--root", str(ROOT)]) == 1
    assert "answer in the course: 04.eurodist_spectrum" in capsys.readouterr().out


def fake_notebook(*outputs: str, code: str = "") -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(code)
    cell.outputs = [nbformat.v4.new_output("stream", text=text) for text in outputs]
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A notebook"), cell])


ANSWER = np.array([[0.12345, -0.5, 3.25], [0.0, 1.0, -0.75], [2.0, 0.3333, 0.0]])


@pytest.mark.parametrize("printed", [
    "[[ 0.1235 -0.5000  3.2500]\n [ 0.0000  1.0000 -0.7500]\n [ 2.0000  0.3333  0.0000]]",  # the array
    "a     b\n-0.1235 9\n0.5000 7\n3.2500 1",  # a row down a DataFrame's column, signs flipped
    "values: 2.0000e+00, 3.3330e-01 and 0.0000",  # a column in scientific form
])
def test_an_array_shown_at_printed_precision_is_found(printed):
    assert shows(fake_notebook("unrelated 1.5", printed), ANSWER, setup=False) == "cell 2"


@pytest.mark.parametrize("printed", [
    "[ 0.1236 -0.5000  3.2500]",  # one digit off
    "0.1235 then 7.0 then -0.5000 3.2500",  # not in a row
    "[ 0.0000  1.0000  0.0000  1.0000]",  # zeros and ones tell nothing
])
def test_other_numbers_are_not_the_answer(printed):
    assert shows(fake_notebook(printed), ANSWER, setup=False) is None


def test_a_number_counts_when_the_set_up_binds_a_name_to_it():
    assert shows(fake_notebook(code="ratings = make_ratings(200, rank=4, seed=1)"), 4, setup=True) == "cell 2"
    assert shows(fake_notebook(code="ratings = make_ratings(200, rank=4, seed=1)"), 4, setup=False) is None
    assert shows(fake_notebook(code="x = 14 + 4.5"), 4, setup=True) is None
