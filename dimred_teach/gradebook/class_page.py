"""The class report's page: one self-contained, offline HTML file for the lecturer, read in
half a minute.

At the top, the class's most common named mistakes across every set, ranked, each with the
lecture section to revisit (linked to the course's site when its address is given), and apart
from them the failures no named mistake explains; then every set at a glance (the pass rate of
each exercise, coloured and written); then the exercises to look at (:mod:`.item_statistics`:
too easy, too hard, or discriminating poorly, each with what to look at); then each set in
detail, collapsed: its scores, its exercises' statistics and each exercise's named mistakes. Every chart is HTML
text and bars (readable at any zoom, printed as it is shown); every figure states its one
denominator. No student name appears unless asked for (``names``), and no per-student table
unless asked for (``students``), so the page can be shown in class.

The page is rendered by an autoescaping Jinja2 template: whatever a report holds reaches the
page as text, and ids and anchors are built from the set's number and positions only.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from .class_report import ExerciseSummary, MistakeCount, Submission, top_mistakes, unexplained
from .item_statistics import ItemStatistics, SetStatistics

STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 60rem;
       padding: 0 1rem 3rem; overflow-wrap: anywhere; }
h1 { margin-bottom: .25rem; } h2 { border-top: 2px solid #0072B2; padding-top: .75rem; margin-top: 2rem; }
h3 { display: inline; font-size: 1.15rem; } h4 { margin: 1.2rem 0 .2rem; }
a { color: #005a8c; } code { font-size: .9em; }
.note, .denominator, .revisit { color: #333; font-size: .95rem; } .denominator { font-style: italic; margin: .2rem 0; }
ol.top { padding-left: 1.6rem; margin: .5rem 0; } ol.top li { margin: 0 0 .45rem; line-height: 1.35; }
ol.top .what { display: block; } ol.top .bar { width: 6rem; margin-right: .3rem; }
.bar { display: inline-block; width: 8rem; height: .7rem; background: #e6e6e6; vertical-align: middle; }
.bar > span { display: block; height: 100%; background: #D55E00; }
table { border-collapse: collapse; margin: .4rem 0 1rem; width: 100%; }
th, td { border-bottom: 1px solid #ccc; padding: .25rem .4rem; text-align: left; vertical-align: top; }
th[scope=row] { font-weight: normal; }
table.bars td { white-space: nowrap; width: 13rem; } table.bars .bar > span { background: #0072B2; }
table.mistakes .bar > span { background: #D55E00; }
ul.cells { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem; }
ul.cells li { padding: .1rem .35rem; border-radius: 3px; font-size: .9rem; }
.q0 { background: #f4a582; } .q1 { background: #fddbc7; } .q2 { background: #f0f0f0; }
.q3 { background: #d1e5f0; } .q4 { background: #92c5de; }
ul.flags { padding-left: 1.2rem; } ul.flags li { margin: 0 0 .5rem; } .unexplained { margin-top: .6rem; }
details { border-top: 1px solid #ccc; padding: .5rem 0; } summary { cursor: pointer; }
@media (max-width: 40rem) { table.exercises thead { display: none; }
  table.exercises tr { display: block; border-bottom: 1px solid #ccc; padding: .3rem 0; }
  table.exercises th, table.exercises td { display: inline-block; border: 0; padding: 0 .5rem 0 0; }
  table.exercises td:nth-of-type(1)::before { content: "passed "; }
  table.exercises td:nth-of-type(2)::before { content: "failed "; }
  table.exercises td:nth-of-type(3)::before { content: "no answer "; }
  table.exercises td:nth-of-type(4)::before { content: "not graded "; }
  table.exercises td:nth-of-type(5)::before { content: "median "; }
  table.bars td { width: auto; white-space: normal; } .bar { width: 5rem; } }
@media print { body { max-width: none; font-size: 11pt; padding: 0; } a { color: inherit; }
  details { break-inside: auto; } summary { list-style: none; } h2 { break-after: avoid; }
  tr, ol.top li { break-inside: avoid; }
  .bar, .bar > span, ul.cells li { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""
TOP = 10
"""The most common mistakes shown first."""


def _percent(share: float) -> str:
    return f"{share:.0%}"


def points_text(value: float) -> str:
    """A number of points as the reports write it (``12``, ``1.5``)."""
    return f"{value:g}"


def _bar_width(share: float) -> str:
    """A bar's width in percent, as plain digits (the only number that goes into a style)."""
    return f"{max(0.0, min(1.0, float(share))) * 100:.1f}"


def _quintile(share: float) -> int:
    """The colour class of a pass rate: 0 (below 20%) to 4 (80% or more)."""
    return min(4, int(max(0.0, float(share)) * 5 + 1e-9))


