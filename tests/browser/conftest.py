"""Shared fixtures of the browser tests: Playwright driving the system Chromium.

``playwright install`` cannot download a browser here, so the tests launch Debian's
Chromium (``apt-get install -y chromium``) through ``executable_path``. The browser runs
headless with the background networking that would try to reach the internet switched
off. A failing test leaves a full-page screenshot in ``test-artifacts/screenshots/``
(CI keeps that folder).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]


def chromium_executable() -> str:
    """The system Chromium: $CHROMIUM, else the first of chromium / chromium-browser on PATH."""
    for candidate in (os.environ.get("CHROMIUM"), shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("Chromium not found: install it (apt-get install -y chromium) or set $CHROMIUM")


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_executable(), headless=True,
                                              args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.stash.setdefault(_FAILED, False)
        if report.failed:
            item.stash[_FAILED] = True


_FAILED = pytest.StashKey[bool]()


@pytest.fixture
def page(browser, request):
    """A fresh browser context and page; a full-page screenshot is saved if the test fails."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    yield page
    if request.node.stash.get(_FAILED, False):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)[-150:]
        try:
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
        except Exception:  # a crashed page cannot be photographed; the failure itself is reported
            pass
    context.close()
