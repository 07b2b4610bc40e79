"""The reports of a grading run: ``<name>.json`` per submission (Gradescope's format),
``junit.xml``, ``summary.md`` and the optional CSV gradebook.

Everything a student controls (file names, messages) is escaped for the format it lands
in, report names are unique and safe file names, and nothing is written outside ``out_dir``.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from .._csv_cells import csv_cell
from .results import SubmissionResult, clip, points_label
from .sandbox import GUARANTEES
from .sandbox_modes import named

MAX_NAME = 100
"""Longest report name (characters, all ASCII) before a hash replaces the rest."""


def _short_hash(path: Path) -> str:
    return hashlib.sha256(os.fsencode(path)).hexdigest()[:10]


def _safe_name(name: str, path: Path) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".") or "notebook"
    return name if len(name) <= MAX_NAME else f"{name[:MAX_NAME - 11]}-{_short_hash(path)}"


def report_names(paths: Sequence[Path]) -> list[str]:
    """A unique, safe file name (no suffix) for each submission's report.

    ``stem``, or ``parent__stem`` (deeper if needed) when stems collide; only ASCII letters,
    digits, ``_``, ``.``, ``-``; at most :data:`MAX_NAME` characters; names that still
    collide after this (``bob smith/`` and ``bob_smith/``) get a hash of the full path.
    """
    resolved = [Path(os.path.abspath(p)) for p in paths]
    for depth in range(1, 51):
        names = ["__".join(p.with_suffix("").parts[-depth:]) for p in resolved]
        if len(set(names)) == len(names):
            break
    names = [_safe_name(name, path) for name, path in zip(names, resolved)]
    counts = {name: names.count(name) for name in names}
    names = [f"{name[:MAX_NAME - 11]}-{_short_hash(path)}" if counts[name] > 1 else name
             for name, path in zip(names, resolved)]
    seen: set[str] = set()
    for position, name in enumerate(names):  # the same path twice
        unique, number = name, 1
        while unique in seen:
            number += 1
            unique = f"{name}-{number}"
        seen.add(unique)
        names[position] = unique
    return names


def report_path(out_dir: Path, name: str) -> Path:
    """Where a report goes: always directly inside ``out_dir``."""
    path = Path(out_dir) / f"{name}.json"
    if not re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*", name) or path.parent != Path(out_dir):
        raise ValueError(f"{name!r} is not a safe report name")
    return path


def report_text(result: SubmissionResult) -> str:
    """One submission's report in Gradescope's format, stating which of the sandbox's
    guarantees held for its kernel (``extra_data.guarantees``)."""
    report = result.to_gradescope()
    mode = named(result.sandbox)
    if mode is not None:
        report["extra_data"]["guarantees"] = mode.guarantees(result.exercise_set, result.accepted_readable)
    return json.dumps(report, indent=1) + "\n"


def write_report(result: SubmissionResult, out_dir: Path) -> None:
    """``<name>.json``: one submission's report (:func:`report_text`)."""
    report_path(out_dir, result.report_name).write_text(report_text(result))


_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _XML_ILLEGAL.sub("?", str(text))


def junit(results: Sequence[SubmissionResult]) -> str:
    """The run as JUnit XML: one suite per submission, one case per exercise."""
    suites = ET.Element("testsuites", name="dimred-teach grade")
    for result in results:
        failures = sum(not t.passed for t in result.tests) + (0 if result.graded else 1)
        suite = ET.SubElement(suites, "testsuite", name=_xml_text(result.report_name),
                              tests=str(len(result.tests) + 1), failures=str(failures), errors="0",
                              time=f"{result.execution_time:.2f}")
        whole = ET.SubElement(suite, "testcase", classname=_xml_text(result.report_name), name="notebook runs")
        if not result.graded:
            ET.SubElement(whole, "failure", message="not graded").text = _xml_text(result.output)
        elif result.output:
            ET.SubElement(whole, "system-out").text = _xml_text(result.output)
        for test in result.tests:
            case = ET.SubElement(suite, "testcase", classname=_xml_text(result.report_name),
                                 name=_xml_text(f"{test.name} ({points_label(test.max_score)})"))
            if not test.passed:
                ET.SubElement(case, "failure", message=_xml_text(test.output.split("\n")[0][:200])).text = _xml_text(
                    test.output
                )
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


_MARKUP = re.compile(r"[\\`*\[\]()<>|&#~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|(?<=:)(?=//)|(?<=www)(?=\.)")
"""What Markdown or HTML could read as syntax in student text: emphasis, code, links and
images, tables, tags, entities, headings, strike-through, and the starts of bare links
(``://``, ``www.``); an underscore inside a word is plain text already."""


def markdown_text(text, limit: int = 300) -> str:
    """Student-controlled text as literal text in Markdown (a table cell, a quote): one line,
    and every character that could be Markdown or HTML syntax backslash-escaped, so the text
    reads as itself in a terminal (``my-work/01_pca.ipynb`` stays as it is) and renders as
    itself, never as a link, image, tag or table."""
    text = clip(str(text).replace("\r", " ").replace("\n", " "), limit)
    text = _XML_ILLEGAL.sub("?", text)
    return _MARKUP.sub(lambda match: "\\" + match.group() if match.group() else "\\", text)


