"""The course policy: what of ``dimred_teach`` an exercise set's answers may not use.

An exercise that asks a student to implement a method must not be answered by calling the
library's implementation of it, nor by calling the checks' own reference helpers. Each set
declares what it forbids beside its checks (``FORBIDS`` in ``checks/setNN.py``); :func:`rules`
reads them. The grader's kernel of a set holds only what the set's own cells use
(:func:`library_needs`, :mod:`dimred_teach.grading.course_view`), never what it forbids;
:class:`Watch` gives ``check()`` in a notebook the verdict of the declared rules, with the
same plain message (:func:`message`).
"""

from __future__ import annotations

import ast
import dis
import functools
import importlib
import importlib.util
import inspect
import sys
import types
from dataclasses import dataclass
from pathlib import Path

WRAPPERS = 3
"""How many frames of decorators' wrappers may sit between a student's call and a forbidden function."""
CHECKS_INTERNALS = "dimred_teach.checks.*"
"""Every submodule of ``dimred_teach.checks`` (the set modules with their ``_reference_*``
helpers, the property helpers, this policy); the package itself (``check``) stays usable."""


@dataclass(frozen=True)
class Rules:
    """What one exercise set may not use, as its checks module declares it.

    modules : forbidden modules (``dimred_teach.mds``), each with its submodules
    functions : forbidden functions and methods by the name they are defined under
        (``dimred_teach.lsi.tfidf``, ``dimred_teach.lsi.LSIResult.transform``)
    declared : the entries as the set declares them (for messages and documentation), but for
        those of a package that is not installed here (nothing here can call them)
    """

    modules: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    declared: tuple[str, ...] = ()


def set_number(exercise: str) -> str:
    """``"04"`` from an exercise id (``"04.classical_mds"``) or a set name (``"04_mds"``)."""
    return str(exercise)[:2]


def defined_name(value) -> str:
    """``module.qualname`` where a function or method is defined."""
    return f"{value.__module__}.{value.__qualname__}"


@functools.cache
def rules(exercise: str) -> Rules:
    """The rules of an exercise's set: ``FORBIDS`` of its checks module
    (``dimred_teach/checks/setNN.py``), each entry a module or a function of the library or of
    another package (``sklearn.manifold._t_sne._kl_divergence``); an entry of a package that
    is not installed is left out, as nothing here can call it."""
    try:
        module = importlib.import_module(f"dimred_teach.checks.set{set_number(exercise)}")
    except ModuleNotFoundError:
        return Rules()
    declared = tuple(entry for entry in getattr(module, "FORBIDS", ())
                     if importlib.util.find_spec(entry.split(".")[0]) is not None)
    modules, functions = [], []
    for entry in declared:
        try:
            importlib.import_module(entry)
            modules.append(entry)
        except ModuleNotFoundError:
            functions.append(defined_name(resolve_function(entry)))
    return Rules(tuple(modules), tuple(functions), declared)


def third_party(exercise: str) -> tuple[str, ...]:
    """The entries of an exercise's ``FORBIDS`` that name a module or function of another
    package than the library (``scipy.linalg.orthogonal_procrustes``)."""
    return tuple(entry for entry in rules(exercise).declared if entry.split(".")[0] != "dimred_teach")


