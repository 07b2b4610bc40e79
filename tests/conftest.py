"""Test-wide settings: the environment the stored notebook outputs came from (BLAS pinned
to one thread, MPLBACKEND unset so the nbval kernels, which inherit this environment,
keep their inline backend and figures appear in the outputs nbval compares), and a
derandomised hypothesis profile so CI runs the same examples every time.

The browser tests (tests/browser, Playwright + Chromium) run only with ``--browser``
(``python3 course.py browser-test``); the default run leaves them out."""

import os
from pathlib import Path

import pytest

from dimred_teach._environment import PINNED_THREADS, UNSET_FOR_KERNELS

os.environ.update(PINNED_THREADS)
for _name in UNSET_FOR_KERNELS:
    os.environ.pop(_name, None)

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("course", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("course")

BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_addoption(parser):
    parser.addoption("--browser", action="store_true",
                     help="also run the browser tests in tests/browser (Playwright and Chromium)")


def pytest_ignore_collect(collection_path, config):
    if collection_path == BROWSER_TESTS and not config.getoption("--browser"):
        return True
    return None


INDEPENDENT = {"test_check_proofs.py", "test_policy_scan.py"}
"""Files whose tests share nothing costly: with ``--dist loadgroup`` each of their tests goes
to whichever worker is free."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Keep every other file on one worker (pytest-xdist's ``loadgroup``): a notebook's cells
    run in order in one kernel, and a module's shared grading run is built once."""
    for item in items:
        if item.path.name not in INDEPENDENT:
            item.add_marker(pytest.mark.xdist_group(str(item.path)))
