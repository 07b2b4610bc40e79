"""The course website, read in a browser that has no network.

The site is built once per session (``dimred-teach site``) into a temporary folder and
served on 127.0.0.1 by a server thread. Every request the browser makes is recorded;
any request not to that server is aborted and makes the test fail, so the site must
carry its own math renderer, fonts, scripts and search index.
"""

from __future__ import annotations

import functools
import json
import re
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from dimred_teach.cli import main
from dimred_teach.course.execution import description_problem
from dimred_teach.course.site import lectures, one_line_math
from support import VIEWPORTS, axe_findings_at_viewports, axe_violations

ROOT = Path(__file__).resolve().parents[2]
# Sphinx extensions still use APIs that Sphinx 11 removes: not this course's warnings.
pytestmark = [
    pytest.mark.filterwarnings("ignore:.*Check CHANGES for Sphinx API modifications"),
    pytest.mark.slow(seconds=100),
]
NOTEBOOK_PAGES = [f"notebooks/{lecture.stem}.html" for lecture in lectures(ROOT)]

MATH_READY = "() => window.MathJax && MathJax.startup && MathJax.startup.promise"
# Text outside code, outputs and typeset math: any $...$, \(...\) or \[...\] left here is raw TeX.
RAW_TEX = """() => {
  const article = document.querySelector('article').cloneNode(true);
  article.querySelectorAll('pre, code, mjx-container, .cell_output, script, style').forEach(e => e.remove());
  const text = article.textContent;
  const match = text.match(/\\$[^$\\s][^$]*\\$|\\\\\\(|\\\\\\[/);
  return match ? text.slice(Math.max(0, match.index - 60), match.index + 60) : null;
}"""
BROKEN_IMAGES = "() => Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # the test records requests in the browser instead
        pass


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built by the command a lecturer runs, and the seconds the build took."""
    out = tmp_path_factory.mktemp("site") / "_site"
    start = time.perf_counter()
    assert main(["site", "--root", str(ROOT), "--out", str(out)]) == 0
    return out, time.perf_counter() - start


@pytest.fixture(scope="session")
def site_url(built_site):
    """The base URL of the site, served from 127.0.0.1 for the whole session."""
    handler = functools.partial(_QuietHandler, directory=str(built_site[0]))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def offline_page(page, site_url):
    """The shared page with every request recorded and all but those to the site aborted.

    Yields (page, requests); the test's end asserts that no request left the site and that
    none failed (the favicon is the site's own)."""
    requests: list[str] = []
    failed: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("response", lambda response: failed.append(response.url) if response.status >= 400 else None)
    page.context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(site_url)
                       else route.abort("internetdisconnected"))
    yield page, requests
    outside = [url for url in requests if not url.startswith(site_url) and not url.startswith("data:")]
    assert outside == [], f"the site requested {outside}"
    assert [url for url in failed if not url.endswith("/basic.css")] == []  # axe's stylesheet walk, not the page


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")


def test_site_builds_fast_with_a_page_per_lecture_and_exercise_set(built_site):
    out, seconds = built_site
    assert seconds < 120, f"the site took {seconds:.0f} s to build"
    course = lectures(ROOT)
    assert [lecture.stem for lecture in course] == [path.removesuffix(".html").split("/")[1] for path in NOTEBOOK_PAGES]
    for lecture in course:
        assert (out / "notebooks" / f"{lecture.stem}.html").is_file()
        assert (out / "exercises" / f"{lecture.stem}.html").is_file()
    html = "\n".join(path.read_text() for path in out.rglob("*.html"))
    assert not re.search(r"""(src|href)=["'](https?:)?//""", html.replace('href="https://www.mathjax.org', "")), \
        "a page loads something from another host"


