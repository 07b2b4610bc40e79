"""Helpers shared by the browser tests and their fixtures."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_course_script():
    """course.py (the student's entry point) as a module."""
    spec = importlib.util.spec_from_file_location("course_script", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def git(*args: str, cwd: Path) -> str:
    """Run git in ``cwd`` with a fixed identity; returns its output."""
    command = ["git", "-c", "user.name=Course Tests", "-c", "user.email=tests@example.invalid",
               "-c", "init.defaultBranch=main", *args]
    return subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True).stdout


# axe-core's colour-contrast rule takes about a millisecond for each element with text, and a
# lecture holds thousands of syntax-highlighted code tokens in a handful of styles. So a page is
# checked in two runs that leave nothing out: every other rule on the whole page; and colour
# contrast outside the code blocks and on one visible element of each distinct style inside them
# (text colour, size, weight, opacity and shadow over the backgrounds of its parent, its block and
# the block's frame; an element its block does not clip where there is one), which stands for
# every element of that style. tests/browser/test_site.py proves that one unreadable style among
# thousands of tokens is still found.
CODE_STYLE_SAMPLES = """() => {
  const chosen = new Map();
  for (const element of document.querySelectorAll('div.highlight pre, div.highlight pre *')) {
    if (!element.checkVisibility({checkVisibilityCSS: true})) continue;
    const style = getComputedStyle(element);
    const backgrounds = [element.parentElement, element.closest('pre'), element.closest('div.highlight')]
      .map(other => getComputedStyle(other).backgroundColor);
    const key = [style.color, style.backgroundColor, style.fontSize, style.fontWeight, style.opacity,
                 style.textShadow, ...backgrounds].join('|');
    const box = element.getBoundingClientRect(), frame = element.closest('pre').getBoundingClientRect();
    const whole = box.left >= frame.left && box.right <= frame.right;
    const sample = chosen.get(key);
    if (!sample || (whole && !sample.whole)) chosen.set(key, {element, whole});
  }
  document.querySelectorAll('[data-axe-sample]').forEach(element => element.removeAttribute('data-axe-sample'));
  chosen.forEach(({element}) => element.setAttribute('data-axe-sample', ''));
}"""


def axe_violations(page) -> list[dict]:
    """axe-core's violations (WCAG 2.1 rules, any impact) on the page as it is now, with the
    code blocks' colour contrast checked once per style (see :data:`CODE_STYLE_SAMPLES`).
    axe-core is put into the page once for both runs."""
    from axe_playwright_python.base import AXE_SCRIPT

    page.evaluate(AXE_SCRIPT)
    page.evaluate(CODE_STYLE_SAMPLES)
    everything_else = {"resultTypes": ["violations"], "rules": {"color-contrast": {"enabled": False}}}
    # an element inside an excluded block is checked when it is itself included
    contrast = ({"include": [["html"], ["[data-axe-sample]"]], "exclude": [["div.highlight"]]},
                {"resultTypes": ["violations"], "runOnly": ["color-contrast"]})
    return page.evaluate("""async ([everythingElse, [context, options]]) => {
      const runs = [await axe.run(document, everythingElse), await axe.run(context, options)];
      return runs.flatMap(run => run.violations);
    }""", [everything_else, contrast])


def axe_findings(page, where: str) -> dict[str, str]:
    """:func:`axe_violations` keyed by ``where`` (a page or deck), the rule, its impact and the
    first element it found, each with axe-core's help text: ``{}`` when nothing is found."""
    return {f"{where}: {v['id']} ({v['impact']}) at {v['nodes'][0]['target']}": v["help"] for v in axe_violations(page)}


VIEWPORTS = {"1280x800": (1280, 800), "1024x768": (1024, 768), "phone 390x844": (390, 844)}
"""The screens every page and deck is audited at: a laptop, a small laptop or tablet, a phone
(a region that scrolls sideways at one size may not at another)."""


RESIZE_SETTLES_MS = 450
"""After a resize the site's theme gives a tab stop to each code block or output that now
scrolls, 300 ms later (pydata-sphinx-theme's debounced ``addTabStopsToScrollableElements``)."""


def axe_findings_at_viewports(page, where: str) -> dict[str, str]:
    """:func:`axe_findings` at each of :data:`VIEWPORTS` in turn (the page's size is restored)."""
    before = page.viewport_size
    found = {}
    try:
        for name, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(RESIZE_SETTLES_MS)
            found.update(axe_findings(page, f"{where} at {name}"))
    finally:
        page.set_viewport_size(before)
    return found
