"""The course as one exercise set's kernel sees it: a per-set copy of the teaching library
that holds only what the set's own cells use (an allowlist, not a list of what is forbidden).

The grader never enforces an exercise set's rules with code inside the student's kernel
(the student's code could undo it). Instead each set gets its own copy of the package,
built by the grader before any kernel starts, and the sandbox shows the kernel that copy
in place of the real package (:mod:`.sandbox`). The copy holds:

* the library objects the set's cells name (``library`` in its grading spec, written by
  ``dimred-teach build`` from the solution's cells, the answers' bodies left out:
  :func:`dimred_teach.checks.policy.library_needs`), and what those use, found from the
  source across modules until nothing changes; of a class, only the methods some kept code
  or cell reads by name (and the special ones) keep their code;
* nothing else of the library: every other module is a stand-in raising the policy's
  ImportError, every other function, class or method of a kept module a stand-in raising the
  policy's RuntimeError when called (so that importing it still works, as in the notebook);
* of the checks, a stand-in holding only ``check`` (which says the grader checks the
  answers); no grader, grading specs or course tooling;
* nothing a set's declaration (``FORBIDS``) names, even if a kept object uses it: a kept
  object that needs a forbidden one is an error of the set, found when the view is built.

Whatever remains in the view must not answer one of the set's exercises: the test
``tests/checks/test_policy_scan.py`` runs every function exercise's check against adapted calls of
every callable of the view and fails on any hit. The original files are not in the kernel's
view at all (bubblewrap binds the copy over them; ``user`` mode checks they are unreadable
for the kernel's user, and binds the stand-ins of third-party functions over their originals in
the kernel's own mount namespace, :mod:`.mounts`), so no reference, closure, ``gc`` walk, frame trick or import hook
reaches them.
"""

from __future__ import annotations

import ast
import compileall
import fcntl
import importlib
import importlib.util
import inspect
import json
import os
import py_compile
import shutil
import sys
import tempfile
from pathlib import Path

from ..checks import policy
from ..checks.policy import NOT_IN_VIEW, Closure, _Module, library_closure

SHADOWS = "shadows.json"
"""The file of a view listing the third-party files its kernel sees stand-ins for."""
CHECKS_STAND_IN = '''"""The grader's stand-in for dimred_teach.checks: the grader runs the checks, not this kernel."""


class CheckFailure(Exception):
    """An answer lacks a required property."""


def check(exercise_id, answer):
    """In a graded run the grader checks every answer itself; this only says so."""
    print(f"[checked by the grader] {exercise_id}")
'''


def package_folder() -> Path:
    """The folder of the installed ``dimred_teach`` package (the checkout's for an editable install)."""
    import dimred_teach

    return Path(os.path.realpath(dimred_teach.__file__)).parent


def data_folders() -> list[Path]:
    """Where ``dimred_teach.data`` lives (its own folder in an editable install)."""
    import dimred_teach.data

    return [Path(os.path.realpath(path)) for path in dimred_teach.data.__path__]


def _pruned(info: _Module, closure: Closure, exercise_set: str) -> str:
    """The source of a kept module without what the view leaves out."""
    kept, tree = closure.kept[info.name], ast.parse(ast.unparse(info.tree))
    removed = sorted(set(info.definitions) - kept)
    body = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name not in kept:
                continue
            if isinstance(node, ast.ClassDef):  # a method left out: a stand-in raising the policy's message
                methods = closure.methods[(info.name, node.name)]
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name not in methods:
                        _stub(item, policy.message(exercise_set, f"{info.name}.{node.name}.{item.name}"))
        elif isinstance(node, ast.ImportFrom) and node.level:
            for alias in node.names:  # a function a package re-exports: a stand-in in its place
                origin, attribute = info.imports[alias.asname or alias.name]
                if (alias.asname or alias.name) not in closure.locals[info.name] and attribute in getattr(
                        closure.modules.get(origin), "definitions", {}):
                    removed.append(alias.asname or alias.name)
            node.names = [alias for alias in node.names if (alias.asname or alias.name) in closure.locals[info.name]]
            if not node.names:
                continue
        elif (isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["__all__"]
              and isinstance(node.value, (ast.List, ast.Tuple))):
            node.value.elts = [e for e in node.value.elts if getattr(e, "value", None) in kept]
        body.append(node)
    tree.body = body
    for name in removed:  # a name the set's code may import, holding no code of the library's
        stand_in = ast.parse(f"def {name}(*args, **kwargs):\n    pass\n").body[0]
        _stub(stand_in, policy.message(exercise_set, f"{info.name}.{name}"))
        tree.body.append(stand_in)
    text = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    return text