def library_needs(sources) -> dict[str, list[str]]:
    """What of the library an exercise set's own cells use: ``names``, the library objects they
    name (``dimred_teach.ppca.sample``, a module when they use it whole) through their imports,
    and ``attributes``, every attribute name they read (the methods and fields of results).

    ``sources`` are the code cells of the set's solution, the model answers included: what a
    model answer uses of the library is the set's to offer (a tokeniser to compare words with,
    a cross-validation to score pairs with), and the generation audit (tests/checks/test_policy_scan.py) proves that
    nothing the view holds answers an exercise by itself. ``dimred-teach build`` writes the
    result into the set's grading spec; the set's kernel view holds only these objects and what
    they use (:mod:`dimred_teach.grading.course_view`).
    """
    trees = []
    for source in sources:
        try:
            trees.append(ast.parse(source))
        except SyntaxError:
            continue
    aliases: dict[str, str] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "dimred_teach":
                        aliases[alias.asname or alias.name.split(".")[0]] = (alias.name if alias.asname
                                                                             else "dimred_teach")
            elif (isinstance(node, ast.ImportFrom) and not node.level
                  and (node.module or "").split(".")[0] == "dimred_teach"):
                for alias in node.names:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    names = set(aliases.values())  # every import must work in the kernel
    attributes = set()

    def visit(node) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return
        if isinstance(node, ast.Attribute):
            attributes.add(node.attr)
            chain, base = [node.attr], node.value
            while isinstance(base, ast.Attribute):
                attributes.add(base.attr)
                chain.insert(0, base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in aliases:
                names.add(".".join([aliases[base.id], *chain]))
                return
        elif isinstance(node, ast.Name) and node.id in aliases:
            names.add(aliases[node.id])
        for child in ast.iter_child_nodes(node):
            visit(child)

    for tree in trees:
        visit(tree)
    return {"names": sorted(names), "attributes": sorted(attributes)}


NOT_IN_VIEW = frozenset({"checks", "grading", "gradebook", "exercise_specs", "course", "data", "cli.py", "__main__.py",
                         "command_registry.py", "_files.py", "_csv_cells.py", "__pycache__"})
"""Entries of the package folder that no set's kernel view holds as library code (the view has a
stand-in for ``checks`` and its own copy of ``data``)."""


@dataclass
class _Module:
    """One module of the package as the view's builder reads it."""

    name: str
    path: Path
    tree: ast.Module
    definitions: dict[str, ast.stmt]  # top-level functions and classes by name
    imports: dict[str, tuple[str, str | None]]  # a local name -> (module, attribute or None for the module)


def _read_package(source: Path) -> dict[str, _Module]:
    """Every module of the package at ``source`` that a view may hold, by its dotted name."""
    modules = {}
    for path in sorted(source.rglob("*.py")):
        relative = path.relative_to(source)
        if relative.parts[0] in NOT_IN_VIEW or "__pycache__" in relative.parts:
            continue
        parts = ["dimred_teach", *relative.with_suffix("").parts]
        package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if package else parts)
        tree = ast.parse(path.read_text())
        base = name.split(".") if package else name.split(".")[:-1]
        definitions, imports = {}, {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                definitions[node.name] = node
            elif isinstance(node, ast.ImportFrom) and node.level:
                origin = ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))
                for alias in node.names:
                    imports[alias.asname or alias.name] = (origin, alias.name)
        modules[name] = _Module(name, relative, tree, definitions, imports)
    for module in modules.values():  # ``from . import linalg``: a module, not an attribute
        for local, (origin, attribute) in module.imports.items():
            if f"{origin}.{attribute}" in modules:
                module.imports[local] = (f"{origin}.{attribute}", None)
    return modules


def _methods(node: ast.ClassDef) -> dict[str, ast.stmt]:
    return {item.name: item for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}


class Closure:
    """The library objects a set's cells name and everything they use, within the package."""

    def __init__(self, modules: dict[str, _Module], attributes):
        self.modules = modules
        self.kept: dict[str, set[str]] = {}  # module -> kept top-level names
        self.methods: dict[tuple[str, str], set[str]] = {}  # (module, class) -> kept methods
        self.locals: dict[str, set[str]] = {}  # module -> local names its kept code reads
        self.attributes = set(attributes)

    def need(self, module: str, name: str | None = None) -> None:
        """Keep ``module`` (and its packages), and its top-level ``name`` with what it uses."""
        if module not in self.modules:
            return
        if module not in self.kept:
            self.kept[module] = set()
            self.locals[module] = set()
            if "." in module:
                self.need(module.rsplit(".", 1)[0])
            for node in self.modules[module].tree.body:
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                                         ast.ImportFrom)):
                    self._scan(module, node)
        if name is None or name in self.kept[module]:
            return
        info = self.modules[module]
        if name in info.definitions:
            self.kept[module].add(name)
            node = info.definitions[name]
            if isinstance(node, ast.ClassDef):
                self.methods[(module, name)] = set()
                outside = [base for base in node.bases if not (isinstance(base, ast.Name) and (
                    base.id in info.definitions or base.id in info.imports))]
                if outside:  # a subclass of another package's class: code there calls its methods by name
                    self.methods[(module, name)] = set(_methods(node))
                    for method in _methods(node).values():
                        self._scan(module, method)
                for part in [*node.bases, *node.keywords, *node.decorator_list,
                             *(item for item in node.body if item not in _methods(node).values())]:
                    self._scan(module, part)
                self._more_methods()
            else:
                self._scan(module, node)
        elif name in info.imports:
            self.locals[module].add(name)
            self.need(*info.imports[name])
        elif f"{module}.{name}" in self.modules:
            self.need(f"{module}.{name}")

    def _scan(self, module: str, node: ast.AST) -> None:
        """Keep what ``node`` (code of ``module``) reads: its names and its attributes' names."""
        info = self.modules[module]
        for child in ast.walk(node):
            if isinstance(child, ast.Attribute):
                if child.attr not in self.attributes:
                    self.attributes.add(child.attr)
                    self._more_methods()
                base = child.value
                if isinstance(base, ast.Name) and base.id in info.imports and info.imports[base.id][1] is None:
                    self.locals[module].add(base.id)
                    self.need(info.imports[base.id][0], child.attr)
            elif isinstance(child, ast.Name):
                if child.id in info.definitions or child.id in info.imports:
                    self.need(module, child.id)
            elif isinstance(child, ast.ImportFrom) and child.level:  # an import inside a function
                base = module.split(".") if info.path.name == "__init__.py" else module.split(".")[:-1]
                origin = ".".join(base[:len(base) - child.level + 1] + ([child.module] if child.module else []))
                for alias in child.names:
                    self.need(f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in self.modules else origin,
                              None if f"{origin}.{alias.name}" in self.modules else alias.name)

    def _more_methods(self) -> None:
        for (module, cls), kept in list(self.methods.items()):
            for name, method in _methods(self.modules[module].definitions[cls]).items():
                if name not in kept and (name in self.attributes or (name.startswith("__") and name.endswith("__"))):
                    kept.add(name)
                    self._scan(module, method)


