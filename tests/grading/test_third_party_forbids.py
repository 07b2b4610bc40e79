"""A third-party function a set forbids is absent from its grading kernel (issue 37 and 38):
declared by its fully qualified name in the set's ``FORBIDS`` (``scipy.linalg.orthogonal_procrustes``),
it is a stand-in raising the policy's message in the set's kernel (bubblewrap, and a user kernel's
own mount namespace, bind a stubbed copy of its defining file, and that file's bytecode, over the
originals), and ``check()`` in a notebook refuses a function answer that calls it. Where nothing can
cover it (``user`` without mount namespaces), a set that declares one stops the run before any
kernel, unless the weaker guarantee is accepted, and then every report says "not held". The
control: without the declaration the same submission scores. Set 07 forbids SciPy's
``subspace_angles`` this way (issue 52: the sine of the largest principal angle answers
07.projector_distance, and the check cannot tell it from the projectors' distance)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import re

import nbformat
import pytest

from check_cases import ROOT
from dimred_teach.checks import evaluate, policy
from dimred_teach.grading import GradingOptions, SandboxUnavailable, grade, settle_run
from test_grader_trouble import FIXTURES, answered_set99
from test_grading import _code
from test_grading_construction import ROOT_ONLY, _course_private, _sandbox_of, _solution

pytestmark = pytest.mark.sandbox

FORBIDDEN = "scipy.linalg.orthogonal_procrustes"
USES_IT = ("import scipy.linalg\n"
           "w = scipy.linalg.orthogonal_procrustes(np.eye(3), np.eye(3))[0][:, 0]\n")
ABSENT = "the set's forbidden code, the checks and solutions absent"
needs_root = pytest.mark.skipif(not ROOT_ONLY, reason="user mode needs a root grader")


@pytest.fixture
def forbidding(monkeypatch):
    """Set 99 declares the SciPy function forbidden (the rules are read afresh)."""
    from dimred_teach.checks import set99

    policy.rules.cache_clear()
    monkeypatch.setattr(set99, "FORBIDS", (FORBIDDEN,), raising=False)
    yield
    policy.rules.cache_clear()


def _options(tmp_path, sandbox: str = "bwrap") -> tuple[GradingOptions, os.PathLike]:
    """Options grading set 99 in ``sandbox``, and its submission whose unit vector comes from the SciPy function."""
    specs, _, exercise = answered_set99(tmp_path)
    answer = next(c for c in exercise.cells if c.cell_type == "code" and "w = w / np.linalg.norm(w)" in c.source)
    answer.source = USES_IT
    path = tmp_path / "99_grading_fixture-procrustes.ipynb"
    nbformat.write(exercise, path)
    return GradingOptions(timeout=60, cell_timeout=20, call_timeout=10, sandbox=sandbox, specs_dir=specs,
                          extra_check_dirs=(FIXTURES,)), path


def _graded_unit_vector(options: GradingOptions, path, out) -> tuple[bool, str, dict]:
    result = grade([path], out, settle_run(options))[0]
    test = next(t for t in result.tests if t.name == "99.unit_vector")
    guarantees = json.loads((out / f"{result.report_name}.json").read_text())["extra_data"]["guarantees"]
    return test.passed, result.output + "\n" + test.output, guarantees


def test_without_the_declaration_the_scipy_answer_scores(tmp_path):
    passed, output, _ = _graded_unit_vector(*_options(tmp_path), tmp_path / "out")
    assert passed, output


@pytest.mark.parametrize("param", ["bwrap", pytest.param("user", marks=needs_root)])
def test_a_forbidden_scipy_function_is_a_stand_in_in_the_kernel(tmp_path, forbidding, param):
    with _sandbox_of(param) as mode, _course_private():
        passed, output, guarantees = _graded_unit_vector(*_options(tmp_path, mode), tmp_path / "out")
    assert not passed
    assert f"exercise set 99 may not use {FORBIDDEN}" in output, output
    assert guarantees[ABSENT] == "held", guarantees


@needs_root
def test_without_namespaces_a_set_forbidding_a_third_party_function_is_refused(tmp_path, forbidding):
    """Nothing covers the original file there: the run stops before any kernel with one line
    naming it and the fixes; accepting that, the SciPy answer scores (the original is what the
    kernel calls) and the report says "not held", naming the function."""
    with _sandbox_of("user-no-namespaces") as mode, _course_private():
        options, path = _options(tmp_path, mode)
        with pytest.raises(SandboxUnavailable, match=rf"{FORBIDDEN}, which set 99 forbids.*unshare.*bubblewrap.*"
                                                     r"--accept-readable-files") as refusal:
            grade([path], tmp_path / "refused", settle_run(options))
        assert "\n" not in str(refusal.value) and "scipy/linalg/" in str(refusal.value)
        assert not (tmp_path / "refused").exists()
        accepted = dataclasses.replace(options, accept_readable_files=True)
        passed, output, guarantees = _graded_unit_vector(accepted, path, tmp_path / "accepted")
    assert passed, output
    assert guarantees[ABSENT].startswith("not held") and FORBIDDEN in guarantees[ABSENT], guarantees


def test_check_refuses_a_function_answer_that_calls_it(forbidding):
    namespace: dict = {}
    exec("import numpy as np\nimport scipy.linalg\n"  # noqa: S102
         "def center(X):\n    if X.ndim != 2:\n        raise ValueError('2-D')\n"
         "    scipy.linalg.orthogonal_procrustes(X, X)\n    return X - X.mean(axis=0)\n", namespace)
    verdict = evaluate("99.center", namespace["center"], seed=1, namespace=namespace)
    assert not verdict.passed and verdict.mistake == "policy" and FORBIDDEN in verdict.message, verdict


# --- Sets 13 and 14: scikit-learn's private FastICA and t-SNE code (issue 53) ---------------------------------

SCIKIT_LEARN = [  # (set, exercise, the function its answer cell defines, an answer calling scikit-learn, what it calls)
    ("13_latent_relatives", "13.fastica_step", "fastica_step",
     "from sklearn.decomposition._fastica import _ica_par, _logcosh\n\n\n"
     "def fastica_step(Z, W):\n"
     "    return _ica_par(Z.T, tol=0.0, g=_logcosh, fun_args={}, max_iter=1, w_init=W)[0]\n",
     "sklearn.decomposition._fastica._ica_par"),
    ("14_neighbour_embeddings", "14.kl_gradient", "kl_gradient",
     "from scipy.spatial.distance import squareform\nfrom sklearn.manifold._t_sne import _kl_divergence\n\n\n"
     "def kl_gradient(Y, P):\n"
     "    n, m = Y.shape\n"
     "    return _kl_divergence(Y.ravel(), squareform(P, checks=False), 1, n, m)[1].reshape(n, m)\n",
     "sklearn.manifold._t_sne._kl_divergence"),
]
by_set = pytest.mark.parametrize("exercise_set, exercise_id, name, source, calls", SCIKIT_LEARN,
                                 ids=[case[1] for case in SCIKIT_LEARN])


def _defined(source: str, name: str):
    namespace: dict = {}
    exec(source, namespace)  # noqa: S102
    return namespace[name], namespace


@pytest.mark.filterwarnings("ignore:FastICA did not converge")  # one step is all the exercise asks
@by_set
def test_scikit_learns_private_code_answers_the_exercise_when_nothing_forbids_it(exercise_set, exercise_id, name,
                                                                                  source, calls):
    """The control: what the checks see of such an answer is right, so only the policy can refuse it."""
    answer, _ = _defined(source, name)
    for seed in range(5):
        verdict = evaluate(exercise_id, answer, seed=seed)
        assert verdict.passed, verdict


@by_set
def test_check_refuses_scikit_learns_private_code(exercise_set, exercise_id, name, source, calls):
    answer, namespace = _defined(source, name)
    verdict = evaluate(exercise_id, answer, seed=1, namespace=namespace)
    assert not verdict.passed and verdict.mistake == "policy", verdict
    assert f"exercise set {exercise_set[:2]} may not use {calls}" in verdict.message, verdict.message


@pytest.mark.parametrize("exercise_set", ["13_latent_relatives", "14_neighbour_embeddings"])
def test_every_forbidden_function_of_a_file_is_a_stand_in(exercise_set, tmp_path):
    """Sets 13 and 14 forbid several functions of one scikit-learn file: its one stand-in, bound
    over the original, raises the policy's message for each of them (a stand-in per function
    would be bound over the same file in turn, and only the last would hold)."""
    from dimred_teach.grading import course_view

    folder = course_view.build_view(exercise_set, tmp_path / "view")
    declared = policy.third_party(exercise_set)
    originals = {str(path) for _, path in course_view.third_party_files(exercise_set)}
    stand_ins = [(copy, original) for copy, original in course_view.shadows(folder) if copy.endswith(".py")]
    assert sorted(original for _, original in stand_ins) == sorted(originals) and len(declared) > len(originals)
    for copy, _ in stand_ins:
        spec = importlib.util.spec_from_file_location(f"stand_in_{exercise_set}", copy)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for entry in declared:
            function = getattr(module, entry.rsplit(".", 1)[1])
            with pytest.raises(RuntimeError, match=f"exercise set {exercise_set[:2]} may not use {re.escape(entry)}"):
                function(*[None] * function.__code__.co_argcount)


@by_set
def test_the_grading_kernel_has_only_a_stand_in(exercise_set, exercise_id, name, source, calls, tmp_path):
    """The set's solution, with that one answer calling scikit-learn, graded under bubblewrap:
    the answer fails with the policy's message, every other exercise passes."""
    solution = nbformat.read(ROOT / "solutions" / f"{exercise_set}.ipynb", as_version=4)
    cell = next(c for c in solution.cells if c.cell_type == "code" and f"def {name}(" in c.source)
    cell.source = source
    path = tmp_path / f"{exercise_set}.ipynb"
    nbformat.write(solution, path)
    options = GradingOptions(timeout=120, cell_timeout=60, call_timeout=20, sandbox="bwrap")
    with _course_private():
        result = grade([path], tmp_path / "out", settle_run(options))[0]
    verdicts = {test.name: test for test in result.tests}
    assert not verdicts[exercise_id].passed and f"may not use {calls}" in verdicts[exercise_id].output, (
        verdicts[exercise_id].output)
    assert all(test.passed for other, test in verdicts.items() if other != exercise_id), result.output


