"""Proofs of the exercise checks: correct variants that must pass and mutants that must fail.

Each exercise set has a module ``tests/check_cases/setNN.py`` defining

    CASES: dict[str, tuple[list[Variant], list[Mutant]]]

keyed by exercise id ("NN.name"). A variant is a correct answer in another form (float32, a
list for a tuple, Fortran order, a sign flip, another valid method or convention); it must pass
on every seed. A mutant is a mistake students really make (1/n for 1/(n-1), no centring,
ascending order, a function that depends on call order); it must fail on every seed with a
message matching ``names``. ``answer`` builds a fresh answer each time it is called, so a
stateful mutant (a function counting its calls) starts anew on every seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Variant:
    """A correct answer in another equivalent form: must pass on every seed."""

    name: str
    answer: Callable[[], Any]


@dataclass(frozen=True)
class Mutant:
    """A typical mistake: must fail on every seed with a message matching ``names``
    (a regular expression, searched case-insensitively)."""

    name: str
    answer: Callable[[], Any]
    names: str