def library_closure(library: dict | None) -> Closure:
    """What a set's kernel view holds when its spec's ``library`` is ``library`` (None: nothing
    of the library but the package's own module and what it imports)."""
    closure = Closure(_read_package(Path(__file__).resolve().parents[1]), (library or {}).get("attributes", ()))
    closure.need("dimred_teach")
    for qualified in (library or {}).get("names", ()):
        parts = qualified.split(".")
        cut = max(i for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in closure.modules or i == 1)
        closure.need(".".join(parts[:cut]), parts[cut] if cut < len(parts) else None)
    return closure


def rules_markdown(specs: dict[str, dict] | None = None) -> str:
    """The rules of every exercise set as a Markdown list (docs/grading.md's, written by the build):
    what its kernel holds of the library (its spec's ``library``) and what it declares forbidden.
    ``specs`` (set number to grading spec) are the specs the build is writing; without them, the
    specs stored in the package are read."""
    import json
    import pkgutil

    from ..exercise_specs import SPECS_DIR
    from . import __path__ as checks_path

    lines = []
    for info in sorted(pkgutil.iter_modules(checks_path), key=lambda i: i.name):
        if not (info.name.startswith("set") and info.name[3:].isdigit()):
            continue
        number = info.name[3:]
        forbids = getattr(importlib.import_module(f"{__package__}.{info.name}"), "FORBIDS", ())
        paths = sorted(SPECS_DIR.glob(f"{number}_*.json"))
        spec = specs.get(number) if specs is not None else (json.loads(paths[0].read_text()) if paths else None)
        if spec is None:  # not a set of the course (a test's)
            continue
        library = spec.get("library", {})
        held = [name.removeprefix("dimred_teach.") for name in library.get("names", ())
                if name not in ("dimred_teach", "dimred_teach.check", "dimred_teach.rounded",
                                "dimred_teach.setup_notebook")
                and not any(other.startswith(name + ".") for other in library.get("names", ()))]
        line = f"* set {number}: the kernel holds " + (", ".join(f"`{name}`" for name in held) or "nothing")
        line += " and what they use" if held else " beyond `check`, `rounded` and `setup_notebook`"
        if forbids:
            line += "; forbidden: " + ", ".join(f"`{name}`" for name in forbids)
        lines.append(line)
    return "\n".join(lines + ["* every set: the checks' own modules (`dimred_teach.checks.*`)"])


