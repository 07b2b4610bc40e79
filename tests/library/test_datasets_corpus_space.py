"""The LSI space of the course corpus in data/corpus_lsi.json: what ``lsi.lsi`` computes, to
the precision the build states, and the build writes and verifies it (numbers compared at that
precision, never bytes)."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from dimred_teach import cli, datasets, lsi
from dimred_teach.course import derived_data
from dimred_teach.course.derived_data import CORPUS_SPACE, PRECISION

SHIPPED = Path(str(datasets.data_path(datasets.CORPUS_SPACE_FILE)))


def test_the_shipped_space_is_what_lsi_computes():
    shipped = datasets.load_corpus_space()
    texts = datasets.load_corpus()["text"]
    computed = lsi.lsi(texts, k=CORPUS_SPACE["k"], stop_words=CORPUS_SPACE["stop_words"])
    assert isinstance(shipped, lsi.LSIResult) and shipped.mean is None
    assert shipped.vocabulary == computed.vocabulary and shipped.stop_words == computed.stop_words == lsi.STOP_WORDS
    assert shipped.document_coordinates.shape == (174, 10) and shipped.term_coordinates.shape == (947, 10)
    for field in ("document_coordinates", "term_coordinates", "singular_values", "idf"):
        np.testing.assert_allclose(getattr(shipped, field), getattr(computed, field), rtol=0, atol=PRECISION)
        assert not getattr(shipped, field).flags.writeable
    assert abs(shipped.matrix - computed.matrix).max() <= PRECISION
    assert shipped.total_sum_of_squares == pytest.approx(computed.total_sum_of_squares, abs=PRECISION)
    # a whole LSIResult: training documents fold in to their own rows
    np.testing.assert_allclose(shipped.transform(texts[:5]), shipped.document_coordinates[:5], atol=1e-12)


def _course_with_data(tmp_path):
    shutil.copytree(SHIPPED.parent, tmp_path / "data", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path, tmp_path / "data" / datasets.CORPUS_SPACE_FILE


def _edit(path, change):
    stored = json.loads(path.read_text())
    change(stored)
    path.write_text(json.dumps(stored))


def test_differences_below_the_precision_are_no_problem_and_are_not_rewritten(tmp_path):
    root, path = _course_with_data(tmp_path)
    assert derived_data.derived_data_problems(root) == []
    _edit(path, lambda stored: stored["term_coordinates"][3].__setitem__(2, stored["term_coordinates"][3][2]
                                                                          + PRECISION / 4))
    edited = path.read_text()
    assert derived_data.derived_data_problems(root) == []
    assert derived_data.write_derived_data(root) == [] and path.read_text() == edited


@pytest.mark.parametrize("change, field", [
    (lambda stored: stored["term_coordinates"][3].__setitem__(2, stored["term_coordinates"][3][2] + 4 * PRECISION),
     "term_coordinates"),
    (lambda stored: stored["document_coordinates"][0].__setitem__(0, -stored["document_coordinates"][0][0]),
     "document_coordinates"),
    (lambda stored: stored["vocabulary"].__setitem__(0, "aardvark"), "vocabulary"),
    (lambda stored: stored["matrix"][5][0].pop(), "matrix"),
    (lambda stored: stored.pop("idf"), "idf"),
])
def test_build_check_finds_a_changed_number_and_build_writes_it_again(tmp_path, capsys, change, field):
    root, path = _course_with_data(tmp_path)
    _edit(path, change)
    problems = derived_data.derived_data_problems(root)
    assert len(problems) == 1 and field in problems[0] and "run `dimred-teach build`" in problems[0]
    assert derived_data.write_derived_data(root) == [path]
    assert derived_data.derived_data_problems(root) == []
    assert derived_data.differences(path.read_text(), SHIPPED.read_text()) == []


def test_a_missing_file_is_reported_and_written(tmp_path):
    root, path = _course_with_data(tmp_path)
    path.unlink()
    assert derived_data.derived_data_problems(root) == [f"{path} is missing: run `dimred-teach build`"]
    path.write_text("not JSON")
    assert "differs" in derived_data.derived_data_problems(root)[0]
    assert derived_data.write_derived_data(root) == [path] and derived_data.derived_data_problems(root) == []


def test_a_course_without_a_data_folder_derives_nothing(tmp_path):
    assert derived_data.derived_data_problems(tmp_path) == [] and derived_data.write_derived_data(tmp_path) == []
    assert not (tmp_path / "data").exists()


def test_build_check_reports_a_stale_space(tmp_path, capsys):
    root = Path(__file__).resolve().parents[2]
    course = tmp_path / "course"
    for folder in ("solutions", "exercises", "notebooks"):
        shutil.copytree(root / folder, course / folder)
    for name in ("START_HERE.md", "course.toml"):
        shutil.copyfile(root / name, course / name)
    _, path = _course_with_data(course)
    _edit(path, lambda stored: stored["singular_values"].__setitem__(0, 3.0))
    assert cli.main(["build", "--check", "--root", str(course)]) == 1
    assert f"{path} differs from a fresh lsi.lsi by more than 1e-09 in singular_values" in capsys.readouterr().out
