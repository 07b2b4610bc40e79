"""Nothing in a set's kernel view answers one of its function exercises (issues 21 and 37).

A set's grading kernel sees a copy of the library that holds only what the set's own cells
use (:mod:`dimred_teach.grading.course_view`). What remains there is searched by generation, not by
a hand-kept list: for every function exercise, the check is run against adapted calls of
every function and class the view defines, private ones included (the kernel reaches those
too): the exercise's arguments in every order and subset, a required parameter left over
filled with 0 or a zero vector (the others keep their defaults), tolerances set to 0; of each
result, the result itself, its entries, its attributes and what its methods without arguments
return; and, for a scalar answer, a helper inverted by bisection over an integer argument (the
smallest one at which it crosses the answer's bound). On main's library this finds
``ppca.ppca_mle(X, q).sigma2`` (07.noise_variance), ``ppca.PPCAModel(W, zeros, s2).covariance()``
(07.marginal_covariance), ``imputation.low_rank_impute(R, k, n).completed`` (12.hard_impute) and
``jl.jl_delta`` inverted (06.min_dim). Compositions are generated too (issue 52), from the
library's own decompositions of an exercise (:func:`pieces`): every function and class of the
view applied to up to three pieces of the exercise's arguments (a column, the matrix without it,
a transpose, centred columns, a residual, a partial residual, the rows of one class, a number as
a path of one value), with its defaults or taking one step, and its results' readings narrowed
to their only entry or to an index argument's entry, row or column. That found
``selection.lasso_path(X[:, [j]], partial_residual, alphas=[alpha]).coefs[0, 0]``, the LASSO of one
column on its partial residual, which is 09.lasso_coordinate_step (set 09 now forbids
``lasso_path``). Compositions of two library calls, or with the exercise's own arithmetic ("fill
the holes, then call": ``mean_plus_rank_k`` for 12.impute_step, kept out by the allowlist), are
not generated. Any adapted or composed call the check passes is a leak.

To keep the search cheap, each candidate is first compared with the solution's own outputs on
the inputs the check hands the solution (recorded by running the check once); only a
candidate that agrees on all of them is run through the check itself.
"""

from __future__ import annotations

import ast
import copy
import functools
import importlib.util
import inspect
import itertools
import json
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import jupytext
import numpy as np
import pytest

from check_cases import ROOT, solution_answer
from dimred_teach.checks import evaluate
from dimred_teach.exercise_specs import SPECS_DIR
from dimred_teach.grading import course_view

pytestmark = [pytest.mark.slow(seconds=96), pytest.mark.pipeline]

SLOTS = 4
"""Adapted calls place the exercise's arguments among the first SLOTS positional parameters."""
BISECTION_TOP = 2**24
CHEAP_SECONDS = 0.2
"""A bisection stops when one evaluation of the helper takes longer."""


LEAKS = [  # issue 37: library code that answered an exercise of its set, and how
    ("05_lsi", "05.tfidf", "from dimred_teach import lsi", "lsi.tfidf(counts).matrix.toarray()",
     "dimred_teach.lsi.tfidf"),
    ("07_ppca", "07.noise_variance", "from dimred_teach import ppca", "ppca.ppca_mle(X, q).sigma2",
     "dimred_teach.ppca.ppca_mle"),
    ("07_ppca", "07.marginal_covariance", "from dimred_teach import ppca",
     "ppca.PPCAModel(W, numpy.zeros(W.shape[0]), sigma2).covariance()", "dimred_teach.ppca.PPCAModel.covariance"),
    ("09_feature_selection", "09.mi_from_counts", "from dimred_teach.selection import mutual_information as mi",
     "mi.discrete_mutual_information(*(numpy.repeat(i, counts[numpy.nonzero(counts)]) for i in numpy.nonzero(counts)))",
     "dimred_teach.selection.mutual_information.discrete_mutual_information"),
    ("09_feature_selection", "09.nearest_centroid", "from dimred_teach.selection import wrappers",
     "wrappers.fit_nearest_centroid(X_train, y_train).predict(X_test)",
     "dimred_teach.selection.wrappers.fit_nearest_centroid"),
    ("12_missing_values_recommenders", "12.impute_step", "from dimred_teach import imputation",
     "imputation.mean_plus_rank_k(numpy.where(numpy.isnan(R), fit, R), k)", "dimred_teach.imputation.mean_plus_rank_k"),
    ("12_missing_values_recommenders", "12.hard_impute", "from dimred_teach import imputation",
     "imputation.low_rank_impute(R, k, max_iter=n_iter, tol=0).completed", "dimred_teach.imputation.low_rank_impute"),
    ("06_random_projections", "06.min_dim", "from dimred_teach import jl", None, "dimred_teach.jl.jl_delta"),
    ("09_feature_selection", "09.lasso_coordinate_step", "from dimred_teach import selection",  # issue 52
     "selection.lasso_path(X[:, [j]], y - X @ b + X[:, j] * b[j], alphas=[alpha]).coefs[0, 0]",
     "dimred_teach.selection.lasso_path"),
]
"""Sets 05 and 09 once kept private copies of tf-idf, the mutual information and the nearest-centroid
classifier for their set-up cells; now their kernels hold neither the copies nor the originals."""


