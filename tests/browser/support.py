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
# lecture holds thousands of syntax-highlighted code tokens in a handful of styles. So colour
# contrast is checked outside the code blocks and on one visible element of each distinct style
# inside them (text colour, size, weight, opacity and shadow over the backgrounds of its parent,
# its block and the block's frame; an element its block does not clip where there is one), which
# stands for every element of that style; every other rule checks the whole page.
# tests/browser/test_site.py proves that one unreadable style among thousands of tokens is still
# found.
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

# axe-core's colour-contrast rule, told to skip what the samples stand for: an element whose
# nearest code block or sample is a code block (what an axe context including the samples and
# excluding div.highlight leaves out); the rule's own test (``matches``) decides the rest. So one
# audit runs every rule: as two runs (every other rule; colour contrast in that context) each
# walked the whole page again (its tree, visibility, stacking layers), 0.1 to 1.2 s more per page
# and screen.
CONTRAST_OUTSIDE_SAMPLES = """() => {
  const everywhere = axe._audit.rules.find(rule => rule.id === 'color-contrast').matches;
  axe.configure({rules: [{id: 'color-contrast', matches(node, virtualNode, context) {
    const nearest = node.closest('[data-axe-sample], div.highlight');
    return (!nearest || nearest.hasAttribute('data-axe-sample')) && everywhere.call(this, node, virtualNode, context);
  }}]});
}"""


def axe_violations(page) -> list[dict]:
    """axe-core's violations (WCAG 2.1 rules, any impact) on the page as it is now, with the
    code blocks' colour contrast checked once per style (see :data:`CODE_STYLE_SAMPLES`).
    axe-core (half a megabyte of script, 0.2 s to evaluate) goes into a page only when the page
    does not hold it yet: once per page, not once per screen size."""
    from axe_playwright_python.base import AXE_SCRIPT

    if not page.evaluate("() => typeof window.axe?.run === 'function'"):
        page.evaluate(AXE_SCRIPT)
        page.evaluate(CONTRAST_OUTSIDE_SAMPLES)
    page.evaluate(CODE_STYLE_SAMPLES)
    return page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")


def axe_findings(page, where: str) -> dict[str, str]:
    """:func:`axe_violations` keyed by ``where`` (a page or deck), the rule, its impact and the
    first element it found, each with axe-core's help text: ``{}`` when nothing is found."""
    return {f"{where}: {v['id']} ({v['impact']}) at {v['nodes'][0]['target']}": v["help"] for v in axe_violations(page)}


VIEWPORTS = {"1280x800": (1280, 800), "1024x768": (1024, 768), "phone 390x844": (390, 844)}
"""The screens every page and deck is audited at: a laptop, a small laptop or tablet, a phone
(a region that scrolls sideways at one size may not at another)."""


THEME_DEBOUNCE_MS = 300
"""pydata-sphinx-theme (the site's) acts on a resize 300 ms after the last resize event: it gives
a tab stop to each code block or output that now scrolls (``addTabStopsToScrollableElements``) and
re-aims the table of contents' highlighting (``connectIntersectionObserver``)."""

# Resolves once the page has answered the resize it is about to get: its resize listeners have
# run, the site theme's debounced ones too (a timer of the same delay, set by a listener added
# after the theme's, fires after theirs), and two frames have been drawn since, so that what those
# set off (layout, intersection observers' callbacks) is done. Pages without the theme (decks,
# reports) answer within their listeners: reveal.js lays the deck out, or turns it into its
# scrolling view on a phone, at once.
RESIZE_ANSWERED = """debounce => { window.resizeAnswered = new Promise(resolve => {
  const delay = document.querySelector('script[src*="pydata-sphinx-theme"]') ? debounce : 0;
  const listening = new AbortController();
  const answered = () => { listening.abort(); requestAnimationFrame(() => requestAnimationFrame(resolve)); };
  let timer;
  addEventListener('resize', () => { clearTimeout(timer); timer = setTimeout(answered, delay); },
                   {signal: listening.signal});
}); }"""


def resize(page, width: int, height: int) -> None:
    """Give the page a new size and wait until it has answered it (:data:`RESIZE_ANSWERED`), in
    place of a fixed 450 ms: 0.15 s less on the site's pages, 0.4 s less elsewhere, per size."""
    if page.viewport_size == {"width": width, "height": height}:
        return
    page.evaluate(RESIZE_ANSWERED, THEME_DEBOUNCE_MS)
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => window.resizeAnswered")


def axe_findings_at_viewports(page, where: str) -> dict[str, str]:
    """:func:`axe_findings` at each of :data:`VIEWPORTS` in turn (the page's size is restored)."""
    before = page.viewport_size
    found = {}
    try:
        for name, (width, height) in VIEWPORTS.items():
            resize(page, width, height)
            found.update(axe_findings(page, f"{where} at {name}"))
    finally:
        page.set_viewport_size(before)
    return found
