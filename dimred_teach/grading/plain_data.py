"""The plain-data format in which answers, function arguments and function results cross
between a grading kernel and the grader.

Nothing in it can run code or build an object graph: a file is a JSON header describing a
tree of numbers, strings, lists, tuples, dicts, sets, NumPy arrays and scalars of plain
numeric or string dtypes, SciPy sparse matrices (as CSR, checked in full), and the course's
result dataclasses (by class name and fields), followed by
the arrays' raw bytes. :func:`decode` checks every limit (bytes, nodes, nesting, array sizes
and dtypes, offsets) on the header *before* it materialises anything, so a small file
cannot grow into a large object.

This module imports only the standard library (and NumPy or SciPy when it meets an array): its source
also runs inside the grading kernel, which must not import ``dimred_teach``.
"""

import dataclasses
import json
import struct
import sys

MAGIC = b"DRT1"
MAX_NODES = 200_000
"""Most values (numbers, strings, containers, arrays) one file may describe."""
MAX_DEPTH = 32
"""Deepest nesting of containers."""
MAX_HEADER_BYTES = 8 * 2**20
ARRAY_KINDS = "biufcUS"
"""NumPy dtype kinds that may cross: bool, signed and unsigned integers, floats, complex, and
fixed-width strings."""


class PlainDataError(ValueError):
    """Data that is not a valid answer, or exceeds a limit; the message says which."""


def encode(value, max_bytes: int = 64 * 2**20) -> bytes:
    """``value`` as bytes of this format; PlainDataError for what cannot cross or is too large."""
    blobs, size, nodes = [], [0], [0]

    def node(item, depth):
        nodes[0] += 1
        if nodes[0] > MAX_NODES or depth > MAX_DEPTH:
            raise PlainDataError(f"it has more than {MAX_NODES} values or is nested deeper than {MAX_DEPTH}")
        if item is None or isinstance(item, (bool, str)):
            return item
        if type(item) is int or type(item) is float:
            return item
        if isinstance(item, complex):
            return {"c": [item.real, item.imag]}
        kind = type(item)
        if kind is list or kind is tuple or isinstance(item, (set, frozenset)):
            tag = "l" if kind is list else "t" if kind is tuple else "s"
            return {tag: [node(entry, depth + 1) for entry in item]}
        if kind is dict:
            return {"d": [[node(key, depth + 1), node(entry, depth + 1)] for key, entry in item.items()]}
        numpy = sys.modules.get("numpy")
        if numpy is not None and isinstance(item, (numpy.ndarray, numpy.generic)):
            array = numpy.asarray(item)  # tobytes() below is C order whatever the layout
            if array.dtype.kind not in ARRAY_KINDS or array.dtype.fields is not None:
                raise PlainDataError(
                    f"an array of dtype {array.dtype} cannot cross (numbers, booleans and strings only)")
            data = array.tobytes()
            size[0] += len(data)
            if size[0] > max_bytes:
                raise PlainDataError(f"its arrays hold more than {max_bytes} bytes")
            blobs.append(data)
            tag = "n" if isinstance(item, numpy.generic) else "a"
            return {tag: [array.dtype.str, list(array.shape), len(blobs) - 1]}
        if isinstance(item, (int, float)):  # a subclass: cross as the plain number
            return float(item) if isinstance(item, float) else int(item)
        if (
            dataclasses.is_dataclass(item)
            and not isinstance(item, type)
            and kind.__module__.startswith("dimred_teach.")
        ):
            fields = {field.name: node(getattr(item, field.name), depth + 1) for field in dataclasses.fields(item)}
            return {"r": [kind.__module__, kind.__qualname__, fields]}
        if kind.__module__.startswith("scipy.sparse") and hasattr(item, "tocsr"):
            csr = item.tocsr()
            flavour = "matrix" if type(csr).__name__.endswith("matrix") else "array"
            return {"z": [list(csr.shape), node(csr.data, depth + 1), node(csr.indices, depth + 1),
                          node(csr.indptr, depth + 1), flavour]}
        if kind.__module__.split(".")[0] == "pandas" and hasattr(item, "to_numpy"):
            return node(item.to_numpy(), depth)
        raise PlainDataError(f"a {kind.__name__} cannot cross (numbers, strings, arrays, lists, tuples, dicts, "
                        "sets and the course's results can)")

    header = json.dumps(node(value, 0), allow_nan=True, separators=(",", ":")).encode()
    if len(header) > MAX_HEADER_BYTES:
        raise PlainDataError(f"its description is longer than {MAX_HEADER_BYTES} bytes")
    lengths = struct.pack(f"<{len(blobs)}Q", *(len(blob) for blob in blobs))
    return MAGIC + struct.pack("<II", len(header), len(blobs)) + header + lengths + b"".join(blobs)


