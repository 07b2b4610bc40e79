"""Property-based checks of exercise answers.

In a notebook, ``check("01.top_direction", w)`` verifies the *properties* an answer must
have (a unit vector that satisfies S w = lambda w for the largest lambda, say), never
equality with a stored answer, and prints one line: passed, or "not yet" with the reason
and a hint. The grader uses the same checks through :func:`evaluate`.

Checks live in one module per exercise set, ``dimred_teach/checks/setNN.py``, registered
with :func:`register`; an exercise id is ``"NN.name"``. A check is a function
``verify(answer, rng)`` that raises :class:`CheckFailure` with a message saying which
property fails. When the exercise asks for a function, ``answer`` is that function and the
check calls it on fresh random instances drawn from ``rng``.

Every failure also carries a *mistake id*, a stable name for what went wrong that a class
report can count: an id the set's module declares in its ``MISTAKES`` (``"missing-half"``:
"forgot the factor -1/2"), or one of :data:`RESERVED_MISTAKES` (``"other"`` when no named
mistake explains the failure).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import secrets
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["CheckFailure", "Check", "Verdict", "RESERVED_MISTAKES", "register", "get_check", "registered_ids",
           "mistakes_of", "mistake_name", "evaluate", "check"]

_EXERCISE_ID = re.compile(r"^(\d\d)\.[A-Za-z_][\w]*$")
LINE_WIDTH = 88
"""Verdict lines are wrapped on word boundaries at this width, which fits a notebook's output
area, so the browser never breaks a word."""
_REGISTRY: dict[str, Check] = {}
MISTAKE_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
"""A mistake id: lower-case words joined by hyphens (``missing-half``)."""

RESERVED_MISTAKES = {
    "other": "a failure no named mistake explains",
    "wrong-form": "an answer of the wrong type, shape or kind of number",
    "no-answer": "no answer yet",
    "raised": "the answer raised an error",
    "policy": "used what the exercise set forbids",
    "too-slow": "the function did not return in time",
    "untransferable": "an answer the grader cannot transfer",
    "not-graded": "not graded (time or size limits, or the check cell did not run)",
    "grader": "the grader could not run the check",
    "typed-digits": "numbers typed back at printed precision, not computed",
}
"""Mistake ids every exercise may report, beside the ones its set's ``MISTAKES`` names."""


class CheckFailure(Exception):
    """An answer lacks a required property; the message says which, in plain words, and
    ``mistake`` names the mistake (an id of the set's ``MISTAKES`` or of
    :data:`RESERVED_MISTAKES`)."""

    def __init__(self, message: str, mistake: str = "other"):
        super().__init__(message)
        self.mistake = mistake


