"""Shared fixtures of the browser tests: Playwright driving the system Chromium, and the
course's own JupyterLab serving a fresh clone of the course.

``playwright install`` cannot download a browser here, so the tests launch Debian's
Chromium (``apt-get install -y chromium``) through ``executable_path``. The browser runs
headless with the background networking that would try to reach the internet switched
off. A failing test leaves a full-page screenshot in ``test-artifacts/screenshots/``
(CI keeps that folder).

``course_clone`` copies the working tree's course files (tracked and new, not ignored)
into a temporary git repository ("origin") and clones it as a student would ("student",
with ``my-work/`` seeded by course.py), so nothing the tests do touches the worktree.
``lab`` serves the student's clone with the settings ``python3 course.py lab`` uses, on
127.0.0.1 with a random token; its log goes to ``test-artifacts/jupyterlab.log``.

``python3 course.py browser-test`` runs two pytest-xdist workers, each file on one worker
(``--dist loadfile``): a worker that runs tests of the lab serves its own JupyterLab on its
own clone, and logs to ``test-artifacts/jupyterlab-gw0.log`` (its worker's name). Grouping
every lab test on one worker (``--dist loadgroup``) would start one JupyterLab fewer, but
pytest-xdist 3.8 ignores the groups under pytest 9.2 (pytest-dev/pytest-xdist#1386).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from support import git, load_course_script

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
RUN_ALL_SECONDS = ARTIFACTS / "run-all-seconds.json"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SMALL_SHARED_MEMORY = 2**30
VIEWPORT = {"width": 1400, "height": 900}


def chromium_flags() -> list[str]:
    """:data:`CHROMIUM_FLAGS`, and ``--disable-dev-shm-usage`` where /dev/shm is too small for
    Chromium's shared memory (a container's 64 MB): the flag moves that memory to files in /tmp,
    which costs Chromium about a tenth more CPU in JupyterLab, so it is not given where /dev/shm
    is large."""
    try:
        shared = os.statvfs("/dev/shm")
        small = shared.f_frsize * shared.f_bavail < SMALL_SHARED_MEMORY
    except OSError:
        small = True
    return CHROMIUM_FLAGS + (["--disable-dev-shm-usage"] if small else [])


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
                                              args=chromium_flags())
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


def _photograph_if_failed(page, request) -> bool:
    """Save a full-page screenshot of ``page`` if the test failed; whether it failed."""
    if not request.node.stash.get(_FAILED, False):
        return False
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)[-150:]
    try:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    except Exception:  # a crashed page cannot be photographed; the failure itself is reported
        pass
    return True


@pytest.fixture
def page(browser, request):
    """A fresh browser context and page; a full-page screenshot is saved if the test fails."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    yield page
    _photograph_if_failed(page, request)
    context.close()


@pytest.fixture(scope="module")
def _kept_tab(browser):
    """The context and page that :func:`lab_tab` keeps for one test module."""
    kept = {}
    yield kept
    if kept:
        kept["context"].close()


@pytest.fixture
def lab_tab(_kept_tab, browser, lab, request):
    """A JupyterLab tab kept open across a module's tests, as a student keeps one all day.

    Opening a notebook in a JupyterLab already loaded took 1.2 to 1.7 s, in a new page 3.9 to
    4.6 s (about 4 s of Chromium's CPU goes into loading JupyterLab), so the tests that use this
    tab open their notebooks in it (``labpage.open_from_path``) and close
    them again (``labpage.close_tabs``). A test that fails leaves its screenshot and the tab is
    thrown away with its kernels: the next test starts in a fresh JupyterLab, so one failure
    cannot spill into the next test.
    """
    if not _kept_tab:
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        page.goto(lab.url("START_HERE.md"))
        page.wait_for_selector(".jp-RenderedMarkdown table", timeout=90_000)
        _kept_tab.update(context=context, page=page)
    yield _kept_tab["page"]
    if _photograph_if_failed(_kept_tab["page"], request):
        _kept_tab.pop("context").close()
        _kept_tab.clear()
        lab.shut_down_kernels()


# --------------------------------------------------------------------------- the course and its JupyterLab


@dataclass(frozen=True)
class CourseClone:
    origin: Path
    student: Path


