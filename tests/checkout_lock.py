"""One lock across pytest-xdist's workers on the permissions of this checkout.

Some grader tests make the checkout's own folders private (``_course_private`` in
test_grading_construction.py), as a Gradescope bundle installs the course, because a
``user``-mode kernel runs as an id that belongs to no one and must not read them. Every
other kernel started from this checkout meanwhile, in any mode, cannot read them either
and dies before it answers (seen as the Gradescope fixture's kernels dying in the full
suite and never alone). So a test that starts kernels holds the lock shared, and a change
of the checkout's permissions holds it alone: a readers-writer lock, ``flock`` on one file
per checkout, which the operating system releases if a worker dies.

Each worker opens the file once; ``flock`` on that one descriptor turns a shared lock into
an exclusive one and back (the shared lock is dropped first, so two workers asking for it
at once cannot deadlock).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK_FILE = Path(tempfile.gettempdir()) / (
    "dimred-teach-tests-checkout-" + hashlib.sha256(str(ROOT).encode()).hexdigest()[:16] + ".lock")
_descriptor: list[int] = []
_shared_holds: list[int] = [0]


def _lock_descriptor() -> int:
    if not _descriptor:
        _descriptor.append(os.open(LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600))
    return _descriptor[0]


@contextlib.contextmanager
def checkout_in_use():
    """Held while a test may start kernels that read this checkout (shared with other such tests)."""
    fcntl.flock(_lock_descriptor(), fcntl.LOCK_SH)
    _shared_holds[0] += 1
    try:
        yield
    finally:
        _shared_holds[0] -= 1
        fcntl.flock(_lock_descriptor(), fcntl.LOCK_UN)


@contextlib.contextmanager
def checkout_permissions_changing():
    """Held alone while a test changes the permissions of this checkout's folders; a shared
    hold of this worker's own test is taken back afterwards."""
    fcntl.flock(_lock_descriptor(), fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(_lock_descriptor(), fcntl.LOCK_SH if _shared_holds[0] else fcntl.LOCK_UN)
