"""The course policy: what of ``dimred_teach`` an exercise set's answers may not use.

An exercise that asks a student to implement a method must not be answered by calling the
library's implementation of it, nor by calling the checks' own reference helpers. Each set
declares its rules beside its checks (``FORBIDS`` and ``KEEPS`` in ``checks/setNN.py``);
:func:`rules` reads them. The grader builds each set's kernel a copy of the library without
what the set forbids (:mod:`dimred_teach.grading.view`); :class:`Watch` gives ``check()`` in a
notebook the same verdict, with the same plain message (:func:`message`).
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import sys
import types
from dataclasses import dataclass

CHECKS_INTERNALS = "dimred_teach.checks.*"
"""Every submodule of ``dimred_teach.checks`` (the set modules with their ``_reference_*``
helpers, the property helpers, this policy); the package itself (``check``) stays usable."""


@dataclass(frozen=True)
class Rules:
    """What one exercise set may not use, as its checks module declares it.

    modules : forbidden modules (``dimred_teach.mds``), each with its submodules
    functions : forbidden functions and methods by the name they are defined under
        (``dimred_teach.lsi.tfidf``, ``dimred_teach.lsi.LSIResult.transform``)
    keeps : library functions the set's own cells need although they use a forbidden
        function; in the grading kernel they keep a private copy of it
    declared : the entries as the set declares them (for messages and documentation)
    """

    modules: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    keeps: tuple[str, ...] = ()
    declared: tuple[str, ...] = ()


def set_number(exercise: str) -> str:
    """``"04"`` from an exercise id (``"04.classical_mds"``) or a set name (``"04_mds"``)."""
    return str(exercise)[:2]


def defined_name(value) -> str:
    """``module.qualname`` where a function or method is defined."""
    return f"{value.__module__}.{value.__qualname__}"


@functools.lru_cache(maxsize=None)
def rules(exercise: str) -> Rules:
    """The rules of an exercise's set: ``FORBIDS`` and ``KEEPS`` of its checks module
    (``dimred_teach/checks/setNN.py``), each entry a module or a function of the library."""
    try:
        module = importlib.import_module(f"dimred_teach.checks.set{set_number(exercise)}")
    except ModuleNotFoundError:
        return Rules()
    modules, functions = [], []
    for entry in getattr(module, "FORBIDS", ()):
        try:
            importlib.import_module(entry)
            modules.append(entry)
        except ModuleNotFoundError:
            functions.append(defined_name(resolve_function(entry)))
    keeps = tuple(defined_name(resolve_function(entry)) for entry in getattr(module, "KEEPS", ()))
    return Rules(tuple(modules), tuple(functions), keeps, tuple(getattr(module, "FORBIDS", ())))


def rules_markdown() -> str:
    """The rules of every exercise set as a Markdown list (docs/grading.md's, written by the build)."""
    import pkgutil

    from . import __path__ as checks_path

    lines = []
    for info in sorted(pkgutil.iter_modules(checks_path), key=lambda i: i.name):
        if not (info.name.startswith("set") and info.name[3:].isdigit()):
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        forbids, keeps = getattr(module, "FORBIDS", ()), getattr(module, "KEEPS", ())
        if forbids:
            line = f"* set {info.name[3:]}: " + ", ".join(f"`{name}`" for name in forbids)
            if keeps:
                line += " (its own cells keep " + ", ".join(f"`{name}`" for name in keeps) + ", which use them)"
            lines.append(line)
    return "\n".join(lines + ["* every set: the checks' own modules (`dimred_teach.checks.*`)"])


def forbidden_entries(exercise: str) -> tuple[str, ...]:
    """The module entries of an exercise's set, and :data:`CHECKS_INTERNALS`."""
    return rules(exercise).modules + (CHECKS_INTERNALS,)


def resolve_function(name: str):
    """The function or method a rule names (``dimred_teach.<module...>.<attribute...>``;
    imports the longest importable module prefix)."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return value
    raise ValueError(f"{name} names no function of the library")


def rule_of(module_name: str, entries) -> str | None:
    """The entry that forbids ``module_name`` (a module or one of its submodules), if any."""
    for entry in entries:
        if entry.endswith(".*"):
            if module_name.startswith(entry[:-1]):
                return entry[:-2] + " internals"
        elif module_name == entry or module_name.startswith(entry + "."):
            return entry
    return None


def message(exercise: str, rule: str) -> str:
    """The plain words shown when an answer uses a forbidden module or function, named as the
    set declares it (``dimred_teach.selection.t_statistic``, not the submodule defining it)."""
    own = rules(exercise)
    declared = {defined_name(resolve_function(entry)): entry for entry in own.declared if entry not in own.modules}
    return f"exercise set {set_number(exercise)} may not use {declared.get(rule, rule)}: write this part yourself"


def _function_codes(exercise: str) -> dict[types.CodeType, str]:
    """The code of each function the exercise's set may not call -> its entry."""
    codes = {}
    for name in rules(exercise).functions:
        code = getattr(resolve_function(name), "__code__", None)
        if code is not None:
            codes[code] = name
    return codes


def _code_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _code_names(constant)
    return names


def _module_of(value) -> str | None:
    """The module a value comes from: a module's own name, a function's or class's
    ``__module__``, else its type's."""
    if isinstance(value, types.ModuleType):
        return value.__name__
    owner = value if isinstance(value, (type, types.FunctionType)) else type(value)
    name = getattr(owner, "__module__", None)
    return name if isinstance(name, str) else None


def _imports_in(sources) -> set[str]:
    """Modules named by import statements (and ``import_module``/``__import__`` calls with a
    literal name) in the cells a notebook ran."""
    found: set[str] = set()
    for source in sources if isinstance(sources, list) else ():
        try:
            tree = ast.parse(source) if isinstance(source, str) else None
        except SyntaxError:
            continue
        for node in ast.walk(tree) if tree else ():
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module)
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
            elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                    found.add(node.args[0].value)
    return found