@pytest.fixture(scope="session")
def course_clone(tmp_path_factory) -> CourseClone:
    base = tmp_path_factory.mktemp("course")
    origin, student = base / "origin", base / "student"
    listed = git("ls-files", "-co", "--exclude-standard", "-z", cwd=ROOT).split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the worktree is left out, as a commit would
            (origin / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, origin / name)
    git("init", "-q", cwd=origin)
    git("add", "-A", cwd=origin)
    git("commit", "-q", "-m", "the course", cwd=origin)
    git("clone", "-q", str(origin), str(student), cwd=base)
    load_course_script().seed_work_folder(student)
    return CourseClone(origin, student)


@dataclass(frozen=True)
class Lab:
    base_url: str
    token: str
    root: Path
    log: Path

    def url(self, path: str) -> str:
        """A lab page opening ``path`` in a fresh workspace (no tabs restored)."""
        return f"{self.base_url}/lab/tree/{path}?reset&token={self.token}"

    def api(self, path: str) -> tuple[int, dict]:
        request = urllib.request.Request(f"{self.base_url}/api/{path}",
                                         headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def shut_down_kernels(self) -> None:
        """End every session and its kernel (a test's notebooks must not hold memory, or a
        kernel, for the next test that opens the same notebook). A kernel still starting is
        waited for first: stopping it mid-start fails its websocket's handshake (a 500 in the log)."""
        deadline = time.monotonic() + 60
        while (any(kernel.get("execution_state") == "starting" for kernel in self.api("kernels")[1])
               and time.monotonic() < deadline):
            time.sleep(0.2)
        for kind in ("sessions", "kernels"):
            for entry in self.api(kind)[1]:
                request = urllib.request.Request(f"{self.base_url}/api/{kind}/{entry['id']}", method="DELETE",
                                                 headers={"Authorization": f"token {self.token}"})
                try:
                    urllib.request.urlopen(request, timeout=30).close()
                except urllib.error.HTTPError as error:
                    if error.code != 404:  # a session's kernel is gone with its session
                        raise


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def lab(course_clone) -> Lab:
    """The course's JupyterLab (student mode) on the student's clone."""
    ARTIFACTS.mkdir(exist_ok=True)
    port, token = _free_port(), secrets.token_hex(16)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    log = ARTIFACTS / (f"jupyterlab-{worker}.log" if worker else "jupyterlab.log")
    command = [str(Path(sys.executable).with_name("jupyter-lab")), "--no-browser", "--ip=127.0.0.1",
               f"--port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    env = load_course_script().lab_environment(course_clone.student)
    with open(log, "w") as log_file:
        server = subprocess.Popen(command, cwd=course_clone.student, env=env, stdout=log_file,
                                  stderr=subprocess.STDOUT)
    instance = Lab(f"http://127.0.0.1:{port}", token, course_clone.student, log)
    deadline = time.monotonic() + 90
    while instance_status(instance) != 200:
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise RuntimeError(f"JupyterLab did not start; see {log}")
        time.sleep(0.3)
    yield instance
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()


def instance_status(instance: Lab) -> int | None:
    try:
        return instance.api("status")[0]
    except OSError:
        return None


_RUN_ALL: dict[str, float] = {}


@pytest.fixture(scope="session")
def run_all_seconds() -> dict[str, float]:
    """Seconds of Run All per notebook, measured in the browser; written to
    test-artifacts/run-all-seconds.json and printed at the end of the run."""
    yield _RUN_ALL
    if _RUN_ALL:
        ARTIFACTS.mkdir(exist_ok=True)
        RUN_ALL_SECONDS.write_text(json.dumps(_RUN_ALL, indent=1, sort_keys=True) + "\n")


_SESSION_STARTED = time.time()


def pytest_terminal_summary(terminalreporter):
    """The Run All seconds, from the file the worker that ran them wrote in this session."""
    if not RUN_ALL_SECONDS.is_file() or RUN_ALL_SECONDS.stat().st_mtime < _SESSION_STARTED:
        return
    seconds = json.loads(RUN_ALL_SECONDS.read_text())
    terminalreporter.section("Run All in JupyterLab (seconds)")
    for name, value in sorted(seconds.items()):
        terminalreporter.write_line(f"{name:40s} {value:7.1f}")
    terminalreporter.write_line(f"{'total':40s} {sum(seconds.values()):7.1f}")
