"""What a user does in JupyterLab, as Playwright steps: open a notebook, Run All, read the
state of its cells, type into a cell, save. Used by the browser tests."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from playwright.sync_api import Page

NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"

_CELL_STATE = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  if (!panel) return null;
  const indicator = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  const kernel = panel.querySelector('.jp-KernelName');
  const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(p => p.textContent.trim());
  const errors = [...panel.querySelectorAll('.jp-OutputArea-output')]
      .filter(o => o.textContent.includes('Traceback (most recent call last)')).length;
  return {status: indicator ? indicator.getAttribute('data-status') : null,
          kernel: kernel ? kernel.textContent.trim() : null, prompts, errors};
}"""

_IMAGES = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output img')].map(
    img => ({loaded: img.complete && img.naturalWidth > 0, width: img.naturalWidth, alt: img.alt}))"""

_RAW_MATH = """() => {
  const cells = document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-MarkdownCell .jp-RenderedMarkdown');
  const raw = [];
  let typeset = 0;
  for (const cell of cells) {
    typeset += cell.querySelectorAll('mjx-container').length;
    const copy = cell.cloneNode(true);
    copy.querySelectorAll('code, pre, mjx-container').forEach(node => node.remove());
    const found = copy.textContent.match(/\\$[^$\\s][^$]*\\$/g);
    if (found) raw.push(...found);
  }
  return {typeset, raw, cells: cells.length};
}"""


def open_notebook(page: Page, lab, path: str) -> None:
    """Open ``path`` in a fresh workspace and wait until its kernel is idle."""
    page.goto(lab.url(path))
    wait_for_kernel(page, path)
    dismiss_dialogs(page)


def open_from_path(page: Page, path: str) -> None:
    """File > Open from Path...: open ``path`` in the JupyterLab already on the page, as a student
    opens one notebook after another in the tab they keep open, and wait until its kernel is idle."""
    menu(page, "File", "Open from Path\u2026")
    page.locator(".jp-Dialog input").fill(path)
    page.keyboard.press("Enter")
    wait_for_kernel(page, path)
    dismiss_dialogs(page)


def close_tabs(page: Page, lab) -> None:
    """File > Close All Tabs, answering "Discard" where JupyterLab asks to save (the new outputs
    of a course notebook), then stop the kernels (in this order, as in :func:`leave`)."""
    menu(page, "File", "Close All Tabs")
    deadline = time.monotonic() + 30
    while page.locator(".jp-NotebookPanel").count():
        discard = page.locator(".jp-Dialog button", has_text="Discard")
        if discard.count():
            discard.first.click()
        assert time.monotonic() < deadline, "the notebook tabs did not close"
        page.wait_for_timeout(100)
    lab.shut_down_kernels()


def wait_for_kernel(page: Page, path: str) -> None:
    """Wait until the open notebook shows its cells and its kernel has started and is idle."""
    page.wait_for_selector(f"{NOTEBOOK} .jp-Cell", timeout=90_000)
    wait_until(page, lambda state: state and state["kernel"] == "Python 3 (ipykernel)" and state["status"] == "idle",
               timeout=90, what=f"{path}: its kernel started and idle")


def leave(page: Page, lab) -> None:
    """Close the lab page, then stop its kernels (in this order: a page still connected
    to a kernel that disappears makes the server log an error)."""
    page.goto("about:blank")
    lab.shut_down_kernels()


def dismiss_dialogs(page: Page) -> None:
    """Fail on an error dialog (e.g. "File Load Error"); there must be no other dialog."""
    dialog = page.locator(".jp-Dialog")
    if dialog.count():
        raise AssertionError(f"unexpected dialog: {dialog.first.inner_text()}")


def cell_state(page: Page) -> dict | None:
    return page.evaluate(_CELL_STATE)


def wait_until(page: Page, condition, timeout: float, what: str) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = cell_state(page)
        if condition(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last state {state}")
        page.wait_for_timeout(250)


def menu(page: Page, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{re.escape(top)}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).first.click()


def run_all(page: Page, notebook: Path, timeout: float = 240) -> tuple[float, dict]:
    """Edit > Clear Outputs of All Cells, then Run > Run All Cells; returns (seconds until
    every code cell of the open ``notebook`` file ran or one failed, the cells' state). The
    number of code cells comes from the file, not from the page, so a page still attaching
    its cells is waited for rather than counted short."""
    count = sum(cell["cell_type"] == "code" for cell in json.loads(notebook.read_text())["cells"])
    menu(page, "Edit", "Clear Outputs of All Cells")
    wait_until(page, lambda state: state["prompts"] == ["[ ]:"] * count, 30, f"{count} cleared prompts")
    start = time.monotonic()
    menu(page, "Run", "Run All Cells")

    def finished(state):
        if state["errors"]:
            return True
        numbers = [int(p[1:-2]) for p in state["prompts"] if re.fullmatch(r"\[\d+\]:", p)]
        return (state["status"] == "idle" and len(numbers) == len(state["prompts"]) == count
                and numbers == sorted(numbers) and len(set(numbers)) == count)

    state = wait_until(page, finished, timeout, f"Run All to finish ({count} code cells)")
    return time.monotonic() - start, state


def images(page: Page) -> list[dict]:
    return page.evaluate(_IMAGES)


# Pages the open notebook from top to bottom, half a screen at a time, two frames at each stop:
# every cell passes through the view, where JupyterLab attaches it at once.
_PAGE_THROUGH = """async () => {
  const outer = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer');
  if (!outer) return false;
  const frames = () => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  for (let top = 0; top < outer.scrollHeight; top += Math.max(100, outer.clientHeight / 2)) {
    outer.scrollTop = top;
    await frames();
  }
  return true;
}"""


def page_through(page: Page) -> None:
    """Scroll the open notebook from its top to its bottom, as a reader pages down it. JupyterLab
    (windowing mode ``contentVisibility``) attaches a cell out of view only when the browser is
    idle, which a busy machine can put off past any timeout, and a cell in view at once."""
    assert page.evaluate(_PAGE_THROUGH), "no notebook is open"


def math(page: Page) -> dict:
    return page.evaluate(_RAW_MATH)


def wait_for_math(page: Page, timeout: float = 30) -> dict:
    """Wait until MathJax has typeset the rendered markdown (no raw $...$ left)."""
    deadline = time.monotonic() + timeout
    while True:
        found = math(page)
        if not found["raw"] or time.monotonic() > deadline:
            return found
        page.wait_for_timeout(250)


def cell_index(page: Page, text: str) -> int:
    """The index of the first cell of the open notebook whose source contains ``text``."""
    index = page.evaluate("""text => [...document.querySelectorAll(
        '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell')].findIndex(
        cell => (cell.querySelector('.cm-content') || {textContent: ''}).textContent.includes(text))""", text)
    assert index >= 0, f"no cell contains {text!r}"
    return index


def code_cell(page: Page, index: int):
    """The ``index``-th cell (counting every cell) of the open notebook."""
    return page.locator(f"{NOTEBOOK} .jp-Cell").nth(index)


def replace_cell_text(page: Page, index: int, lines: list[str]) -> None:
    """Select the cell's editor, clear it and type ``lines`` as a user would: after each
    Enter the editor indents by itself, so lines are typed without their indentation."""
    editor = code_cell(page, index).locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    for number, line in enumerate(lines):
        if number:
            page.keyboard.press("Enter")
        page.keyboard.type(line.lstrip())


def run_cell(page: Page, index: int) -> None:
    code_cell(page, index).locator(".jp-InputArea-prompt").click()
    page.keyboard.press("Shift+Enter")


def output_text(page: Page, index: int) -> str:
    """The visible text of a code cell's outputs, scrolled into view as a reader would (JupyterLab
    skips rendering cells far off screen, and their text is then not visible)."""
    cell = code_cell(page, index)
    cell.scroll_into_view_if_needed()
    for _ in range(100):  # JupyterLab renders a cell scrolled into view on its next frames
        if cell.inner_text().strip():
            break
        page.wait_for_timeout(100)
    return cell.locator(".jp-OutputArea").inner_text()


def save(page: Page) -> None:
    """Ctrl+S, and wait for the server's answer to the save."""
    with page.expect_response(lambda response: response.request.method == "PUT" and "/api/contents/" in response.url,
                              timeout=30_000) as saved:
        page.keyboard.press("Control+s")
    assert saved.value.ok, f"saving failed: {saved.value.status} {saved.value.text()}"


def error_text(page: Page) -> str:
    """The text of the first output holding a traceback."""
    failing = page.locator(f"{NOTEBOOK} .jp-OutputArea-output", has_text="Traceback (most recent call last)")
    return failing.first.inner_text()[-2000:] if failing.count() else ""
