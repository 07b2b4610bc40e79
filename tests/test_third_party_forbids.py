"""A third-party function a set forbids is absent from its grading kernel (issue 37 and 38):
declared by its fully qualified name in the set's ``FORBIDS`` (``scipy.linalg.orthogonal_procrustes``),
it is a stand-in raising the policy's message in the set's kernel (bubblewrap binds a stubbed copy of
its defining file, and that file's bytecode, over the originals), and ``check()`` in a notebook
refuses a function answer that calls it. The control: without the declaration the same
submission scores."""

from __future__ import annotations

import nbformat
import pytest
from test_grader_trouble import FIXTURES, answered_set99

from dimred_teach.checks import evaluate, policy
from dimred_teach.grading import GradingOptions, grade

FORBIDDEN = "scipy.linalg.orthogonal_procrustes"
USES_IT = ("import scipy.linalg\n"
           "w = scipy.linalg.orthogonal_procrustes(np.eye(3), np.eye(3))[0][:, 0]\n")


@pytest.fixture
def forbidding(monkeypatch):
    """Set 99 declares the SciPy function forbidden (the rules are read afresh)."""
    from dimred_teach.checks import set99

    policy.rules.cache_clear()
    monkeypatch.setattr(set99, "FORBIDS", (FORBIDDEN,), raising=False)
    yield
    policy.rules.cache_clear()


def _graded_unit_vector(tmp_path) -> tuple[bool, str]:
    specs, _, exercise = answered_set99(tmp_path)
    answer = next(c for c in exercise.cells if c.cell_type == "code" and "w = w / np.linalg.norm(w)" in c.source)
    answer.source = USES_IT
    path = tmp_path / "99_grading_fixture-procrustes.ipynb"
    nbformat.write(exercise, path)
    options = GradingOptions(timeout=60, cell_timeout=20, call_timeout=10, sandbox="bwrap",
                             specs_dir=specs, extra_check_dirs=(FIXTURES,))
    result = grade([path], tmp_path / "out", options)[0]
    test = next(t for t in result.tests if t.name == "99.unit_vector")
    return test.passed, result.output + "\n" + test.output


def test_without_the_declaration_the_scipy_answer_scores(tmp_path):
    passed, output = _graded_unit_vector(tmp_path)
    assert passed, output


def test_a_forbidden_scipy_function_is_a_stand_in_in_the_kernel(tmp_path, forbidding):
    passed, output = _graded_unit_vector(tmp_path)
    assert not passed
    assert f"exercise set 99 may not use {FORBIDDEN}" in output, output


def test_check_refuses_a_function_answer_that_calls_it(forbidding):
    namespace: dict = {}
    exec("import numpy as np\nimport scipy.linalg\n"  # noqa: S102
         "def center(X):\n    if X.ndim != 2:\n        raise ValueError('2-D')\n"
         "    scipy.linalg.orthogonal_procrustes(X, X)\n    return X - X.mean(axis=0)\n", namespace)
    verdict = evaluate("99.center", namespace["center"], seed=1, namespace=namespace)
    assert not verdict.passed and verdict.mistake == "policy" and FORBIDDEN in verdict.message, verdict
