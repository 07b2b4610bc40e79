"""Live slides (RISE) from a read-only lecture in the student's lab (issue 23, item 1).

Still open: the Jupyter UI toolkit inside RISE logs "Maximum call stack size exceeded" (THIRD_PARTY)."""

from __future__ import annotations

import pytest

import labpage

pytestmark = pytest.mark.slow(seconds=40)

LECTURE = "notebooks/04_mds.ipynb"
THIRD_PARTY = ("RangeError: Maximum call stack size exceeded",)
"""Logged on every slideshow by the Jupyter UI toolkit bundled in jupyterlab-rise (static/rise/4437.bundle.js:
a design-token observer catches its own stack overflow and prints it), while the slides work; named here so
that any other error fails the test."""


def test_a_student_presents_a_read_only_lecture_with_rise(page, lab):
    """RISE saves the notebook before it shows it; the course file is read-only, and that save used
    to fail ("File Save Error ... 403"). A course notebook whose cells are unchanged now saves as a
    no-op, and the slideshow opens full window in its own tab, typeset and with its figures."""
    before = (lab.root / LECTURE).read_bytes()
    errors: list[str] = []
    labpage.open_notebook(page, lab, LECTURE)
    page.keyboard.press("Control+Shift+c")  # the command palette, where a lecturer finds the command
    page.keyboard.type("Open as Reveal Slideshow")
    with page.context.expect_page(timeout=60_000) as opened:
        page.keyboard.press("Enter")
    slides = opened.value
    slides.on("console", lambda message: errors.append(f"{message.text} {message.location.get('url', '')}")
              if message.type == "error" else None)
    failed: list[str] = []
    slides.on("requestfailed", lambda request: failed.append(request.url))
    slides.on("pageerror", lambda error: errors.append(str(error)))
    slides.wait_for_selector(".reveal .slides section", timeout=90_000)
    assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").inner_text()
    slides.wait_for_function("() => document.querySelectorAll('.reveal mjx-container').length > 5", timeout=60_000)
    width = slides.evaluate(
        "() => [window.innerWidth, document.querySelector('.reveal').getBoundingClientRect().width]"
    )
    assert width[1] >= 0.95 * width[0], f"the slideshow is not full window: {width}"
    visited, figure = [slides.url], False
    for _ in range(40):  # step as a lecturer does, until three slides on and a figure shown
        slides.keyboard.press("Space")
        slides.wait_for_timeout(300)
        if slides.url != visited[-1]:
            visited.append(slides.url)
        figure = figure or slides.evaluate(  # a figure, with its written description as alt text
            "() => [...document.querySelectorAll('.reveal section.present img')].some(i => i.naturalWidth > 0 "
            "&& i.alt.length > 40)")
        if len(visited) >= 4 and figure:
            break
    assert len(visited) >= 4, f"the slideshow did not advance: {visited}"
    assert figure, "no figure on the slides stepped through"
    slides.screenshot(path="test-artifacts/screenshots/rise-slideshow.png")
    slides.close()
    labpage.leave(page, lab)
    assert (lab.root / LECTURE).read_bytes() == before, "presenting changed the course file"
    # nothing is fetched from off the machine (the course's RISE theme is reveal's "white", whose fonts
    # are local), and nothing fails: RISE's optional stylesheets beside the notebook (rise.css and
    # NN_topic.css) are served empty when the course has none (.jupyter/jupyter_server_config.py)
    assert failed == [], f"requests that failed: {failed}"
    # ipywidgets' manager, which fails on RISE's page ("Shared module @jupyterlab/console doesn't exist
    # in shared scope", then stack overflows), is left out of it (.jupyter/jupyter_server_config.py)
    assert [error for error in errors if not any(known in error for known in THIRD_PARTY)] == []
