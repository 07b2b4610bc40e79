"""The checks of one submission, run in a process of their own under limits.

A worker forks a :class:`Checker` before it starts the submission's kernel (so the checks'
code is the one the grader imported, and the fork copies no thread). The worker passes each
answer over as the bytes the kernel wrote, untouched; the checker decodes them as plain data
(:mod:`.plain_data`, every limit checked before anything is built), runs the check, and answers
with the verdict. When the check calls a student's function, the checker asks the worker to
run it in the kernel and waits. The checker has an address-space limit and a CPU limit, and
the worker stops it when one check uses more than ``check_timeout`` seconds of the checker's
own CPU time (not wall-clock time: a loaded machine slows a check down without making it
the student's fault, and the time the student's function runs in the kernel is the
kernel's): that exercise is "not graded: answer too large or too slow for the checks" and
the next one gets a new checker. A checker that dies otherwise (killed from outside, a crash)
is the grader's trouble: the verdict says ``GRADER_ERROR`` and the scheduler grades the
submission again.

A set's expensive reference values (every cached function of its checks module that takes no
argument, such as set 12's held-out errors) are computed once per run by :func:`warm_references`
in the main process, before any worker or checker forks, so no checker spends its time limit
recomputing them.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import multiprocessing
import os
import resource
import signal
import sys
import time

from threadpoolctl import threadpool_limits

from .. import checks as _checks
from . import plain_data
from .results import clip

TOO_BIG = "not graded: the answer is too large or too slow for the checks"
GRADER_ERROR = "not graded (grader error)"
"""How a result the grader's own machinery spoiled begins (never the student's zero)."""
SLOW_SIGNALS = (signal.SIGXCPU,)
"""How a checker ends when it ran out of CPU time (its RLIMIT_CPU's soft limit)."""
POLL_SECONDS = 0.2


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far (from ``/proc/<pid>/stat``)."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        fields = stat.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def warm_references(exercise_sets) -> None:
    """Compute the cached reference values of each exercise set's checks module (its
    module-level ``functools.lru_cache`` functions without parameters) in this process, so
    that the processes forked later inherit them (the crabs data sets 01 and 03 check against);
    with one BLAS thread, as the checks run."""
    with threadpool_limits(1):
        _warm(exercise_sets)


def _warm(exercise_sets) -> None:
    for exercise_set in exercise_sets:
        try:
            module = importlib.import_module(f"{_checks.__name__}.set{str(exercise_set)[:2]}")
        except ImportError:
            continue
        for value in vars(module).values():
            if (callable(getattr(value, "cache_info", None)) and getattr(value, "__module__", "") == module.__name__
                    and not inspect.signature(value).parameters):
                value()


def resolve_result(module: str, qualname: str):
    """The course dataclass a result node names, if the grader has it loaded (else None)."""
    if not (module == "dimred_teach" or module.startswith("dimred_teach.")) or "." in qualname:
        return None
    candidate = getattr(sys.modules.get(module), qualname, None)
    return candidate if isinstance(candidate, type) and dataclasses.is_dataclass(candidate) else None


class _StudentError(Exception):
    """Stands for an exception class of the student's that does not exist in the grader."""


def _exception(name: str, message: str) -> Exception:
    """The exception a student's function raised, rebuilt: the builtin or NumPy ``LinAlgError``
    class of that name, else a stand-in class with that name."""
    import builtins

    import numpy as np

    kind = np.linalg.LinAlgError if name == "LinAlgError" else getattr(builtins, name, None)
    if isinstance(kind, type) and issubclass(kind, Exception):
        try:
            return kind(message)
        except TypeError:  # needs more arguments (UnicodeDecodeError, ...)
            pass
    return type(name if name.isidentifier() else "StudentError", (_StudentError,), {})(message)


def _send(connection, header: dict, payload: bytes = b"") -> None:
    data = json.dumps(header).encode()
    connection.send_bytes(len(data).to_bytes(4, "little") + data + payload)


def _receive(connection) -> tuple[dict, bytes]:
    raw = connection.recv_bytes()
    size = int.from_bytes(raw[:4], "little")
    return json.loads(raw[4:4 + size]), raw[4 + size:]


class _Function:
    """Stands in the checker for a student's function living in the kernel."""

    def __init__(self, connection, exercise_id: str, name: str, max_bytes: int):
        self._connection, self._exercise_id, self._max_bytes = connection, exercise_id, max_bytes
        self.__name__ = self.__qualname__ = name

    def __call__(self, *args, **kwargs):
        try:
            arguments = plain_data.encode((list(args), kwargs), self._max_bytes)
        except plain_data.PlainDataError as error:
            raise RuntimeError(f"the check's input could not be encoded: {error}") from None
        _send(self._connection, {"op": "call", "exercise": self._exercise_id}, arguments)
        header, payload = _receive(self._connection)
        if header.get("op") != "result":
            mistake = header.get("mistake")
            raise _checks.CheckFailure(str(header.get("message", "the grader could not call your function")),
                                       mistake if mistake in _checks.RESERVED_MISTAKES else "not-graded")
        try:
            outcome = plain_data.decode(payload, self._max_bytes, resolve_result)
        except plain_data.PlainDataError as error:
            raise _checks.CheckFailure(f"the grader could not read what your function returned: {error}",
                                       "untransferable") from None
        if isinstance(outcome, tuple) and len(outcome) == 2 and outcome[0] == "value":
            return outcome[1]
        if isinstance(outcome, tuple) and len(outcome) == 3 and outcome[0] == "raised":
            raise _exception(str(outcome[1]), str(outcome[2]))
        if isinstance(outcome, tuple) and len(outcome) == 2 and outcome[0] == "untransferable":
            raise _checks.CheckFailure(f"your function returned something the grader cannot transfer "
                                       f"({clip(outcome[1], 300)})", "untransferable")
        raise _checks.CheckFailure("the grader could not understand what your function returned", "untransferable")

    def __repr__(self):
        return f"<your function {self.__name__}>"


def _serve(connection, memory_bytes: int, cpu_seconds: int, max_bytes: int) -> None:
    """The checker process: limits first, then one verdict per request until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threadpool_limits(1)  # one BLAS thread: a check's CPU time and its numbers do not depend on the machine
    # the CPU limit's hard limit lies beyond its soft one, so that running out of CPU ends the
    # checker with SIGXCPU (the answer's cost) and a SIGKILL means something else killed it
    for kind, soft, hard in ((resource.RLIMIT_AS, memory_bytes, memory_bytes),
                             (resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 5), (resource.RLIMIT_CORE, 0, 0)):
        try:
            resource.setrlimit(kind, (soft, hard))
        except (ValueError, OSError):
            pass
    while True:
        try:
            request, payload = _receive(connection)
        except (EOFError, OSError):
            os._exit(0)
        exercise_id = str(request["exercise"])
        try:
            envelope = plain_data.decode(payload, max_bytes, resolve_result)
        except plain_data.PlainDataError as error:
            envelope = ("untransferable", str(error))
        if not (
            isinstance(envelope, tuple)
            and len(envelope) == 2
            and envelope[0] in ("value", "function", "untransferable")
        ):
            envelope = ("untransferable", "the grader could not understand the answer it received")
        kind, content = envelope
        if kind == "untransferable":
            _send(connection, {"op": "verdict", "passed": False, "mistake": "untransferable",
                               "message": "the grader could not transfer your answer: answers must be numbers, arrays, "
                                          f"lists, tuples, dicts, strings or course results ({clip(content, 300)})"})
            continue
        answer = _Function(connection, exercise_id, str(content)[:100], max_bytes) if kind == "function" else content
        try:
            verdict = _checks.evaluate(exercise_id, answer, int(request["seed"]))
            fields = {"passed": verdict.passed, "message": verdict.message, "hint": verdict.hint,
                      "mistake": verdict.mistake}
        except MemoryError:
            fields = {"passed": False, "message": TOO_BIG, "too_big": True, "mistake": "not-graded"}
        except Exception as error:  # an unknown exercise id: the package and the spec disagree
            fields = {"passed": False, "message": f"the grader could not run this check ({type(error).__name__}: "
                                                  f"{clip(error, 300)}); tell your instructor", "mistake": "grader"}
        _send(connection, {"op": "verdict", "function": kind == "function", **fields})


class Checker:
    """The worker's handle on a checks process (started lazily, replaced after a kill)."""

    def __init__(self, memory_mb: int, cpu_seconds: int, timeout: float, max_bytes: int):
        self.memory_bytes, self.cpu_seconds, self.timeout, self.max_bytes = (
            memory_mb * 2**20,
            cpu_seconds,
            timeout,
            max_bytes,
        )
        self.pid = self.connection = None
        self.start()

    def start(self) -> None:
        """Fork the checks process (a plain fork: a worker is a daemonic process)."""
        self.connection, child = multiprocessing.Pipe()
        pid = os.fork()
        if pid == 0:
            try:
                self.connection.close()
                _serve(child, self.memory_bytes, self.cpu_seconds, self.max_bytes)
            finally:
                os._exit(0)
        child.close()
        self.pid = pid

    def stop(self, wait: float = 0.0) -> int | None:
        """End the checks process, after ``wait`` seconds for it to end by itself (it is
        exiting when its pipe closed); the signal that ended it by itself, if one did."""
        ending = None
        if self.pid is not None:
            try:
                done, status = os.waitpid(self.pid, os.WNOHANG)
                deadline = time.monotonic() + wait
                while not done and time.monotonic() < deadline:
                    time.sleep(0.01)
                    done, status = os.waitpid(self.pid, os.WNOHANG)
                if done and os.WIFSIGNALED(status):
                    ending = os.WTERMSIG(status)
                if not done:
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.connection.close()
            self.pid = None
        return ending

    def check(self, exercise_id: str, payload: bytes, seed: int, call) -> dict:
        """The verdict fields of the answer a kernel wrote (``payload``, undecoded);
        ``call(exercise_id, argument_bytes)`` runs the
        student's function in the kernel and returns the bytes it wrote (or raises
        CheckFailure). Stops the checker and returns a "too big" verdict when the check
        needs more than ``timeout`` seconds of the checker's CPU time or runs out of CPU, and a
        :data:`GRADER_ERROR` verdict when the checker dies otherwise."""
        if self.pid is None:
            self.start()
        try:
            _send(self.connection, {"op": "check", "exercise": exercise_id, "seed": seed}, payload)
            limit = cpu_seconds(self.pid) + self.timeout
            while True:
                while not self.connection.poll(POLL_SECONDS):
                    if cpu_seconds(self.pid) > limit:
                        raise TimeoutError
                header, data = _receive(self.connection)
                if header.get("op") == "verdict":
                    if header.get("too_big"):
                        self.stop()
                    return header
                try:
                    _send(self.connection, {"op": "result"}, call(exercise_id, data))
                except _checks.CheckFailure as failure:
                    _send(self.connection, {"op": "failed", "message": str(failure), "mistake": failure.mistake})
        except TimeoutError:
            self.stop()
            return {"passed": False, "message": TOO_BIG, "mistake": "not-graded"}
        except (EOFError, OSError, ValueError):
            ending = self.stop(wait=1.0)
            if ending in SLOW_SIGNALS:
                return {"passed": False, "message": TOO_BIG, "mistake": "not-graded"}
            how = f"killed by signal {ending}" if ending else "it ended"
            return {"passed": False, "message": f"{GRADER_ERROR}: the process running the checks died ({how})",
                    "mistake": "grader", "grader_error": True}
