"""The answer channel: how answers and function results travel from the kernel to the
worker, and how the worker reads them as data.

The kernel writes a pickle into its scratch folder; the worker reads it right after the
cell that wrote it (a regular file of bounded size, opened without following links), and
unpickles it resolving only an allowlist of globals, none of which can run code or build
an object much larger than the pickle. A function answer stays in the kernel: the check
gets a :class:`FunctionProxy`, whose every call is one execution request to the kernel.
"""

from __future__ import annotations

import builtins
import dataclasses
import io
import os
import pickle
import re
import stat
import sys
from pathlib import Path

from .. import checks as _checks
from .results import clip

_NDARRAY = object()
"""Stands for ``numpy.ndarray`` in a pickle: only ``_reconstruct`` may use it (calling the
class itself would allocate an array of any size)."""


def _reconstruct_empty(subtype, shape, dtype):
    """numpy's pickle constructor, always for an empty plain array (its state follows)."""
    import numpy as np

    if subtype is not _NDARRAY:
        raise pickle.UnpicklingError("only plain NumPy arrays can be transferred")
    return np.ndarray.__new__(np.ndarray, (0,), np.uint8)


_SAFE_BUILTINS = {"complex", "slice", "set", "frozenset", "Ellipsis", "NotImplemented"}
"""Protocol 4 writes lists, tuples, dicts, numbers and strings with opcodes; only these need
a global, and none of them can build something much larger than the pickle."""
_NUMPY_CORES = ("numpy.core.multiarray", "numpy._core.multiarray")


class _AnswerUnpickler(pickle.Unpickler):
    """Resolves only the allowlisted globals (see the module docstring)."""

    def find_class(self, module, name):
        import numpy as np

        if module == "builtins" and name in _SAFE_BUILTINS:
            return getattr(builtins, name)
        if module in _NUMPY_CORES and name == "_reconstruct":
            return _reconstruct_empty
        if module in _NUMPY_CORES and name == "scalar":
            core = sys.modules.get("numpy._core.multiarray") or sys.modules.get("numpy.core.multiarray")
            return core.scalar
        if (module, name) == ("numpy", "ndarray"):
            return _NDARRAY
        if (module, name) == ("numpy", "dtype"):
            return np.dtype
        if module == "numpy.dtypes" and re.fullmatch(r"\w+DType", name):
            candidate = getattr(np.dtypes, name, None)
            if isinstance(candidate, type) and issubclass(candidate, np.dtype):
                return candidate
        if (module == "dimred_teach" or module.startswith("dimred_teach.")) and module in sys.modules:
            candidate = getattr(sys.modules[module], name, None) if "." not in name else None
            if isinstance(candidate, type) and dataclasses.is_dataclass(candidate):
                return candidate
        raise pickle.UnpicklingError(f"{module}.{name} cannot be transferred")


def load_answer(data: bytes):
    """Unpickle data written by the kernel, resolving only allowlisted globals; any failure
    is an UnpicklingError."""
    try:
        return _AnswerUnpickler(io.BytesIO(data)).load()
    except pickle.UnpicklingError:
        raise
    except Exception as error:
        raise pickle.UnpicklingError(f"the data is not a valid answer ({type(error).__name__}: {clip(error, 200)})") from None


class Channel:
    """The kernel's answer folder, opened once before the kernel starts.

    Every later file operation goes through this handle and never follows a link, so a
    kernel that swaps the folder or a file in it for a link cannot make the worker read,
    write or delete anything elsewhere.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self.fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)

    def remove(self, name: str) -> None:
        try:
            os.unlink(name, dir_fd=self.fd)
        except OSError:
            pass

    def write(self, name: str, data: bytes) -> None:
        """Create ``name`` afresh (readable by the kernel's user) holding ``data``."""
        self.remove(name)
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=self.fd)
        with os.fdopen(fd, "wb") as file:
            file.write(data)

    def read(self, name: str, max_bytes: int) -> bytes | None:
        """A regular file's bytes, then the file is removed (None when absent); never
        follows a link, never blocks; ValueError saying why it cannot be read."""
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=self.fd)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise ValueError(f"the grader could not open it ({error.strerror})") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise ValueError("it is not a regular file")
            if info.st_size > max_bytes:
                raise ValueError(f"it is {info.st_size} bytes, more than the {max_bytes} the grader accepts")
            with os.fdopen(fd, "rb", closefd=False) as file:
                return file.read(max_bytes + 1)[:max_bytes]
        finally:
            os.close(fd)
            self.remove(name)

    def close(self) -> None:
        os.close(self.fd)


class _StudentError(Exception):
    """Stands for an exception class of the student's that does not exist in the grader."""


def _exception(name: str, message: str) -> Exception:
    """The exception a student's function raised, rebuilt in the grader: the builtin or
    NumPy ``LinAlgError`` class of that name, else a stand-in class with that name."""
    import numpy as np

    kind = np.linalg.LinAlgError if name == "LinAlgError" else getattr(builtins, name, None)
    if isinstance(kind, type) and issubclass(kind, Exception):
        try:
            return kind(message)
        except TypeError:  # needs more arguments (UnicodeDecodeError, ...)
            pass
    return type(name if name.isidentifier() else "StudentError", (_StudentError,), {})(message)


def unpack_result(payload):
    """A function's result, or its exception raised again in the grader."""
    if isinstance(payload, tuple) and len(payload) == 2 and payload[0] == "value":
        return payload[1]
    if isinstance(payload, tuple) and len(payload) == 3 and payload[0] == "raised":
        raise _exception(str(payload[1]), str(payload[2]))
    if isinstance(payload, tuple) and len(payload) == 2 and payload[0] == "untransferable":
        raise _checks.CheckFailure(f"your function returned something the grader cannot transfer ({clip(payload[1], 300)})")
    raise _checks.CheckFailure("the grader could not understand what your function returned")


class FunctionProxy:
    """Stands in the grader for a function that lives in the kernel."""

    def __init__(self, run, exercise_id: str, name: str):
        self._run, self._exercise_id = run, exercise_id
        self.__name__ = self.__qualname__ = name

    def __call__(self, *args, **kwargs):
        return self._run.call_function(self._exercise_id, args, kwargs)

    def __repr__(self):
        return f"<your function {self.__name__}>"

