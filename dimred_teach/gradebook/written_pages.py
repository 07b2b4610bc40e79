"""``dimred-teach written REPORTS... --out DIR``: the class's written answers, to grade by rubric.

From the reports of ``grade`` (which carry each written answer as plain text) and the course's
solution sources (the rubric and model answer of each written part, :mod:`dimred_teach.course.written_parts`),
it writes into ``DIR``

- ``<exercise>.html`` per exercise (``04.recover_b.html``): the exercise's rubric and model answer
  at the top, then every submission's answer, identical answers (compared with their white space
  collapsed) grouped into one, the largest groups first, and the blank ones together at the end;
  each group names its submissions (numbers only with ``--anonymous``, in an order shuffled by
  ``--seed``) and its rows in the scores file;
- ``index.html``: the exercises, with how many answers, distinct answers and blanks each has;
- ``written-scores.csv`` (see :mod:`.written_scores`): one row per submission and part, in the
  pages' order, for the lecturer to fill in; blanks are scored 0 already. It is never
  overwritten: a filled-in file is the lecturer's work.

Markdown is rendered by markdown-it-py (CommonMark) with raw HTML, links, images and headings
switched off, so what a student wrote is text on the page, never a tag, a request or a heading
of the page; math is shown as its TeX, in a box. The pages are autoescaping Jinja2 templates, load
nothing and allow nothing to load (a Content-Security-Policy of ``default-src 'none'``).
"""

from __future__ import annotations

import argparse
import functools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..course.manifest import read_manifest
from ..course.written_parts import WrittenPart, read_written_parts
from ..grading.results import WrittenAnswer
from .class_page import points_text
from .class_report import read_reports
from .written_scores import SCORES_FILE, write_scores

__all__ = ["Group", "render_markdown", "group_answers", "written_pages", "add_arguments", "run"]


@functools.cache
def _markdown():
    """CommonMark without raw HTML, links, images or headings; math kept as its TeX, in a box."""
    from markdown_it import MarkdownIt
    from markdown_it.common.utils import escapeHtml
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark", {"html": False}).use(dollarmath_plugin)
    md.disable(["image", "link", "autolink", "heading", "lheading"])
    md.add_render_rule("math_inline", lambda self, tokens, i, options, env:
                       f'<span class="math">{escapeHtml("$" + tokens[i].content + "$")}</span>')
    md.add_render_rule("math_block", lambda self, tokens, i, options, env:
                       f'<div class="math">{escapeHtml("$$" + tokens[i].content.strip() + "$$")}</div>\n')
    return md


INLINE_MATH = re.compile(r"(?<![$\\])\$(?!\$)([^$\n]*(?:\n(?![ \t]*\n)[^$\n]*)+)\$")
"""Inline math over several lines of one paragraph (whose lines could start a list, ``- \\bar d``)."""


def render_markdown(text: str, inline: bool = False):
    """``text`` (Markdown with ``$``-delimited TeX) as safe HTML (``inline``: one line's, no
    paragraph): every tag, entity and link a student wrote is text; returns
    :class:`markupsafe.Markup`. Inline math is put on one line first, as Jupyter reads math
    before Markdown."""
    from markupsafe import Markup

    text = INLINE_MATH.sub(lambda match: "$" + match[1].replace("\n", " ") + "$", text)
    return Markup(_markdown().renderInline(text) if inline else _markdown().render(text))


@dataclass(frozen=True)
class Group:
    """Identical answers of one part: their text and the submissions (indices into the page's
    list of labels) that gave it; ``rows`` are their lines in the scores file."""

    text: str
    members: tuple[int, ...]
    blank: bool
    rows: tuple[int, ...] = ()


