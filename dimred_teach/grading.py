"""The grader behind ``dimred-teach grade``: run submitted exercise notebooks in a fresh
kernel, score them with the course's checks, and always write a report.

How a submission is graded
--------------------------
1. The exercise set comes from the notebook's metadata (``dimred_teach.exercise_set``,
   written by ``dimred-teach build``), else from the file name; only sets with a grading
   spec in the installed package (``dimred_teach/exercise_specs``) are accepted.
2. The notebook is rebuilt from its code cells alone (outputs, attachments and cell
   metadata such as ``skip-execution`` tags are dropped). Every check cell is restored
   from the spec: matched by cell id, else by the exercise id in its ``check(...)`` call,
   else re-inserted after the nearest surviving cell that preceded it in the generated
   exercise. A restored check cell no longer calls ``check``: it hands its answer to a
   capture helper installed in the kernel under a per-run random module name.
3. The notebook runs in a fresh kernel in an empty temporary folder, with a scrubbed
   environment (an allowlist of variables: no tokens), a memory limit and file-size and
   CPU limits (``resource.setrlimit`` in the kernel's launch command), a per-cell and a
   whole-notebook time limit, and outputs discarded (oversized kernel messages are
   dropped by the socket). Errors do not stop the run; a timed-out cell is interrupted;
   a dead or unresponsive kernel ends the run, and the checks it did not reach fail.
4. Right after a check cell runs, the grader reads the pickled answer from the channel
   folder and deletes it (a file planted there earlier is removed before the cell runs,
   a file written after it is never read), and the check runs in the grader's worker process, whose
   ``dimred_teach`` and NumPy were imported before any submission ran. A function answer
   stays in the kernel: the check receives a proxy that pickles the arguments into the
   channel, calls the function in the kernel (one call = one execution request with its
   own time limit) and unpickles the result. So a check draws fresh random instances in
   the grader and its logic never runs where the student's code could patch it, and the
   function is called in the notebook's state at its check cell, as ``check()`` would be.
   An exception the function raises is raised again in the grader as the builtin (or
   NumPy ``LinAlgError``) class of that name, else as a stand-in class with that name,
   so ``evaluate`` words it as ``check()`` would.
5. Each submission is graded in its own forked worker process (``--jobs`` at once); the
   main process writes a provisional failing report for every submission before any
   kernel starts, kills a worker and its kernel's process group past a hard deadline,
   and reports a worker that died.

Threat model
------------
The student controls everything that runs in the kernel, for as long as it runs, as the
same operating-system user as the grader. What the grader guarantees:

* Printed output is never read: fake ``[passed]`` lines count for nothing.
* Redefining ``check``, patching NumPy or ``dimred_teach`` inside the notebook, editing,
  deleting, moving or tagging check cells changes nothing: the checks run in the grader,
  on the restored check cells.
* What comes back from the kernel is data. It is read with an unpickler that resolves
  only an allowlist of globals (complex, slice, set, frozenset, NumPy arrays, scalars and
  dtypes, the dataclasses of ``dimred_teach`` modules already imported; lists, tuples,
  dicts, numbers and strings need none in protocol 4), none of which can build an object
  much larger than the pickle, from a regular file of bounded size opened without
  following symlinks; anything else is a failed exercise, never code run in the grader.
* Time and memory: every wait on the kernel has a limit, the main process enforces a hard
  deadline per submission, and the kernel runs under rlimits.

What it cannot guarantee, and why it does not matter much or what to do about it:

* Code in the kernel can see the capture helper (its name and the channel folder appear
  in the restored cells' source) and can change which object reaches the grader, or write
  channel files itself. That is no more than choosing an answer: a forged answer must
  still have the properties the check verifies, and a function must still be right on
  instances drawn in the grader at grading time.
* Same user, no container: a submission can read files the user can read, start a
  process that outlives its kernel (``setsid``), kill the grader (a provisional report
  then says grading did not finish), or modify the Python installation and so affect
  later runs (the checks graded in the same run are imported before any kernel starts).
  There is no limit on the number of processes or files (a fork bomb or a folder of
  small files is not contained), only on memory, CPU time and the size of one file.
  In a student's own repository the student also controls the CI workflow, so a green
  check there is feedback, not a grade. For grades that count, run the grader where
  students cannot change the workflow, each run in a throwaway container or VM (a fresh
  CI job is one) as a user without access to secrets.

Function answers are detected by ``callable(answer)`` in the kernel; a check sees a proxy,
so one that inspected the function object itself (its signature or source) would differ
from ``check()`` (no course check does). Answers must be
picklable data: numbers, strings, arrays, lists, tuples, dicts, sets, course result
objects; pandas objects are converted to arrays and named tuples to tuples before they
leave the kernel (a check that reads them through ``numpy.asarray`` sees the same
values), anything else fails with a message saying what could not be transferred.
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import csv
import dataclasses
import functools
import importlib
import io
import json
import math
import multiprocessing
import multiprocessing.connection
import os
import pickle
import pkgutil
import re
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jupyter_core.utils import ensure_async

from . import checks as _checks
from .exercises import SPECS_DIR
from .execution import pinned_environment

__all__ = ["GradingOptions", "TestResult", "SubmissionResult", "grade", "load_specs",
           "find_submissions", "write_reports", "write_gradebook", "workflow_template"]

KERNEL_NAME = "dimred-teach-grader"
PASSED, FAILED = "passed", "failed"
ENV_ALLOWLIST = {
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TERM",
    "PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "MPLCONFIGDIR",
    "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
    "SYSTEMROOT", "COMSPEC", "PATHEXT", "WINDIR", "APPDATA", "LOCALAPPDATA", "USERPROFILE",
}
"""Environment variables a kernel inherits (plus ``LC_*``); everything else is dropped."""


@dataclass(frozen=True)
class GradingOptions:
    """Limits and sources of a grading run.

    timeout : seconds for the whole notebook, its checks included (kernel start excluded)
    cell_timeout : seconds per cell (capped by what is left of ``timeout``)
    call_timeout : seconds per call of a student's function by a check
    recover_timeout : seconds an interrupted kernel has to answer again before it is stopped
    memory_mb : address-space limit of the kernel process
    specs_dir : where the grading specs are (the installed package's by default)
    extra_check_dirs : folders added to ``dimred_teach.checks`` (test fixtures)
    max_answer_bytes : largest pickled answer or function result accepted
    max_notebook_bytes : largest submission file read
    max_message_bytes : largest kernel message received (bigger outputs are dropped)
    """

    timeout: float = 600.0
    cell_timeout: float = 120.0
    call_timeout: float = 20.0
    recover_timeout: float = 10.0
    memory_mb: int = 4096
    specs_dir: Path = SPECS_DIR
    extra_check_dirs: tuple[Path, ...] = ()
    max_answer_bytes: int = 64 * 2**20
    max_notebook_bytes: int = 64 * 2**20
    max_message_bytes: int = 8 * 2**20

    def __post_init__(self):
        for name in ("timeout", "cell_timeout", "call_timeout", "recover_timeout"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
        if not (isinstance(self.memory_mb, int) and self.memory_mb >= 256):
            raise ValueError(f"memory_mb must be an integer >= 256, got {self.memory_mb!r}")

    @property
    def hard_limit(self) -> float:
        """Seconds after which the main process kills a submission's worker."""
        return self.timeout + 90.0


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class TestResult:
    """One exercise of a submission: its points and the check's message."""

    __test__ = False  # not a pytest class, despite its name
    name: str
    score: float
    max_score: float
    passed: bool
    output: str


@dataclass(frozen=True)
class SubmissionResult:
    """The grade of one submission (``graded`` is False when it could not be run at all)."""

    submission: str
    report_name: str
    exercise_set: str | None
    tests: tuple[TestResult, ...]
    output: str
    execution_time: float
    graded: bool

    @property
    def score(self) -> float:
        return sum(test.score for test in self.tests)

    @property
    def max_score(self) -> float:
        return sum(test.max_score for test in self.tests)

    def passes(self, pass_fraction: float) -> bool:
        """Graded, and at least ``pass_fraction`` of the points."""
        return self.graded and self.max_score > 0 and self.score >= pass_fraction * self.max_score - 1e-9

    def to_gradescope(self) -> dict:
        """The report as Gradescope's ``results.json``."""
        return {
            "score": self.score,
            "max_score": self.max_score,
            "execution_time": round(self.execution_time, 1),
            "output": self.output,
            "tests": [{"name": t.name, "score": t.score, "max_score": t.max_score,
                       "status": PASSED if t.passed else FAILED, "output": t.output} for t in self.tests],
            "extra_data": {"submission": self.submission, "exercise_set": self.exercise_set, "graded": self.graded},
        }

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> "SubmissionResult":
        data = json.loads(text)
        data["tests"] = tuple(TestResult(**test) for test in data["tests"])
        return cls(**data)


def _failed_tests(spec: dict | None, message: str) -> tuple[TestResult, ...]:
    if spec is None:
        return ()
    return tuple(TestResult(c["exercise_id"], 0.0, float(c["points"]), False, message) for c in spec["checks"])


def _clip(text: str, limit: int = 2000) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f" ... [{len(text) - limit} characters cut]"


# --------------------------------------------------------------------------- specs and submissions


def load_specs(specs_dir: Path = SPECS_DIR) -> dict[str, dict]:
    """Every grading spec in ``specs_dir``, by exercise set."""
    specs = {}
    for path in sorted(Path(specs_dir).glob("*.json")):
        spec = json.loads(path.read_text())
        if spec.get("exercise_set") != path.stem or not spec.get("checks"):
            raise ValueError(f"{path} is not a grading spec written by `dimred-teach build`")
        specs[path.stem] = spec
    return specs


def find_submissions(paths: Iterable[Path]) -> list[Path]:
    """The notebooks to grade: files as given, folders searched for ``*.ipynb``.

    Raises FileNotFoundError for a path that does not exist.
    """
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        elif path.exists():
            found.append(path)
        else:
            raise FileNotFoundError(f"submission {path} does not exist")
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def _report_names(paths: Sequence[Path]) -> list[str]:
    """``stem`` for each submission, or ``parent__stem`` (deeper if needed) when stems collide."""
    depth = 1
    while True:
        names = ["__".join(p.resolve().with_suffix("").parts[-depth:]) for p in paths]
        if len(set(names)) == len(names) or depth > 50:
            return [re.sub(r"[^\w.-]", "_", name) for name in names]
        depth += 1


def _set_from_file_name(stem: str, specs: dict) -> str | None:
    if stem in specs:
        return stem
    candidates = [name for name in specs if stem.startswith(name)] or [
        name for name in specs if re.match(r"\d\d_", stem) and name[:3] == stem[:3]]
    return candidates[0] if len(candidates) == 1 else None


def identify_set(notebook: dict, path: Path, specs: dict) -> tuple[str | None, str]:
    """The exercise set of a submission and a note saying how it was found."""
    metadata = notebook.get("metadata")
    claimed = metadata.get("dimred_teach") if isinstance(metadata, dict) else None
    claimed = claimed.get("exercise_set") if isinstance(claimed, dict) else None
    by_name = _set_from_file_name(path.stem, specs)
    if isinstance(claimed, str) and claimed in specs:
        note = "" if by_name in (None, claimed) else (
            f"graded as exercise set {claimed} (the notebook's metadata); its file name suggests {by_name}")
        return claimed, note
    if by_name is not None:
        shown = _clip(repr(claimed), 80)
        note = "" if claimed is None else f"the notebook's metadata names no known exercise set ({shown}); graded as {by_name} from its file name"
        return by_name, note
    return None, (f"cannot tell which exercise set {path.name} belongs to: its metadata names "
                  f"{_clip(repr(claimed), 80)} and its file name matches none of {sorted(specs)}")


def read_notebook(path: Path, max_bytes: int) -> dict:
    """The submission as a v4 notebook; ValueError with a plain reason otherwise.

    Only a regular file (not a symlink, device or pipe) of at most ``max_bytes`` is read,
    and no reason quotes the file's content.
    """
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{path.name} is not a regular file (a link, folder, device or pipe): submit the notebook itself")
    if info.st_size > max_bytes:
        raise ValueError(f"{path.name} is {info.st_size} bytes, more than the {max_bytes} a submission may have")
    with open(path, "rb") as file:
        raw = file.read(max_bytes + 1)
    try:
        notebook = nbformat.reads(raw.decode("utf-8"), as_version=4)
    except Exception as error:  # not UTF-8, not JSON, not a notebook: all the same to a student
        raise ValueError(f"{path.name} is not a Jupyter notebook ({type(error).__name__})") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError(f"{path.name} is not a Jupyter notebook (it has no list of cells)")
    return notebook


# --------------------------------------------------------------------------- restoring the check cells


@dataclass(eq=False)
class _RunCell:
    """A code cell to run: a student's, or a restored check cell (``check`` is its spec entry)."""

    source: str
    label: str
    cell_id: str | None = None
    check: dict | None = None


def _cell_text(cell) -> str | None:
    source = cell.get("source") if isinstance(cell, dict) else None
    if isinstance(source, list):
        source = "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else None


def _capture_source(spec_source: str, module: str) -> str:
    """The check cell ``check("NN.x", answer)`` rewritten to hand ``answer`` to the grader."""
    tree = ast.parse(spec_source)
    call = tree.body[0].value
    call.func = ast.parse(f"__import__({module!r}).capture", mode="eval").body
    return ast.unparse(tree)


def plan_cells(notebook: dict, spec: dict, module: str) -> tuple[list[_RunCell], list[str]]:
    """The code cells to run, with every check cell restored, and notes on what was restored."""
    checks = sorted(spec["checks"], key=lambda c: c["cell_index"])
    by_cell_id = {c["cell_id"]: c for c in checks}
    cells: list[_RunCell] = []
    for number, cell in enumerate(notebook["cells"], start=1):
        text = _cell_text(cell)
        if isinstance(cell, dict) and cell.get("cell_type") == "code" and text is not None:
            cell_id = cell.get("id") if isinstance(cell.get("id"), str) else None
            first = next((line.strip() for line in text.splitlines() if line.strip()), "")
            cells.append(_RunCell(text, f"cell {number} ({_clip(first, 60)})", cell_id))
    notes: list[str] = []
    matched: dict[str, _RunCell] = {}
    for cell in cells:
        check = by_cell_id.get(cell.cell_id)
        if check is not None and check["exercise_id"] not in matched:
            matched[check["exercise_id"]] = cell
    for check in checks:
        if check["exercise_id"] in matched:
            continue
        call = re.compile(r"""check\(\s*["']""" + re.escape(check["exercise_id"]) + """["']""")
        taken = [id(c) for c in matched.values()]
        cell = next((c for c in cells if id(c) not in taken and call.search(c.source)), None)
        if cell is not None:
            matched[check["exercise_id"]] = cell
    for exercise_id, cell in matched.items():
        check = next(c for c in checks if c["exercise_id"] == exercise_id)
        if cell.source.strip() != check["source"].strip():
            notes.append(f"the check cell of {exercise_id} was edited; the grader restored it")
        cell.check = check
    template_index = {c["cell_id"]: c["cell_index"] for c in checks}

    def index_of(cell: _RunCell) -> int | None:
        if cell.check is not None:
            return cell.check["cell_index"]
        if cell.cell_id in template_index:
            return None  # a student cell that borrowed a check's id
        match = re.fullmatch(r"cell-(\d+)", cell.cell_id or "")
        return int(match.group(1)) if match else None

    for check in checks:
        if check["exercise_id"] in matched:
            continue
        known = [(index_of(cell), position) for position, cell in enumerate(cells) if index_of(cell) is not None]
        before = [(index, position) for index, position in known if index < check["cell_index"]]
        after = [(index, position) for index, position in known if index > check["cell_index"]]
        position = max(before)[1] + 1 if before else (min(after)[1] if after else len(cells))
        cells.insert(position, _RunCell(check["source"], "", check["cell_id"], check))
        notes.append(f"the check cell of {check['exercise_id']} was missing; the grader put it back")
    for cell in cells:
        if cell.check is not None:
            cell.label = f"the check cell of {cell.check['exercise_id']}"
            cell.source = _capture_source(cell.check["source"], module)
    return cells, notes


# --------------------------------------------------------------------------- reading answers safely


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
        raise pickle.UnpicklingError(f"the data is not a valid answer ({type(error).__name__}: {_clip(error, 200)})") from None


def _read_channel_file(path: Path, max_bytes: int) -> bytes | None:
    """A regular file's bytes (None when absent); never follows a symlink, never blocks."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
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
        try:
            os.unlink(path)
        except OSError:
            pass


# --------------------------------------------------------------------------- the kernel side

_KERNEL_HELPERS = r'''
def _dimred_grader_install(module_name, channel):
    import os, pickle, sys, types
    functions = {}

    def portable(value, depth=0):
        if depth > 20:
            return value
        if isinstance(value, tuple):
            return tuple(portable(item, depth + 1) for item in value)
        if isinstance(value, list):
            return [portable(item, depth + 1) for item in value]
        if type(value) is dict:
            return {key: portable(item, depth + 1) for key, item in value.items()}
        if type(value).__module__.split(".")[0] == "pandas" and hasattr(value, "to_numpy"):
            return value.to_numpy()
        return value

    def write(path, payload):
        try:
            data = pickle.dumps(payload, protocol=4)
        except Exception as error:
            data = pickle.dumps(("untransferable", "%s: %s" % (type(error).__name__, str(error)[:300])), protocol=4)
        with open(path + ".part", "wb") as file:
            file.write(data)
        os.replace(path + ".part", path)

    def capture(exercise_id, answer):
        path = os.path.join(channel, exercise_id + ".answer")
        if callable(answer):
            functions[exercise_id] = answer
            write(path, ("function", str(getattr(answer, "__name__", "function"))[:100]))
        else:
            write(path, ("value", portable(answer)))

    def call(exercise_id, number):
        path = os.path.join(channel, "call-%d" % number)
        with open(path + ".in", "rb") as file:
            args, kwargs = pickle.load(file)
        try:
            result = ("value", portable(functions[exercise_id](*args, **kwargs)))
        except (Exception, SystemExit) as error:
            try:
                message = str(error)[:2000]
            except Exception:
                message = "(its message could not be printed)"
            result = ("raised", type(error).__name__[:100], message)
        write(path + ".out", result)

    module = types.ModuleType(module_name)
    module.capture, module.call = capture, call
    sys.modules[module_name] = module
'''

_KERNEL_LAUNCHER = r'''
import resource, sys
def _limit(kind, soft, hard):
    try:
        old_soft, old_hard = resource.getrlimit(kind)
        if old_hard != resource.RLIM_INFINITY:
            soft, hard = min(soft, old_hard), min(hard, old_hard)
        resource.setrlimit(kind, (soft, hard))
    except (ValueError, OSError):
        pass
_limit(resource.RLIMIT_AS, {memory}, {memory})
_limit(resource.RLIMIT_FSIZE, {fsize}, {fsize})
_limit(resource.RLIMIT_CPU, {cpu}, {cpu} + 10)
_limit(resource.RLIMIT_CORE, 0, 0)
del _limit, resource
from ipykernel.kernelapp import launch_new_instance
launch_new_instance()
'''


def _kernel_argv(options: GradingOptions) -> list[str]:
    argv = [sys.executable]
    if os.name == "posix":
        code = _KERNEL_LAUNCHER.format(memory=options.memory_mb * 2**20, fsize=2**30,
                                       cpu=int(2 * options.timeout + 60))
        argv += ["-c", code]
    else:
        argv += ["-m", "ipykernel_launcher"]
    return argv + ["-f", "{connection_file}", "--HistoryManager.hist_file=:memory:"]


def scrubbed_environment(workdir: Path, base: dict | None = None) -> dict:
    """The kernel's environment: allowlisted variables only, BLAS pinned, a private temp
    folder and IPython folder (no startup scripts), the standard inline figure backend."""
    base = dict(os.environ if base is None else base)
    env = {key: value for key, value in base.items() if key in ENV_ALLOWLIST or key.startswith("LC_")}
    env = pinned_environment(env)
    env.update(TMPDIR=str(workdir), TEMP=str(workdir), TMP=str(workdir),
               IPYTHONDIR=str(workdir / ".ipython"), PYTHONDONTWRITEBYTECODE="1")
    return env


# --------------------------------------------------------------------------- running one submission


class _KernelGone(Exception):
    """The kernel died or stopped answering: nothing more can run."""


def _make_client(notebook, options: GradingOptions, kernel_dir: Path):
    """An nbclient client for the grader's kernel: outputs discarded, big messages dropped."""
    import zmq
    import zmq.asyncio
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    class GradingClient(NotebookClient):
        def create_kernel_manager(self):
            self.km = AsyncKernelManager(kernel_name=KERNEL_NAME,
                                         kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernel_dir)]))
            return self.km

        async def async_start_new_kernel_client(self):
            context = zmq.asyncio.Context()
            context.setsockopt(zmq.MAXMSGSIZE, options.max_message_bytes)
            self.kc = self.km.client(context=context)
            await ensure_async(self.kc.start_channels())
            try:
                await ensure_async(self.kc.wait_for_ready(timeout=self.startup_timeout))
            except Exception:
                await self._async_cleanup_kernel()
                raise
            self.kc.allow_stdin = False
            return self.kc

        def output(self, outs, msg, display_id, cell_index):
            return None  # the grader reads no output: nothing printed can fake a result

    return GradingClient(notebook, timeout=int(options.cell_timeout), interrupt_on_timeout=False,
                         allow_errors=True, shutdown_kernel="immediate", iopub_timeout=2,
                         startup_timeout=120, record_timing=False)