def _spec(exercise_set: str) -> dict:
    return json.loads((SPECS_DIR / f"{exercise_set}.json").read_text())


def function_exercises():
    """The exercises whose check cell hands over a function the solution defines, found
    by reading the sources (collecting runs no solution: every test process collects)."""
    for path in sorted(SPECS_DIR.glob("*.json")):
        spec = json.loads(path.read_text())
        notebook = jupytext.read(ROOT / "solutions" / f"{spec['exercise_set']}.py")
        defined = {node.name for cell in notebook.cells if cell.cell_type == "code"
                   for node in ast.parse(cell.source).body if isinstance(node, ast.FunctionDef)}
        for check in spec["checks"]:
            answer = ast.parse(check["source"], mode="eval").body.args[1]
            if isinstance(answer, ast.Name) and answer.id in defined:
                yield pytest.param(spec["exercise_set"], check["exercise_id"], id=check["exercise_id"])


@functools.cache
def view_callables(exercise_set: str, folder: str) -> dict[str, object]:
    """Every function and class the set's view defines (private ones too), by its name in the
    view, imported from a view built into ``folder`` under a package name of its own."""
    library = _spec(exercise_set).get("library")
    root = course_view.build_view(exercise_set, Path(folder) / "view", library) / "dimred_teach"
    alias = f"_view_{exercise_set[:2]}_dimred_teach"
    spec = importlib.util.spec_from_file_location(alias, root / "__init__.py", submodule_search_locations=[str(root)])
    package = importlib.util.module_from_spec(spec)
    sys.modules[alias] = package
    spec.loader.exec_module(package)
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join([alias, *parts[:-1]] if parts[-1] == "__init__" else [alias, *parts])
        if parts[0] == "checks":
            continue
        try:
            module = importlib.import_module(name)
        except ImportError:  # a stand-in of a module the view leaves out
            continue
        for attribute, value in vars(module).items():
            if (inspect.isfunction(value) or inspect.isclass(value)) and getattr(value, "__module__", "") == name:
                found[f"{name.replace(alias, 'dimred_teach', 1)}.{attribute}"] = value
    return found


def recorded_calls(exercise_id: str, limit: int | None = 3, seeds=(1,)) -> list[tuple[tuple, object]]:
    """(arguments, the solution's result) of the first ``limit`` calls the check makes (None: all)
    on ``seeds`` (checks call with positional arguments only)."""
    solution, calls = solution_answer(exercise_id), []

    def spy(*args):
        given = copy.deepcopy(args)
        result = solution(*args)
        if limit is None or len(calls) < limit:
            calls.append((given, copy.deepcopy(result)))
        return result

    spy.__signature__ = inspect.signature(solution)
    for seed in seeds:
        assert evaluate(exercise_id, spy, seed=seed).passed, f"{exercise_id}: the solution fails seed {seed}"
    return calls


def _parameters(value) -> list[inspect.Parameter]:
    try:
        return list(inspect.signature(value).parameters.values())
    except (TypeError, ValueError):
        return []


