"""Slides: the metadata rule, the annotation of the sources, and a deck in a browser with
no network (opened from disk; any request for anything but the deck file is aborted and
fails the test)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import jupytext
import nbformat
import pytest

from dimred_teach.cli import main
from dimred_teach.course.manifest import read_manifest
from dimred_teach.course.slides import annotate_source, slide_types
from support import axe_findings_at_viewports

pytestmark = pytest.mark.slow(seconds=80)

ROOT = Path(__file__).resolve().parents[2]
LECTURE = "04_mds"


@pytest.fixture(scope="session")
def deck(tmp_path_factory) -> Path:
    """The deck of lecture 04, written by the command a lecturer runs."""
    out = tmp_path_factory.mktemp("slides")
    assert main(["slides", "4", "--root", str(ROOT), "--out", str(out)]) == 0
    return out / f"{LECTURE}.html"


def _cell(kind: str, source: str):
    return nbformat.v4.new_markdown_cell(source) if kind == "markdown" else nbformat.v4.new_code_cell(source)


def test_slide_types_follow_the_sections():
    cells = [_cell("markdown", "# 04 · Title\n\npreamble"), _cell("code", "import numpy"),
             _cell("markdown", "## 1. A section\n\ntext"), _cell("code", "x = 1"), _cell("code", "plot(x)"),
             _cell("markdown", "An explanation."), _cell("code", "y = 2"), _cell("markdown", "### A subsection")]
    assert slide_types(cells) == ["slide", "subslide", "slide", "fragment", "subslide", "subslide", "fragment",
                                  "subslide"]


def test_every_lecture_source_carries_its_slide_metadata(capsys):
    assert main(["slides", "--annotate", "--check", "--root", str(ROOT)]) == 0, capsys.readouterr().out
    notebook = nbformat.read(ROOT / "notebooks" / f"{LECTURE}.ipynb", as_version=4)
    assert [cell.metadata["slideshow"]["slide_type"] for cell in notebook.cells] == slide_types(notebook.cells)


@pytest.mark.parametrize(
    "source", [lecture.lecture_source for lecture in read_manifest(ROOT)], ids=lambda path: path.stem
)
def test_jupytext_writes_the_same_cell_headers_from_the_ipynb(source):
    """JupyterLab's jupytext refuses to open a pair whose .py is not what it would write."""
    written = jupytext.writes(nbformat.read(source.with_suffix(".ipynb"), as_version=4), fmt="py:percent")
    assert [line for line in written.splitlines() if line.startswith("# %%")] == \
        [line for line in source.read_text().splitlines() if line.startswith("# %%")]


def test_annotation_changes_only_header_lines(tmp_path):
    source = tmp_path / f"{LECTURE}.py"
    shutil.copy(ROOT / "notebooks" / f"{LECTURE}.py", source)
    annotated = source.read_text()
    stripped = re.sub(r' slideshow=\{"slide_type": "[a-z]+"\}', "", annotated)
    source.write_text(stripped)
    assert annotate_source(source, check=True) and source.read_text() == stripped  # --check writes nothing
    assert annotate_source(source) and source.read_text() == annotated
    assert not annotate_source(source)


def test_unknown_lecture_number_is_named(tmp_path, capsys):
    assert main(["slides", "99", "--root", str(ROOT), "--out", str(tmp_path)]) == 2
    assert "no lecture numbered 99" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_deck_is_one_file_with_everything_inlined(deck):
    html = deck.read_text()
    markup = re.sub(r"<script>.*?</script>", "<script></script>", html, flags=re.DOTALL)  # inlined code aside
    assert re.search(r"<(script|link|img)\b[^>]*\b(src|href)=\"(?!data:)", markup) is None
    assert "Reveal.initialize" in html and "MathJax" in html
    assert html.count("<section") > 20


def test_deck_advances_three_slides_and_shows_an_equation_and_a_figure(page, deck):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.context.route("**/*", lambda route: route.continue_() if route.request.url == deck.as_uri()
                       else route.abort("internetdisconnected"))
    page.goto(deck.as_uri())
    page.wait_for_function("() => window.Reveal && Reveal.isReady() && window.MathJax && MathJax.startup")
    page.evaluate("() => MathJax.startup.promise")
    page.evaluate("() => { window.slideChanges = 0; Reveal.on('slidechanged', () => window.slideChanges++); }")
    equations = 0
    for _ in range(20):  # Space steps through fragments and slides in order, as a lecturer does
        current = page.locator("section.present:not(.stack)")
        equations += current.locator("mjx-container svg").count()
        assert current.inner_text().count("$") == 0, "raw TeX on the slide"
        if page.evaluate("() => window.slideChanges") == 3:
            break
        page.keyboard.press("Space")
    assert page.evaluate("() => window.slideChanges") == 3
    assert equations >= 1, "no rendered equation on the first three slides"

    figure_slide = page.evaluate("""() => {
        const slide = Array.from(document.querySelectorAll('.slides section'))
            .find(section => !section.querySelector('section') && section.querySelector('img'));
        return Reveal.getIndices(slide); }""")
    page.evaluate("([h, v]) => Reveal.slide(h, v, 99)", [figure_slide["h"], figure_slide["v"]])  # all fragments
    figure = page.locator("section.present:not(.stack) img").first
    figure.wait_for(state="visible")
    assert figure.evaluate("img => img.complete && img.naturalWidth > 0")
    box = figure.bounding_box()
    assert box["width"] > 300 and box["height"] < page.viewport_size["height"], "figure not sized for the slide"
    assert requests == [deck.as_uri()], f"the deck requested {requests[1:]}"