def test_an_entry_of_a_package_that_is_not_installed_forbids_nothing(monkeypatch):
    """Nothing here can call it: the rules leave it out (a course installed without scikit-learn
    still checks and grades sets 13 and 14), and no stand-in is asked for."""
    from dimred_teach.checks import set99

    policy.rules.cache_clear()
    monkeypatch.setattr(set99, "FORBIDS", ("no_such_package_here.module.function", FORBIDDEN), raising=False)
    try:
        assert policy.rules("99.unit_vector").declared == (FORBIDDEN,)
        assert policy.third_party("99.unit_vector") == (FORBIDDEN,)
    finally:
        policy.rules.cache_clear()


SUBSPACE_ANGLES = "scipy.linalg.subspace_angles"
ANGLES_ANSWER = ("import scipy.linalg\n\n\ndef projector_distance(A, B):\n"
                 "    return float(np.sin(scipy.linalg.subspace_angles(A, B).max()))\n")


@pytest.fixture
def set07_without_the_declaration(monkeypatch):
    """Set 07 as it was before issue 52: SciPy's subspace angles not declared (the control)."""
    from dimred_teach.checks import set07

    policy.rules.cache_clear()
    monkeypatch.setattr(set07, "FORBIDS", tuple(e for e in set07.FORBIDS if e != SUBSPACE_ANGLES))
    yield
    policy.rules.cache_clear()