def placements(value, n_args: int):
    """(description, adapt) pairs: ``adapt(args)`` gives the (positional, keyword) arguments
    of one way to call ``value`` with the exercise's ``args``. Each way is given once: the
    fillers only where a required parameter is left over, tolerances at 0 only where one
    is not taken by an argument (else they would repeat the same call)."""
    parameters = _parameters(value)
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:SLOTS]
    required = [i for i, p in enumerate(positional) if p.default is p.empty]
    untied = {p.name: 0.0 for p in parameters if isinstance(p.default, float) and 0 < p.default < 1}
    for k in range(1, min(n_args, len(positional)) + 1):
        for chosen in itertools.permutations(range(n_args), k):
            for slots in itertools.permutations(range(len(positional)), k):
                if any(i > max(slots) for i in required):
                    continue
                left_untied = set(untied) - {positional[s].name for s in range(max(slots) + 1)}
                filled = FILLERS if set(required) - set(slots) else FILLERS[:1]
                for tolerance in ({}, untied) if left_untied else ({},):
                    for filler in filled:
                        def adapt(args, chosen=chosen, slots=slots, tolerance=tolerance, filler=filler):
                            call = [positional[i].default if positional[i].default is not positional[i].empty
                                    else filler(args) for i in range(max(slots) + 1)]
                            for slot, index in zip(slots, chosen):
                                call[slot] = args[index]
                            placed = {positional[s].name for s in range(len(call))}
                            return call, {k: v for k, v in tolerance.items() if k not in placed}
                        yield f"args {chosen} at {slots}" + (" tol 0" if tolerance else ""), adapt


def _zeros_like_rows(args):
    """A zero vector as long as the first array argument has rows (a mean, say)."""
    first = next((a for a in args if isinstance(a, np.ndarray) and a.ndim >= 1), None)
    return 0 if first is None else np.zeros(first.shape[0])


FILLERS = (lambda args: 0, _zeros_like_rows)
"""What a required parameter no exercise argument fills gets (one adapted call each); a
parameter with a default keeps it."""


def attributes_of(value, private: bool = True):
    """(name, attribute) of every attribute of ``value`` that reads without an error, the special
    ones (``__name__``) left out, and the private ones too unless ``private``."""
    for name in dir(value):
        if name.startswith("__") or (not private and name.startswith("_")):
            continue
        try:
            yield name, getattr(value, name)
        except Exception:
            continue


def readings(result, rest=()):
    """(description, value) of what an answer could take from ``result``: itself, its entries,
    its attributes, and what its methods return given no argument or the exercise's arguments
    the call did not use (``rest``)."""
    yield "", result
    if isinstance(result, tuple) and len(result) <= 8:  # a pair of results, a NamedTuple
        for index, item in enumerate(result):
            yield f"[{index}]", item
    if isinstance(result, (np.ndarray, np.generic, int, float, str, bytes, tuple, list, dict)) or result is None:
        return
    for name, value in attributes_of(result):
        if inspect.ismethod(value):
            needs = sum(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                        for p in _parameters(value))
            if needs not in (0, len(rest)):
                continue
            try:
                value = value(*rest[:needs])
            except Exception:
                continue
            yield f".{name}({'rest' if needs else ''})", value
        elif not callable(value):
            yield f".{name}", value


def _take(result, reading: str, rest=()):
    if not reading:
        return result
    if reading.startswith("["):
        return result[int(reading[1:-1])]
    value = getattr(result, reading.split("(")[0].strip("."))
    return value(*(rest if reading.endswith("(rest)") else ())) if reading.endswith(")") else value


