"""The course policy: which ``dimred_teach`` modules an exercise set's answers may not use.

An exercise that asks a student to implement a method must not be answered by calling the
library's implementation of it, nor by calling the checks' own reference helpers. The
table :data:`FORBIDDEN` is the one place that says so. The grader makes these modules
unimportable inside the grading kernel; :class:`Watch` gives ``check()`` in a notebook the
same verdict, with the same plain message (:func:`message`).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import sys
import types

CHECKS_INTERNALS = "dimred_teach.checks.*"
"""Every submodule of ``dimred_teach.checks`` (the set modules with their ``_reference_*``
helpers, the property helpers, this policy); the package itself (``check``) stays usable."""

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "01": ("dimred_teach.pca",),  # compute the covariance and the components yourself
    "02": ("dimred_teach.pca",),  # eigenvalues from the SVD, the Gram trick, power iteration, choosing k
    "04": ("dimred_teach.mds",),  # classical MDS and the Procrustes alignment by hand
    "08": ("dimred_teach.kernel",),  # whitening, kernels, centring and kernel PCA by hand
    "10": ("dimred_teach.autoencoder",),  # gradients, penalties and corrupted pairs by hand
    "11": ("dimred_teach.manifold",),  # the neighbourhood graph, Isomap, Laplacian eigenmaps by hand
}
"""Modules each exercise set (by its two-digit number) may not use, besides :data:`CHECKS_INTERNALS`."""

FORBIDDEN_FUNCTIONS: dict[str, tuple[str, ...]] = {
    "03": ("dimred_teach.pca.bootstrap_pca",  # 03.bootstrap_angle: the bootstrap replicates' components
           "dimred_teach.biplot.biplot_coordinates"),  # 03.biplot_factors: G and H of the biplot
    "05": ("dimred_teach.lsi.tfidf",  # 05.tfidf
           "dimred_teach.lsi.LSIResult.transform"),  # 05.fold_in: folding a query in
    "06": ("dimred_teach.jl.jl_min_dim",  # 06.min_dim
           "dimred_teach.jl.jl_epsilon"),  # 06.epsilon_for
    "09": ("dimred_teach.selection.t_statistic",  # 09.t_statistic
           "dimred_teach.selection.discrete_mutual_information",  # 09.mi_from_counts
           "dimred_teach.selection.fit_nearest_centroid",  # 09.nearest_centroid
           "dimred_teach.selection.soft_threshold",  # 09.lasso_coordinate_step
           "dimred_teach.selection.recursive_feature_elimination"),  # 09.rfe_ranking
}
"""Functions (``module.function`` or ``module.Class.method``) of allowed modules that answer
an exercise of the set outright; the set's other cells may use the rest of the module, and
library code may still call them (``lsi.lsi`` computes tf-idf). Not listed because a set's
own cells call them: ``ppca.ppca_mle`` (07), ``imputation.low_rank_impute`` (12). Sets whose
cells do not use a module at all forbid the whole module in :data:`FORBIDDEN` instead (08, 10,
11), which bubblewrap enforces beyond what a notebook can undo."""


def set_number(exercise: str) -> str:
    """``"04"`` from an exercise id (``"04.classical_mds"``) or a set name (``"04_mds"``)."""
    return str(exercise)[:2]


def forbidden_entries(exercise: str) -> tuple[str, ...]:
    """The policy entries of an exercise's set: module names, and :data:`CHECKS_INTERNALS`."""
    return FORBIDDEN.get(set_number(exercise), ()) + (CHECKS_INTERNALS,)


def forbidden_functions(exercise: str) -> dict[str, str]:
    """The functions an exercise's set may not call, each with the message saying so."""
    return {name: message(exercise, name) for name in FORBIDDEN_FUNCTIONS.get(set_number(exercise), ())}


def resolve_function(name: str):
    """The function or method a :data:`FORBIDDEN_FUNCTIONS` entry names (``dimred_teach.<module>.<attribute...>``;
    imports the module)."""
    parts = name.split(".")
    value = importlib.import_module(".".join(parts[:2]))
    for attribute in parts[2:]:
        value = getattr(value, attribute)
    return value


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
    """The plain words shown when an answer uses a forbidden module."""
    return f"exercise set {set_number(exercise)} may not use {rule}: write this part yourself"


def blocked_modules(exercise: str, extra_check_dirs=()) -> dict[str, str]:
    """Every existing module the set may not import, with the message saying so.

    Used by the grader to make them unimportable in the grading kernel.
    """
    from dimred_teach import checks

    names = [entry for entry in FORBIDDEN.get(set_number(exercise), ())]
    paths = list(checks.__path__) + [str(d) for d in extra_check_dirs]
    names += [f"{checks.__name__}.{info.name}" for info in pkgutil.iter_modules(paths)]
    entries = forbidden_entries(exercise)
    return {name: message(exercise, rule_of(name, entries)) for name in dict.fromkeys(names)}


def _function_codes(exercise: str) -> dict[types.CodeType, str]:
    """The code of each function the exercise's set may not call -> its entry."""
    codes = {}
    for name in FORBIDDEN_FUNCTIONS.get(set_number(exercise), ()):
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
            raise CheckFailure(self.violation)
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
            raise CheckFailure(self.violation) from None
        return False