class Watch:
    """Detects an answer from a notebook that uses a module its exercise set may not use.

    Active only with ``namespace``, the notebook's globals that ``check()`` passes: a direct
    ``evaluate`` (the course's tests checking the checks with the library's own answers,
    the grader's worker, whose kernel cannot import these modules at all) is not watched.
    On entry it looks at what the answer can reach: a function's globals it names and its
    closure, the objects in the namespace and the imports in the cells run so far
    (IPython's ``In``). While the block runs (the check calling a function answer) it
    watches calls: code of a forbidden module called from the answer's own code (below the
    check) is a violation. Either raises ``CheckFailure`` with :func:`message`, on entry or
    on exit.
    """

    def __init__(self, exercise_id: str, answer, namespace: dict | None = None):
        self.exercise_id = exercise_id
        self.entries = forbidden_entries(exercise_id)
        self.functions = _function_codes(exercise_id) if namespace is not None else {}
        watched = isinstance(answer, types.FunctionType) and namespace is not None
        self.answer_globals = answer.__globals__ if watched else None
        self.violation = self._static(answer, namespace) if namespace is not None else None
        self._previous = None

    def _rule(self, value) -> str | None:
        function = self.functions.get(getattr(value, "__code__", None))
        if function:
            return function
        name = _module_of(value)
        return rule_of(name, self.entries) if name else None

    def _static(self, answer, namespace) -> str | None:
        reachable: list = []
        if isinstance(answer, types.FunctionType):
            names = _code_names(answer.__code__)
            reachable += [answer.__globals__[n] for n in names if n in answer.__globals__]
            modules = [m for m in reachable if isinstance(m, types.ModuleType)]
            reachable += [getattr(m, n) for m in modules for n in names if isinstance(getattr(m, n, None), types.ModuleType)]
            reachable += [getattr(m, n) for m in modules for n in names
                          if getattr(getattr(m, n, None), "__code__", None) in self.functions]
            for cell in answer.__closure__ or ():
                try:
                    reachable.append(cell.cell_contents)
                except ValueError:  # an empty cell
                    pass
        for value in reachable:  # a forbidden function the answer's own code names
            if getattr(value, "__code__", None) in self.functions:
                return message(self.exercise_id, self.functions[value.__code__])
        if isinstance(namespace, dict):
            reachable += [value for key, value in namespace.items() if not str(key).startswith("_")
                          and getattr(value, "__code__", None) not in self.functions]  # the set may hold them
            for name in _imports_in(namespace.get("In")):
                rule = rule_of(name, self.entries)
                if rule:
                    return message(self.exercise_id, rule)
        for value in reachable:
            rule = self._rule(value)
            if rule:
                return message(self.exercise_id, rule)
        return None

    def _files(self) -> dict[str, str]:
        files = {}
        for name in list(sys.modules):
            rule = rule_of(name, self.entries)
            origin = getattr(sys.modules.get(name), "__file__", None)
            if rule and origin:
                files[origin] = rule
        for entry in self.entries:
            if not entry.endswith(".*"):
                try:
                    spec = importlib.util.find_spec(entry)
                except (ImportError, ValueError):
                    spec = None
                if spec is not None and spec.origin:
                    files[spec.origin] = entry
        return files

    def __enter__(self):
        from . import CheckFailure

        if self.violation:
            raise CheckFailure(self.violation, "policy")
        if self.answer_globals is None:
            return self
        files, student = self._files(), self.answer_globals
        boundary = sys._getframe(1)  # the caller of the check: its own callers do not count

        def profile(frame, event, arg):
            if event != "call" or self.violation:
                return
            function = self.functions.get(frame.f_code)
            if function and frame.f_back is not None and frame.f_back.f_globals is student:
                self.violation = message(self.exercise_id, function)
                return
            rule = files.get(frame.f_code.co_filename)
            caller = frame.f_back
            while rule and caller is not None and caller is not boundary:
                if caller.f_globals is student:
                    self.violation = message(self.exercise_id, rule)
                    return
                caller = caller.f_back

        self._previous = sys.getprofile()
        sys.setprofile(profile)
        return self

    def __exit__(self, kind, error, traceback):
        from . import CheckFailure

        if self.answer_globals is not None:
            sys.setprofile(self._previous)
        if self.violation:
            raise CheckFailure(self.violation, "policy") from None
        return False