def agrees(candidate, expected) -> bool:
    """Whether ``candidate`` equals ``expected`` (tuples entry by entry; arrays up to signs of
    columns: a check may accept either sign)."""
    if isinstance(expected, tuple):
        return (isinstance(candidate, (tuple, list)) and len(candidate) == len(expected)
                and all(agrees(c, e) for c, e in zip(candidate, expected)))
    if hasattr(candidate, "toarray"):  # a SciPy sparse matrix
        shape = getattr(candidate, "shape", None)
        if shape is not None and _shape_of_numbers(expected) not in (None, tuple(shape)):
            return False  # as below (shapes differ), without a dense copy (of a 12,000 x 12,000 matrix, say)
        candidate = candidate.toarray()
    try:
        a = np.asarray(candidate, dtype=float)
        b = np.asarray(expected, dtype=float)
    except (TypeError, ValueError):
        try:
            return bool(candidate == expected)
        except Exception:
            return False
    if a.shape != b.shape or not np.all(np.isfinite(a)):
        return False
    return bool(np.allclose(a, b, rtol=1e-6, atol=1e-8) or np.allclose(np.abs(a), np.abs(b), rtol=1e-6, atol=1e-8))


def _shape_of_numbers(value) -> tuple | None:
    """The shape of ``value`` as an array of floats, or None when it is not one."""
    try:
        return np.asarray(value, dtype=float).shape
    except (TypeError, ValueError):
        return None


def _quietly(function, *args, **kwargs):
    """``function(*args, **kwargs)`` with no warnings, and arrays in messages shortened: most
    adapted calls fail, and their messages may print the arrays they were given."""
    with warnings.catch_warnings(), np.errstate(all="ignore"), np.printoptions(threshold=16, edgeitems=2):
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def direct_candidates(value, calls):
    """Adapted calls of ``value`` (and readings of their results) that agree with every call."""
    first_args, first_expected = calls[0]
    for description, adapt in placements(value, len(first_args)):
        try:
            positional, keywords = adapt(copy.deepcopy(first_args))
            result = _quietly(value, *positional, **keywords)
        except Exception:
            continue
        for reading, taken in readings(result, _rest(first_args, adapt)):
            if not agrees(taken, first_expected):
                continue

            def candidate(*args, adapt=adapt, reading=reading):
                positional, keywords = adapt(args)
                taken = _take(value(*positional, **keywords), reading, _rest(args, adapt))
                return taken.toarray() if hasattr(taken, "toarray") else taken  # sparse: as a student would

            if all(_agrees_on(candidate, args, expected) for args, expected in calls[1:]):
                yield f"{description}{reading}", candidate


def _rest(args, adapt) -> list:
    """The exercise's arguments an adapted call leaves out, in order."""
    return [args[i] for i in range(len(args)) if i not in adapt.__defaults__[0]]


COMPOSED = 3
"""A composed call places at most this many pieces, in its leading positional parameters."""


def pieces(args) -> dict[str, object]:
    """The exercise's arguments and the library's own decompositions of them, by description
    (the same for every call of a check): a matrix's transpose and its centred columns; for an
    index argument j, column j of a matrix (as a column and as a vector) and the matrix without
    it; for a matrix X, a vector b and a vector y, X b, the residual y - X b and the partial
    residual y - X b + x_j b_j (without column j); the rows of a matrix in the first and in the
    second class of a label vector; a number as a one-element array (a path at one value)."""
    found = {f"argument {i}": a for i, a in enumerate(args)}
    arrays = [(i, a) for i, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind in "iuf"]
    matrices = [(i, a) for i, a in arrays if a.ndim == 2]
    vectors = [(i, a) for i, a in arrays if a.ndim == 1]
    indices = [(i, int(a)) for i, a in enumerate(args) if isinstance(a, (int, np.integer)) and not isinstance(a, bool)]
    for i, X in matrices:
        found[f"argument {i}.T"] = X.T
        found[f"argument {i} centred"] = X - X.mean(axis=0)
        columns = [(h, j) for h, j in indices if 0 <= j < X.shape[1]]
        for h, j in columns:
            found[f"column (argument {h}) of argument {i}"] = X[:, [j]]
            found[f"column (argument {h}) of argument {i}, a vector"] = X[:, j]
            found[f"argument {i} without column (argument {h})"] = np.delete(X, j, axis=1)
        for h, b in vectors:
            if b.size != X.shape[1]:
                continue
            found[f"argument {i} @ argument {h}"] = X @ b
            for g, y in vectors:
                if g != h and y.size == X.shape[0]:
                    found[f"argument {g} - argument {i} @ argument {h}"] = y - X @ b
                    for e, j in columns:
                        found[f"argument {g} - argument {i} @ argument {h} without column (argument {e})"] = \
                            y - X @ b + X[:, j] * b[j]
        for h, labels in vectors:
            if labels.dtype.kind in "iu" and labels.size == X.shape[0]:
                for position, label in zip(("first", "second"), np.unique(labels)):
                    found[f"rows of argument {i} in the {position} class of argument {h}"] = X[labels == label]
    for i, a in enumerate(args):
        if isinstance(a, (float, np.floating)):
            found[f"[argument {i}]"] = np.array([a])  # not a list: an integer times a list repeats it
    return found


