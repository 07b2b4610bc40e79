"""The class report's page: one self-contained, offline HTML file for the lecturer.

Per exercise set, the distribution of the scores and the pass rate of each exercise; per
exercise, its named mistakes as a bar chart, most frequent first, with one message each gave
and the lecture section to revisit. Figures are drawn with the course's style and embedded
as PNG data, each with a written description. Nothing is fetched from anywhere; no student
name appears unless asked for (``names``), and no per-student table unless asked for
(``students``), so the page can be shown in class.
"""

from __future__ import annotations

import base64
import html
import io
import textwrap
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.ticker import MaxNLocator

from .class_report import ExerciseSummary, MistakeCount, Submission

STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 60rem;
       padding: 0 1rem 3rem; }
h1 { margin-bottom: .25rem; } h2 { border-top: 2px solid #0072B2; padding-top: .75rem; margin-top: 2.5rem; }
h3 { margin-bottom: .25rem; } nav ul { padding-left: 1.2rem; columns: 2; }
a { color: #005a8c; } figure { margin: 1rem 0; } img { max-width: 100%; height: auto; }
figcaption, .revisit, .note { color: #333; font-size: .95rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; width: 100%; }
th, td { border-bottom: 1px solid #ccc; padding: .3rem .5rem; text-align: left; vertical-align: top; }
td.number, th.number { text-align: right; white-space: nowrap; }
code { font-size: .9em; } td code { white-space: nowrap; }
"""
PASSED, FAILED, NO_ANSWER, NOT_GRADED = "#009E73", "#D55E00", "#9a9a9a", "#000000"
CHART_BARS = 8
"""An exercise's chart shows its most frequent mistakes, at most this many; its table lists all."""


def _figure_html(figure, alt: str, caption: str) -> str:
    """A matplotlib figure as an embedded PNG with its description and caption."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80, metadata={"Software": None})  # the layout engine fits it
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def _new_figure(width: float, height: float, left: float = 0.12):
    """A figure of ``width`` x ``height`` inches whose axes start ``left`` of the width from the
    left edge (room for long tick labels) and leave half an inch below and a third above."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height))
    figure.subplots_adjust(left=left, right=0.95, bottom=0.55 / height, top=1 - 0.35 / height)
    return figure


def _score_figure(exercise_set: str, submissions: Sequence[Submission]) -> str:
    scores = np.array([s.score for s in submissions])
    maximum = max(s.max_score for s in submissions)
    figure = _new_figure(6.4, 2.6)
    ax = figure.add_subplot()
    edges = np.arange(-0.5, maximum + 1.0, 1.0) if maximum <= 40 else np.linspace(0, maximum, 21)
    ax.hist(scores, bins=edges, color="#0072B2", edgecolor="white")
    ax.set_xlabel(f"points (of {maximum:g})")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("submissions")
    ax.set_title(f"Scores in set {exercise_set[:2]}")
    full, zero = int(np.sum(scores >= maximum)), int(np.sum(scores == 0))
    alt = (f"Histogram of the scores of the {len(scores)} submissions of set {exercise_set[:2]}, from 0 to {maximum:g} "
           f"points: median {np.median(scores):g}, lowest {scores.min():g}, highest {scores.max():g}; "
           f"{full} reached full marks and {zero} scored nothing.")
    return _figure_html(figure, alt, f"The scores of set {exercise_set[:2]} ({len(scores)} submissions).")


def _pass_rate_figure(exercise_set: str, summaries: Sequence[ExerciseSummary]) -> str:
    figure = _new_figure(6.4, 1.2 + 0.38 * len(summaries), left=0.3)
    ax = figure.add_subplot()
    rows = np.arange(len(summaries))[::-1]
    left = np.zeros(len(summaries))
    parts = [("passed", PASSED, [s.passed for s in summaries]),
             ("failed", FAILED, [s.attempted - s.passed for s in summaries]),
             ("no answer", NO_ANSWER, [s.no_answer for s in summaries]),
             ("not graded", NOT_GRADED, [s.not_graded for s in summaries])]
    for label, colour, counts in parts:
        shares = np.array(counts) / np.array([s.submissions for s in summaries])
        ax.barh(rows, shares, left=left, color=colour, label=label, height=0.7)
        left += shares
    ax.set_yticks(rows, [s.exercise for s in summaries])
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the submissions")
    ax.legend(ncols=4, loc="lower center", bbox_to_anchor=(0.5, 1.0), fontsize=9)
    ax.grid(axis="y", visible=False)
    described = "; ".join(f"{s.exercise} {s.pass_rate:.0%} passed" + (f", {s.no_answer} without an answer"
                                                                      if s.no_answer else "") for s in summaries)
    alt = f"Stacked bars of the share of submissions that passed, failed, gave no answer or were not graded, per exercise of set {exercise_set[:2]}: {described}."
    return _figure_html(figure, alt, f"How each exercise of set {exercise_set[:2]} went.")


def _mistake_figure(exercise: str, every: Sequence[MistakeCount]) -> str:
    mistakes = every[:CHART_BARS]
    figure = _new_figure(7.5, 1.0 + 0.5 * len(mistakes), left=0.36)
    ax = figure.add_subplot()
    rows = np.arange(len(mistakes))[::-1]
    counts = [m.count for m in mistakes]
    ax.barh(rows, counts, color=FAILED, height=0.65)
    ax.set_yticks(rows, ["\n".join(textwrap.wrap(textwrap.shorten(m.name, 64, placeholder="..."), 32))
                         for m in mistakes], fontsize=9)
    for row, mistake in zip(rows, mistakes):
        ax.text(mistake.count, row, f" {mistake.count} ({mistake.share:.0%})", va="center", fontsize=9)
    ax.set_xlim(0, max(counts) * 1.3)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"submissions (of {mistakes[0].attempted} that attempted it)")
    ax.grid(axis="y", visible=False)
    described = "; ".join(f"{m.name}, {m.count} ({m.share:.0%})" for m in mistakes)
    rarer = f" {len(every) - len(mistakes)} rarer mistake(s) are in the table below." if len(every) > len(mistakes) else ""
    alt = (f"Bar chart of the mistakes made in exercise {exercise} by the {mistakes[0].attempted} submissions that "
           f"attempted it, most frequent first: {described}.{rarer}")
    return _figure_html(figure, alt, f"The mistakes of {exercise}, most frequent first.{rarer}")


def _exercise_table(summaries: Sequence[ExerciseSummary]) -> str:
    head = ("<tr><th scope='col'>exercise</th><th scope='col' class='number'>passed</th>"
            "<th scope='col' class='number'>attempted</th><th scope='col' class='number'>no answer</th>"
            "<th scope='col' class='number'>not graded</th><th scope='col' class='number'>median points</th>"
            "<th scope='col'>revisit</th></tr>")
    rows = "".join(
        f"<tr><th scope='row'><code>{html.escape(s.exercise)}</code></th>"
        f"<td class='number'>{s.passed} ({s.pass_rate:.0%})</td><td class='number'>{s.attempted}</td>"
        f"<td class='number'>{s.no_answer}</td><td class='number'>{s.not_graded}</td>"
        f"<td class='number'>{s.median_points:g} / {s.max_points:g}</td><td>{html.escape(s.revisit)}</td></tr>"
        for s in summaries)
    return f"<table><caption class='note'>Per exercise, of {summaries[0].submissions} submissions</caption>" \
           f"<thead>{head}</thead><tbody>{rows}</tbody></table>"


def _mistake_section(summary: ExerciseSummary, mistakes: Sequence[MistakeCount]) -> str:
    anchor = "exercise-" + summary.exercise.replace(".", "-")
    parts = [f"<section aria-labelledby='{anchor}'><h3 id='{anchor}'><code>{html.escape(summary.exercise)}</code>: "
             f"{summary.attempted - summary.passed} of {summary.attempted} attempts failed</h3>"]
    if summary.revisit:
        parts.append(f"<p class='revisit'>To revisit: {html.escape(summary.revisit)}.</p>")
    parts.append(_mistake_figure(summary.exercise, mistakes))
    rows = "".join(
        f"<tr><th scope='row'>{html.escape(m.name)}</th><td><code>{html.escape(m.mistake)}</code></td>"
        f"<td class='number'>{m.count} ({m.share:.0%})</td><td>{html.escape(m.example) or '&#8212;'}</td></tr>"
        for m in mistakes)
    parts.append("<table><thead><tr><th scope='col'>mistake</th><th scope='col'>id</th>"
                 "<th scope='col' class='number'>submissions</th><th scope='col'>what the check said to one of them"
                 f"</th></tr></thead><tbody>{rows}</tbody></table></section>")
    return "".join(parts)


def _student_table(submissions: Sequence[Submission], names: bool) -> str:
    rows = []
    for number, submission in enumerate(sorted(submissions, key=lambda s: (s.exercise_set, s.name)), start=1):
        who = html.escape(submission.name) if names else f"submission {number}"
        made = ", ".join(f"{o.exercise}: {o.mistake}" for o in submission.outcomes if o.mistake) or "none"
        rows.append(f"<tr><th scope='row'>{who}</th><td>{html.escape(submission.exercise_set)}</td>"
                    f"<td class='number'>{submission.score:g} / {submission.max_score:g}</td>"
                    f"<td>{html.escape(made)}</td></tr>")
    return ("<section aria-labelledby='students'><h2 id='students'>Submissions</h2><table><thead><tr>"
            "<th scope='col'>submission</th><th scope='col'>set</th><th scope='col' class='number'>points</th>"
            f"<th scope='col'>mistakes</th></tr></thead><tbody>{''.join(rows)}</tbody></table></section>")


def render_page(submissions: Sequence[Submission], summaries: Sequence[ExerciseSummary],
                mistakes: Sequence[MistakeCount], names: bool = False, students: bool = False,
                titles: dict[str, str] | None = None) -> str:
    """The page as one HTML string (figures embedded)."""
    import matplotlib

    from ..plotting import use_style

    titles = titles or {}
    by_set: dict[str, list[Submission]] = defaultdict(list)
    for submission in submissions:
        by_set[submission.exercise_set].append(submission)
    by_exercise: dict[str, list[MistakeCount]] = defaultdict(list)
    for mistake in mistakes:
        by_exercise[mistake.exercise].append(mistake)
    failing = sum(m.count for m in mistakes)
    body = [f"<header><h1>What the class got wrong</h1><p>{len(submissions)} graded submission(s) in "
            f"{len(by_set)} exercise set(s); {failing} failed attempt(s) across {len(by_exercise)} exercise(s), named "
            "by the checks' mistakes. Shares are of the submissions that attempted the exercise.</p></header>",
            "<nav aria-label='Exercise sets'><ul>"
            + "".join(f"<li><a href='#set-{html.escape(name[:2])}'>{html.escape(name[:2])} · "
                      f"{html.escape(titles.get(name[:2], name))}</a></li>" for name in sorted(by_set))
            + "</ul></nav>", "<main>"]
    with matplotlib.rc_context():
        use_style()
        for exercise_set in sorted(by_set):
            number = exercise_set[:2]
            in_set = [s for s in summaries if s.exercise_set == exercise_set]
            body.append(f"<section aria-labelledby='set-{html.escape(number)}-title' id='set-{html.escape(number)}'>"
                        f"<h2 id='set-{html.escape(number)}-title'>Set {html.escape(number)} · "
                        f"{html.escape(titles.get(number, exercise_set))}</h2>")
            body.append(_score_figure(exercise_set, by_set[exercise_set]))
            if in_set:
                body.append(_pass_rate_figure(exercise_set, in_set))
                body.append(_exercise_table(in_set))
            for summary in in_set:
                if by_exercise.get(summary.exercise):
                    body.append(_mistake_section(summary, by_exercise[summary.exercise]))
            body.append("</section>")
    if students:
        body.append(_student_table(submissions, names))
    body.append("</main>")
    return ("<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>What the class got wrong · dimred-teach</title><style>{STYLE}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")


def write_page(path: Path, submissions: Sequence[Submission], summaries: Sequence[ExerciseSummary],
               mistakes: Sequence[MistakeCount], names: bool = False, students: bool = False,
               titles: dict[str, str] | None = None) -> None:
    """Write :func:`render_page` to ``path``."""
    Path(path).write_text(render_page(submissions, summaries, mistakes, names, students, titles), encoding="utf-8")