def build_view(exercise_set: str, folder: Path, library: dict | None = None) -> Path:
    """Write ``folder/dimred_teach``, the package as exercise set ``exercise_set`` sees it
    (``library``: its spec's, see :func:`library_closure`; ``folder`` must not exist yet or
    be empty); returns ``folder``. Every file is world-readable and nothing in it is writable
    by the kernel. ValueError when the set's cells need something its rules forbid."""
    folder = Path(folder)
    source = package_folder()
    target = folder / "dimred_teach"
    closure = library_closure(library)
    forbidden(exercise_set, closure)
    shutil.copytree(source, target, ignore=lambda where, names: [
        name for name in names if (Path(where) == source and name in NOT_IN_VIEW) or name == "__pycache__"
        or name.endswith((".py", ".pyc"))])
    for name, info in closure.modules.items():
        text = (_pruned(info, closure, exercise_set) if name in closure.kept else
                f"raise ImportError({policy.message(exercise_set, name)!r}, name={name!r})\n")
        (target / info.path).parent.mkdir(parents=True, exist_ok=True)
        (target / info.path).write_text(text)
    if "dimred_teach.datasets" in closure.kept:
        data = target / "data"
        for origin in data_folders():
            if not data.exists() or origin == source / "data":
                shutil.rmtree(data, ignore_errors=True)
                shutil.copytree(origin, data, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _shadow_third_party(folder, exercise_set, policy.rules(exercise_set))
    (target / "checks").mkdir(exist_ok=True)
    (target / "checks" / "__init__.py").write_text(CHECKS_STAND_IN)
    shutil.copy(Path(__file__).with_name("kernel_launcher.py"), folder / "kernel_launcher.py")
    # compiled once here, from the view's own sources: a kernel (which writes no bytecode) then
    # does not compile the library again at every start
    compileall.compile_dir(str(target), quiet=1, workers=1)
    for path in [folder, *folder.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return folder


def third_party_files(exercise_set: str) -> list[tuple[str, Path]]:
    """(entry, the file defining it) for each third-party module or function the set forbids
    (:func:`.policy.third_party`): what its kernel must see only as a stand-in."""
    rules = policy.rules(exercise_set)
    found = []
    for declared in policy.third_party(exercise_set):
        defined = (importlib.import_module(declared) if declared in rules.modules
                   else sys.modules[inspect.unwrap(policy.resolve_function(declared)).__module__])
        found.append((declared, Path(os.path.realpath(defined.__file__))))
    return found


def _shadow_third_party(folder: Path, exercise_set: str, rules) -> None:
    """Write the stand-ins of the third-party modules and functions the set forbids
    (``scipy.linalg.orthogonal_procrustes``): for each file defining them, a copy with the body
    of every forbidden function in it replaced by the policy's error (a module: a file raising
    the policy's ImportError) and that copy compiled, listed in ``folder/shadows.json`` as
    (stand-in, the original file it covers) pairs, the stand-in's path relative to ``folder``
    (the view is moved once built), for the sandbox to bind over the originals (:func:`shadows`)."""
    by_file: dict[Path, list[str]] = {}
    for declared, original in third_party_files(exercise_set):
        by_file.setdefault(original, []).append(declared)
    pairs = []
    for original, entries in by_file.items():
        module = next((declared for declared in entries if declared in rules.modules), None)
        if module is not None:
            text = f"raise ImportError({policy.message(exercise_set, module)!r}, name={module!r})\n"
        else:
            tree = ast.parse(original.read_text())
            for declared in entries:
                function = inspect.unwrap(policy.resolve_function(declared))
                node = _definition(tree, function.__qualname__)
                if node is None:
                    raise ValueError(
                        f"exercise set {exercise_set}: {declared} is not defined in {original} by that name"
                    )
                _stub(node, policy.message(exercise_set, policy.defined_name(function)))
            text = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
        copy = folder / "shadows" / str(len(pairs)) / original.name
        copy.parent.mkdir(parents=True)
        copy.write_text(text)
        pairs.append((str(copy.relative_to(folder)), str(original)))
        cache = Path(importlib.util.cache_from_source(str(original)))
        if cache.exists():  # the original's bytecode would be taken for the stand-in's: cover it too
            compiled = copy.with_suffix(".pyc")
            py_compile.compile(str(copy), cfile=str(compiled), doraise=True)
            pairs.append((str(compiled.relative_to(folder)), str(cache)))
    (folder / SHADOWS).write_text(json.dumps(pairs))


def _definition(tree: ast.Module, qualname: str) -> ast.FunctionDef | None:
    """The top-level function or class method ``qualname`` names in ``tree``."""
    body, node = tree.body, None
    for part in qualname.split("."):
        node = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and n.name == part), None)
        if node is None:
            return None
        body = node.body
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def shadows(view: Path) -> list[tuple[str, str]]:
    """(stand-in, original file) pairs that the sandbox binds over the originals in a kernel of
    this view (the third-party modules and functions its set forbids)."""
    try:
        return [(str(Path(view) / a), str(b)) for a, b in json.loads((Path(view) / SHADOWS).read_text())]
    except FileNotFoundError:
        return []


def forbidden(exercise_set: str, closure: Closure) -> None:
    """ValueError when the view of ``exercise_set`` would hold what the set forbids."""
    rules = policy.rules(exercise_set)
    held = [module for module in rules.modules if any(k == module or k.startswith(module + ".") for k in closure.kept)]
    for name in rules.functions:
        module, _, attribute = name.rpartition(".")
        owner, _, cls = module.rpartition(".")
        if attribute in closure.kept.get(module, ()) or attribute in closure.methods.get((owner, cls), ()):
            held.append(name)
    if held:
        raise ValueError(f"exercise set {exercise_set}: its own cells need {', '.join(held)}, which it forbids: "
                         "give the cells the data instead, or change the exercise")


def view_for(exercise_set: str, views: Path, library: dict | None = None) -> Path:
    """The view of ``exercise_set`` inside the run's folder ``views``, built once per run
    (workers building the same view at once wait for one another)."""
    target = Path(views) / exercise_set
    if not target.is_dir():
        with open(Path(views) / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not target.is_dir():
                partial = Path(tempfile.mkdtemp(dir=views))
                build_view(exercise_set, partial / "view", library)
                os.rename(partial / "view", target)
                os.rmdir(partial)
    return target


def _stub(function: ast.FunctionDef | ast.AsyncFunctionDef, message: str) -> None:
    """Replace ``function``'s body by one statement raising the policy's message."""
    function.body = [ast.Raise(exc=ast.Call(func=ast.Name("RuntimeError", ast.Load()),
                                            args=[ast.Constant(message)], keywords=[]), cause=None)]
    function.decorator_list = [d for d in function.decorator_list
                               if isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod", "property")]