def narrowings(value, args):
    """(description, narrow) pairs: ``narrow(value, args)`` is ``value`` itself, the only entry of
    an array of one entry, or the entry, row or column of an array at an index argument."""
    yield "", lambda v, args: v
    try:
        shape = np.shape(np.asarray(value, dtype=float))
    except (TypeError, ValueError):
        return
    if len(shape) and np.prod(shape) == 1:
        yield " (its only entry)", lambda v, args: np.asarray(v, dtype=float).reshape(-1)[0]
    for h, j in ((h, a) for h, a in enumerate(args) if isinstance(a, (int, np.integer)) and not isinstance(a, bool)):
        if len(shape) and 0 <= j < shape[0]:
            yield f"[argument {h}]", lambda v, args, h=h: np.asarray(v, dtype=float)[int(args[h])]
        if len(shape) == 2 and 0 <= j < shape[1]:
            yield f"[:, argument {h}]", lambda v, args, h=h: np.asarray(v, dtype=float)[:, int(args[h])]


def _fresh(value):
    return value.copy() if isinstance(value, np.ndarray) else copy.deepcopy(value)


def composed_candidates(value, calls):
    """Calls of ``value`` on up to :data:`COMPOSED` pieces of the exercise's arguments
    (:func:`pieces`), at least one of them not an argument itself, placed in order in its leading
    positional parameters, with its defaults or taking one step (its integer parameters that
    default to 2 or more at 1, its tolerances at 0); of each result, every reading
    (:func:`readings`) narrowed (:func:`narrowings`), that agree with every call. A piece that is
    the expected answer itself is left out (the exercise's own arithmetic, not the library's)."""
    first_args, first_expected = calls[0]
    pool = {name: piece for name, piece in pieces(first_args).items() if not agrees(piece, first_expected)}
    parameters = _parameters(value)
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:COMPOSED]
    required = {p.name for p in parameters if p.default is p.empty and p.kind is not p.VAR_POSITIONAL
                and p.kind is not p.VAR_KEYWORD}
    one_step = {p.name: 1 for p in parameters if type(p.default) is int and p.default >= 2}
    one_step |= {p.name: 0.0 for p in parameters if isinstance(p.default, float) and 0 < p.default < 1}
    for k in range(1, len(positional) + 1):
        placed = {p.name for p in positional[:k]}
        if not required <= placed:
            continue
        for chosen in itertools.permutations(pool, k):
            if all(name.startswith("argument ") and name[9:].isdigit() for name in chosen):
                continue  # a single call: direct_candidates
            for setting in ({}, one_step) if set(one_step) - placed else ({},):
                keywords = {name: v for name, v in setting.items() if name not in placed}
                try:
                    result = _quietly(value, *(_fresh(pool[name]) for name in chosen), **keywords)
                except Exception:
                    continue
                for reading, taken in readings(result):
                    for narrowing, narrow in narrowings(taken, first_args):
                        try:
                            if not agrees(narrow(taken, first_args), first_expected):
                                continue
                        except Exception:
                            continue

                        def candidate(*args, chosen=chosen, keywords=keywords, reading=reading, narrow=narrow):
                            found = pieces(args)
                            return narrow(_take(value(*(found[name] for name in chosen), **keywords), reading), args)

                        if all(_agrees_on(candidate, args, expected) for args, expected in calls[1:]):
                            steps = " taking one step" if keywords else ""
                            yield f"on {', '.join(chosen)}{steps}{reading}{narrowing}", candidate


