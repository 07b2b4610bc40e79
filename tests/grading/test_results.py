"""Issue 49: one validating model reads every report back (the watchdog, the merge of shards,
``regrade`` and the class report all call :func:`read_report`). A report written by the grader
reads back to the very result it was written from; a file changed by hand, or any document that
is not such a report, is refused with a ReportError naming the field, never a KeyError or a
crash, and never half read."""

from __future__ import annotations

import json

import pytest

from dimred_teach.grading.reports import write_report
from dimred_teach.grading.results import (
    MAX_REPORT_BYTES,
    RegradeRecord,
    ReportError,
    SubmissionResult,
    TestResult,
    WrittenAnswer,
    read_report,
)

RESULT = SubmissionResult(
    "my-work/ann/04_mds.ipynb", "ann", "04_mds",
    (TestResult("04.recover_b", 2.0, 2.0, True, "ok"),
     TestResult("04.align", 0.0, 1.5, False, "the rotation is missing\nhint: ...", "no-rotation", "forgot to rotate")),
    "ran in 3 s", 3.25, True, "bwrap", "2 GiB, 60 s", False, True,
    (WrittenAnswer("04.recover_b", 1, 3.0, "<b>because</b> =1+1", False),), "ab" * 32,
    RegradeRecord("/course", {"sandbox": "bwrap", "jobs": 2}))


def written(tmp_path, document) -> object:
    path = tmp_path / "report.json"
    path.write_text(json.dumps(document))
    return path


def test_a_report_reads_back_to_the_result_it_was_written_from(tmp_path):
    write_report(RESULT, tmp_path)
    back = read_report(tmp_path / "ann.json")
    assert back == RESULT.__class__(**{**RESULT.__dict__, "execution_time": 3.2})  # the report rounds to 0.1 s
    assert read_report(tmp_path / "ann.json", "another name").report_name == "another name"
    skipped = SubmissionResult("lecture.ipynb", "lecture", None, (), "not an exercise notebook", 0.0, False,
                               skipped=True)
    write_report(skipped, tmp_path)
    assert read_report(tmp_path / "lecture.json") == skipped


def _document() -> dict:
    return RESULT.to_gradescope()


CHANGES = {
    "the report is a list": (lambda d: [d], "no extra_data and tests"),
    "tests is an object": (lambda d: {**d, "tests": {}}, "no extra_data and tests"),
    "a test is a number": (lambda d: {**d, "tests": [1]}, "test 0 is not an object"),
    "a status is neither": (lambda d: {**d, "tests": [{**d["tests"][0], "status": "ok"}]}, "test 0 is not an object"),
    "a name is a number": (lambda d: {**d, "tests": [{**d["tests"][0], "name": 4}]}, "test 0's name is not text"),
    "a score is true": (lambda d: {**d, "tests": [{**d["tests"][0], "score": True}]}, "a score is not a number"),
    "a score is NaN": (lambda d: {**d, "tests": [{**d["tests"][0], "score": float("nan")}]}, "a score is not"),
    "a score is negative": (lambda d: {**d, "tests": [{**d["tests"][0], "score": -1}]}, "a score is not"),
    "a max_score is huge": (lambda d: {**d, "tests": [{**d["tests"][0], "max_score": 1e300}]}, "a max_score is not"),
    "a mistake is a list": (lambda d: {**d, "tests": [{**d["tests"][1], "extra_data": {"mistake": ["x"]}}]},
                            "test 0's mistake is not text"),
    "a test's extra_data is text": (lambda d: {**d, "tests": [{**d["tests"][0], "extra_data": "x"}]},
                                    "test 0's extra_data is not an object"),
    "the submission is missing": (lambda d: {**d, "extra_data": {**d["extra_data"], "submission": None}},
                                  "the submission's name is not text"),
    "the set is a number": (lambda d: {**d, "extra_data": {**d["extra_data"], "exercise_set": 4}},
                            "the exercise set is not text"),
    "graded is a string": (lambda d: {**d, "extra_data": {**d["extra_data"], "graded": "yes"}}, "graded is not true"),
    "the output is missing": (lambda d: {k: v for k, v in d.items() if k != "output"}, "the report's output"),
    "the time is infinite": (lambda d: {**d, "execution_time": float("inf")}, "the execution time is not"),
    "a written answer is text": (lambda d: {**d, "extra_data": {**d["extra_data"], "written": "x"}},
                                 "written answers are not a list"),
    "the regrade record has no options": (lambda d: {**d, "extra_data": {**d["extra_data"], "regrade": {"cwd": "/"}}},
                                          "regrade record is not an object with options"),
    "the digest is a number": (
        lambda d: {**d, "extra_data": {**d["extra_data"], "regrade": {**d["extra_data"]["regrade"],
                                                                      "notebook_sha256": 5}}},
        "the notebook's digest is not text"),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_changed_report_is_refused_naming_the_field(tmp_path, change):
    alter, message = CHANGES[change]
    with pytest.raises(ReportError, match=message):
        read_report(written(tmp_path, alter(_document())))


def test_what_is_not_a_report_file_is_refused_before_it_is_read_whole(tmp_path):
    for name, content in {"text.json": b"{ not json", "latin.json": b'{"a": "\xe9"}',
                          "deep.json": b"[" * 200_000 + b"]" * 200_000}.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(ReportError):
            read_report(tmp_path / name)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(MAX_REPORT_BYTES + 1)  # sparse: larger than a report, never read
    with pytest.raises(ReportError, match="larger than 16 MiB"):
        read_report(huge)
    with pytest.raises(ReportError, match="No such file"):
        read_report(tmp_path / "gone.json")