def test_set07_forbids_scipys_subspace_angles():
    assert SUBSPACE_ANGLES in policy.third_party("07.projector_distance")


@pytest.mark.parametrize("declared", [True, False], ids=["declared", "control"])
def test_check_refuses_subspace_angles_for_the_projector_distance(declared, request):
    """The check itself cannot tell the two apart (without a notebook's namespace the answer passes);
    ``check()`` in a notebook refuses it, naming the function."""
    if not declared:
        request.getfixturevalue("set07_without_the_declaration")
    namespace: dict = {"np": __import__("numpy")}
    exec(ANGLES_ANSWER, namespace)  # noqa: S102
    assert evaluate("07.projector_distance", namespace["projector_distance"], seed=1).passed
    verdict = evaluate("07.projector_distance", namespace["projector_distance"], seed=1, namespace=namespace)
    if declared:
        assert not verdict.passed and verdict.mistake == "policy" and SUBSPACE_ANGLES in verdict.message, verdict
    else:
        assert verdict.passed, verdict


def _graded_projector_distance(tmp_path, sandbox: str) -> tuple[bool, str]:
    """Set 07's solution with its projector distance from SciPy's subspace angles, graded."""
    notebook = _solution("07_ppca")
    _code(notebook, "def projector_distance").source = ANGLES_ANSWER
    path = tmp_path / "07_ppca.ipynb"
    nbformat.write(notebook, path)
    result = grade([path], tmp_path / "out", settle_run(GradingOptions(timeout=120, cell_timeout=60, sandbox=sandbox)))[
        0
    ]
    test = next(t for t in result.tests if t.name == "07.projector_distance")
    assert all(t.passed for t in result.tests if t is not test), result.output
    return test.passed, result.output + "\n" + test.output


@pytest.mark.parametrize("param", ["bwrap", pytest.param("user", marks=needs_root)])
def test_subspace_angles_is_a_stand_in_in_set07s_kernel(tmp_path, param):
    with _sandbox_of(param) as mode, _course_private():
        passed, output = _graded_projector_distance(tmp_path, mode)
    assert not passed and f"exercise set 07 may not use {SUBSPACE_ANGLES}" in output, output


def test_without_the_declaration_the_subspace_angles_answer_scores(tmp_path, set07_without_the_declaration):
    passed, output = _graded_projector_distance(tmp_path, "bwrap")
    assert passed, output
