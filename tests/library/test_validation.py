"""The shared validation helpers and the sign rule: every refusal names its argument."""

import numpy as np
import pytest
import scipy.sparse

from dimred_teach._validation import (
    OPEN_UNIT,
    as_data_matrix,
    as_distance_matrix,
    as_square_symmetric,
    as_vector,
    check_bool,
    check_choice,
    check_int,
    check_k,
    check_real,
    check_seed,
)
from dimred_teach.linalg import (
    ARPACK_MIN_SIZE,
    center_rows_and_columns,
    fix_signs,
    projector,
    sorted_eigh,
    top_eigenpairs,
)

GOOD_D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.5], [2.0, 1.5, 0.0]])


@pytest.mark.parametrize("D, message", [
    (np.ones((2, 3)), "D must be a square distance matrix"),
    (np.array([[0.0, 1.0], [2.0, 0.0]]), "D must be symmetric"),
    (np.array([[0.0, -1.0], [-1.0, 0.0]]), "D has negative entries"),
    (np.array([[1.0, 1.0], [1.0, 1.0]]), "D must have a zero diagonal"),
    (np.array([[0.0, np.nan], [np.nan, 0.0]]), "D contains NaN"),
    (np.zeros((1, 1)), "D needs at least 2 points"),
])
def test_distance_matrix_refusals(D, message):
    with pytest.raises(ValueError, match=message):
        as_distance_matrix(D)


def test_distance_matrix_accepts_non_euclidean_and_returns_a_copy():
    D = GOOD_D.copy()
    D[0, 2] = D[2, 0] = 10.0  # violates the triangle inequality: legal
    out = as_distance_matrix(D)
    out[0, 1] = 99
    assert D[0, 1] == 1.0


@pytest.mark.parametrize("call, error, message", [
    (lambda: as_data_matrix(np.ones((3, 2)), name="Y", min_rows=4), ValueError, "Y needs at least 4 rows"),
    (lambda: as_data_matrix(np.ones((3, 0))), ValueError, "X needs at least 1 columns"),
    (lambda: as_data_matrix(np.ones((2, 2)) * 1j), TypeError, "X must be real"),
    (lambda: as_vector(np.ones((2, 2)), name="w"), ValueError, "w must be 1-D"),
    (lambda: as_vector(np.ones(3), name="w", length=4), ValueError, "w must have length 4"),
    (lambda: as_square_symmetric(np.ones((2, 3)), name="S"), ValueError, "S must be a square matrix"),
    (lambda: check_int(True, "n"), TypeError, "n must be an integer"),
    (lambda: check_int(1, "n", minimum=2), ValueError, "n must be at least 2"),
    (lambda: check_k(5, 3, why="only 3 columns"), ValueError, r"between 1 and 3 \(only 3 columns\)"),
    (lambda: check_choice("x", ("a", "b"), "kind"), ValueError, "kind must be one of 'a', 'b'"),
    (lambda: check_seed(None), TypeError, "seed must be an integer"),
    (lambda: check_seed(-1), ValueError, "seed must be non-negative"),
    (lambda: check_int(10**400, "q", minimum=1), ValueError, r"q must be at most 1.8e\+308 in magnitude \(the largest "
     r"float64; .*\), got 1e\+400$"),
    (lambda: check_int(-10**5000, "n", minimum=1), ValueError, r"n must be at least 1, got -1e\+5000$"),
    (lambda: check_int(12345678901234567, "n", maximum=5), ValueError, r"got 1.23e\+16$"),
    (lambda: check_k(10**400, 3), ValueError, r"k must be between 1 and 3, got 1e\+400$"),
    (lambda: check_real(1.0, "eps", OPEN_UNIT), ValueError, r"eps must lie in \(0, 1\), got 1.0"),
    (lambda: check_real("0.5", "delta", OPEN_UNIT), TypeError, "delta must be a real number"),
    (lambda: check_real(float("nan"), "tol"), ValueError, "tol must lie in"),
    (lambda: check_bool("no", "scale"), TypeError, "scale must be True or False, got str 'no'"),
])
def test_refusals_name_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_sparse_input_is_refused_with_advice():
    with pytest.raises(TypeError, match="X is a sparse matrix"):
        as_data_matrix(scipy.sparse.eye(3, format="csr"))


def test_fix_signs_flips_companions_together():
    V = np.array([[0.1, -0.9], [-0.8, 0.2]])
    Z = np.array([[1.0, 2.0], [3.0, 4.0]])
    V2, Z2 = fix_signs(V, Z)
    np.testing.assert_array_equal(V2, [[-0.1, 0.9], [0.8, -0.2]])
    np.testing.assert_array_equal(Z2, [[-1.0, -2.0], [-3.0, -4.0]])
    np.testing.assert_allclose(V2 @ Z2.T, V @ Z.T)


def test_sorted_eigh_top_k_matches_full():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((30, 30))
    A = A @ A.T
    values, vectors = sorted_eigh(A)
    top_values, top_vectors = sorted_eigh(A, k=4)
    assert np.all(np.diff(values) <= 0)
    np.testing.assert_allclose(top_values, values[:4])
    np.testing.assert_allclose(top_vectors, vectors[:, :4], atol=1e-10)
    np.testing.assert_allclose(A @ vectors, vectors * values, atol=1e-9)