@pytest.fixture(scope="session")
def decks(tmp_path_factory) -> list[Path]:
    """Every lecture's deck, written by the command a lecturer runs."""
    out = tmp_path_factory.mktemp("decks")
    assert main(["slides", "--root", str(ROOT), "--out", str(out)]) == 0
    return [out / f"{lecture.stem}.html" for lecture in read_manifest(ROOT)]


# How far any shown element of the current slide reaches past the slide's box, or into the
# slide number's box, in pixels.
OVERFLOW = """() => {
  const slide = Reveal.getCurrentSlide();
  const box = slide.getBoundingClientRect();
  const number = document.querySelector('.reveal .slide-number').getBoundingClientRect();
  let worst = 0, where = '';
  slide.querySelectorAll('*').forEach(element => {
    const r = element.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    let past = Math.max(r.bottom - box.bottom, r.right - box.right, box.top - r.top, box.left - r.left);
    const leaf = element.children.length === 0 || element.tagName === 'IMG';
    if (leaf && r.left < number.right && r.right > number.left && r.top < number.bottom && r.bottom > number.top) {
      past = Math.max(past, r.bottom - number.top);  // content under the slide number
    }
    if (past > worst) { worst = past; where = (element.textContent || element.tagName).trim().slice(0, 60); }
  });
  return [worst, where];
}"""
# One state measured (OVERFLOW, and the scale the deck gave the slide), then the next state
# shown: one round trip to the page per state.
STEP = f"""() => {{
  const [past, where] = ({OVERFLOW})();
  const scale = parseFloat(Reveal.getCurrentSlide().dataset.fitScale || 1);
  const last = Reveal.isLastSlide() && !Reveal.availableFragments().next;
  if (!last) Reveal.next();
  return [past, where, scale, last];
}}"""


def test_every_state_of_every_deck_fits_a_1280x720_screen(page, decks):
    """Issue 23, item 2: the title slide was 1,314 px tall and 10 of 50 states overflowed. Every
    slide and every fragment step of every deck now fits (long prose continues on the next slide,
    long figure code is left to the notebook, what is still too tall is scaled down, never below
    two thirds)."""
    page.set_viewport_size({"width": 1280, "height": 720})
    overflowing, smallest = [], 1.0
    for deck in decks:
        page.goto(deck.as_uri())
        page.wait_for_function("() => document.body.dataset.deckFitted === 'true'")
        for state in range(500):
            past, where, scale, last = page.evaluate(STEP)
            if past > 2:
                overflowing.append(f"{deck.stem}, state {state}: {past:.0f} px past the slide ({where!r})")
            smallest = min(smallest, scale)
            if last:
                break
    assert overflowing == []
    assert smallest >= 0.6, f"a slide is scaled to {smallest:.2f}: split it instead"


def test_every_deck_passes_axe_core_with_described_figures(page, decks):
    """Issue 23, item 3: no accessibility violation of any impact (the slide number's contrast was
    2.84:1), and every figure's alt text is its written description."""
    from dimred_teach.course.execution import description_problem

    found = {}
    for deck in decks:
        page.goto(deck.as_uri())
        page.wait_for_function("() => document.body.dataset.deckFitted === 'true'")
        found.update(axe_findings_at_viewports(page, deck.stem))
        for alt in page.locator("section img").evaluate_all("images => images.map(image => image.alt)"):
            assert description_problem(alt) is None, f"{deck.stem}: {description_problem(alt)}"
    assert found == {}


# A figure without alt text on the slide shown, drawn only once reveal.js has turned the deck
# into its scrolling view (as it does on a phone, in its resize listener).
PLANTED = """() => {
  const style = document.createElement('style');
  style.textContent = '.planted { display: none } .reveal-scroll .planted { display: block }';
  document.head.append(style);
  Reveal.getCurrentSlide().insertAdjacentHTML('beforeend',
    '<img class="planted" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="80" height="80">');
}"""


def test_axe_finds_an_undescribed_figure_that_only_a_phone_shows(page, deck):
    """The audit at each size sees the deck as reveal.js has laid it out for that size (it waits
    for the deck to answer the resize, tests/browser/support.py): a figure that only the phone's
    scrolling view of the deck shows is found there, and only there."""
    page.goto(deck.as_uri())
    page.wait_for_function("() => document.body.dataset.deckFitted === 'true'")
    page.evaluate(PLANTED)
    found = {key.split(": ")[0]: key.split(": ")[1].split(" ")[0] for key in axe_findings_at_viewports(page, "deck")}
    assert found == {"deck at phone 390x844": "image-alt"}