@functools.cache
def absent(exercise: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(modules, functions and methods) of the library that the grading kernel of an exercise's
    set does not hold: everything its spec's ``library`` does not lead to (nothing for a set
    without a spec in the package, such as a test's)."""
    import json

    from ..exercise_specs import SPECS_DIR

    paths = sorted(SPECS_DIR.glob(f"{set_number(exercise)}_*.json"))
    library = json.loads(paths[0].read_text()).get("library") if paths else None
    if library is None:
        return (), ()
    closure = library_closure(library)
    modules = tuple(sorted(name for name in closure.modules if name not in closure.kept))
    functions = []
    for name in sorted(closure.kept):
        for top, node in closure.modules[name].definitions.items():
            if isinstance(node, ast.ClassDef):
                functions += [f"{name}.{top}.{method}" for method in _methods(node)
                              if method not in closure.methods.get((name, top), ())]
            elif top not in closure.kept[name]:
                functions.append(f"{name}.{top}")
    return modules, tuple(functions)


def forbidden_entries(exercise: str) -> tuple[str, ...]:
    """The module entries of an exercise's set, the modules its kernel does not hold, and
    :data:`CHECKS_INTERNALS`."""
    return rules(exercise).modules + absent(exercise)[0] + (CHECKS_INTERNALS,)


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
    """The code of each function the exercise's set may not call (declared, or absent from its
    kernel) -> its entry."""
    codes = {}
    for name in rules(exercise).functions + absent(exercise)[1]:
        try:
            code = _code(resolve_function(name))
        except (AttributeError, ValueError):  # a method a subclass inherits, say
            continue
        if code is not None:
            codes[code] = name
    return codes


def _code(value) -> types.CodeType | None:
    """The code a function runs, below its decorators' wrappers (SciPy wraps many of its own)."""
    try:
        return getattr(inspect.unwrap(value), "__code__", None) if callable(value) else None
    except (ValueError, TypeError):  # a cycle of __wrapped__, or an object that refuses attributes
        return None


ATTRIBUTE_OPS = frozenset({"LOAD_ATTR", "LOAD_METHOD", "LOAD_SUPER_ATTR", "STORE_ATTR", "DELETE_ATTR", "IMPORT_FROM"})
"""The bytecode instructions that name an attribute (``module.name``, ``from module import name``)."""


def _code_names(code: types.CodeType, attributes: bool = False) -> set[str]:
    """The names ``code`` and the functions defined in it use (globals and attributes), or with
    ``attributes`` only the names they read as attributes: ``lsi.tokenize`` reads ``tokenize``
    from the module ``lsi``, not the module's function ``lsi.lsi``."""
    if attributes:
        names = {instruction.argval for instruction in dis.get_instructions(code)
                 if instruction.opname in ATTRIBUTE_OPS}
    else:
        names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _code_names(constant, attributes)
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
        self.entries = forbidden_entries(exercise_id) if namespace is not None else ()
        self.functions = _function_codes(exercise_id) if namespace is not None else {}
        watched = isinstance(answer, types.FunctionType) and namespace is not None
        self.answer_globals = answer.__globals__ if watched else None
        self.violation = self._static(answer, namespace) if namespace is not None else None
        self._previous = None

    def _rule(self, value) -> str | None:
        function = self.functions.get(_code(value))
        if function:
            return function
        name = _module_of(value)
        return rule_of(name, self.entries) if name else None

    def _static(self, answer, namespace) -> str | None:
        reachable: list = []
        if isinstance(answer, types.FunctionType):
            names = sorted(_code_names(answer.__code__))  # sorted: the same message on every run
            reachable += [answer.__globals__[n] for n in names if n in answer.__globals__]
            modules = [m for m in reachable if isinstance(m, types.ModuleType)]
            attributes = sorted(_code_names(answer.__code__, attributes=True))
            reachable += [getattr(m, n) for m in modules for n in attributes
                          if isinstance(getattr(m, n, None), types.ModuleType)]
            reachable += [getattr(m, n) for m in modules for n in attributes
                          if _code(getattr(m, n, None)) in self.functions]
            for cell in answer.__closure__ or ():
                try:
                    reachable.append(cell.cell_contents)
                except ValueError:  # an empty cell
                    pass
        for value in reachable:  # a forbidden function the answer's own code names
            if _code(value) in self.functions:
                return message(self.exercise_id, self.functions[_code(value)])
        if isinstance(namespace, dict):
            reachable += [value for key, value in namespace.items() if not str(key).startswith("_")
                          and _code(value) not in self.functions]  # the set may hold them
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
            caller = frame.f_back
            for _ in range(WRAPPERS if function else 0):  # called by the student, maybe through wrappers
                if caller is None or caller is boundary:
                    break
                if caller.f_globals is student:
                    self.violation = message(self.exercise_id, function)
                    return
                caller = caller.f_back
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
