"""The check machinery: verdicts, their display, precision and containers. (Each exercise's
check is proven in test_check_proofs.py.)"""

import numpy as np
import pytest

from dimred_teach import check
from dimred_teach.checks import LINE_WIDTH, CheckFailure, Verdict, evaluate, get_check, registered_ids
from dimred_teach.checks.properties import (
    VALUE_SLACK,
    answer_array,
    answer_pair,
    distinct,
    drawn_once,
    expect_close,
    judging_precision,
    tolerance,
)
from dimred_teach.checks.set01 import orange_crab_matrix
from dimred_teach.display import rounded


def test_unanswered_and_unimplemented_answers_are_not_yet():
    assert evaluate("01.top_direction", ...).message.startswith("no answer yet")

    def stub(X):
        raise NotImplementedError

    verdict = evaluate("01.sample_covariance", stub, seed=0)
    assert not verdict.passed and "NotImplementedError" in verdict.message


def test_a_crashing_answer_is_reported_not_raised():
    verdict = evaluate("01.sample_covariance", lambda X: 1 / 0, seed=0)
    assert not verdict.passed and "ZeroDivisionError" in verdict.message


def test_check_prints_one_line_and_a_hint(capsys):
    check("01.top_direction", np.ones(5))
    out = capsys.readouterr().out
    assert out.startswith("[not yet] 01.top_direction:") and "hint:" in out


@pytest.mark.parametrize("bad_id", ["1.x", "01-x", "99.anything", "01.unknown"])
def test_unknown_exercise_ids_are_refused(bad_id):
    with pytest.raises(ValueError, match="exercise_id"):
        get_check(bad_id)


def test_verdict_lines_wrap_on_word_boundaries_at_88_columns():
    long_hint = "take the eigenvector of S with the largest eigenvalue and scale it by the square root " * 3
    verdict = Verdict("01.top_direction", False, "w is not an eigenvector of S " * 6, long_hint)
    lines = verdict.line().split("\n")
    assert all(len(line) <= LINE_WIDTH for line in lines)
    assert lines[0].startswith("[not yet] 01.top_direction: w is")
    hint_start = next(i for i, line in enumerate(lines) if line.startswith("  hint: "))
    assert all(line.startswith("    ") for line in lines[1:hint_start])  # hanging indent
    assert all(line.startswith("        ") for line in lines[hint_start + 1:])
    words = " ".join(line.strip() for line in lines).split()
    assert "square" in words and "root" in words  # no word split across lines


def test_a_long_word_is_never_split():
    url = "https://example.org/" + "x" * 120
    line = Verdict("01.top_direction", True, url, "").line()
    assert url in line


def test_every_set_registers_its_checks():
    ids = registered_ids()
    assert {"01.sample_covariance", "10.digits_m90"} <= set(ids)
    assert ids == sorted(ids)


def test_answers_are_judged_at_their_own_precision():
    X = orange_crab_matrix()
    S = np.cov(X, rowvar=False)
    top = np.linalg.eigh(S)[1][:, -1]
    rounded_top = top.astype(np.float32)
    assert evaluate("01.top_direction", rounded_top).passed
    # the same float32 numbers handed over as float64 are judged at float64 precision
    assert not evaluate("01.top_direction", rounded_top.astype(np.float64)).passed
    with judging_precision():
        assert tolerance(1e-8) == 1e-8
        answer_array(rounded_top, "w")
        assert tolerance(1e-8) > 1e-5
    assert tolerance(1e-8) == 1e-8  # evaluate() starts every answer at float64 precision
    assert not evaluate("01.top_direction", top.astype(np.float16)).passed  # float32 precision at the coarsest


def test_close_messages_show_enough_digits_to_see_the_difference():
    yours, expected = distinct(63696.00001, 63696.0)
    assert yours != expected
    with pytest.raises(CheckFailure, match="63696.00001"):
        expect_close(63696.00001, 63696.0, "q", rtol=1e-12)


def test_close_messages_never_show_the_right_value():
    """Issue 23: "yours is -3.908e+07 at entry (20,), it should be -2.252e+06" gave the answer away."""
    with pytest.raises(CheckFailure) as failure:
        expect_close(np.array([1.0, -3.908e7]), np.array([1.0, -2.252e6]), "the eigenvalues of B")
    message = str(failure.value)
    assert "-3.908e+07" in message and "(1,)" in message
    assert "2.252" not in message and "should be" not in message


