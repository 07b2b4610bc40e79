"""The plain-data format between a grading kernel and the grader (``grading/plain_data.py``):
every kind of answer the course uses crosses intact, and nothing else does; every limit is
checked before anything is built, so a few hundred bytes can never become gigabytes."""

from __future__ import annotations

import json
import pickle
import struct
import time

import numpy as np
import pytest
import scipy.sparse

from dimred_teach.checks import Verdict
from dimred_teach.grading.checker import resolve_result
from dimred_teach.grading.plain_data import MAGIC, MAX_DEPTH, MAX_NODES, PlainDataError, decode, encode
from dimred_teach.pca import pca


def _raw(header, blobs=()) -> bytes:
    text = json.dumps(header).encode()
    return (MAGIC + struct.pack("<II", len(text), len(blobs)) + text
            + struct.pack(f"<{len(blobs)}Q", *(len(b) for b in blobs)) + b"".join(blobs))


def test_answers_of_every_kind_cross_intact():
    value = {"a": (np.arange(6.0).reshape(2, 3), np.float64(2.5), np.int32(3), 1 + 2j, {1, 2}, None, "s", True),
             3: [np.array(["setosa", "virginica"]), np.asfortranarray(np.eye(3)), np.zeros((0, 4))],
             "sparse": scipy.sparse.random(5, 4, density=0.5, format="csc", random_state=0)}
    back = decode(encode(value))
    assert np.array_equal(back["a"][0], value["a"][0]) and back["a"][1:] == value["a"][1:]
    assert type(back["a"][1]) is np.float64 and type(back["a"][2]) is np.int32
    assert all(np.array_equal(x, y) for x, y in zip(back[3], value[3]))
    assert (back["sparse"] != value["sparse"]).nnz == 0


def test_course_results_cross_by_name_and_fields_only():
    result = pca(np.random.default_rng(0).normal(size=(20, 4)), k=2)
    back = decode(encode(result), resolve=resolve_result)
    assert np.allclose(back.components, result.components) and type(back) is type(result)
    with pytest.raises(PlainDataError):
        decode(encode(result))  # no resolver: no classes at all
    assert resolve_result("os", "system") is None and resolve_result("dimred_teach.pca", "np") is None
    verdict = decode(encode(Verdict("01.x", True, "m", "h")), resolve=resolve_result)
    assert verdict == Verdict("01.x", True, "m", "h")


@pytest.mark.parametrize("value", [object(), np.array([object()]), lambda: 1, type("Student", (), {})(), pytest,
                                   np.zeros(2, dtype=[("a", "<f8")])])
def test_anything_else_is_refused_when_encoded(value):
    with pytest.raises(PlainDataError):
        encode(value)


def test_a_pickle_is_not_an_answer():
    for data in (pickle.dumps([1, 2]), b"cos\nsystem\n(S'echo hi'\ntR.", b"", b"DRT1"):
        with pytest.raises(PlainDataError):
            decode(data)


@pytest.mark.parametrize("header, blobs, words", [
    ({"a": ["<f8", [10**6, 10**6], 0]}, [b""], "shape"),  # 8 TB claimed, nothing sent
    ({"a": ["|O", [1], 0]}, [b"\0" * 8], "cannot cross"),  # object arrays
    ({"a": ["<f8", [2], 0]}, [b"\0" * 8], "shape"),  # fewer bytes than the shape
    ({"a": ["<f8", [-1], 0]}, [b""], "shape"),
    ({"a": ["<f8", [1], 5]}, [b"\0" * 8], "valid"),  # a blob that is not there
    ({"r": ["os", "system", {}]}, [], "cannot cross"),
    ({"x": 1}, [], "valid"),
])
def test_a_crafted_header_is_refused_before_anything_is_built(header, blobs, words):
    with pytest.raises(PlainDataError, match=words):
        decode(_raw(header, blobs), resolve=resolve_result)


def test_nesting_and_node_counts_are_bounded_and_cheap():
    deep = {"l": []}
    for _ in range(MAX_DEPTH + 5):
        deep = {"l": [deep]}
    shared = {"l": [{"l": [1] * 100}] * (MAX_NODES // 50)}  # what a shared-reference pickle would expand to
    very_deep = "{\"l\": [" * 100_000 + "]}" * 100_000
    started = time.monotonic()
    for data in (_raw(deep), _raw(shared),
                 MAGIC + struct.pack("<II", len(very_deep), 0) + very_deep.encode()):
        with pytest.raises(PlainDataError):
            decode(data)
    assert time.monotonic() - started < 5
    with pytest.raises(PlainDataError):
        encode([[0] * 100] * (MAX_NODES // 50))  # the kernel side refuses the same
