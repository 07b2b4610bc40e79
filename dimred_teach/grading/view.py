"""The course as one exercise set's kernel sees it: a per-set copy of the teaching library.

The grader never enforces an exercise set's rules with code inside the student's kernel
(the student's code could undo it). Instead each set gets its own copy of the package,
built by the grader before any kernel starts, and the sandbox shows the kernel that copy
in place of the real package (:mod:`.sandbox`). In the copy:

* the checks are a stand-in holding only ``check`` (which says the grader checks the
  answers): no set module, no reference code, no policy, no properties;
* the grader, the grading specs and the course tooling (build, site, slides, command line)
  are absent;
* every module the set forbids is a stand-in raising the policy's ImportError;
* every function the set forbids is a stub raising the policy's message, and so is every
  library function that uses it (found from the source, across modules, until nothing
  changes), except those the set declares it needs (``KEEPS`` in its checks module), which
  keep a private copy of what they use, named in the reports.

The original files are not in the kernel's view at all (bubblewrap binds the copy over
them; ``user`` mode checks they are unreadable for the kernel's user), so no reference,
closure, ``gc`` walk, frame trick or import hook reaches them.
"""

from __future__ import annotations

import ast
import compileall
import fcntl
import os
import shutil
import tempfile
from pathlib import Path

from ..checks import policy

NOT_IN_VIEW = frozenset({"checks", "grading", "exercise_specs", "course", "cli.py", "__main__.py", "_files.py",
                         "__pycache__"})
"""Entries of the package folder that no kernel sees (besides what its set forbids)."""

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


def _stub(function: ast.FunctionDef | ast.AsyncFunctionDef, message: str) -> None:
    """Replace ``function``'s body by one statement raising the policy's message."""
    function.body = [ast.Raise(exc=ast.Call(func=ast.Name("RuntimeError", ast.Load()),
                                            args=[ast.Constant(message)], keywords=[]), cause=None)]
    function.decorator_list = [d for d in function.decorator_list
                               if isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod", "property")]


def _definitions(tree: ast.Module, module: str) -> dict[str, ast.FunctionDef]:
    """``module.function`` and ``module.Class.method`` -> their definitions (top level only)."""
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found[f"{module}.{node.name}"] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found[f"{module}.{node.name}.{item.name}"] = item
    return found


def _uses(function: ast.AST, name: str, method: bool) -> bool:
    """Whether ``function`` refers to ``name`` (a function by name, a method by attribute)."""
    for node in ast.walk(function):
        if method and isinstance(node, ast.Attribute) and node.attr == name:
            return True
        if not method and isinstance(node, ast.Name) and node.id == name:
            return True
        if not method and isinstance(node, ast.Attribute) and node.attr == name:
            return True
    return False


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def build_view(exercise_set: str, folder: Path) -> Path:
    """Write ``folder/dimred_teach``, the package as exercise set ``exercise_set`` sees it
    (``folder`` must not exist yet or be empty); returns ``folder``. Every file is
    world-readable and nothing in it is writable by the kernel."""
    folder = Path(folder)
    source = package_folder()
    target = folder / "dimred_teach"
    shutil.copytree(source, target, ignore=lambda where, names: [
        name for name in names if (Path(where) == source and name in NOT_IN_VIEW) or name == "__pycache__"
        or name.endswith(".pyc")])
    data = target / "data"
    for origin in data_folders():
        if data.exists() and origin != source / "data":
            continue
        if not data.exists():
            shutil.copytree(origin, data, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (target / "checks").mkdir()
    (target / "checks" / "__init__.py").write_text(CHECKS_STAND_IN)
    rules = policy.rules(exercise_set)
    for module in rules.modules:
        _block_module(target, module, policy.message(exercise_set, module))
    if rules.functions:
        _stub_functions(target, exercise_set, rules)
    shutil.copy(Path(__file__).with_name("kernel_launcher.py"), folder / "kernel_launcher.py")
    # compiled once here, from the view's own sources: a kernel (which writes no bytecode) then
    # does not compile the library again at every start
    compileall.compile_dir(str(target), quiet=1, workers=1)
    for path in [folder, *folder.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return folder


def view_for(exercise_set: str, views: Path) -> Path:
    """The view of ``exercise_set`` inside the run's folder ``views``, built once per run
    (workers building the same view at once wait for one another)."""
    target = Path(views) / exercise_set
    if not target.is_dir():
        with open(Path(views) / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not target.is_dir():
                partial = Path(tempfile.mkdtemp(dir=views))
                build_view(exercise_set, partial / "view")
                os.rename(partial / "view", target)
                os.rmdir(partial)
    return target


def _block_module(target: Path, module: str, message: str) -> None:
    """Replace ``module`` (``dimred_teach.x``, a file or a package) in the view by a stand-in."""
    relative = Path(*module.split(".")[1:])
    package, single = target / relative, (target / relative).with_suffix(".py")
    if package.is_dir():
        shutil.rmtree(package)
        package.mkdir()
        package = package / "__init__.py"
    else:
        package = single
    package.write_text(f"raise ImportError({message!r}, name={module!r})\n")


def _stub_functions(target: Path, exercise_set: str, rules) -> None:
    """Stub every forbidden function, then every function using a stubbed one (not KEEPS)."""
    trees = {}
    for path in sorted(target.rglob("*.py")):
        name = _module_name(path, target)
        if name.startswith("dimred_teach.checks"):
            continue
        try:
            trees[path] = (name, ast.parse(path.read_text()))
        except SyntaxError:
            continue
    definitions = {qualified: node for name, tree in trees.values() for qualified, node in _definitions(tree, name).items()}
    stubbed = {name: policy.message(exercise_set, name) for name in rules.functions if name in definitions}
    kept = {}  # a kept caller's module -> {forbidden name: private name}
    changed = True
    while changed:
        changed = False
        for qualified, node in definitions.items():
            if qualified in stubbed:
                continue
            for forbidden in list(stubbed):
                method = forbidden.split(".")[-2][:1].isupper()
                same_module = qualified.rsplit(".", 2 if qualified.split(".")[-2][:1].isupper() else 1)[0]
                owner = forbidden.rsplit(".", 2 if method else 1)[0]
                if method and same_module != owner:
                    continue
                if _uses(node, forbidden.rsplit(".", 1)[1], method):
                    if qualified in rules.keeps:
                        kept.setdefault(same_module, {})[forbidden] = "_kept_" + forbidden.replace(".", "_")
                        continue
                    stubbed[qualified] = (f"{policy.message(exercise_set, forbidden)} "
                                          f"({qualified.removeprefix('dimred_teach.')} uses it)")
                    changed = True
                    break
    for path, (name, tree) in trees.items():
        own = {q: n for q, n in _definitions(tree, name).items() if q in stubbed}
        if not own and name not in kept:
            continue
        private = []
        for forbidden, private_name in kept.get(name, {}).items():
            original = definitions[forbidden]
            if forbidden.rsplit(".", 1)[0] == name:  # a function of this module: copy it privately
                copy = ast.parse(ast.unparse(original)).body[0]
                copy.name = private_name
                private.append(copy)
                for keeper in rules.keeps:
                    if keeper.startswith(name + ".") and keeper in definitions:
                        for node in ast.walk(definitions[keeper]):
                            if isinstance(node, ast.Name) and node.id == forbidden.rsplit(".", 1)[1]:
                                node.id = private_name
        for qualified, node in own.items():
            _stub(node, stubbed[qualified])
        tree.body.extend(private)
        path.write_text(ast.unparse(ast.fix_missing_locations(tree)) + "\n")