class _Run:
    """One submission's kernel session: runs cells and calls functions against deadlines."""

    def __init__(self, client, options: GradingOptions, channel: Path, module: str, deadline: float):
        self.client, self.options, self.channel, self.module = client, options, channel, module
        self.deadline = deadline
        self.reply: dict = {}
        self.calls = 0
        self.gone: str | None = None
        self.loop = asyncio.get_running_loop()
        client.on_cell_executed = self._record

    def _record(self, cell, cell_index, execute_reply):
        content = execute_reply.get("content", {}) if isinstance(execute_reply, dict) else {}
        self.reply = {"status": str(content.get("status")), "ename": _clip(content.get("ename", ""), 100),
                      "evalue": _clip(content.get("evalue", ""), 500)}

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    async def execute(self, source: str, limit: float, label: str, history: bool = False) -> dict:
        """Run ``source``; the reply's status, ename, evalue. Raises TimeoutError or _KernelGone."""
        from nbclient.exceptions import CellTimeoutError, DeadKernelError

        if self.gone:
            raise _KernelGone(self.gone)
        cell = nbformat.v4.new_code_cell(source)
        self.client.nb.cells[0] = cell
        self.client.timeout = max(1, math.ceil(limit))
        self.reply = {"status": "unknown", "ename": "", "evalue": ""}
        try:
            await self.client.async_execute_cell(cell, 0, store_history=history)
        except DeadKernelError:
            self.gone = f"the kernel died during {label}"
            raise _KernelGone(self.gone) from None
        except CellTimeoutError:
            await self._recover(label)
            raise TimeoutError from None
        return self.reply

    async def _recover(self, label: str) -> None:
        """Interrupt a timed-out kernel and reconnect (a cancelled wait loses iopub messages);
        stop the kernel when it does not answer again within ``recover_timeout``."""
        from nbclient.exceptions import CellTimeoutError, DeadKernelError

        try:
            await self.client.km.interrupt_kernel()
            await ensure_async(self.client.kc.stop_channels())
            started = time.monotonic()
            await asyncio.wait_for(self.client.async_start_new_kernel_client(), self.options.recover_timeout)
            self.client.timeout = max(1, math.ceil(self.options.recover_timeout - (time.monotonic() - started)))
            await self.client.async_execute_cell(nbformat.v4.new_code_cell("pass"), 0, store_history=False)
        except (CellTimeoutError, DeadKernelError, RuntimeError, asyncio.TimeoutError):
            self.gone = f"the kernel stopped answering after {label} was interrupted, and was stopped"
            _kill_group(_kernel_pgid(self.client))

    def call_function(self, exercise_id: str, args, kwargs):
        """Call a student's function in the kernel (from the check's thread)."""
        future = asyncio.run_coroutine_threadsafe(self._call(exercise_id, args, kwargs), self.loop)
        return future.result()

    async def _call(self, exercise_id: str, args, kwargs):
        self.calls += 1
        stem = self.channel / f"call-{self.calls}"
        limit = min(self.options.call_timeout, self.remaining())
        if limit <= 0:
            raise _checks.CheckFailure("the grader ran out of time before it could call your function")
        stem.with_suffix(".in").write_bytes(pickle.dumps((args, kwargs), protocol=4))
        try:
            reply = await self.execute(f"__import__({self.module!r}).call({exercise_id!r}, {self.calls})",
                                       limit, "a call of your function")
        except TimeoutError:
            raise _checks.CheckFailure(f"your function did not return within {limit:.3g} s") from None
        except _KernelGone:
            raise _checks.CheckFailure("the kernel died while your function was running") from None
        finally:
            stem.with_suffix(".in").unlink(missing_ok=True)
        try:
            data = _read_channel_file(stem.with_suffix(".out"), self.options.max_answer_bytes)
            payload = load_answer(data) if data is not None else None
        except Exception as error:
            raise _checks.CheckFailure(f"the grader could not read what your function returned: {_clip(error, 300)}") from None
        if payload is None:
            raise _checks.CheckFailure(f"the grader got no result from your function ({reply['ename'] or 'no error'})")
        return _unpack_result(payload)


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