def summary(results: Sequence[SubmissionResult], pass_fraction: float) -> str:
    """``summary.md``: a table of scores, then each submission's exercises."""
    counted = [r for r in results if not r.skipped]
    lines = [
        "## dimred-teach grade",
        "",
        f"{sum(r.passes(pass_fraction) for r in counted)} of {len(counted)} submission(s) reach "
        f"{pass_fraction:.0%} of the points."
        + (
            f" {len(results) - len(counted)} notebook(s) skipped: not exercise notebooks."
            if len(counted) < len(results)
            else ""
        ),
    ]
    kinds = sorted({(r.sandbox, r.exercise_set or "", r.accepted_readable) for r in results if r.sandbox})
    for sandbox in sorted({kind[0] for kind in kinds}):
        mode = named(sandbox)
        lines.append(f"Kernels were {mode.description}." if mode else "")
        not_held = {(name, why) for kind in kinds if kind[0] == sandbox and mode
                    for name, why in mode.guarantees(*kind[1:]).items() if why.startswith("not held")}
        lines += [f"Not guaranteed ({sandbox}): {name}: {why.removeprefix('not held: ')}."
                  for name, why in sorted(not_held, key=lambda line: (GUARANTEES.index(line[0]), line[1]))]
    for limits in sorted({r.limits for r in results if r.limits}):
        lines.append(f"Limits of each kernel: {markdown_text(limits)}.")
    lines += ["", "| submission | exercise set | score | result |", "| --- | --- | --- | --- |"]
    for r in results:
        verdict = ("skipped" if r.skipped else "pass" if r.passes(pass_fraction)
                   else "fail" if r.graded else "not graded")
        lines.append(f"| {markdown_text(r.submission, 120)} | {markdown_text(r.exercise_set or '?')} | "
                     f"{r.score:g} / {r.max_score:g} | {verdict} |")
    for r in results:
        lines += ["", f"### {markdown_text(r.submission, 120)}", ""]
        if r.output:
            lines += [f"> {markdown_text(line, 400)}" for line in r.output.split("\n")[:20]] + [""]
        if r.tests:
            lines += ["| exercise | points | result |", "| --- | --- | --- |"]
            lines += [f"| {markdown_text(t.name)} | {t.score:g} / {t.max_score:g} | "
                      f"{'passed' if t.passed else markdown_text(_not_yet(t), 400)} |" for t in r.tests]
    return "\n".join(lines) + "\n"


def _not_yet(test) -> str:
    """A failed exercise in the summary: its mistake id, when it has one, and the message."""
    return f"not yet ({test.mistake}): {test.output}" if test.mistake else f"not yet: {test.output}"


def write_gradebook(results: Sequence[SubmissionResult], path: Path, pass_fraction: float) -> None:
    """One CSV row per submission: totals, pass/fail, the points of every exercise, then the
    mistake id of every exercise (empty when it passed)."""
    exercises = sorted({t.name for r in results for t in r.tests})
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8", errors="replace") as file:
        writer = csv.writer(file)
        writer.writerow(["submission", "exercise_set", "score", "max_score", "fraction", "passed", "graded", "sandbox"]
                        + [csv_cell(e) for e in exercises] + [csv_cell(f"{e} mistake") for e in exercises])
        for r in sorted(results, key=lambda r: r.submission):
            points = {t.name: f"{t.score:g}" for t in r.tests}
            mistakes = {t.name: t.mistake for t in r.tests}
            fraction = f"{r.score / r.max_score:.4f}" if r.max_score else ""
            writer.writerow(
                [
                    csv_cell(r.submission),
                    csv_cell(r.exercise_set or ""),
                    f"{r.score:g}",
                    f"{r.max_score:g}",
                    fraction,
                    r.passes(pass_fraction),
                    r.graded,
                    r.sandbox,
                ]
                + [points.get(e, "") for e in exercises]
                + [csv_cell(mistakes.get(e, "")) for e in exercises]
            )


def write_reports(results: Sequence[SubmissionResult], out_dir: Path, pass_fraction: float,
                  gradebook: Path | None = None) -> None:
    """``<name>.json`` (Gradescope format) per submission, ``junit.xml``, ``summary.md``,
    and the gradebook when asked."""
    for result in results:
        write_report(result, out_dir)
    write_run_files(results, out_dir, pass_fraction, gradebook)


def write_run_files(results: Sequence[SubmissionResult], out_dir: Path, pass_fraction: float,
                    gradebook: Path | None = None) -> None:
    """What a run writes besides the reports: ``junit.xml``, ``summary.md`` and the gradebook."""
    out_dir = Path(out_dir)
    (out_dir / "junit.xml").write_text(junit(results), encoding="utf-8")
    (out_dir / "summary.md").write_text(summary(results, pass_fraction), encoding="utf-8", errors="replace")
    if gradebook is not None:
        write_gradebook(results, gradebook, pass_fraction)