@pytest.mark.parametrize("order", ["C", "F"])
def test_top_eigenpairs_from_arpack_match_lapack(order):
    """From ARPACK_MIN_SIZE up, a few pairs come from ARPACK, whose products read one
    triangle of A (BLAS dsymv), in either memory layout of A."""
    rng = np.random.default_rng(5)
    m = ARPACK_MIN_SIZE + 100
    B = rng.standard_normal((m, m))
    A = np.asarray(B @ B.T, order=order)
    values, vectors = np.linalg.eigh(A)
    top_values, top_vectors = top_eigenpairs(A.copy(order=order), 5)
    np.testing.assert_allclose(top_values, values[::-1][:5], rtol=1e-12)
    np.testing.assert_allclose(np.abs(top_vectors.T @ vectors[:, ::-1][:, :5]), np.eye(5), atol=1e-9)
    assert np.all(top_vectors[np.argmax(np.abs(top_vectors), axis=0), range(5)] > 0)


def test_projector_is_idempotent_and_symmetric():
    P = projector(np.random.default_rng(1).standard_normal((5, 2)))
    np.testing.assert_allclose(P @ P, P, atol=1e-12)
    np.testing.assert_allclose(P, P.T, atol=1e-12)
    assert np.isclose(np.trace(P), 2)


def test_center_rows_and_columns_is_h_a_h():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((7, 7))
    A = A + A.T
    H = np.eye(7) - np.ones((7, 7)) / 7
    centred = center_rows_and_columns(A)
    np.testing.assert_allclose(centred, H @ A @ H, atol=1e-12)
    np.testing.assert_allclose(centred.sum(axis=0), 0, atol=1e-12)


def test_orderings_treat_noise_level_differences_as_ties():
    from dimred_teach.linalg import first_best, order_with_ties

    values = np.array([0.5, 0.5 * (1 + 1e-15), 0.9, 0.5 * (1 - 1e-15), 0.1])
    assert order_with_ties(values).tolist() == [2, 0, 1, 3, 4]  # the three near-equal keep index order
    assert order_with_ties(values, descending=False).tolist() == [4, 0, 1, 3, 2]
    assert order_with_ties(values, tie_break=np.array([0, 0, 0, -1, 0])).tolist() == [2, 3, 0, 1, 4]  # then index
    assert order_with_ties([0.5, 0.5 + 1e-9]).tolist() == [1, 0]  # a real difference still counts
    assert first_best([1.0, 3.0, 3.0 + 1e-14]) == 1 and first_best([2.0, 1.0, 1.0 - 1e-15], descending=False) == 1
    assert order_with_ties([np.inf, 1.0, np.inf, -np.inf]).tolist() == [0, 2, 1, 3]


def test_sign_rule_takes_the_first_of_near_equal_magnitudes():
    column = np.array([[0.6], [-0.6 * (1 + 1e-15)], [0.1]])
    assert fix_signs(column)[0, 0] > 0  # the noise-level larger -0.6 does not decide
    assert fix_signs(-column)[0, 0] > 0


def test_interval_and_check_real():
    from dimred_teach._validation import NONNEGATIVE, POSITIVE, Interval

    assert str(Interval(0.0, 1.0, "right")) == "(0, 1]"
    assert str(POSITIVE) == "(0, inf)" and str(NONNEGATIVE) == "[0, inf)"
    assert check_real(np.float32(0.5), "x", OPEN_UNIT) == 0.5 and check_real(np.array(2.0), "x") == 2.0
    for bad, error in ((np.inf, ValueError), (0.0, ValueError), (np.True_, TypeError), (1 + 0j, TypeError)):
        with pytest.raises(error, match="x must"):
            check_real(bad, "x", POSITIVE)
    assert check_bool(np.False_, "flag") is False


def test_symmetrisation_in_strips_matches_the_textbook_formula():
    rng = np.random.default_rng(1)
    for m in (1, 2, 700, 1500):  # 1500 spans two strips of rows
        A = rng.standard_normal((m, m))
        A = A + A.T + 1e-12 * rng.standard_normal((m, m))
        out = as_square_symmetric(A)
        assert np.array_equal(out, out.T)
        np.testing.assert_allclose(out, (A + A.T) / 2, rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match="A needs at least 1 rows"):
        as_square_symmetric(np.zeros((0, 0)))


def test_size_and_magnitude_guards_name_what_is_too_big():
    from dimred_teach._validation import MAX_ABS_VALUE, check_size

    with pytest.raises(ValueError, match="n = 10 rows asks for 1e\\+12 numbers"):
        check_size(1e12, "n = 10 rows")
    check_size(1000, "a small array")  # no error
    # an int beyond the float range (10**200 * 10**200) is measured, not overflowed
    with pytest.raises(ValueError, match=r"^n \* m asks for 1e\+400 numbers \(7.45e\+391 GiB of float64\)"):
        check_size(10**200 * 10**200, "n * m")
    with pytest.raises(ValueError, match=r"asks for 1e\+09 numbers \(7.45 GiB of float64\)"):
        check_size(10**9, "n")
    with pytest.raises(ValueError, match="X has entries as large as 1e\\+200"):
        as_data_matrix(np.full((2, 2), 1e200))
    assert as_data_matrix(np.full((2, 2), MAX_ABS_VALUE))[0, 0] == MAX_ABS_VALUE