def test_home_page_shows_the_course_map_and_the_version(offline_page, site_url):
    page, requests = offline_page
    _open(page, site_url + "index.html")
    assert page.locator("h1").first.inner_text().startswith("Dimensionality reduction")
    links = page.locator("article table a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert [link for link in links if link.startswith("notebooks/")] == \
        [f"notebooks/{lecture.stem}.html" for lecture in lectures(ROOT)]
    assert [link for link in links if link.startswith("exercises/")] == \
        [f"exercises/{lecture.stem}.html" for lecture in lectures(ROOT) if lecture.exercises]
    assert re.search(r"Built from dimred-teach \d+\.\d+\.\d+", page.locator("body").inner_text())
    navigation = page.locator("nav.bd-links")
    assert navigation.get_by_role("link", name="04 · Multidimensional scaling", exact=True).count() == 1
    assert navigation.get_by_role("link", name="Exercises 04 · Multidimensional scaling", exact=True).count() == 1
    assert len(requests) > 5  # styles, scripts, fonts: all served by the site


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_lecture_page_renders_links_its_notebook_and_passes_axe_core(offline_page, site_url, path):
    """The math is typeset, every figure is described and decodes, the page links its notebook,
    and axe-core then finds nothing on the page as the reader sees it (every formula typeset,
    every figure loaded)."""
    page, _ = offline_page
    _open(page, site_url + path)
    page.wait_for_function(MATH_READY)
    page.evaluate("() => MathJax.startup.promise")
    assert page.locator("article mjx-container").count() > 10
    assert page.evaluate(RAW_TEX) is None, "raw TeX left on the page"
    figures = page.locator("article .cell_output img")
    assert figures.count() >= 1
    for index in range(figures.count()):  # bring each figure into view, then check it decoded
        figures.nth(index).scroll_into_view_if_needed()
        alt = figures.nth(index).get_attribute("alt")  # a screen reader reads the description, not a path
        assert description_problem(alt) is None, f"figure {index}: {description_problem(alt)}"
    page.wait_for_load_state("networkidle")
    assert page.evaluate(BROKEN_IMAGES) == []
    source = page.locator("a[href$='.ipynb']").first.get_attribute("href")
    stem = path.split("/")[-1].removesuffix(".html")
    assert source == f"../_sources/notebooks/{stem}.ipynb"
    served = json.loads(page.evaluate("href => fetch(href).then(response => response.text())", source))
    assert served == json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text())
    assert axe_findings_at_viewports(page, path) == {}


def test_exercise_page_has_the_tasks_and_no_solutions(offline_page, site_url):
    page, _ = offline_page
    _open(page, site_url + "exercises/04_mds.html")
    text = page.locator("article").inner_text()
    assert "Procrustes" in text
    assert "YOUR CODE HERE" in text and 'raise NotImplementedError("exercise' in text
    solution_lines = [line.removesuffix("# SOLUTION").strip()
                      for line in (ROOT / "solutions" / "04_mds.py").read_text().splitlines()
                      if line.endswith("# SOLUTION")]
    assert solution_lines, "the solution marks no lines: this test would check nothing"
    assert [line for line in solution_lines if line in text] == []