def decode(data: bytes, max_bytes: int = 64 * 2**20, resolve=None):
    """The value ``data`` describes; PlainDataError when it is malformed or over a limit.

    ``resolve(module, qualname)`` returns the dataclass a result node names (or None to
    refuse it); without it result nodes are refused.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)) or len(data) > max_bytes + MAX_HEADER_BYTES:
        raise PlainDataError("it is not data of the answer format, or too large")
    data = memoryview(data)
    if bytes(data[:4]) != MAGIC or len(data) < 12:
        raise PlainDataError("it is not data of the answer format")
    header_length, count = struct.unpack("<II", data[4:12])
    if header_length > MAX_HEADER_BYTES or count > MAX_NODES:
        raise PlainDataError("its description is over the limits")
    start = 12 + header_length + 8 * count
    if start > len(data):
        raise PlainDataError("it is cut short")
    lengths = struct.unpack(f"<{count}Q", data[12 + header_length:start])
    offsets, position = [], start
    for length in lengths:
        offsets.append(position)
        position += length
    if position != len(data):
        raise PlainDataError("its arrays do not match its description")
    try:
        tree = json.loads(bytes(data[12:12 + header_length]))
    except (ValueError, RecursionError):
        raise PlainDataError("its description is not valid (or nested too deeply)") from None
    _validate(tree, lengths)
    return _build(tree, data, offsets, lengths, resolve)


def _validate(tree, lengths) -> None:
    """Count nodes and depth, and check every array node, without building anything."""
    pending, nodes = [(tree, 0)], 0
    while pending:
        item, depth = pending.pop()
        nodes += 1
        if nodes > MAX_NODES or depth > MAX_DEPTH:
            raise PlainDataError(f"it has more than {MAX_NODES} values or is nested deeper than {MAX_DEPTH}")
        if item is None or isinstance(item, (bool, int, float, str)):
            continue
        if isinstance(item, list):  # only inside a node
            raise PlainDataError("its description is not valid")
        if not isinstance(item, dict) or len(item) != 1:
            raise PlainDataError("its description is not valid")
        (tag, body), = item.items()
        if tag in ("l", "t", "s") and isinstance(body, list):
            pending += [(entry, depth + 1) for entry in body]
        elif tag == "d" and isinstance(body, list) and all(isinstance(p, list) and len(p) == 2 for p in body):
            pending += [(entry, depth + 1) for pair in body for entry in pair]
        elif tag == "c" and isinstance(body, list) and len(body) == 2 and all(
                isinstance(x, (int, float)) and not isinstance(x, bool) for x in body):
            continue
        elif tag in ("a", "n") and isinstance(body, list) and len(body) == 3:
            _check_array(body, lengths, tag == "n")
        elif tag == "z" and isinstance(body, list) and len(body) == 5 and body[4] in ("matrix", "array") and isinstance(
                body[0], list) and len(body[0]) == 2 and all(isinstance(n, int) and n >= 0 for n in body[0]):
            if not all(isinstance(part, dict) and "a" in part for part in body[1:4]):
                raise PlainDataError("a sparse matrix in it is not described validly")
            pending += [(part, depth + 1) for part in body[1:4]]
        elif tag == "r" and isinstance(body, list) and len(body) == 3 and isinstance(body[2], dict):
            if not (isinstance(body[0], str) and isinstance(body[1], str)):
                raise PlainDataError("its description is not valid")
            pending += [(entry, depth + 1) for entry in body[2].values()]
        else:
            raise PlainDataError("its description is not valid")


def _check_array(body, lengths, scalar: bool) -> None:
    import numpy as np

    dtype, shape, index = body
    if not (
        isinstance(dtype, str) and isinstance(shape, list) and isinstance(index, int) and 0 <= index < len(lengths)
    ):
        raise PlainDataError("an array in it is not described validly")
    if len(shape) > 32 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
        raise PlainDataError("an array in it has an invalid shape")
    if scalar and shape:
        raise PlainDataError("a number in it has a shape")
    try:
        kind = np.dtype(dtype)
    except (TypeError, ValueError):
        raise PlainDataError("an array in it has an unknown dtype") from None
    if kind.kind not in ARRAY_KINDS or kind.fields is not None or kind.str != dtype:
        raise PlainDataError(f"an array of dtype {dtype} cannot cross (numbers, booleans and strings only)")
    count = 1
    for n in shape:
        count *= n
    if count * kind.itemsize != lengths[index]:
        raise PlainDataError("an array's bytes do not match its shape")


def _build(tree, data, offsets, lengths, resolve):
    import numpy as np

    def build(item):
        if item is None or isinstance(item, (bool, int, float, str)):
            return item
        (tag, body), = item.items()
        if tag == "l":
            return [build(entry) for entry in body]
        if tag == "t":
            return tuple(build(entry) for entry in body)
        if tag == "s":
            try:
                return {build(entry) for entry in body}
            except TypeError:
                raise PlainDataError("a set in it holds something that cannot be in a set") from None
        if tag == "d":
            try:
                return {build(key): build(entry) for key, entry in body}
            except TypeError:
                raise PlainDataError("a dict in it has a key that cannot be a key") from None
        if tag == "c":
            return complex(*body)
        if tag in ("a", "n"):
            dtype, shape, index = body
            raw = data[offsets[index]:offsets[index] + lengths[index]]
            array = np.frombuffer(raw, dtype=np.dtype(dtype)).reshape(shape).copy()
            return array[()] if tag == "n" else array
        if tag == "z":
            import scipy.sparse

            shape, data_, indices, indptr, flavour = body
            make = scipy.sparse.csr_matrix if flavour == "matrix" else scipy.sparse.csr_array
            try:
                matrix = make((build(data_), build(indices), build(indptr)), shape=tuple(shape))
                matrix.check_format(full_check=True)
            except (ValueError, TypeError, IndexError):
                raise PlainDataError("a sparse matrix in it is not valid") from None
            return matrix
        module, qualname, fields = body
        kind = resolve(module, qualname) if resolve is not None else None
        if kind is None:
            raise PlainDataError(f"{module}.{qualname} cannot cross")
        names = {field.name for field in dataclasses.fields(kind)}
        if set(fields) != names:
            raise PlainDataError(f"the fields of {qualname} in it are not its fields")
        result = object.__new__(kind)
        for name, entry in fields.items():
            object.__setattr__(result, name, build(entry))
        return result

    return build(tree)
