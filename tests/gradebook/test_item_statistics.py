"""Issue 50.2: the class report's item statistics (items.csv, sets.csv, the exercises to look at),
against a table computed by hand and against scipy's Pearson correlation and Cronbach's alpha
computed from its sample-variance definition, both from the report files themselves."""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import pandas as pd
import pytest
from scipy import stats

from class_reports import write_synthetic_reports
from dimred_teach.cli import main
from dimred_teach.gradebook.item_statistics import DIGITS
from dimred_teach.grading.reports import write_report
from dimred_teach.grading.results import SubmissionResult, TestResult

ROOT = Path(__file__).resolve().parents[2]


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


MAX_POINTS = {check["exercise_id"]: float(check["points"])
              for path in sorted((ROOT / "dimred_teach" / "exercise_specs").glob("*.json"))
              for check in json.loads(path.read_text())["checks"]}
"""Every exercise's points, from the grading specs."""

HAND = {  # set 04's points of four submissions; (points, mistake) with "" for a pass
    "04.recover_b": [(2, ""), (2, ""), (0, "missing-half"), (0, "no-answer")],  # of 2
    "04.classical_mds": [(3, ""), (0, "smallest-eigenpairs"), (3, ""), (0, "no-answer")],  # of 3
    "04.align": [(2, ""), (2, ""), (0, "with-scaling"), (0, "with-scaling")],  # of 2
    "04.eurodist_spectrum": [(1, "")] * 4,  # of 1: everyone
    "04.is_euclidean": [(0, "says-euclidean")] * 4,  # of 2: no one
}
MAX = {"04.recover_b": 2, "04.classical_mds": 3, "04.align": 2, "04.eurodist_spectrum": 1, "04.is_euclidean": 2}
# By hand: totals (8, 5, 4, 1). recover_b: x = (2, 2, 0, 0), rest = (6, 3, 4, 1), deviations (1, 1, -1, -1) and
# (2.5, -0.5, 0.5, -2.5): r = 4 / sqrt(4 * 13) = 0.5547; align alike. classical_mds: x = (3, 0, 3, 0), rest =
# (5, 5, 1, 1): r = 0. alpha = 5/4 (1 - (1 + 2.25 + 1 + 0 + 0) / 6.25) = 0.4.
HAND_ITEMS = [
    {
        "exercise": "04.recover_b",
        "submissions": "4",
        "attempted": "3",
        "facility": "0.5000",
        "discrimination": "0.5547",
    },
    {
        "exercise": "04.classical_mds",
        "submissions": "4",
        "attempted": "3",
        "facility": "0.5000",
        "discrimination": "0.0000",
    },
    {"exercise": "04.align", "submissions": "4", "attempted": "4", "facility": "0.5000", "discrimination": "0.5547"},
    {
        "exercise": "04.eurodist_spectrum",
        "submissions": "4",
        "attempted": "4",
        "facility": "1.0000",
        "discrimination": "",
    },
    {"exercise": "04.is_euclidean", "submissions": "4", "attempted": "4", "facility": "0.0000", "discrimination": ""},
    # set 06: every total is 1, so the rest is 1 - x: r = -1, and no alpha
    {"exercise": "06.min_dim", "submissions": "3", "attempted": "3", "facility": "0.6667", "discrimination": "-1.0000"},
    {
        "exercise": "06.epsilon_for",
        "submissions": "3",
        "attempted": "3",
        "facility": "0.3333",
        "discrimination": "-1.0000",
    },
]
HAND_SETS = [{"set": "04_mds", "submissions": "4", "alpha": "0.4000"},
             {"set": "06_random_projections", "submissions": "3", "alpha": ""}]


def write_hand_class(reports: Path) -> None:
    """The four submissions of :data:`HAND`, and three of set 06 whose totals are all equal."""
    reports.mkdir()
    for student in range(4):
        tests = tuple(TestResult(exercise, float(outcomes[student][0]), float(MAX[exercise]), not outcomes[student][1],
                                 "the check's message", outcomes[student][1]) for exercise, outcomes in HAND.items())
        write_report(SubmissionResult(f"s{student}/04_mds.ipynb", f"s{student}-04", "04_mds", tests, "", 1.0, True),
                     reports)
    for student, passed in enumerate(["06.min_dim", "06.epsilon_for", "06.min_dim"]):
        tests = tuple(
            TestResult(
                exercise, float(exercise == passed), 1.0, exercise == passed, "m", "" if exercise == passed else "other"
            )
            for exercise in ("06.min_dim", "06.epsilon_for")
        )
        write_report(SubmissionResult(f"s{student}/06.ipynb", f"s{student}-06", "06_random_projections", tests, "",
                                      1.0, True), reports)


