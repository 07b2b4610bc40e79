"""Item statistics of a class: how hard each exercise was, and how well it tells the students
who learnt its set from those who did not (classical test theory, as PrairieLearn's question
statistics and Moodle's quiz statistics report it).

For an exercise (an item) of a set, over the set's ``N`` submissions, with ``x`` its points
and ``t`` the set's total points of each submission (shape ``(N,)`` each):

- **facility**: the mean of ``x / max_points`` (0: no one scored; 1: everyone scored full points);
- **discrimination**: the Pearson correlation of ``x`` and the rest score ``t - x`` (item-rest:
  the exercise's own points left out of the total, which would otherwise correlate with
  themselves); none where either does not vary, as no correlation is defined there.

For a set of ``k`` exercises, **alpha** is Cronbach's, ``k / (k - 1) * (1 - sum_i var(x_i) /
var(t))``: how consistently the set's exercises rank the students; none with fewer than two
exercises or a total that does not vary.

A submission without an outcome for one of its set's exercises (an empty cell of a gradebook)
scores 0 on it. Every value is rounded to :data:`DIGITS` decimals when computed, before it is
compared, flagged or written, so ``items.csv``, ``sets.csv`` and the flags are the same on
every machine.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._csv_cells import csv_cell
from .class_report import ExerciseSummary, Submission

DIGITS = 4
"""Decimals of every statistic (rounded when computed)."""
POOR_DISCRIMINATION = 0.2
"""An exercise whose discrimination is below this hardly tells who learnt the set."""
ALMOST_EVERYONE, ALMOST_NO_ONE = 0.9, 0.1
"""Facilities at or beyond these: almost everyone, or almost no one, scores on the exercise."""


@dataclass(frozen=True)
class ItemStatistics:
    """One exercise over its set's submissions."""

    exercise: str
    exercise_set: str
    submissions: int
    attempted: int
    facility: float
    discrimination: float | None

    @property
    def flag(self) -> str:
        """What the lecturer should look at, in a sentence; empty when nothing stands out. An
        exercise almost everyone (or no one) scores on is flagged for that alone: it cannot
        discriminate."""
        set_number = self.exercise_set[:2]
        if self.facility >= ALMOST_EVERYONE:
            return (f"Almost everyone scores on it (facility {self.facility:.2f}), so it tells little about who learnt "
                    f"set {set_number}: keep it as a warm-up, or ask for one step more.")
        if self.facility <= ALMOST_NO_ONE:
            return (f"Almost no one scores on it (facility {self.facility:.2f}): read its most common mistake and the "
                    "check's hint, and ask whether the lecture teaches what it asks and the time it is given suffices.")
        if self.discrimination is not None and self.discrimination < POOR_DISCRIMINATION:
            return (f"Students who did well on the rest of set {set_number} did "
                    f"{'worse' if self.discrimination < 0 else 'no better'} on it (item-rest correlation "
                    f"{self.discrimination:.2f}): look for right answers its check fails (a form, a tolerance), "
                    "wrong ones it passes, or a skill the rest of the set does not practise.")
        return ""


@dataclass(frozen=True)
class SetStatistics:
    """One exercise set: its submissions and Cronbach's alpha over its exercises."""

    exercise_set: str
    submissions: int
    exercises: int
    alpha: float | None


def _rounded(value: float) -> float:
    """``value`` at :data:`DIGITS` decimals, without a negative zero."""
    return round(float(value), DIGITS) + 0.0


def _correlation(x: np.ndarray, y: np.ndarray) -> float | None:
    """Pearson's r of x and y (shape (N,) each); None when either does not vary."""
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    dx, dy = x - x.mean(), y - y.mean()
    return _rounded(np.clip(dx @ dy / np.sqrt((dx @ dx) * (dy @ dy)), -1.0, 1.0))


def _alpha(points: np.ndarray) -> float | None:
    """Cronbach's alpha of an (N, k) matrix of points; None for k < 2 or a total that does not vary."""
    k = points.shape[1]
    total = points.sum(axis=1)
    if k < 2 or np.ptp(total) == 0:
        return None
    return _rounded(k / (k - 1) * (1 - points.var(axis=0).sum() / total.var()))


def item_statistics(submissions: Sequence[Submission], summaries: Sequence[ExerciseSummary]
                    ) -> tuple[list[ItemStatistics], list[SetStatistics]]:
    """Every exercise's statistics (in the order of ``summaries``) and every set's, by set name."""
    by_set: dict[str, list[Submission]] = defaultdict(list)
    for submission in submissions:
        by_set[submission.exercise_set].append(submission)
    items, sets = [], []
    for exercise_set in sorted(by_set):
        chosen = by_set[exercise_set]
        exercises = [summary for summary in summaries if summary.exercise_set == exercise_set]
        points = np.zeros((len(chosen), len(exercises)))
        maxima = np.array([summary.max_points for summary in exercises])
        column = {summary.exercise: j for j, summary in enumerate(exercises)}
        for i, submission in enumerate(chosen):
            for outcome in reversed(submission.outcomes):  # the first outcome of an exercise counts
                if outcome.exercise in column:
                    points[i, column[outcome.exercise]] = outcome.points
        total = points.sum(axis=1)
        for j, summary in enumerate(exercises):
            facility = float(np.mean(points[:, j] / maxima[j])) if maxima[j] > 0 else 0.0
            items.append(ItemStatistics(summary.exercise, exercise_set, len(chosen), summary.attempted,
                                        _rounded(facility), _correlation(points[:, j], total - points[:, j])))
        sets.append(SetStatistics(exercise_set, len(chosen), len(exercises), _alpha(points)))
    return items, sets


def _value(value: float | None) -> str:
    return "" if value is None else f"{value:.{DIGITS}f}"


def write_statistics(out: Path, items: Sequence[ItemStatistics], sets: Sequence[SetStatistics]) -> None:
    """``items.csv`` (``exercise``, ``submissions``, ``attempted``, ``facility``,
    ``discrimination``) and ``sets.csv`` (``set``, ``submissions``, ``alpha``) in ``out``; an
    undefined statistic is an empty cell."""
    with (Path(out) / "items.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["exercise", "submissions", "attempted", "facility", "discrimination"])
        for item in items:
            writer.writerow([csv_cell(item.exercise), item.submissions, item.attempted, _value(item.facility),
                             _value(item.discrimination)])
    with (Path(out) / "sets.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["set", "submissions", "alpha"])
        for row in sets:
            writer.writerow([csv_cell(row.exercise_set), row.submissions, _value(row.alpha)])


__all__ = ["ItemStatistics", "SetStatistics", "item_statistics", "write_statistics", "DIGITS",
           "POOR_DISCRIMINATION", "ALMOST_EVERYONE", "ALMOST_NO_ONE"]
