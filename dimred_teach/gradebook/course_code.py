"""The course's own code an answer of an exercise set could be copied from (for :mod:`.similarity`).

Every student has the course's package installed, and with it the library code an exercise
set re-implements and the reference functions its checks hold: ``dimred_teach/mds.py``
answers set 04's first three exercises. For a set ``NN`` that code is

- what its checks module forbids (``FORBIDS`` of ``dimred_teach/checks/setNN.py``): every
  function and method of a module named there, or the function or method named;
- every function of the checks module itself.

Each function is one source, labelled by its file and qualified name
(``dimred_teach/mds.py: classical_mds``). The files are read as text and parsed, never
imported.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
"""The installed ``dimred_teach`` package: the code a student has."""


def _module_file(dotted: str) -> tuple[Path, list[str]]:
    """The file of the longest importable module ``dotted`` starts with, and the qualified
    name that follows it (``dimred_teach.lsi.LSIResult.transform`` -> ``lsi.py``,
    ``["LSIResult", "transform"]``)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        try:
            spec = importlib.util.find_spec(".".join(parts[:end]))
        except (ModuleNotFoundError, ValueError):
            continue
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            return Path(spec.origin), parts[end:]
    raise ValueError(f"no module of the course is named by {dotted!r}")


def _functions(path: Path) -> list[tuple[str, str]]:
    """(qualified name, source) of every top-level function and method of a Python file, each
    with its decorators (a check's ``answer=lambda: ...`` is its reference answer)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = []
    for node in ast.parse(text).body:
        members = [(node.name, node)] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else (
            [(f"{node.name}.{member.name}", member) for member in node.body
             if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef))] if isinstance(node, ast.ClassDef) else [])
        for name, member in members:
            start = min([member.lineno] + [decorator.lineno for decorator in member.decorator_list])
            found.append((name, "\n".join(lines[start - 1:member.end_lineno])))
    return found


def course_sources(exercise_set: str) -> list[tuple[str, str]]:
    """(label, source) of every function of the course's own code an answer of ``exercise_set``
    could be copied from (see the module's docstring), each once, in a stable order."""
    checks = f"dimred_teach.checks.set{exercise_set[:2]}"
    checks_file, _ = _module_file(checks)
    forbids: tuple = ()
    for node in ast.parse(checks_file.read_text(encoding="utf-8")).body:  # FORBIDS = (...), read without importing
        if isinstance(node, ast.Assign) and any(getattr(target, "id", "") == "FORBIDS" for target in node.targets):
            forbids = ast.literal_eval(node.value)
    sources: dict[str, str] = {}
    for entry in (*forbids, checks):
        path, qualified = _module_file(entry)
        prefix = ".".join(qualified)
        for name, source in _functions(path):
            if not prefix or name == prefix or name.startswith(prefix + "."):
                sources.setdefault(f"{path.relative_to(PACKAGE.parent).as_posix()}: {name}", source)
    return sorted(sources.items())


__all__ = ["course_sources", "PACKAGE"]