def _scores(submissions: Sequence[Submission]) -> list[dict]:
    """The score distribution of a set: one row per point (up to 40 points; else 10 bins)."""
    scores = [s.score for s in submissions]
    maximum = max(s.max_score for s in submissions)
    if maximum <= 40:
        edges = [(points, points + 1) for points in range(int(maximum) + 1)]
        labels = [f"{low:g}" for low, _ in edges]
    else:
        step = maximum / 10
        edges = [(step * i, step * (i + 1) if i < 9 else maximum + 1) for i in range(10)]
        labels = [f"{low:g} to {min(high, maximum):g}" for low, high in edges]
    counts = [sum(low <= score < high for score in scores) for low, high in edges]
    return [{"label": label, "count": count, "share": count / max(counts)} for label, count in zip(labels, counts)]


def _statistic(value: float | None) -> str:
    """A facility or correlation as the page writes it (2 decimals), or a dash where undefined."""
    return "–" if value is None else f"{value:.2f}"


def _sets(submissions, summaries, titles, items, set_statistics) -> list[dict]:
    by_set: dict[str, list[Submission]] = defaultdict(list)
    for submission in submissions:
        by_set[submission.exercise_set].append(submission)
    sets = []
    for position, exercise_set in enumerate(sorted(by_set), start=1):
        chosen = by_set[exercise_set]
        number = exercise_set[:2]
        sets.append({"anchor": f"set-{position}", "number": number, "title": titles.get(number, exercise_set),
                     "submissions": len(chosen), "max_score": points_text(max(s.max_score for s in chosen)),
                     "median": points_text(statistics.median(s.score for s in chosen)), "scores": _scores(chosen),
                     "exercises": [s for s in summaries if s.exercise_set == exercise_set],
                     "item_statistics": [item for item in items if item.exercise_set == exercise_set],
                     "set_statistics": next((row for row in set_statistics if row.exercise_set == exercise_set), None)})
    return sets


def _students(submissions: Sequence[Submission], names: bool) -> list[dict]:
    rows = []
    for number, submission in enumerate(sorted(submissions, key=lambda s: (s.exercise_set, s.name)), start=1):
        rows.append({"who": submission.name if names else f"submission {number}",
                     "exercise_set": submission.exercise_set,
                     "points": f"{submission.score:g} / {submission.max_score:g}",
                     "mistakes": ", ".join(f"{o.exercise}: {o.mistake}" for o in submission.outcomes if o.mistake)
                     or "none"})
    return rows


def render_page(submissions: Sequence[Submission], summaries: Sequence[ExerciseSummary],
                mistakes: Sequence[MistakeCount], items: Sequence[ItemStatistics] = (),
                set_statistics: Sequence[SetStatistics] = (), names: bool = False, students: bool = False,
                titles: dict[str, str] | None = None, site_url: str = "") -> str:
    """The page as one HTML string.

    titles : lecture number -> title; site_url : the course site's address (ending in ``/``),
    for the links to the sections to revisit.
    """
    from jinja2 import Environment, PackageLoader, StrictUndefined
    from markupsafe import Markup

    environment = Environment(loader=PackageLoader("dimred_teach.gradebook", "templates/class_report"),
                              autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True)
    template = environment.get_template("index.html.j2")
    by_exercise: dict[str, list[MistakeCount]] = defaultdict(list)
    for mistake in mistakes:
        by_exercise[mistake.exercise].append(mistake)
    return template.render(
        style=Markup(STYLE),
        submissions=len(submissions),
        sets=_sets(submissions, summaries, titles or {}, items, set_statistics),
        failed=sum(m.count for m in mistakes),
        exercises_with_mistakes=len(by_exercise),
        top=top_mistakes(mistakes, TOP),
        unexplained=unexplained(mistakes),
        flagged=[item for item in items if item.flag],
        by_exercise={s.exercise: s for s in summaries},
        mistakes_of=by_exercise,
        site_url=site_url if site_url.startswith(("https://", "http://", "./", "../", "/")) else "",
        students=_students(submissions, names) if students else [],
        percent=_percent,
        number=points_text,
        bar_width=_bar_width,
        quintile=_quintile,
        statistic=_statistic,
    )


def write_page(path: Path, submissions: Sequence[Submission], summaries: Sequence[ExerciseSummary],
               mistakes: Sequence[MistakeCount], items: Sequence[ItemStatistics] = (),
               set_statistics: Sequence[SetStatistics] = (), **options) -> None:
    """Write :func:`render_page` to ``path`` (``options`` as it takes them)."""
    Path(path).write_text(render_page(submissions, summaries, mistakes, items, set_statistics, **options),
                          encoding="utf-8")
