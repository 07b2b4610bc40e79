"""Issues 24 and 41: the class report's page, opened in Chromium as a lecturer would, from a
file: no console error, no request off the machine, no axe-core violation; read in 30 seconds:
the first screen shows the class's most common mistakes, the sets at a glance come next,
labels are at least 11 px, nothing overflows a 390 px phone, and printing opens every set."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from class_reports import write_synthetic_reports
from conftest import SCREENSHOTS
from dimred_teach.cli import main
from dimred_teach.exercise_specs import SPECS_DIR
from support import axe_findings_at_viewports

SETS = len(list(SPECS_DIR.glob("*.json")))
"""The course's exercise sets: one overview row and one collapsed section each."""

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://course.example.org/dimred/"


@pytest.fixture(scope="module")
def report_page(tmp_path_factory) -> Path:
    """The class report of 120 synthetic notebooks of every set (outcomes drawn from the
    sets' real exercises and mutants' mistakes), with the site's address for the links."""
    folder = tmp_path_factory.mktemp("class-report")
    write_synthetic_reports(folder / "reports", 120, seed=6, message="B is -2 times the right matrix <b>&</b>")
    assert main(["class-report", str(folder / "reports"), "--out", str(folder / "report"), "--root", str(ROOT),
                 "--site-url", SITE]) == 0
    return folder / "report" / "index.html"


def test_the_page_opens_offline_without_an_error(page, report_page):
    errors, requests = [], []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(report_page.as_uri())
    assert page.get_by_role("heading", name="What the class got wrong").is_visible()
    assert errors == []
    assert [url for url in requests if not url.startswith(("file://", "data:"))] == []
    # numbered nowhere, named nowhere (no table of students): the page can be shown in class
    assert page.locator("table.students, #students").count() == 0 and "student 1" not in page.content().lower()


def test_the_first_screen_shows_the_most_common_mistakes_with_where_to_revisit(page, report_page):
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(report_page.as_uri())
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "class-report-first-screen.png"))
    heading = page.get_by_role("heading", name="The most common mistakes")
    items = page.locator("ol.top > li")
    assert items.count() == 10
    for locator in (heading, items.nth(0), items.nth(4)):
        box = locator.bounding_box()
        assert box and box["y"] + box["height"] <= 720, locator
    first = items.nth(0).inner_text()
    assert " attempts (" in first and "%)" in first and "revisit lecture" in first
    bar = items.nth(0).locator(".bar > span")  # drawn: the style sheet reached the page unescaped
    assert bar.evaluate("e => getComputedStyle(e).display") == "block" and bar.bounding_box()["width"] > 1
    link = items.nth(0).locator("a")
    assert link.get_attribute("href").startswith(SITE + "notebooks/") and ".html#" in link.get_attribute("href")
    denominators = page.locator(".denominator")
    assert "of the submissions that attempted the exercise" in denominators.nth(0).inner_text()
    # ranked: counts never increase down the list
    counts = [int(items.nth(i).locator(".count").inner_text().split(" of ")[0]) for i in range(items.count())]
    assert counts == sorted(counts, reverse=True)
    # next, every set at a glance; the details collapsed
    assert page.locator("table.overview tbody tr").count() == SETS
    assert page.locator("details[open]").count() == 0 and page.locator("details").count() == SETS
    page.locator("table.overview a").nth(3).click()  # a set's name opens its details
    assert page.locator("details[open]").count() == 1 and page.locator("details").nth(3).get_attribute("open") == ""


def test_labels_are_readable_and_nothing_overflows_a_phone(page, report_page):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(report_page.as_uri())
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than a 390 px phone"
    smallest = page.evaluate("""() => {
        let smallest = [100, ''];
        for (const element of document.body.querySelectorAll('*')) {
            const own = [...element.childNodes].some(node => node.nodeType === 3 && node.textContent.trim());
            const size = parseFloat(getComputedStyle(element).fontSize);
            if (own && element.getClientRects().length && size < smallest[0])
                smallest = [size, element.textContent.slice(0, 60)];
        }
        return smallest; }""")
    assert smallest[0] >= 11, smallest
    page.screenshot(path=str(SCREENSHOTS / "class-report-phone.png"))


def test_printing_opens_every_set(page, report_page):
    page.goto(report_page.as_uri())
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert page.locator("details[open]").count() == SETS
    assert page.evaluate("getComputedStyle(document.body).maxWidth") == "none"
    assert len(page.pdf()) > 10_000


def test_the_exercises_to_look_at_come_with_what_to_look_at(page, report_page):
    """Issue 50.2: each flagged exercise links to its set and says what to look at; the set's
    details hold every exercise's facility and discrimination, and the set's alpha."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(report_page.as_uri())
    section = page.locator("#look")
    section.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "class-report-look.png"))
    flags = section.locator("li")
    assert flags.count() >= 1
    for text in flags.all_inner_texts():
        assert "look" in text or "keep it" in text or "read its most common mistake" in text, text
    flags.first.locator("a").click()
    # the page opens the set's details on "hashchange", an event that fires after the click returns
    expect(page.locator("details[open]")).to_have_count(1)
    opened = page.locator("details[open]")
    assert opened.locator("table.items tbody tr").count() >= 2 and "Cronbach's alpha" in opened.inner_text()
    unexplained = page.locator("#top .unexplained")
    assert "no named mistake explains" in unexplained.inner_text()
    assert "no named mistake explains" not in page.locator("ol.top").inner_text()


def test_the_page_has_no_accessibility_violation(page, report_page):
    page.goto(report_page.as_uri())
    assert axe_findings_at_viewports(page, "class report") == {}
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert axe_findings_at_viewports(page, "class report, every set open") == {}
