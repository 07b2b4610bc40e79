"""Test-wide settings: the environment the stored notebook outputs came from (BLAS pinned
to one thread, MPLBACKEND unset so the nbval kernels, which inherit this environment,
keep their inline backend and figures appear in the outputs nbval compares), and a
derandomised hypothesis profile so CI runs the same examples every time.

The browser tests (tests/browser, Playwright + Chromium) run only with ``--browser``
(``python3 course.py browser-test``); the default run leaves them out.

pytest-xdist hands out one file at a time in collection order (``--no-loadscope-reorder``,
see course.py), so the longest files come first: the grader's, which mostly wait on
sandboxed kernels, start beside the CPU-bound proofs and the run does not end on a long
file started last. The browser tests' files are ordered the same way: the lab's lectures
and the site's pages start first, on one worker each. A test of a file that starts grading
kernels holds the checkout lock shared, against a test changing the checkout's permissions
(tests/checkout_lock.py)."""

import functools
import os
from pathlib import Path

import pytest

from checkout_lock import checkout_in_use
from dimred_teach._environment import PINNED_THREADS, UNSET_FOR_KERNELS

os.environ.update(PINNED_THREADS)
for _name in UNSET_FOR_KERNELS:
    os.environ.pop(_name, None)

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("course", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("course")

BROWSER_TESTS = Path(__file__).parent / "browser"
SLURM_TESTS = Path(__file__).parent / "slurm"

LONGEST_FIRST = ("tests/test_grading_construction.py", "tests/test_check_proofs.py", "tests/test_grading.py",
                 "tests/test_grading_hostile.py", "tests/test_demo_class.py", "tests/test_class_report.py",
                 "tests/test_manifest.py", "tests/test_exercise_sets.py", "tests/test_grading_assignment.py",
                 "tests/test_policy_scan.py",
                 "tests/browser/test_lab.py", "tests/browser/test_site.py", "tests/browser/test_slides.py",
                 "tests/browser/test_exercises.py", "tests/browser/test_rise.py")
"""The files that take longest (most of it, for the grader's, waiting on kernels; for the browser
tests, on JupyterLab and Chromium), in the order to start them. The first two start together:
the one that makes the checkout private at times beside one that starts no kernel, so neither
waits on the checkout lock (tests/checkout_lock.py)."""


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


def pytest_collection_modifyitems(config, items):
    """The files of :data:`LONGEST_FIRST` in its order, then the notebooks (each several
    seconds in one kernel), then the rest; each file's tests keep their order."""
    def rank(item) -> tuple[int, int]:
        path = item.nodeid.split("::")[0]
        if path in LONGEST_FIRST:
            return 0, LONGEST_FIRST.index(path)
        return (1, 0) if path.endswith(".ipynb") else (2, 0)
    items.sort(key=rank)


GRADER_ENTRY_POINTS = ('"grade"', "grade(", "run_autograder", "sandbox")
"""What a test file names when it starts grading kernels (the CLI's ``grade``, the scheduler's
``grade()``, the Gradescope bundle, a sandbox mode)."""


@functools.cache
def _starts_kernels(path: Path) -> bool:
    return path.suffix == ".py" and any(name in path.read_text() for name in GRADER_ENTRY_POINTS)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A test of a file that starts grading kernels runs (with its module's fixtures, set up
    and torn down inside its protocol) holding the checkout lock shared: no other worker
    changes the checkout's permissions meanwhile (tests/checkout_lock.py)."""
    if not _starts_kernels(Path(item.fspath)):
        yield
        return
    with checkout_in_use():
        yield
