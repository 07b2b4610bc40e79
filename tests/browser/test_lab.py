"""The course in JupyterLab as a student meets it (python3 course.py lab): the start page,
every lecture notebook run in the browser, the widgets, notebooks whose twin is older or
newer, files that JupyterLab saves unchanged, and a quiet server log."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import labpage
from dimred_teach.course.manifest import read_manifest

pytestmark = pytest.mark.slow(seconds=120)

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
LECTURES = [lecture.stem for lecture in read_manifest(ROOT)]
WIDGET_NOTEBOOKS = {"03_biplots", "06_random_projections"}


def stored_figures(path: Path) -> int:
    return len(stored_descriptions(path))


def stored_descriptions(path: Path) -> list[str]:
    """The written description of every stored figure, in order (its output metadata's alt)."""
    notebook = json.loads(path.read_text())
    return [
        output.get("metadata", {}).get("image/png", {}).get("alt", "")
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    ]


def wait_for_images(page, expected: int, timeout: float = 30) -> list[dict]:
    """The open notebook's output images once ``expected`` of them have loaded. When some are
    still missing and none has come for 1 s, the notebook is paged through from top to bottom
    (:func:`labpage.page_through`), as a reader does: JupyterLab may leave cells out of view
    unattached while the machine is busy. (The mouse wheel's 900 px every 3 s it once used
    reached only a third of 09_feature_selection in 30 s on a busy CI run: 6 of its 9 figures.)"""
    deadline = time.monotonic() + timeout
    count, since = -1, time.monotonic()
    while True:
        found = labpage.images(page)
        if (len(found) >= expected and all(image["loaded"] for image in found)) or time.monotonic() > deadline:
            return found
        if len(found) != count:
            count, since = len(found), time.monotonic()
        elif count < expected and time.monotonic() - since > 1:
            labpage.page_through(page)
            since = time.monotonic()
        page.wait_for_timeout(250)


def test_start_page_is_the_course_map(page, lab):
    page.goto(f"{lab.base_url}/?token={lab.token}")  # the course's default URL: START_HERE.md, rendered
    page.wait_for_selector(".jp-RenderedMarkdown table", timeout=90_000)
    links = " ".join(page.locator(".jp-RenderedMarkdown a").evaluate_all("links => links.map(a => a.href)"))
    for name in LECTURES:  # JupyterLab resolves them to /files/... and opens them in the lab when clicked
        assert f"/files/notebooks/{name}.ipynb" in links
        assert f"/files/my-work/{name}.ipynb" in links
    listing = page.locator(".jp-DirListing-itemName").all_inner_texts()
    assert {"my-work", "notebooks", "solutions", "START_HERE.md"} <= set(listing)
    hidden = [name for name in listing if name.endswith((".py", ".egg-info")) or name in ("exercises", "tests")]
    assert not hidden, f"the student's file browser shows {hidden}"
    page.wait_for_timeout(3000)  # JupyterLab asks about news a moment after start when allowed to
    assert page.locator(".jp-toast-message, .Toastify__toast").count() == 0, "a notification pop-up appeared"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "start-page.png"))
    page.locator(".jp-RenderedMarkdown a", has_text=re.compile("PCA from the Lagrangian")).click()
    labpage.wait_for_kernel(page, "notebooks/01_pca_lagrangian.ipynb")
    page.locator(f"{labpage.NOTEBOOK} .jp-Toolbar", has_text="read-only").wait_for(timeout=30_000)
    labpage.leave(page, lab)


@pytest.mark.parametrize("name", LECTURES)
def test_lecture_notebook_runs_in_the_browser(lab_tab, lab, name, run_all_seconds):
    page = lab_tab  # one JupyterLab tab for every lecture, as a student works through them
    path = f"notebooks/{name}.ipynb"
    on_disk = (lab.root / path).read_bytes()
    figures = stored_figures(lab.root / path)
    labpage.open_from_path(page, path)

    shown = wait_for_images(page, figures)
    assert len(shown) == figures and all(image["loaded"] for image in shown), f"stored figures not rendered: {shown}"
    # issue 23: a screen reader reads each figure's written description (the course's lab extension)
    assert [image["alt"] for image in shown] == stored_descriptions(lab.root / path)
    assert all(len(image["alt"]) > 40 for image in shown)
    math = labpage.wait_for_math(page)
    assert not math["raw"], f"LaTeX left raw: {math['raw'][:5]}"
    assert math["typeset"] > 0, "no formula was typeset by MathJax"

    seconds, state = labpage.run_all(page, lab.root / path)
    run_all_seconds[name] = round(seconds, 1)
    assert state["errors"] == 0, f"Run All raised: {labpage.error_text(page)}"
    shown = wait_for_images(page, figures)
    assert len(shown) == figures and all(image["loaded"] for image in shown), f"figures after Run All: {shown}"
    if name not in WIDGET_NOTEBOOKS:  # (a widget's figure is drawn in the widget's own output area)
        assert [image["alt"] for image in shown] == stored_descriptions(lab.root / path), "redrawn figures"

    if name in WIDGET_NOTEBOOKS:
        move_each_slider(page, name)
    labpage.close_tabs(page, lab)
    assert (lab.root / path).read_bytes() == on_disk, "a course notebook changed on disk"