def _same(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def group_answers(answers: Sequence[WrittenAnswer | None], order: Sequence[int]) -> list[Group]:
    """The answers of one part (``None`` for a submission without this part) grouped: identical
    texts (white space collapsed) together, the largest groups first (ties in ``order``, the
    submissions' order on the page), the blank answers last; each group's members in ``order``."""
    rank = {index: position for position, index in enumerate(order)}
    groups: dict[str, list[int]] = {}
    blanks = []
    for index in order:
        answer = answers[index]
        if answer is None:
            continue
        if answer.blank:
            blanks.append(index)
        else:
            groups.setdefault(_same(answer.text), []).append(index)
    found = [Group(answers[members[0]].text, tuple(members), False) for members in groups.values()]
    found.sort(key=lambda group: (-len(group.members), rank[group.members[0]]))
    return found + ([Group("", tuple(blanks), True)] if blanks else [])


def _solution_parts(root: Path, exercise_sets: Sequence[str]) -> dict[tuple[str, int], WrittenPart]:
    """The written parts of the sets, from the course's solution sources; ValueError naming
    ``--root`` when the course or a solution is not there."""
    try:
        lectures = {lecture.stem: lecture for lecture in read_manifest(root)}
    except (OSError, ValueError) as error:
        raise ValueError(f"--root: {root} is not the course's checkout ({error}); the rubrics and model answers are "
                         "in its solutions/") from None
    parts = {}
    for exercise_set in exercise_sets:
        lecture = lectures.get(exercise_set)
        if lecture is None or not lecture.solution_source.is_file():
            raise ValueError(f"--root: {root} has no solutions/{exercise_set}.py, which holds the rubrics of set "
                             f"{exercise_set[:2]}; run in the course's checkout or pass --root")
        parts.update({(part.exercise, part.part): part for part in read_written_parts(lecture.solution_source)})
    return parts


def _environment():
    from jinja2 import Environment, PackageLoader, StrictUndefined

    return Environment(loader=PackageLoader("dimred_teach.gradebook", "templates/written"), autoescape=True,
                       undefined=StrictUndefined)


def written_pages(paths: Sequence[Path], out: Path, root: Path, anonymous: bool = False, seed: int = 0) -> str:
    """Write the pages and the scores file (see the module docstring); returns a one-line account.
    ValueError naming the argument at fault; nothing is written then."""
    submissions, skipped = read_reports(paths)
    submissions = [s for s in submissions if s.written]
    if not submissions:
        raise ValueError(f"REPORTS: no written answer in {', '.join(map(str, paths))} (reports of `grade` carry them "
                         "for the exercise sets that have written parts)")
    out = Path(out)
    if (out / SCORES_FILE).exists():
        raise ValueError(f"--out: {out / SCORES_FILE} exists (a filled-in copy would be lost); name another folder "
                         "or move it away")
    parts = _solution_parts(root, sorted({s.exercise_set for s in submissions}))
    order = list(range(len(submissions)))
    if anonymous:
        random.Random(seed).shuffle(order)
    else:
        order.sort(key=lambda index: submissions[index].name)
    labels = {index: f"answer {position + 1}" if anonymous else submissions[index].name
              for position, index in enumerate(order)}
    unknown = sum((a.exercise, a.part) not in parts for s in submissions for a in s.written)
    repriced = sum(
        (a.exercise, a.part) in parts and round(parts[(a.exercise, a.part)].points, 6) != round(a.max_points, 6)
        for s in submissions
        for a in s.written
    )
    pages, rows = [], []
    for exercise in dict.fromkeys(key[0] for key in parts):
        sections = []
        for key in [key for key in parts if key[0] == exercise]:
            answers = [next((a for a in s.written if (a.exercise, a.part) == key), None) for s in submissions]
            if not any(answers):
                continue
            groups = []
            for group in group_answers(answers, order):
                numbers = tuple(range(len(rows) + 2, len(rows) + 2 + len(group.members)))  # line 1 is the header
                rows += [(submissions[m], answers[m]) for m in group.members]
                groups.append(Group(group.text, group.members, group.blank, numbers))
            sections.append({"part": parts[key], "groups": groups, "answered": sum(a is not None for a in answers),
                             "blank": sum(bool(a and a.blank) for a in answers)})
        if sections:
            pages.append({"exercise": exercise, "file": f"{exercise}.html", "title": parts[(exercise, 1)].title,
                          "sections": sections})
    out.mkdir(parents=True, exist_ok=True)
    environment = _environment()
    common = {"markdown": render_markdown, "labels": labels, "anonymous": anonymous, "points": points_text}
    for page in pages:
        (out / page["file"]).write_text(environment.get_template("exercise.html.j2").render(page=page, **common),
                                        encoding="utf-8")
    (out / "index.html").write_text(environment.get_template("index.html.j2").render(pages=pages, **common),
                                    encoding="utf-8")
    write_scores(out / SCORES_FILE, rows)
    account = (f"{len(submissions)} submission(s), {len(pages)} exercise page(s), {len(rows)} answer(s) "
               f"({sum(a.blank for _, a in rows)} blank, scored 0): {out / 'index.html'}, {out / SCORES_FILE}")
    if unknown:
        account += f"\nskipped {unknown} answer(s) to written parts the course's solutions do not have"
    if repriced:
        account += (f"\nnote: {repriced} answer(s) are worth other points in their report than their rubric gives now; "
                    f"{SCORES_FILE} keeps the reports' (what was graded)")
    return account + "".join(f"\nskipped {note}" for note in skipped)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``dimred-teach written``."""
    parser.add_argument("reports", nargs="+", type=Path, help="--out folders of grade, or report files")
    parser.add_argument("--out", type=Path, required=True,
                        help="folder for one page per exercise, index.html and written-scores.csv")
    parser.add_argument("--root", type=Path, default=Path.cwd(),
                        help="the course's checkout (its solutions hold the rubrics and model answers)")
    parser.add_argument("--anonymous", action="store_true",
                        help="number the answers instead of naming them, in a shuffled order")
    parser.add_argument("--seed", type=int, default=0, help="the shuffle of --anonymous (default 0)")


def run(args) -> int:
    """``dimred-teach written``: 0, or ValueError naming the argument at fault."""
    print(written_pages(args.reports, args.out, args.root.resolve(), args.anonymous, args.seed))
    return 0
