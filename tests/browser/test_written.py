"""Issues 50.1 and 51.7: the written answers' pages and a student's feedback page, opened in
Chromium from files as a lecturer (or student) would: no console error, no request, no dialog, no
axe-core violation at the three viewports, nothing wider than a phone; a student's hostile answer is
text. The feedback page of a student with every set starts with a summary of the sets, breaks no
word of its text in the middle (it broke ``passe/d`` at 1280 px) and is less than half as tall on a
phone as it was (24 675 px for this student, measured before the fix)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from conftest import SCREENSHOTS
from dimred_teach.checks import RESERVED_MISTAKES
from dimred_teach.cli import main
from dimred_teach.exercise_specs import SPECS_DIR, load_spec
from dimred_teach.grading.reports import write_report
from dimred_teach.grading.results import SubmissionResult, TestResult, WrittenAnswer
from support import axe_findings_at_viewports

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ('<script>window.pwned = 1</script><img src="http://evil.example/x.png"> =HYPERLINK("http://evil.example") '
           "[a link](http://evil.example) " + "unbroken" * 12 + "\n\n```\n" + "a long line of code " * 8 + "\n```")
MESSAGE = ("B is not the inner-product matrix of the centred points: diag(B)1ᵀ + 1diag(B)ᵀ − 2B differs from D2 by up "
           "to 3.2 (entry (0, 4)).\nhint: centre with H on both sides, then multiply by -1/2\n(graded on seed 1234567)")
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement.closest('code, pre, .math')) continue;  // ids and code may wrap where they must
    for (const match of node.textContent.matchAll(/[A-Za-z]{2,20}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      if ([...range.getClientRects()].filter(rect => rect.width > 0).length > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """The written pages of 30 synthetic submissions of set 04 (model answers, answers of their own,
    blanks, one hostile), and the feedback page of a student with a notebook of every set, half its
    exercises failed, its written answers scored."""
    folder = tmp_path_factory.mktemp("written-pages")
    rng = np.random.default_rng(4)
    parts = load_spec("04_mds")["written"]
    (folder / "reports").mkdir()
    (folder / "ada").mkdir()
    for number in range(30):
        texts = ["" if rng.random() < 0.15 else "**Why.** $\\mathbf H\\mathbf 1 = 0$, so the terms go." if
                 rng.random() < 0.5 else f"My own reading number {number}: *eight* are negative." for _ in parts]
        if number == 7:
            texts = [HOSTILE] * len(parts)
        written = tuple(WrittenAnswer(w["exercise"], w["part"], w["points"], text, not text) for w, text in
                        zip(parts, texts))
        write_report(SubmissionResult(f"class/student {number:02d}/04_mds.ipynb", f"s{number:02d}", "04_mds", (),
                                      "", 1.0, True, "bwrap", written=written), folder / "reports")
    for exercise_set in sorted(path.stem for path in SPECS_DIR.glob("*.json")):
        spec = load_spec(exercise_set)
        tests = []
        for check in spec["checks"]:
            passed = bool(rng.random() < 0.5)
            tests.append(TestResult(check["exercise_id"], check["points"] if passed else 0.0, check["points"], passed,
                                    "[passed]" if passed else MESSAGE, "" if passed else "other",
                                    "" if passed else RESERVED_MISTAKES["other"]))
        written = tuple(
            WrittenAnswer(w["exercise"], w["part"], w["points"], "an answer", False) for w in spec["written"]
        )
        write_report(SubmissionResult(f"class/ada/{exercise_set}.ipynb", f"ada-{exercise_set}", exercise_set,
                                      tuple(tests), "", 1.0, True, "bwrap", written=written), folder / "ada")
    assert main(["written", str(folder / "reports"), "--out", str(folder / "written"), "--root", str(ROOT)]) == 0
    assert main(["written", str(folder / "ada"), "--out", str(folder / "ada-written"), "--root", str(ROOT)]) == 0
    with (folder / "ada-written" / "written-scores.csv").open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    for row in rows:
        row.update(points="1", comment="Good start; say why the constant vector matters.")
    with (folder / "scores.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (folder / "roster.csv").write_text('id,name,folder\nS1,"Lovelace, Ada",ada\n', encoding="utf-8")
    assert main(["gradebook", str(folder / "ada"), "--roster", str(folder / "roster.csv"), "--written",
                 str(folder / "scores.csv"), "--out", str(folder / "book"), "--root", str(ROOT)]) == 0
    assert main(["gradebook", str(folder / "ada"), "--roster", str(folder / "roster.csv"), "--out",
                 str(folder / "book-checked"), "--root", str(ROOT)]) == 0  # as measured before the fix: no --written
    return {"index": folder / "written" / "index.html", "exercise": folder / "written" / "04.recover_b.html",
            "feedback": folder / "book" / "feedback" / "S1.html",
            "feedback without written": folder / "book-checked" / "feedback" / "S1.html"}


def _open(page, path: Path) -> list[str]:
    """Open ``path``; returns what went wrong: console errors, requests off the file, dialogs."""
    trouble = []
    page.on("console", lambda message: trouble.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: trouble.append(str(error)))
    page.on("request", lambda request: None if request.url.startswith("file://") else trouble.append(request.url))
    page.on("dialog", lambda dialog: (trouble.append(f"dialog {dialog.message}"), dialog.dismiss()))
    page.goto(path.as_uri())
    return trouble


@pytest.mark.parametrize("name", ["index", "exercise", "feedback"])
def test_each_page_opens_offline_and_passes_axe_at_every_viewport(page, pages, name):
    assert _open(page, pages[name]) == []
    assert axe_findings_at_viewports(page, name) == {}
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert page.evaluate(OVERFLOW) <= 0, f"{name} is wider than a 390 px phone"


def test_a_hostile_answer_is_text_on_the_page(page, pages):
    assert _open(page, pages["exercise"]) == []
    page.set_viewport_size({"width": 1280, "height": 800})
    hostile = page.locator(".group", has_text="window.pwned")
    assert hostile.count() == 1 and hostile.get_by_text('<script>window.pwned = 1</script><img src=').is_visible()
    assert page.locator("script, img, a[href^='http'], main h1 ~ h1").count() == 0
    assert page.evaluate("window.pwned") is None
    assert page.get_by_role("heading", name="Rubric").first.is_visible()
    assert page.get_by_role("heading", name="Model answer").first.is_visible()
    groups = page.locator(".groups").first.locator(":scope > li")
    sizes = [groups.nth(i).locator("h4").inner_text() for i in range(groups.count())]
    assert sizes[-1].startswith("Blank: ")  # the blanks last, the largest group of identical answers first
    assert sizes[0].endswith("identical answers")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "written-answers.png"))
    hostile.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "written-answers-hostile.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(SCREENSHOTS / "written-answers-phone.png"))


def test_the_feedback_page_starts_with_each_sets_points_and_breaks_no_word(page, pages):
    assert _open(page, pages["feedback"]) == []
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(BROKEN_WORDS) == [], f"words broken in the middle at {width} px"
        summary = page.locator("table.summary")
        assert summary.locator("tbody tr").count() == len(list(SPECS_DIR.glob("*.json")))
        assert summary.bounding_box()["y"] < height  # the summary starts on the first screen
        page.screenshot(path=str(SCREENSHOTS / f"feedback-{width}.png"))
    assert page.locator("h3", has_text="Written answers").count() == len(list(SPECS_DIR.glob("*.json")))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("table.summary a").nth(3).click()  # a set's name leads to its section
    assert page.locator("#set-04").bounding_box()["y"] < 100
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(pages["feedback without written"].as_uri())
    tall = page.evaluate("document.documentElement.scrollHeight")
    assert tall < 24675 / 2, f"the feedback page is {tall} px tall on a phone"