def move_each_slider(page, name: str) -> None:
    """Every slider of the widget figure redraws it (the image changes)."""
    cell = page.locator(f"{labpage.NOTEBOOK} .jp-CodeCell").filter(has=page.locator(".widget-slider"))
    assert cell.count() == 1, "the widget cell shows no slider"
    handles = cell.locator(".noUi-handle")
    assert handles.count() >= 1
    for index in range(handles.count()):
        before = cell.locator(".jp-OutputArea-output img").first.get_attribute("src")
        handles.nth(index).focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        deadline = time.monotonic() + 30
        while cell.locator(".jp-OutputArea-output img").first.get_attribute("src") == before:
            assert time.monotonic() < deadline, f"slider {index} did not change the figure"
            page.wait_for_timeout(250)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    cell.screenshot(path=str(SCREENSHOTS / f"{name}-widget-after-sliders.png"))


def test_notebooks_open_whichever_twin_is_newer(lab_tab, lab):
    """git sets file times in any order: no notebook kind may refuse to open ("File Load Error")."""
    kinds = ["notebooks", "solutions", "exercises", "my-work"]
    notebooks = [lab.root / kind / f"{lecture.stem}.ipynb" for kind in kinds for lecture in read_manifest(lab.root)[:3]]
    assert len(notebooks) == 12
    for shift in (+120, -120):
        for notebook in notebooks:
            twin = notebook.with_suffix(".py")
            reference = twin.stat().st_mtime if twin.exists() else time.time()
            os.utime(notebook, (reference + shift, reference + shift))
            status, model = lab.api(f"contents/{notebook.relative_to(lab.root).as_posix()}?content=1")
            assert status == 200, f"{notebook.name} (ipynb {shift:+d} s against its twin): {model}"
            # (a lecturer's lab opens the .py source with jupytext; the student's serves .ipynb only)
    labpage.open_from_path(lab_tab, "exercises/04_mds.ipynb")  # in the browser too: fails on any dialog
    labpage.close_tabs(lab_tab, lab)


@pytest.mark.parametrize("path", ["notebooks/03_biplots.ipynb", "solutions/05_lsi.ipynb", "exercises/07_ppca.ipynb"])
def test_jupyterlab_saves_generated_notebooks_unchanged(lab_tab, lab, path):
    """Open + save (with the kernel started) writes the very bytes the course generated."""
    copy = lab.root / "my-work" / "save-check" / Path(path).name
    copy.parent.mkdir(exist_ok=True)
    shutil.copyfile(lab.root / path, copy)
    labpage.open_from_path(lab_tab, copy.relative_to(lab.root).as_posix())
    labpage.save(lab_tab)
    labpage.close_tabs(lab_tab, lab)
    assert copy.read_bytes() == (lab.root / path).read_bytes()
    shutil.rmtree(copy.parent)


def test_server_log_is_quiet(lab):
    """Run last in this module, after kernels started and notebooks were opened and saved."""
    log = lab.log.read_text()
    for noise in ("without encryption", "is not trusted", "websocket_ping_timeout", "Uncaught exception GET"):
        assert noise not in log, f"the JupyterLab log says {noise!r}"


def test_saving_a_course_notebook_names_a_copy_in_my_work(lab):
    """Issue 23, item 5: "Save As" pre-fills the read-only path; the refusal of a changed notebook now
    names a file to type that keeps a copy and cannot overwrite the student's exercise notebook of the
    same number. A save that changes no cell (RISE's, before it presents) succeeds and writes nothing."""
    course_file = lab.root / "notebooks" / "04_mds.ipynb"
    published = course_file.read_bytes()
    notebook = json.loads(published)

    def put(path: str, content: dict) -> urllib.request.Request:
        body = json.dumps({"type": "notebook", "format": "json", "content": content}).encode()
        return urllib.request.Request(
            f"{lab.base_url}/api/contents/{path}",
            data=body,
            method="PUT",
            headers={"Authorization": f"token {lab.token}", "Content-Type": "application/json"},
        )

    for cell in notebook["cells"]:  # outputs cleared (or cells run): what RISE saves before presenting
        if cell["cell_type"] == "code":
            cell.update(outputs=[], execution_count=None)
    with urllib.request.urlopen(put("notebooks/04_mds.ipynb", notebook), timeout=30) as unchanged:
        assert unchanged.status == 200  # the cells are the course's: nothing to keep, nothing written
    assert course_file.read_bytes() == published
    notebook["cells"][2]["source"] = "a student's edit"
    request = put("notebooks/04_mds.ipynb", notebook)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 403
    message = json.loads(refused.value.read())["message"]
    assert "type my-work/04_mds-lecture.ipynb as the file name" in message
    request.full_url = f"{lab.base_url}/api/contents/my-work/04_mds-lecture.ipynb"
    with urllib.request.urlopen(request, timeout=30) as saved:
        assert saved.status in (200, 201)
    assert (lab.root / "my-work" / "04_mds-lecture.ipynb").is_file()
    (lab.root / "my-work" / "04_mds-lecture.ipynb").unlink()
