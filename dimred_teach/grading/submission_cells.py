"""Planning the cells of a submission: its code cells in order, with every check cell
restored from the grading spec and rewritten to hand its answer to the grader."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .results import clip


@dataclass(eq=False)
class RunCell:
    """A code cell to run: a student's, or a restored check cell (``check`` is its spec entry)."""

    source: str
    label: str
    cell_id: str | None = None
    check: dict | None = None


def cell_text(cell) -> str | None:
    """A notebook cell's source as one string (None when the cell holds no text): a student's
    notebook is any JSON, so nothing about its cells is assumed."""
    source = cell.get("source") if isinstance(cell, dict) else None
    if isinstance(source, list):
        source = "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else None


def capture_source(spec_source: str, module: str) -> str:
    """The check cell ``check("NN.x", answer)`` rewritten to hand ``answer`` to the grader."""
    tree = ast.parse(spec_source)
    call = tree.body[0].value
    call.func = ast.parse(f"__import__({module!r}).capture", mode="eval").body
    return ast.unparse(tree)


def plan_cells(notebook: dict, spec: dict, module: str) -> tuple[list[RunCell], list[str]]:
    """The code cells to run, with every check cell restored, and notes on what was restored."""
    checks = sorted(spec["checks"], key=lambda c: c["cell_index"])
    by_cell_id = {c["cell_id"]: c for c in checks}
    cells: list[RunCell] = []
    for number, cell in enumerate(notebook["cells"], start=1):
        text = cell_text(cell)
        if isinstance(cell, dict) and cell.get("cell_type") == "code" and text is not None:
            cell_id = cell.get("id") if isinstance(cell.get("id"), str) else None
            first = next((line.strip() for line in text.splitlines() if line.strip()), "")
            cells.append(RunCell(text, f"cell {number} ({clip(first, 60)})", cell_id))
    notes: list[str] = []
    matched: dict[str, RunCell] = {}
    for cell in cells:
        check = by_cell_id.get(cell.cell_id)
        if check is not None and check["exercise_id"] not in matched:
            matched[check["exercise_id"]] = cell
    for check in checks:
        if check["exercise_id"] in matched:
            continue
        call = re.compile(r"""check\(\s*["']""" + re.escape(check["exercise_id"]) + """["']""")
        taken = [id(c) for c in matched.values()]
        cell = next((c for c in cells if id(c) not in taken and call.search(c.source)), None)
        if cell is not None:
            matched[check["exercise_id"]] = cell
    for exercise_id, cell in matched.items():
        check = next(c for c in checks if c["exercise_id"] == exercise_id)
        if cell.source.strip() != check["source"].strip():
            notes.append(f"the check cell of {exercise_id} was edited; the grader restored it")
        cell.check = check
    template_index = {c["cell_id"]: c["cell_index"] for c in checks}

    def index_of(cell: RunCell) -> int | None:
        if cell.check is not None:
            return cell.check["cell_index"]
        if cell.cell_id in template_index:
            return None  # a student cell that borrowed a check's id
        match = re.fullmatch(r"cell-(\d+)", cell.cell_id or "")
        return int(match.group(1)) if match else None

    for check in checks:
        if check["exercise_id"] in matched:
            continue
        known = [(index_of(cell), position) for position, cell in enumerate(cells) if index_of(cell) is not None]
        before = [(index, position) for index, position in known if index < check["cell_index"]]
        after = [(index, position) for index, position in known if index > check["cell_index"]]
        position = max(before)[1] + 1 if before else (min(after)[1] if after else len(cells))
        cells.insert(position, RunCell(check["source"], "", check["cell_id"], check))
        notes.append(f"the check cell of {check['exercise_id']} was missing; the grader put it back")
    for cell in cells:
        if cell.check is not None:
            cell.label = f"the check cell of {cell.check['exercise_id']}"
            cell.source = capture_source(cell.check["source"], module)
    return cells, notes

