"""Test-wide settings: the environment the stored notebook outputs came from (BLAS pinned
to one thread, MPLBACKEND unset so the nbval kernels, which inherit this environment,
keep their inline backend and figures appear in the outputs nbval compares), and a
derandomised hypothesis profile so CI runs the same examples every time.

The browser tests (tests/browser, Playwright + Chromium) run only with ``--browser``
(``python3 course.py browser-test``); the default run leaves them out."""

import os
from pathlib import Path

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