def _stand_in(value) -> bool:
    """Whether ``value`` is a view's stand-in (its body raises the policy's message)."""
    code = getattr(value, "__code__", None)
    return code is not None and any(isinstance(c, str) and " may not use " in c for c in code.co_consts)


def inverse_candidates(value, calls):
    """For a scalar answer: the smallest integer x at which ``value`` with the other arguments
    crosses one argument taken as a bound (below or above), found by bisection."""
    first_args, first_expected = calls[0]
    if not isinstance(first_expected, (int, float, np.number)) or len(first_args) < 2:
        return
    parameters = [p for p in _parameters(value) if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:SLOTS]
    for target in range(len(first_args)):
        others = [i for i in range(len(first_args)) if i != target]
        for free in range(len(parameters)):
            for slots in itertools.permutations([s for s in range(len(parameters)) if s != free], len(others)):
                for below in (True, False):
                    def candidate(*args, target=target, others=others, free=free, slots=slots, below=below):
                        call = [0] * len(parameters)
                        for slot, index in zip(slots, others):
                            call[slot] = args[index]

                        def crossed(x):
                            call[free] = x
                            started = time.monotonic()
                            y = float(value(*call))
                            if time.monotonic() - started > CHEAP_SECONDS:
                                raise TimeoutError("not cheap")
                            return y <= args[target] if below else y >= args[target]

                        high = 1  # doubling first: a helper that gets slow with x stops early
                        while not crossed(high):
                            high *= 2
                            if high > BISECTION_TOP:
                                raise ValueError("never crosses")
                        low = high // 2 + 1 if high > 1 else 1
                        while low < high:
                            middle = (low + high) // 2
                            low, high = (low, middle) if crossed(middle) else (middle + 1, high)
                        return low

                    if all(_agrees_on(candidate, args, expected) for args, expected in calls):
                        yield f"bisection on argument {free} against argument {target}", candidate


def _agrees_on(candidate, args, expected) -> bool:
    try:
        return agrees(_quietly(candidate, *copy.deepcopy(args)), expected)
    except Exception:
        return False


def answering(exercise_set: str, exercise_id: str, folder: str) -> list[str]:
    """The adapted calls of the set's view that pass the exercise's check."""
    calls = recorded_calls(exercise_id)
    assert calls, f"{exercise_id}: the check never called the solution"
    found = []
    for name, value in view_callables(exercise_set, folder).items():
        composed = () if _stand_in(value) else composed_candidates(value, calls)
        for description, candidate in itertools.chain(direct_candidates(value, calls), inverse_candidates(value, calls),
                                                      composed):
            if _quietly(evaluate, exercise_id, candidate, seed=2).passed:
                found.append(f"{name} ({description})")
                break
    return found


def test_a_path_at_one_alpha_of_one_column_is_found():
    """The composition issue 52 found in set 09's view before the set forbade ``lasso_path``: the
    LASSO of column j on the partial residual, at alpha alone, is the coordinate step."""
    from dimred_teach.selection import lasso_path

    found = next(description for description, candidate in composed_candidates(lasso_path, recorded_calls(
        "09.lasso_coordinate_step")) if _quietly(evaluate, "09.lasso_coordinate_step", candidate, seed=2).passed)
    assert found.startswith("on column (argument 3) of argument 0, argument 1 - argument 0 @ argument 2 without "
                            "column (argument 3), [argument 4]"), found


@pytest.fixture(scope="module")
def views_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("views")


@pytest.mark.parametrize("exercise_set, exercise_id", list(function_exercises()))
def test_nothing_in_the_view_answers_a_function_exercise(exercise_set, exercise_id, views_folder):
    folder = views_folder / exercise_set
    folder.mkdir(exist_ok=True)
    assert answering(exercise_set, exercise_id, str(folder)) == []


def test_every_exercise_answered_by_a_function_is_scanned():
    """The sources' reading above finds exactly the exercises whose solution answer is callable."""
    scanned = {case.values[1] for case in function_exercises()}
    answered_by_functions = {check["exercise_id"] for path in sorted(SPECS_DIR.glob("*.json"))
                             for check in json.loads(path.read_text())["checks"]
                             if callable(solution_answer(check["exercise_id"]))}
    assert scanned == answered_by_functions