@dataclass(frozen=True)
class Check:
    """A registered check: its id, its verifier and the hint shown when it fails. A value
    exercise (the same answer for everybody) may also give its ``answer`` (a function
    computing the right value, for the build's search for answers printed in the course) and
    ``float32_slack``, the units of float32 rounding its answer is judged at in float32 (by
    default :data:`~dimred_teach.checks.properties.VALUE_SLACK`)."""

    exercise_id: str
    verify: Callable[[Any, np.random.Generator], None]
    hint: str
    answer: Callable[[], Any] | None = None
    float32_slack: float | None = None


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking one answer; a failed one names its mistake (id and short name)."""

    exercise_id: str
    passed: bool
    message: str
    hint: str
    mistake: str = ""
    mistake_name: str = ""

    @property
    def status(self) -> str:
        return "passed" if self.passed else "not yet"

    def line(self) -> str:
        """The verdict for a student: what passed, or what is missing and a hint, wrapped on
        word boundaries at :data:`LINE_WIDTH` columns with a hanging indent."""
        if self.passed:
            return _wrap(f"[passed] {self.exercise_id}: {self.message}", "    ")
        return "\n".join([_wrap(f"[not yet] {self.exercise_id}: {self.message}", "    "),
                          _wrap(f"  hint: {self.hint}", "        ")])


def _wrap(text: str, indent: str) -> str:
    """``text`` wrapped at :data:`LINE_WIDTH` columns, continuation lines indented by ``indent``
    (words are never split, however long; the message's own line breaks are kept)."""
    return "\n".join(
        textwrap.fill(part, width=LINE_WIDTH, subsequent_indent=indent, break_long_words=False,
                      break_on_hyphens=False) if number == 0 else
        textwrap.fill(part, width=LINE_WIDTH, initial_indent=indent, subsequent_indent=indent,
                      break_long_words=False, break_on_hyphens=False)
        for number, part in enumerate(text.split("\n"))
    )


def register(exercise_id: str, hint: str, answer: Callable[[], Any] | None = None,
             float32_slack: float | None = None):
    """Decorator registering ``verify(answer, rng)`` as the check of ``exercise_id`` (see
    :class:`Check` for the optional ``answer`` and ``float32_slack`` of a value exercise)."""
    if not _EXERCISE_ID.match(exercise_id):
        raise ValueError(f"exercise_id must look like 'NN.name', got {exercise_id!r}")

    def decorator(verify):
        if exercise_id in _REGISTRY:
            raise ValueError(f"exercise_id {exercise_id!r} is registered twice")
        _REGISTRY[exercise_id] = Check(exercise_id, verify, hint, answer, float32_slack)
        return verify

    return decorator


def get_check(exercise_id: str) -> Check:
    """The check registered for ``exercise_id`` (importing its set's module on demand)."""
    match = _EXERCISE_ID.match(exercise_id) if isinstance(exercise_id, str) else None
    if not match:
        raise ValueError(f"exercise_id must look like 'NN.name', got {exercise_id!r}")
    try:
        importlib.import_module(f"{__name__}.set{match.group(1)}")
    except ModuleNotFoundError as error:
        raise ValueError(f"exercise_id {exercise_id!r}: there is no exercise set {match.group(1)}") from error
    try:
        return _REGISTRY[exercise_id]
    except KeyError:
        known = sorted(key for key in _REGISTRY if key.startswith(match.group(1) + "."))
        raise ValueError(f"exercise_id {exercise_id!r} is unknown; set {match.group(1)} has {known}") from None


def mistakes_of(exercise_set: str) -> dict[str, str]:
    """The named mistakes of exercise set ``"NN"``: its module's ``MISTAKES``, id to short name."""
    try:
        module = importlib.import_module(f"{__name__}.set{exercise_set}")
    except ModuleNotFoundError:
        raise ValueError(f"there is no exercise set {exercise_set!r}") from None
    return dict(getattr(module, "MISTAKES", {}))


def mistake_name(exercise_id: str, mistake: str) -> str:
    """The short name of ``mistake`` for ``exercise_id``; ValueError for an id nobody declared."""
    if mistake in RESERVED_MISTAKES:
        return RESERVED_MISTAKES[mistake]
    named = mistakes_of(exercise_id[:2])
    if mistake not in named:
        raise ValueError(f"{exercise_id}: the mistake id {mistake!r} is neither reserved nor in the set's MISTAKES")
    return named[mistake]


def registered_ids() -> list[str]:
    """Every registered exercise id, after importing every exercise set's module."""
    for module in pkgutil.iter_modules(__path__):
        if re.fullmatch(r"set\d\d", module.name):
            importlib.import_module(f"{__name__}.{module.name}")
    return sorted(_REGISTRY)


def evaluate(exercise_id: str, answer, seed: int | None = None, namespace: dict | None = None) -> Verdict:
    """Check ``answer`` and return the verdict; never raises for a bad answer.

    ``seed`` seeds the random instances a check may draw; by default a fresh one, so a
    function is tested on instances nobody has seen before. ``namespace`` (the notebook's
    globals, passed by :func:`check`) lets the course policy see what the answer used.
    """
    # imported here: they need CheckFailure from this module
    from .policy import Watch
    from .properties import FUNCTION_SLACK, TYPED_DIGITS, VALUE_SLACK, judging_precision, looks_typed_back

    entry = get_check(exercise_id)
    rng = np.random.default_rng(secrets.randbits(64) if seed is None else seed)

    def verdict(message: str, mistake: str = "") -> Verdict:
        return Verdict(exercise_id, not mistake, message, entry.hint, mistake,
                       mistake_name(exercise_id, mistake) if mistake else "")

    if answer is Ellipsis or answer is None:
        return verdict("no answer yet (replace the ... with your code)", "no-answer")
    try:
        slack = FUNCTION_SLACK if callable(answer) else entry.float32_slack or VALUE_SLACK
        with judging_precision(slack), Watch(exercise_id, answer, namespace):  # Watch: the course policy
            entry.verify(answer, rng)
    except CheckFailure as failure:
        if entry.answer is not None and looks_typed_back(answer, entry.answer()):
            return verdict("your numbers agree with the right ones only to the digits a printout shows: hand "
                           "the check the values your code computes, not numbers typed in", TYPED_DIGITS)
        return verdict(str(failure), failure.mistake)
    except NotImplementedError:
        return verdict("no answer yet (the function still raises NotImplementedError)", "no-answer")
    except Exception as error:  # the student's code raised: report it, do not crash
        return verdict(f"your answer raised {type(error).__name__}: {error}", "raised")
    return verdict("all properties hold")


def check(exercise_id: str, answer) -> None:
    """Check an exercise answer in a notebook and print the verdict (one line, plus a
    hint when it fails)."""
    print(evaluate(exercise_id, answer, namespace=sys._getframe(1).f_globals).line())