def _unpack_result(payload):
    """A function's result, or its exception raised again in the grader."""
    if isinstance(payload, tuple) and len(payload) == 2 and payload[0] == "value":
        return payload[1]
    if isinstance(payload, tuple) and len(payload) == 3 and payload[0] == "raised":
        raise _exception(str(payload[1]), str(payload[2]))
    if isinstance(payload, tuple) and len(payload) == 2 and payload[0] == "untransferable":
        raise _checks.CheckFailure(f"your function returned something the grader cannot transfer ({_clip(payload[1], 300)})")
    raise _checks.CheckFailure("the grader could not understand what your function returned")


class _FunctionProxy:
    """Stands in the grader for a function that lives in the kernel."""

    def __init__(self, run: _Run, exercise_id: str, name: str):
        self._run, self._exercise_id = run, exercise_id
        self.__name__ = self.__qualname__ = name

    def __call__(self, *args, **kwargs):
        return self._run.call_function(self._exercise_id, args, kwargs)

    def __repr__(self):
        return f"<your function {self.__name__}>"


def _kernel_pgid(client) -> int | None:
    provisioner = getattr(getattr(client, "km", None), "provisioner", None)
    return getattr(provisioner, "pgid", None) or getattr(provisioner, "pid", None)


def _kill_group(pgid: int | None) -> None:
    if pgid and os.name == "posix":
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