def test_search_finds_procrustes_on_the_mds_page(offline_page, site_url):
    page, _ = offline_page
    _open(page, site_url + "search.html?q=Procrustes")
    page.wait_for_selector("ul.search li a", timeout=20_000)
    hits = page.locator("ul.search li a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert any(hit.startswith("notebooks/04_mds.html") for hit in hits), hits


def test_ci_template_site_prints_and_writes_the_pages_workflow(tmp_path, capsys):
    import yaml

    assert main(["ci-template", "--site"]) == 0
    printed = capsys.readouterr().out
    workflow = yaml.safe_load(printed)
    assert set(workflow["jobs"]) == {"build", "deploy"}
    steps = [step.get("run", step.get("uses", "")) for step in workflow["jobs"]["build"]["steps"]]
    assert 'python -m pip install -c constraints.txt ".[site]"' in steps
    assert any(step.startswith("dimred-teach site --out _site") for step in steps)
    assert "actions/upload-pages-artifact@v3" in steps
    target = tmp_path / ".github" / "workflows" / "site.yml"
    assert main(["ci-template", "--site", "--out", str(target)]) == 0
    assert target.read_text() == printed
    assert main(["ci-template", "--site", "--out", str(target)]) == 2  # never overwrites without --force
    assert "exists" in capsys.readouterr().err


def test_site_never_wipes_a_folder_that_is_not_a_site(tmp_path, capsys):
    (tmp_path / "thesis.tex").write_text("precious")
    assert main(["site", "--root", str(ROOT), "--out", str(tmp_path)]) == 2
    assert "is not a site built by Sphinx" in capsys.readouterr().err
    assert (tmp_path / "thesis.tex").read_text() == "precious"


def test_formulas_are_joined_onto_one_line_within_a_paragraph():
    text = "expand as\n$$D = g1' +\n- 2G .$$ and $x\ny$ cost $5\n\nand $z$"
    assert one_line_math(text) == "expand as\n$$D = g1' + - 2G .$$ and $x y$ cost $5\n\nand $z$"


OTHER_PAGES = ["index.html", "search.html?q=centring",
               *[f"exercises/{lecture.stem}.html" for lecture in lectures(ROOT) if lecture.exercises]]
"""Every page of the site but the lecture pages, whose test ends with axe-core."""


def test_every_other_page_passes_axe_core(offline_page, site_url):
    """Issue 23: no accessibility violation of any impact (axe-core, WCAG 2.1 rules) on the home,
    search and exercise pages either."""
    page, _ = offline_page
    found = {}
    for path in OTHER_PAGES:
        _open(page, site_url + path)
        page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
        found.update(axe_findings_at_viewports(page, path))
    assert found == {}


UNREADABLE_CODE = [
    ".highlight .mi { color: #c8c8c8 !important }",  # one token style, used many times on the page
    ".cell_output div.highlight pre { color: #cccccc !important }",  # the printed outputs
    "div.highlight pre { background: #101010 !important }",  # the code blocks' background
]


def test_axe_finds_code_colours_made_unreadable(offline_page, site_url):
    """``axe_violations`` checks code colours once per style (tests/browser/support.py): one
    unreadable style among thousands of code tokens is still a colour-contrast violation."""
    page, _ = offline_page
    _open(page, site_url + "notebooks/12_missing_values_recommenders.html")
    assert axe_violations(page) == []
    for css in UNREADABLE_CODE:
        style = page.add_style_tag(content=css)
        assert "color-contrast" in {violation["id"] for violation in axe_violations(page)}, css
        style.evaluate("element => element.remove()")


PLANTED = """() => {
  const style = document.createElement('style');
  style.textContent = '.planted-phone { display: none } ' +
    '@media (max-width: 500px) { .planted-phone { display: block } }';
  document.head.append(style);
  document.querySelector('article').insertAdjacentHTML('afterbegin',
    '<button class="planted"></button><p class="planted" style="color: #c0c0c0">Faint words</p>' +
    '<img class="planted-phone" src="_static/favicon.svg" width="48" height="48">');
}"""
"""A button without a name and grey text on white at every size; an image without alt text that
only a phone shows."""


def test_axe_finds_what_is_planted_at_each_screen_it_shows_on(offline_page, site_url):
    """The audit at the three screens (one axe-core run each, once the page has answered its
    resize: tests/browser/support.py) finds a nameless button and unreadable text at every size,
    and an image without a description on the phone, the only screen that shows it."""
    page, _ = offline_page
    _open(page, site_url + "index.html")
    page.evaluate(PLANTED)
    found = {(key.split(": ")[0], key.split(": ")[1].split(" ")[0]) for key in axe_findings_at_viewports(page, "home")}
    everywhere = {(f"home at {name}", rule) for name in VIEWPORTS for rule in ("button-name", "color-contrast")}
    assert found == everywhere | {("home at phone 390x844", "image-alt")}


def test_search_snippets_show_formulas_typeset_and_there_is_one_search(offline_page, site_url):
    """Issue 23, item 9: the snippets quoted TeX raw (\\(\\mathbf B\\)), and every page had two search boxes."""
    page, _ = offline_page
    _open(page, site_url + "search.html?q=double+centring")
    page.wait_for_function("() => document.querySelectorAll('#search-results mjx-container').length > 0")
    snippets = page.locator("#search-results p.context")
    assert snippets.count() >= 2
    assert not re.search(r"\\\(|\\\[|\\mathbf", " ".join(snippets.all_inner_texts()))
    _open(page, site_url + "notebooks/04_mds.html")
    assert page.locator("button.search-button-field:visible, input[type=search]:visible").count() == 1
    assert page.evaluate("() => document.querySelector('link[rel=icon]').href").endswith("favicon.svg")
