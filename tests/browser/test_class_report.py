"""Issue 24: the class report's page, opened in Chromium as a lecturer would, from a file:
no console error, no request off the machine, every figure described, no axe-core violation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from class_reports import write_synthetic_reports
from support import axe_violations

from dimred_teach.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def report_page(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("class-report")
    write_synthetic_reports(folder / "reports", 60, seed=6, message="B is -2 times the right matrix <b>&</b>")
    assert main(["class-report", str(folder / "reports"), "--out", str(folder / "report"), "--root", str(ROOT)]) == 0
    return folder / "report" / "index.html"


def test_the_page_opens_offline_with_every_figure_described(page, report_page):
    errors, requests = [], []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(report_page.as_uri())
    assert page.get_by_role("heading", name="What the class got wrong").is_visible()
    assert errors == []
    assert [url for url in requests if not url.startswith(("file://", "data:"))] == []
    images = page.locator("img")
    assert images.count() >= 24  # per set: the scores and the pass rates; per exercise with mistakes: its chart
    for index in range(images.count()):
        image = images.nth(index)
        alt = image.get_attribute("alt") or ""
        assert len(alt) > 60 and not re.search(r"\.(png|svg|jpe?g)\b|^data:|/", alt.split(":")[0]), alt
        assert image.evaluate("img => img.complete && img.naturalWidth > 0")
    chart = page.locator("section[aria-labelledby^='exercise-'] img").first
    assert "most frequent first" in chart.get_attribute("alt")
    assert "student" not in page.content()  # numbered nowhere, named nowhere: the page can be shown in class


def test_the_page_has_no_accessibility_violation(page, report_page):
    page.goto(report_page.as_uri())
    violations = axe_violations(page)
    assert [(v["id"], v["impact"], len(v["nodes"])) for v in violations] == []