async def _grade_check(run: _Run, check: dict, reply: dict, label: str) -> TestResult:
    """Read the answer a check cell handed over and run its check in this process."""
    exercise_id, points = check["exercise_id"], float(check["points"])

    def result(passed: bool, message: str) -> TestResult:
        return TestResult(exercise_id, points if passed else 0.0, points, passed, message)

    try:
        data = _read_channel_file(run.channel / f"{exercise_id}.answer", run.options.max_answer_bytes)
    except ValueError as error:
        return result(False, f"the grader could not read your answer: {error}")
    if data is None:
        why = f"{reply['ename']}: {reply['evalue']}" if reply.get("status") == "error" else "no answer arrived"
        return result(False, f"{label} raised {why}" if reply.get("status") == "error" else f"{label}: {why}")
    try:
        payload = load_answer(data)
    except Exception as error:
        return result(False, "the grader could not transfer your answer: answers must be numbers, arrays, lists, "
                             f"tuples, dicts, strings or course results ({_clip(error, 300)})")
    if not (isinstance(payload, tuple) and len(payload) == 2 and payload[0] in ("value", "function", "untransferable")):
        return result(False, "the grader could not understand the answer it received")
    kind, content = payload
    if kind == "untransferable":
        return result(False, f"the grader could not transfer your answer ({_clip(content, 300)})")
    answer = _FunctionProxy(run, exercise_id, str(content)) if kind == "function" else content
    seed = secrets.randbits(32)
    try:
        verdict = await run.loop.run_in_executor(None, functools.partial(_checks.evaluate, exercise_id, answer, seed))
    except Exception as error:  # an unknown exercise id: the package and the spec disagree
        return result(False, f"the grader could not run this check ({type(error).__name__}: {_clip(error, 300)}); tell your instructor")
    if verdict.passed:
        return result(True, verdict.message)
    seed_note = f"\n(graded on random instances with seed {seed})" if kind == "function" else ""
    return result(False, f"{verdict.message}\nhint: {verdict.hint}{seed_note}")