def test_pairs_may_be_tuples_lists_or_arrays_but_not_strings():
    assert answer_pair((1, 2), "f(x)", "(a, b)") == (1, 2)
    assert answer_pair([1, 2], "f(x)", "(a, b)") == (1, 2)
    with pytest.raises(CheckFailure, match="pair"):
        answer_pair("12", "f(x)", "(a, b)")


def test_complex_answers_with_a_real_value_are_accepted_others_refused():
    assert answer_array(np.array([1 + 0j, 2 + 0j]), "v").dtype == float
    with pytest.raises(CheckFailure, match="eigh"):
        answer_array(np.array([1 + 1j]), "v")


def test_rounded_removes_negative_zero():
    assert str(rounded(-1e-9)) == "0.0"
    assert str(rounded(np.array([-1e-9, 1.23456]))) in {"[0.     1.2346]", "[0.0000 1.2346]"}


def test_the_power_iteration_matrices_are_too_large_for_a_dense_eigh_in_the_grader():
    """02.power_iteration hands out sparse matrices: A @ v is cheap, but a dense copy and its
    eigenvectors (two m x m float64 arrays) exceed a grading kernel's memory."""
    from dimred_teach.checks.set02 import POWER_SIZE, sparse_psd_with_gap
    from dimred_teach.grading.options import GradingOptions

    assert 2 * POWER_SIZE**2 * 8 > GradingOptions().memory_mb * 2**20
    A, leading = sparse_psd_with_gap(np.random.default_rng(0))
    assert A.shape == (POWER_SIZE, POWER_SIZE) and A.nnz <= 4 * POWER_SIZE
    values = A @ leading
    assert np.allclose(values, (leading @ values) * leading)  # the leading eigenvector it claims


def test_a_float32_value_is_judged_at_a_float32_computations_precision_not_printed_digits():
    """Issue 38: np.float32 of printed loadings passed 01.top_direction when a float32 value got 1000
    units of float32 rounding (1.2e-4); a value now gets VALUE_SLACK units (1.2e-6), which the
    computation in float32 meets and 4 printed decimals miss."""
    X = orange_crab_matrix().astype(np.float32)
    Xc = X - X.mean(axis=0)
    computed = np.linalg.eigh(Xc.T @ Xc / np.float32(len(X) - 1))[1][:, -1]
    assert evaluate("01.top_direction", computed).passed
    typed = np.round(computed.astype(float), 4).astype(np.float32)
    verdict = evaluate("01.top_direction", typed)
    assert not verdict.passed and verdict.mistake == "typed-digits"
    with judging_precision(VALUE_SLACK):
        answer_array(typed, "w")
        assert tolerance(1e-8) == pytest.approx(VALUE_SLACK * np.finfo(np.float32).eps)


def test_an_instance_drawn_once_is_the_draw_and_leaves_the_generator_as_the_draw_does():
    """drawn_once: a repeated draw from the same state gives equal, fresh values and leaves the generator where
    the draw leaves it, so what is drawn afterwards is the same; another state or argument draws anew."""
    calls = []

    @drawn_once(maxsize=2)
    def draw(rng, n):
        calls.append(n)
        return rng.normal(size=n), {"k": int(rng.integers(10))}

    def fresh_draws(cached: bool, seed: int = 3):
        rng = np.random.default_rng(seed)
        return (draw if cached else draw.__wrapped__)(rng, 4), rng.random(3)

    (values, extra), after = fresh_draws(cached=False)
    for _ in range(2):
        (cached_values, cached_extra), cached_after = fresh_draws(cached=True)
        assert np.array_equal(cached_values, values) and cached_extra == extra
        assert np.array_equal(cached_after, after)
        cached_values[:] = 0.0  # a check or an answer writing into its copy changes no later draw
        cached_extra["k"] = -1
    assert calls == [4, 4]  # the draw itself, then one cached draw repeated
    fresh_draws(cached=True, seed=4)
    draw(np.random.default_rng(3), 5)
    assert calls == [4, 4, 4, 5]
    fresh_draws(cached=True)  # the oldest instance left the cache (maxsize=2)
    assert calls == [4, 4, 4, 5, 4]
