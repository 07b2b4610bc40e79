"""Test-wide settings: the environment the stored notebook outputs came from (BLAS pinned
to one thread, MPLBACKEND unset so the nbval kernels, which inherit this environment,
keep their inline backend and figures appear in the outputs nbval compares), and a
derandomised hypothesis profile so CI runs the same examples every time.

Tests are laid out by job: ``library/`` (the library's numbers), ``checks/`` (the checks and
their proofs), ``grading/``, ``gradebook/``, ``course/`` (the build, course.py and the
lecturer's commands), ``browser/`` (only with ``--browser``: ``python3 course.py
browser-test``) and ``slurm/`` (only with ``--slurm``). Markers, declared in pyproject.toml,
say what a test needs, in place of lists of file names:

- ``sandbox``: its file starts grading kernels; each test holds the checkout lock shared,
  against a test changing the checkout's permissions (tests/checkout_lock.py);
- ``pipeline``: it reads source text or drives processes (every test of ``grading/``,
  ``gradebook/`` and ``course/``, marked here, and the policy scan), so its outcome cannot
  move with the BLAS kernel or the SIMD level: CI runs it once;
- ``slow(seconds=N)``: its file takes about N seconds on one worker. pytest-xdist hands out
  one file at a time in collection order (``--no-loadscope-reorder``, see course.py), so the
  longest files come first: the grader's, which mostly wait on sandboxed kernels, start beside
  the CPU-bound proofs, and the run does not end on a long file started last;
- ``browser``: it drives JupyterLab, the site or a deck in Chromium.
"""

import os
from pathlib import Path

import pytest

from checkout_lock import checkout_in_use
from dimred_teach._environment import PINNED_THREADS, UNSET_FOR_KERNELS

os.environ.update(PINNED_THREADS)
for _name in UNSET_FOR_KERNELS:
    os.environ.pop(_name, None)

from hypothesis import HealthCheck, settings  # noqa: E402  (after the environment above is pinned)

settings.register_profile("course", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("course")

TESTS = Path(__file__).parent
BROWSER_TESTS = TESTS / "browser"
SLURM_TESTS = TESTS / "slurm"

PIPELINE_ROOMS = ("grading", "gradebook", "course")
"""The folders of tests whose every test is ``pipeline``."""


def pytest_addoption(parser):
    parser.addoption("--browser", action="store_true",
                     help="also run the browser tests in tests/browser (Playwright and Chromium)")
    parser.addoption("--slurm", action="store_true",
                     help="run the Slurm test in tests/slurm (needs the cluster .ci/slurm.sh brings up)")


def pytest_ignore_collect(collection_path, config):
    if collection_path == BROWSER_TESTS and not config.getoption("--browser"):
        return True
    if collection_path == SLURM_TESTS and not config.getoption("--slurm"):
        return True
    return None


@pytest.hookimpl(optionalhook=True)  # known only where pytest-xdist is loaded
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's ``--dist loadfile``, except that a worker is handed its next file only
    when it is down to the last test of the one it has. (A worker holds its last test back
    until it knows what follows, so that is as soon as it can be; xdist's own rule hands it on
    when two are left, and a file whose last two tests are long, such as the decks' fit and
    accessibility runs, then keeps the next file queued behind them while the other worker
    has nothing to do.)"""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class NextFileAtTheLastTest(LoadFileScheduling):
        def _reschedule(self, node):
            if not node.shutting_down and self.workqueue and self._pending_of(self.assigned_work[node]) > 1:
                return
            super()._reschedule(node)

    return NextFileAtTheLastTest(config, log)


def _room(item) -> str:
    """The folder of tests/ that holds ``item``'s file ("" for a notebook)."""
    path = Path(item.fspath)
    return path.relative_to(TESTS).parts[0] if path.is_relative_to(TESTS) else ""


def _seconds(item) -> float:
    marker = item.get_closest_marker("slow")
    return float(marker.kwargs["seconds"]) if marker else 0.0


def pytest_collection_modifyitems(config, items):
    """Mark the rooms' tests ``pipeline`` and the browser's ``browser``; then order the files
    by their ``slow`` seconds, longest first, then the notebooks (each several seconds in one
    kernel), then the rest; each file's tests keep their order."""
    for item in items:
        if _room(item) in PIPELINE_ROOMS:
            item.add_marker("pipeline")
        elif _room(item) == "browser":
            item.add_marker("browser")

    def rank(item) -> tuple[int, float]:
        if _seconds(item):
            return 0, -_seconds(item)
        return (1, 0.0) if item.nodeid.split("::")[0].endswith(".ipynb") else (2, 0.0)
    items.sort(key=rank)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A ``sandbox`` test runs (with its module's fixtures, set up and torn down inside its
    protocol) holding the checkout lock shared: no other worker changes the checkout's
    permissions meanwhile (tests/checkout_lock.py)."""
    if item.get_closest_marker("sandbox") is None:
        yield
        return
    with checkout_in_use():
        yield