async def _run_notebook(job: "_Job", notify: Callable[[int], None]) -> SubmissionResult:
    started = time.monotonic()
    options, spec = job.options, job.spec
    module = f"_dimred_grader_{secrets.token_hex(8)}"
    root = Path(job.root)
    workdir, channel, kernel_dir = root / "work", root / f"channel-{secrets.token_hex(8)}", root / "kernels" / KERNEL_NAME
    for folder in (workdir, channel, kernel_dir):
        folder.mkdir(parents=True)
    kernel_dir.joinpath("kernel.json").write_text(json.dumps(
        {"argv": _kernel_argv(options), "display_name": "dimred-teach grader", "language": "python"}))
    cells, notes = plan_cells(job.notebook, spec, module)
    notes.insert(0, job.note)
    client = _make_client(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")]), options, kernel_dir.parent)
    results: dict[str, TestResult] = {}
    stopped = ""
    env = scrubbed_environment(workdir)
    quiet = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    async with client.async_setup_kernel(env=env, cwd=str(workdir), **quiet):
        notify(_kernel_pgid(client) or 0)
        run = _Run(client, options, channel, module, time.monotonic() + options.timeout)
        bootstrap = _KERNEL_HELPERS + f"\n_dimred_grader_install({module!r}, {str(channel)!r})\ndel _dimred_grader_install\n"
        try:
            try:
                await run.execute(bootstrap, 60, "the grader's set-up")
            except TimeoutError:
                raise _KernelGone("the kernel did not answer the grader's set-up within 60 s") from None
            for cell in cells:
                limit = min(options.cell_timeout, run.remaining())
                if limit <= 0:
                    stopped = f"the notebook ran out of time ({options.timeout:g} s) before {cell.label}"
                    break
                if cell.check is not None:  # only what this cell hands over counts
                    (channel / f"{cell.check['exercise_id']}.answer").unlink(missing_ok=True)
                try:
                    reply = await run.execute(cell.source, limit, cell.label, history=True)
                except TimeoutError:
                    notes.append(f"{cell.label} did not finish within {limit:.3g} s and was interrupted")
                    reply = {"status": "timeout"}
                if reply.get("status") == "error" and cell.check is None:
                    notes.append(f"{cell.label} raised {reply['ename']}: {reply['evalue']}")
                if cell.check is not None:
                    results[cell.check["exercise_id"]] = await _grade_check(run, cell.check, reply, cell.label)
                if run.gone:
                    stopped = run.gone
                    break
        except _KernelGone as gone:
            stopped = str(gone)
        pgid = _kernel_pgid(client)
    _kill_group(pgid)
    if stopped:
        notes.append(f"the run stopped: {stopped}")
    missing = f"not graded: {stopped or 'its check cell did not run'}"
    tests = [results.get(c["exercise_id"]) or TestResult(c["exercise_id"], 0.0, float(c["points"]), False, missing)
             for c in spec["checks"]]
    return SubmissionResult(job.submission, job.report_name, job.exercise_set, tuple(tests),
                            _clip("\n".join(note for note in notes if note), 6000), time.monotonic() - started, True)


@dataclass(frozen=True)
class _Job:
    """What a worker needs to grade one submission (the last four are filled in there)."""

    submission: str
    report_name: str
    root: str
    options: GradingOptions
    specs: dict
    exercise_set: str | None = None
    spec: dict | None = None
    notebook: dict | None = None
    note: str = ""


def _grade_job(job: _Job, notify: Callable[[int], None]) -> SubmissionResult:
    """Grade one submission (in a worker); never raises."""
    started = time.monotonic()

    def unusable(message: str, spec=None, exercise_set=None) -> SubmissionResult:
        return SubmissionResult(job.submission, job.report_name, exercise_set, _failed_tests(spec, "not graded"),
                                message, time.monotonic() - started, False)

    path, spec, exercise_set = Path(job.submission), None, None
    try:
        try:
            notebook = read_notebook(path, job.options.max_notebook_bytes)
        except (OSError, ValueError) as error:
            return unusable(str(error))
        exercise_set, note = identify_set(notebook, path, job.specs)
        if exercise_set is None:
            return unusable(note)
        spec = job.specs[exercise_set]
        job = dataclasses.replace(job, exercise_set=exercise_set, spec=spec, notebook=notebook, note=note)
        return asyncio.run(_run_notebook(job, notify))
    except Exception as error:
        return SubmissionResult(job.submission, job.report_name, exercise_set,
                                _failed_tests(spec, "not graded: the grader failed"),
                                f"the grader failed on this submission (not your fault; tell your instructor): "
                                f"{type(error).__name__}: {_clip(error, 500)}", time.monotonic() - started, False)


def _worker(job: _Job, connection) -> None:
    """Entry point of a worker process: sends ("kernel", pgid) then ("result", json)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    for directory in job.options.extra_check_dirs:
        if str(directory) not in _checks.__path__:
            _checks.__path__.append(str(directory))

    def notify(pgid: int) -> None:
        connection.send_bytes(json.dumps(["kernel", pgid]).encode())

    result = _grade_job(job, notify)
    _remove_tree(job.root)  # also when the main process is gone
    connection.send_bytes(json.dumps(["result", result.to_json()]).encode())
    connection.close()


# --------------------------------------------------------------------------- the main process


def _preload(options: GradingOptions, specs: dict) -> None:
    """Import every check (and every course module) before any submission runs."""
    for directory in options.extra_check_dirs:
        if str(directory) not in _checks.__path__:
            _checks.__path__.append(str(directory))
    import dimred_teach

    for info in pkgutil.iter_modules(dimred_teach.__path__, "dimred_teach."):
        if info.name not in ("dimred_teach.cli", "dimred_teach.__main__"):
            try:
                importlib.import_module(info.name)
            except Exception:  # a module that does not import cannot matter to a check
                pass
    for spec in specs.values():
        for check in spec["checks"]:
            try:
                _checks.get_check(check["exercise_id"])
            except ValueError:
                pass  # reported per exercise when the check is needed


def _remove_tree(root: str) -> None:
    """Remove a submission's temporary folder, also where its kernel took permissions away."""
    for folder, subfolders, _ in os.walk(root):
        for name in subfolders:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                try:
                    os.chmod(path, 0o700)
                except OSError:
                    pass
    shutil.rmtree(root, ignore_errors=True)


def _provisional(path: Path, name: str, specs: dict) -> SubmissionResult:
    exercise_set = _set_from_file_name(path.stem, specs)
    spec = specs.get(exercise_set) if exercise_set else None
    message = "not graded: the grading run did not finish"
    return SubmissionResult(str(path), name, exercise_set, _failed_tests(spec, message),
                            "grading did not finish: the grader was stopped or killed while this submission was graded",
                            0.0, False)


def grade(paths: Sequence[Path], out_dir: Path, options: GradingOptions = GradingOptions(), jobs: int = 1,
          pass_fraction: float = 1.0, gradebook: Path | None = None,
          on_result: Callable[[SubmissionResult], None] | None = None) -> list[SubmissionResult]:
    """Grade notebooks and write the reports into ``out_dir``.

    Parameters
    ----------
    paths : notebook files (folders are not expanded here; see :func:`find_submissions`)
    out_dir : receives ``<name>.json`` per submission, ``junit.xml`` and ``summary.md``
    options : limits and sources (see :class:`GradingOptions`)
    jobs : submissions graded at once, each in its own worker process and kernel
    pass_fraction : used for the pass/fail column of the summary
    gradebook : optional CSV file with one row per submission
    on_result : called in the main process as each submission finishes

    Returns
    -------
    list of SubmissionResult, in the order of ``paths``.
    """
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    paths = [Path(p) for p in paths]
    specs = load_specs(options.specs_dir)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    names = _report_names(paths)
    results = [_provisional(path, name, specs) for path, name in zip(paths, names)]
    write_reports(results, out_dir, pass_fraction, gradebook)
    _preload(options, specs)
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    pending = list(range(len(paths)))
    running: dict = {}  # index -> [process, connection, root, deadline, pgid]

    def finish(index: int, result: SubmissionResult) -> None:
        process, connection, root, _, pgid = running.pop(index)
        connection.close()
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(5)
        _kill_group(pgid)
        _remove_tree(root)
        results[index] = result
        (out_dir / f"{result.report_name}.json").write_text(json.dumps(result.to_gradescope(), indent=1) + "\n")
        if on_result is not None:
            on_result(result)

    def broken(index: int, message: str) -> SubmissionResult:
        base = results[index]
        exercise_set = base.exercise_set
        return SubmissionResult(base.submission, base.report_name, exercise_set,
                                _failed_tests(specs.get(exercise_set), f"not graded: {message}"), message,
                                time.monotonic() - (running[index][3] - options.hard_limit), False)

    try:
        while pending or running:
            while pending and len(running) < jobs:
                index = pending.pop(0)
                root = tempfile.mkdtemp(prefix="dimred-grade-")
                receiver, sender = context.Pipe(duplex=False)
                job = _Job(str(paths[index]), names[index], root, options, specs)
                process = context.Process(target=_worker, args=(job, sender), daemon=True)
                process.start()
                sender.close()
                running[index] = [process, receiver, root, time.monotonic() + options.hard_limit, None]
            waitables = {entry[1]: index for index, entry in running.items()}
            ready = multiprocessing.connection.wait(list(waitables), timeout=1.0)
            for connection in ready:
                index = waitables[connection]
                try:
                    kind, payload = json.loads(connection.recv_bytes())
                except (EOFError, OSError, ValueError):
                    code = running[index][0].exitcode
                    running[index][0].join(1)
                    code = running[index][0].exitcode if code is None else code
                    how = f"killed by signal {-code}" if code and code < 0 else f"exit status {code}"
                    finish(index, broken(index, f"the grading process of this submission died ({how}); "
                                                "the submission may have killed it"))
                    continue
                if kind == "kernel":
                    running[index][4] = payload or None
                else:
                    finish(index, SubmissionResult.from_json(payload))
            for index in [i for i, entry in running.items() if time.monotonic() > entry[3]]:
                running[index][0].kill()
                finish(index, broken(index, f"grading took longer than {options.hard_limit:g} s and was stopped"))
    finally:
        for index in list(running):
            running[index][0].kill()
            _kill_group(running[index][4])
            _remove_tree(running[index][2])
        write_reports(results, out_dir, pass_fraction, gradebook)
    return results


# --------------------------------------------------------------------------- reports

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _XML_ILLEGAL.sub("?", str(text))


def _junit(results: Sequence[SubmissionResult]) -> str:
    suites = ET.Element("testsuites", name="dimred-teach grade")
    for result in results:
        failures = sum(not t.passed for t in result.tests) + (0 if result.graded else 1)
        suite = ET.SubElement(suites, "testsuite", name=_xml_text(result.report_name),
                              tests=str(len(result.tests) + 1), failures=str(failures), errors="0",
                              time=f"{result.execution_time:.2f}")
        whole = ET.SubElement(suite, "testcase", classname=_xml_text(result.report_name), name="notebook runs")
        if not result.graded:
            ET.SubElement(whole, "failure", message="not graded").text = _xml_text(result.output)
        elif result.output:
            ET.SubElement(whole, "system-out").text = _xml_text(result.output)
        for test in result.tests:
            case = ET.SubElement(suite, "testcase", classname=_xml_text(result.report_name),
                                 name=_xml_text(f"{test.name} ({test.max_score:g} points)"))
            if not test.passed:
                ET.SubElement(case, "failure", message=_xml_text(test.output.split("\n")[0][:200])).text = _xml_text(test.output)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _md(text: str, limit: int = 300) -> str:
    """Student-controlled text made safe inside a Markdown table cell."""
    text = _clip(str(text).replace("\n", " "), limit)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|", "\\|").replace("`", "'"))


def _summary(results: Sequence[SubmissionResult], pass_fraction: float) -> str:
    lines = ["## dimred-teach grade", "",
             f"{sum(r.passes(pass_fraction) for r in results)} of {len(results)} submission(s) reach "
             f"{pass_fraction:.0%} of the points.", "",
             "| submission | exercise set | score | result |", "| --- | --- | --- | --- |"]
    for r in results:
        verdict = "pass" if r.passes(pass_fraction) else ("fail" if r.graded else "not graded")
        lines.append(f"| {_md(r.submission, 120)} | {_md(r.exercise_set or '?')} | {r.score:g} / {r.max_score:g} | {verdict} |")
    for r in results:
        lines += ["", f"### {_md(r.submission, 120)}", ""]
        if r.output:
            lines += [f"> {_md(line, 400)}" for line in r.output.split("\n")[:20]] + [""]
        if r.tests:
            lines += ["| exercise | points | result |", "| --- | --- | --- |"]
            lines += [f"| {_md(t.name)} | {t.score:g} / {t.max_score:g} | "
                      f"{'passed' if t.passed else _md('not yet: ' + t.output, 400)} |" for t in r.tests]
    return "\n".join(lines) + "\n"


def _csv_cell(value) -> str:
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def write_gradebook(results: Sequence[SubmissionResult], path: Path, pass_fraction: float) -> None:
    """One CSV row per submission: totals, pass/fail, then the points of every exercise."""
    exercises = sorted({t.name for r in results for t in r.tests})
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["submission", "exercise_set", "score", "max_score", "fraction", "passed", "graded"] + exercises)
        for r in sorted(results, key=lambda r: r.submission):
            points = {t.name: f"{t.score:g}" for t in r.tests}
            fraction = f"{r.score / r.max_score:.4f}" if r.max_score else ""
            writer.writerow([_csv_cell(r.submission), r.exercise_set or "", f"{r.score:g}", f"{r.max_score:g}",
                             fraction, r.passes(pass_fraction), r.graded] + [points.get(e, "") for e in exercises])


def write_reports(results: Sequence[SubmissionResult], out_dir: Path, pass_fraction: float,
                  gradebook: Path | None = None) -> None:
    """``<name>.json`` (Gradescope format) per submission, ``junit.xml``, ``summary.md``,
    and the gradebook when asked."""
    out_dir = Path(out_dir)
    for result in results:
        (out_dir / f"{result.report_name}.json").write_text(json.dumps(result.to_gradescope(), indent=1) + "\n")
    (out_dir / "junit.xml").write_text(_junit(results))
    (out_dir / "summary.md").write_text(_summary(results, pass_fraction))
    if gradebook is not None:
        write_gradebook(results, gradebook, pass_fraction)


def command_grade(args) -> int:
    """``dimred-teach grade``: the exit status (0 all pass, 1 otherwise, 2 usage error)."""
    if not 0.0 <= args.pass_fraction <= 1.0:
        print(f"error: --pass-fraction must be between 0 and 1, got {args.pass_fraction}", file=sys.stderr)
        return 2
    try:
        options = GradingOptions(timeout=args.timeout, cell_timeout=min(args.cell_timeout, args.timeout),
                                 call_timeout=args.call_timeout, memory_mb=args.memory_mb,
                                 specs_dir=args.specs_dir or SPECS_DIR,
                                 extra_check_dirs=tuple(Path(d).resolve() for d in args.extra_check_dir))
        paths = find_submissions(args.submissions)
        if not paths:
            raise ValueError("no notebooks (*.ipynb) found in " + ", ".join(map(str, args.submissions)))
        if not load_specs(options.specs_dir):
            raise ValueError(f"no grading specs in {options.specs_dir}: was `dimred-teach build` run?")
        args.out.mkdir(parents=True, exist_ok=True)
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print(f"error: --jobs must be at least 1, got {args.jobs}", file=sys.stderr)
        return 2

    def progress(result: SubmissionResult) -> None:
        mark = "pass" if result.passes(args.pass_fraction) else ("fail" if result.graded else "not graded")
        print(f"{result.submission}: {result.score:g} / {result.max_score:g} ({mark}, {result.execution_time:.1f} s)",
              flush=True)

    results = grade(paths, args.out, options, jobs=args.jobs, pass_fraction=args.pass_fraction,
                    gradebook=args.gradebook, on_result=progress)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            with open(summary, "a") as file:
                file.write((args.out / "summary.md").read_text())
        except OSError as error:
            print(f"warning: could not append to $GITHUB_STEP_SUMMARY ({error})", file=sys.stderr)
    passed = sum(r.passes(args.pass_fraction) for r in results)
    print(f"{passed} of {len(results)} submission(s) reach {args.pass_fraction:.0%} of the points; reports in {args.out}")
    return 0 if passed == len(results) else 1


def command_ci_template(args) -> int:
    """``dimred-teach ci-template``: print the workflow, or write it to ``--out``."""
    text = workflow_template(args.install or f"dimred-teach=={_version()}")
    if args.out is None:
        sys.stdout.write(text)
        return 0
    if args.out.exists() and not args.force:
        print(f"error: {args.out} exists (use --force to overwrite)", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"wrote {args.out}")
    return 0


def _version() -> str:
    from . import __version__

    return __version__


def workflow_template(install: str) -> str:
    """The GitHub Actions workflow for a student's repository, installing ``install``."""
    from importlib.resources import files

    text = files("dimred_teach.templates").joinpath("grade-workflow.yml").read_text()
    return text.replace("__INSTALL__", install)
