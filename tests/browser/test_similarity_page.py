"""Issue 50.3: the page of ``dimred-teach similarity`` opened in Chromium from a file: no
console error, no request off the machine, no script of a student's running; the first pair
(the disguised copy and its original) side by side with the matching lines marked; nothing
overflows a 390 px phone; no axe-core violation at the three viewports."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from conftest import SCREENSHOTS
from dimred_teach.cli import main
from similar_class import HONEST, exercise_notebook, write_class
from support import axe_findings_at_viewports

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<script>alert('code')</script>"


@pytest.fixture(scope="module")
def similarity_page(tmp_path_factory) -> Path:
    """The class of tests/similar_class.py, and a student whose folder name and code are hostile."""
    folder = tmp_path_factory.mktemp("similarity-page")
    write_class(folder)
    hostile = folder / "section-a" / "<img src=x onerror=alert(1)>"
    hostile.mkdir()
    nbformat.write(exercise_notebook(f"x = {HOSTILE!r}\n" + HONEST["svd"]), hostile / "04_mds.ipynb")
    assert main(["similarity", str(folder / "section-a"), str(folder / "section-b"), "--out", str(folder / "out"),
                 "--root", str(ROOT)]) == 0
    return folder / "out" / "index.html"


def test_the_page_opens_offline_and_runs_nothing_a_student_wrote(page, similarity_page):
    errors, requests, dialogs = [], [], []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(similarity_page.as_uri())
    assert page.get_by_role("heading", name="Similar answers", exact=True).is_visible()
    assert errors == [] and dialogs == [] and page.locator("script, img").count() == 0
    assert [url for url in requests if not url.startswith(("file://", "data:"))] == []
    assert any(HOSTILE in text for text in page.locator("pre").all_inner_texts())  # shown, as text
    assert any("<img src=x onerror=alert(1)>" in text for text in page.locator("figcaption").all_inner_texts())


def test_the_first_pair_is_the_copy_side_by_side_with_its_matches_marked(page, similarity_page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(similarity_page.as_uri())
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "similarity-first-screen.png"))
    first = page.locator("section.pair").first
    heading = first.locator("h3").inner_text()
    assert "04.classical_mds" in heading and "similarity 1.00" in heading and "z = " in heading
    captions = first.locator("figcaption").all_inner_texts()
    assert [Path(caption).parent.name for caption in captions] == ["ana", "bo"]
    sides = first.locator("figure").all()
    left, right = sides[0].bounding_box(), sides[1].bounding_box()
    assert abs(left["y"] - right["y"]) < 2 and left["x"] + left["width"] <= right["x"]  # side by side
    marked = first.locator("mark")
    assert marked.count() >= 12
    assert marked.first.evaluate("e => getComputedStyle(e).backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")
    box = first.bounding_box()
    assert box["y"] < 800  # the first pair starts on the first screen
    copies = page.locator("table.copies tbody tr")
    assert copies.count() == 1 and "dimred_teach/mds.py: classical_mds" in copies.first.inner_text()


def test_nothing_overflows_a_phone(page, similarity_page):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(similarity_page.as_uri())
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than a 390 px phone"
    sides = page.locator("section.pair").first.locator("figure").all()
    assert sides[0].bounding_box()["y"] + sides[0].bounding_box()["height"] <= sides[1].bounding_box()["y"]  # stacked
    page.screenshot(path=str(SCREENSHOTS / "similarity-phone.png"))


def test_the_page_has_no_accessibility_violation(page, similarity_page):
    page.goto(similarity_page.as_uri())
    assert axe_findings_at_viewports(page, "similarity") == {}