def test_items_and_sets_equal_a_table_computed_by_hand(tmp_path):
    write_hand_class(tmp_path / "reports")
    assert main(["class-report", str(tmp_path / "reports"), "--out", str(tmp_path / "out"), "--root", str(ROOT)]) == 0
    assert read_csv(tmp_path / "out" / "items.csv") == HAND_ITEMS
    assert read_csv(tmp_path / "out" / "sets.csv") == HAND_SETS


def test_the_page_flags_what_to_look_at_with_a_sentence_each(tmp_path):
    write_hand_class(tmp_path / "reports")
    assert main(["class-report", str(tmp_path / "reports"), "--out", str(tmp_path / "out"), "--root", str(ROOT)]) == 0
    page = (tmp_path / "out" / "index.html").read_text()
    look = page.split('id="look-title"', 1)[1].split("</section>", 1)[0]
    flagged = {line.split("<code>", 1)[1].split("</code>", 1)[0]: line for line in look.splitlines() if "<li>" in line}
    # poor discrimination (0 and -1 < 0.2), everyone, no one
    assert sorted(flagged) == ["04.classical_mds", "04.eurodist_spectrum", "04.is_euclidean", "06.epsilon_for",
                               "06.min_dim"]
    assert "did worse on it (item-rest correlation -1.00)" in flagged["06.min_dim"]
    assert "did no better on it (item-rest correlation 0.00)" in flagged["04.classical_mds"]
    assert "Almost everyone scores on it (facility 1.00)" in flagged["04.eurodist_spectrum"]
    assert "Almost no one scores on it (facility 0.00)" in flagged["04.is_euclidean"]
    assert "Cronbach's alpha over its 5 exercises: 0.40" in " ".join(page.split())


def report_points(reports: Path) -> dict[str, pd.DataFrame]:
    """Each set's points, one row per report and one column per exercise, read from the JSON
    files directly (not through the class report's reader)."""
    rows: dict[str, list[dict]] = defaultdict(list)
    for path in sorted(reports.glob("*.json")):
        data = json.loads(path.read_text())
        rows[data["extra_data"]["exercise_set"]].append({test["name"]: test["score"] for test in data["tests"]})
    return {exercise_set: pd.DataFrame(table) for exercise_set, table in rows.items()}


def test_items_and_sets_equal_scipy_and_the_definition_of_alpha(tmp_path):
    write_synthetic_reports(tmp_path / "reports", 400, seed=11)
    assert main(["class-report", str(tmp_path / "reports"), "--out", str(tmp_path / "out"), "--root", str(ROOT)]) == 0
    items = {row["exercise"]: row for row in read_csv(tmp_path / "out" / "items.csv")}
    sets = {row["set"]: row for row in read_csv(tmp_path / "out" / "sets.csv")}
    precision = 0.5 * 10.0**-DIGITS + 1e-12  # both sides rounded to DIGITS decimals
    tables = report_points(tmp_path / "reports")
    assert set(sets) == set(tables) and len(items) == sum(table.shape[1] for table in tables.values())
    for exercise_set, points in tables.items():
        total = points.sum(axis=1)
        for exercise in points:
            row = items[exercise]
            assert int(row["submissions"]) == len(points)
            facility = (points[exercise] / MAX_POINTS[exercise]).mean()
            assert float(row["facility"]) == pytest.approx(facility, abs=precision)
            r = stats.pearsonr(points[exercise], total - points[exercise]).statistic
            assert float(row["discrimination"]) == pytest.approx(r, abs=precision), exercise
        k = points.shape[1]
        alpha = k / (k - 1) * (1 - points.var(ddof=1).sum() / total.var(ddof=1))
        assert float(sets[exercise_set]["alpha"]) == pytest.approx(alpha, abs=precision), exercise_set
        assert int(sets[exercise_set]["submissions"]) == len(points)

