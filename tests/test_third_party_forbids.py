"""A third-party function a set forbids is absent from its grading kernel (issue 37 and 38):
declared by its fully qualified name in the set's ``FORBIDS`` (``scipy.linalg.orthogonal_procrustes``),
it is a stand-in raising the policy's message in the set's kernel (bubblewrap, and a user kernel's
own mount namespace, bind a stubbed copy of its defining file, and that file's bytecode, over the
originals), and ``check()`` in a notebook refuses a function answer that calls it. Where nothing can
cover it (``user`` without mount namespaces), a set that declares one stops the run before any
kernel, unless the weaker guarantee is accepted, and then every report says "not held". The
control: without the declaration the same submission scores."""

from __future__ import annotations

import dataclasses
import json
import os

import nbformat
import pytest
from test_grader_trouble import FIXTURES, answered_set99
from test_grading_construction import ROOT_ONLY, _course_private, _sandbox_of

from dimred_teach.checks import evaluate, policy
from dimred_teach.grading import GradingOptions, SandboxUnavailable, grade, settle_run

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
