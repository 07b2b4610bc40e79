"""The written answers of a submission, read as plain text from its markdown cells before any
kernel starts: never rendered, run or trusted beyond being text of a bounded size.

``dimred-teach build`` gives each written answer's cell (``**Your answer:** *(write it here)*``)
the id ``written-<exercise>-<part>`` and the metadata ``{"dimred_teach": {"written":
{"exercise": ..., "part": ...}}}``; the grading spec lists the parts (``written``: exercise,
part, points, cell id). A submission's answer is the text of the cell marked for the part (by
metadata, else by id) with the template's own words taken out, followed by the markdown cells
the student added right below it; an answer with nothing else is blank.
"""

from __future__ import annotations

import re

from .results import WrittenAnswer

ANSWER_MARKDOWN = "**Your answer:** *(write it here)*"
"""What the exercise notebook holds in each written answer's cell."""
ANSWER_LEAD, PLACEHOLDER = "**Your answer:**", "*(write it here)*"
TEXT_LIMIT = 20_000
"""Most characters of one written answer a report carries (the rest is cut, and said so)."""
TEMPLATE_ID = re.compile(r"^(cell-\d{3}|check-.*|written-.*)$")
"""The ids of the exercise notebook's own cells: a cell with another id (or none) was added by the student."""
HEADING = re.compile(r"^#{1,2} ", re.M)


def marker(exercise: str, part: int) -> dict:
    """The metadata that marks a written answer's cell (see the module docstring)."""
    return {"dimred_teach": {"written": {"exercise": exercise, "part": part}}}


def _text(cell) -> str:
    source = cell.get("source", "") if isinstance(cell, dict) else ""
    if isinstance(source, list):
        source = "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else ""


def _marked(cell, entry: dict) -> bool:
    metadata = cell.get("metadata") if isinstance(cell, dict) else None
    own = metadata.get("dimred_teach") if isinstance(metadata, dict) else None
    written = own.get("written") if isinstance(own, dict) else None
    return written == {"exercise": entry["exercise"], "part": entry["part"]}


def answer_text(cells: list, position: int) -> str:
    """The answer whose cell is ``cells[position]``: its text without the template's lead and
    placeholder, then each markdown cell the student added right below it (until a cell of the
    notebook's own or a heading)."""
    text = _text(cells[position]).strip()
    text = text[len(ANSWER_LEAD):] if text.startswith(ANSWER_LEAD) else text
    pieces = [text.replace(PLACEHOLDER, "", 1).strip()]
    for cell in cells[position + 1:]:
        added = isinstance(cell, dict) and cell.get("cell_type") == "markdown" and not TEMPLATE_ID.match(
            str(cell.get("id") or ""))
        if not added or HEADING.search(_text(cell)):
            break
        pieces.append(_text(cell).strip())
    return "\n\n".join(piece for piece in pieces if piece)


def written_answers(notebook: dict, spec: dict) -> tuple[WrittenAnswer, ...]:
    """Every written part of the set's ``spec``, answered from ``notebook`` (a dict read from the
    submitted file): its text, cut to :data:`TEXT_LIMIT` characters, and whether it is blank (also
    when the student deleted the cell)."""
    cells = [cell for cell in notebook.get("cells", []) if isinstance(cell, dict)]
    answers = []
    for entry in spec.get("written", ()):
        position = next((i for i, cell in enumerate(cells) if _marked(cell, entry)), None)
        if position is None:
            position = next((i for i, cell in enumerate(cells) if cell.get("id") == entry["cell_id"]), None)
        text = "" if position is None else answer_text(cells, position)
        text = text.encode("utf-8", "replace").decode("utf-8")  # a lone surrogate would break every page
        answers.append(WrittenAnswer(entry["exercise"], entry["part"], float(entry["points"]), text[:TEXT_LIMIT],
                                     not text.strip(), len(text) > TEXT_LIMIT))
    return tuple(answers)


def spec_answers(reported, spec: dict | None) -> tuple[WrittenAnswer, ...]:
    """The written answers a worker reported (report entries), checked: one per written part of
    ``spec``, in its order, with the spec's points and the text within :data:`TEXT_LIMIT` (a part
    not reported is blank); ValueError for entries that are not written answers."""
    answers = {(answer.exercise, answer.part): answer for answer in WrittenAnswer.from_report(reported)}
    checked = []
    for entry in (spec or {}).get("written", ()):
        answer = answers.get((entry["exercise"], entry["part"]))
        text = answer.text[:TEXT_LIMIT] if answer else ""
        checked.append(
            WrittenAnswer(
                entry["exercise"],
                entry["part"],
                float(entry["points"]),
                text,
                not text.strip(),
                bool(answer and (answer.clipped or len(answer.text) > TEXT_LIMIT)),
            )
        )
    return tuple(checked)