@pytest.mark.parametrize("exercise_set, exercise_id, imports, expression, name",
                         [pytest.param(*leak, id=leak[1]) for leak in LEAKS])
def test_a_known_leak_is_not_in_the_kernel_and_check_refuses_it(exercise_set, exercise_id, imports, expression, name,
                                                                tmp_path):
    """The grading kernel of the set has no such object (calling its stand-in raises the policy's message),
    and ``check()`` in a notebook fails an answer that uses it, with the same message."""
    folder = course_view.build_view(exercise_set, tmp_path / "view", _spec(exercise_set).get("library"))
    module, attribute = name.rsplit(".", 1)
    if module.rsplit(".", 1)[-1][:1].isupper():  # a method: the class's attribute
        module, cls = module.rsplit(".", 1)
        attribute = f"{cls}.{attribute}"
    probe = (f"import importlib, functools\nm = importlib.import_module({module!r})\n"
             f"functools.reduce(getattr, {attribute!r}.split('.'), m)({'None' if '.' in attribute else ''})\n")
    ran = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(folder)!r})\n{probe}"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert ran.returncode != 0 and f"exercise set {exercise_set[:2]} may not use" in ran.stderr, ran.stderr[-500:]
    if expression is None:
        return
    solution = solution_answer(exercise_id)
    parameters = ", ".join(inspect.signature(solution).parameters)
    namespace: dict = {}
    exec(f"import numpy\n{imports}\ndef answer({parameters}):\n    return {expression}\n", namespace)  # noqa: S102
    verdict = evaluate(exercise_id, namespace["answer"], seed=1, namespace=namespace)
    assert not verdict.passed and verdict.mistake == "policy", verdict
    assert f"exercise set {exercise_set[:2]} may not use" in verdict.message


@pytest.mark.parametrize("exercise_set, names, needs", [
    ("05_lsi", ["dimred_teach.lsi.lsi"], "dimred_teach.lsi.tfidf"),  # set 05's old set-up
    ("05_lsi", ["dimred_teach.lsi.search"], "dimred_teach.lsi.tfidf"),  # a query weighed like the corpus
    ("09_feature_selection", ["dimred_teach.selection.select_incremental_mi"],
     "dimred_teach.selection.mutual_information.discrete_mutual_information"),
    ("09_feature_selection", ["dimred_teach.selection.cross_val_accuracy"],
     "dimred_teach.selection.wrappers.fit_nearest_centroid"),
])
def test_a_set_whose_cells_need_what_it_forbids_gets_no_view(exercise_set, names, needs, tmp_path):
    """No private copies (issue 37): a kept object that needs a forbidden one is an error of the
    set when its view is built, naming what it needs."""
    with pytest.raises(ValueError, match=rf"exercise set {exercise_set}: its own cells need .*{re.escape(needs)}"):
        course_view.build_view(exercise_set, tmp_path / "view", {"names": names, "attributes": []})


@pytest.mark.parametrize("exercise_set", sorted(path.stem for path in SPECS_DIR.glob("*.json")))
def test_the_solutions_code_runs_in_its_sets_view(exercise_set, tmp_path):
    """What a set's view leaves out is nothing its own cells need: the solution's code cells
    (check calls aside) run with the view as the library (display.setup_notebook's plotting,
    a numpy subclass's methods called by numpy, ...)."""
    folder = course_view.build_view(exercise_set, tmp_path / "view", _spec(exercise_set).get("library"))
    notebook = jupytext.read(ROOT / "solutions" / f"{exercise_set}.py")
    code = "\n".join(line for cell in notebook.cells if cell.cell_type == "code"
                     for line in cell.source.splitlines() if not line.startswith("check("))
    (tmp_path / "cells.py").write_text(code)
    ran = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(folder)!r})\n"
                          f"exec(compile(open('cells.py').read(), 'cells.py', 'exec'))"],
                         capture_output=True, text=True, cwd=tmp_path, env={"MPLBACKEND": "agg", "HOME": str(tmp_path)})
    assert ran.returncode == 0, ran.stderr[-1500:]
