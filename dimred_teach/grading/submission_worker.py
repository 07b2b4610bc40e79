"""Grading one submission, in its worker process: reserve the kernel's user id, start a
sandboxed kernel that sees its set's view of the course, run the planned cells, hand each
check cell's answer, as the bytes the kernel wrote, to the submission's checks process
(:mod:`.checker`), and return the result.

Everything this module needs is imported when it is imported (by the main process,
before any kernel starts), so nothing a kernel could change is imported afterwards. The
worker itself never decodes what a kernel wrote.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import math
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from queue import Empty

import nbformat
import zmq
import zmq.asyncio
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import ensure_async
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from .. import checks as _checks
from . import cgroup, uids
from .answer_folder import AnswerFolder
from .checker import GRADER_ERROR, Checker
from .course_view import view_for
from .options import GradingOptions
from .results import SubmissionResult, TestResult, clip, known_mistake, not_graded, not_graded_test
from .sandbox import SandboxMode, kill_group
from .submission_cells import plan_cells
from .submissions import display_path, identify_set, is_exercise_notebook, notebook_digest, read_notebook
from .written import written_answers

KERNEL_NAME = "dimred-teach-grader"
HELPER_SOURCE = (files(__package__).joinpath("plain_data.py").read_text() + "\n"
                 + files(__package__).joinpath("kernel_helper.py").read_text())
"""The code the kernel runs first, in a module of its own: the data format, then the helper."""


IDLE_WAIT = 0.02
"""Seconds a kernel start waits for the "idle" status of its latest ``kernel_info`` request
before asking again. The first request's status is lost more often than not (the kernel
publishes it before the output channel's subscription has reached it), and each later
request's comes within milliseconds once it has: waiting 0.5 s each time cost a kernel start
0.3 s on average (28 kernels: 12.9 s against 9.2 s)."""

MAX_SCRATCH_ENTRIES = 20000
"""Most files and folders a kernel's scratch folder may hold."""

LIMIT_ERRORS = (("MemoryError", "", "{memory_mb} MB of memory"),
                ("", "Resource temporarily unavailable", "{processes} processes/threads"),
                ("", "Too many open files", "{open_files} open files"),
                ("", "File too large", "{file_mb} MB per file"),
                ("", "No space left on device", "{scratch_mb} MB of scratch space"))
"""(exception name, words of its message, the limit it means): errors a resource limit raises."""


def limit_hit(ename: str, evalue: str, options: GradingOptions) -> str:
    """The resource limit an error in the kernel says was reached ("" for none)."""
    for name, words, limit in LIMIT_ERRORS:
        if (name and ename == name) or (words and words in evalue):
            return "resource limit: " + limit.format(**dataclasses.asdict(options))
    return ""


def disk_usage(folder: Path, max_entries: int, owner: int | None = None) -> tuple[int, int]:
    """Bytes on disk and number of entries under ``folder`` (counting stops past ``max_entries``;
    never follows a link). With ``owner``, a kernel's user id: only that user's entries, looked
    for only where it could have made them (:func:`uids.could_create`), so a large tree it
    cannot write to (a checkout in /tmp, say) costs a listing of its folders, not a status of
    every file."""
    try:
        counted = owner is None or uids.could_create(os.lstat(folder))
    except OSError:
        return 0, 0
    used, entries, pending = 0, 0, [(str(folder), counted)]  # (folder, whether its entries are counted)
    while pending and entries <= max_entries:
        path, counted = pending.pop()
        try:
            with os.scandir(path) as listing:
                for entry in listing:
                    try:
                        folder_entry = entry.is_dir(follow_symlinks=False)
                        if not (counted or folder_entry):
                            continue
                        info = entry.stat(follow_symlinks=False)
                        if counted and (owner is None or info.st_uid == owner):
                            entries += 1
                            used += info.st_blocks * 512
                        if folder_entry and (owner is None or uids.could_enter(info)):
                            pending.append((entry.path, owner is None or uids.could_create(info)))
                    except OSError:
                        pass
        except OSError:
            pass
    return used, entries


def open_unlinked_bytes(pids) -> int:
    """Bytes held by files that processes ``pids`` keep open after deleting them."""
    seen, used = set(), 0
    for pid in pids:
        try:
            descriptors = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in descriptors:
            path = f"/proc/{pid}/fd/{fd}"
            try:
                if not os.readlink(path).endswith(" (deleted)"):
                    continue
                info = os.stat(path)
            except OSError:
                continue
            if (info.st_dev, info.st_ino) not in seen and info.st_mode & 0o170000 == 0o100000:
                seen.add((info.st_dev, info.st_ino))
                used += info.st_blocks * 512
    return used


def descendants(root: int) -> list[int]:
    """``root`` and every process below it (a bubblewrap sandbox: every process it holds)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as file:
                    parent = int(file.read().rsplit(b")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending += children.get(pid, [])
    return found


class KernelGone(Exception):
    """The kernel died or stopped answering: nothing more can run."""


async def _answer_to(channel, requests: set[str], deadline: float, status: bool = False) -> dict:
    """The first message on ``channel`` answering one of ``requests`` (its parent's id; with
    ``status``, the kernel's "idle" status after it) before ``deadline``; other messages are
    dropped. Raises Empty when none comes in time."""
    while True:
        message = await ensure_async(channel.get_msg(timeout=max(0.0, deadline - time.monotonic())))
        if message.get("parent_header", {}).get("msg_id") in requests and (
                not status or (message.get("msg_type") == "status"
                               and message.get("content", {}).get("execution_state") == "idle")):
            return message


async def wait_until_ready(client, manager, timeout: float) -> None:
    """Return once the kernel answers ``kernel_info`` on its shell channel and its output channel
    brings that request's "idle" status (so the output of the first cell cannot be lost); as
    jupyter_client's ``wait_for_ready``, without its fixed 0.2 s waits for output that never
    comes (a kernel start costs about 0.3 s less), asking again after :data:`IDLE_WAIT`. Nothing
    is adapted to the reply's protocol version: the kernel is the course's pinned ipykernel,
    whose protocol has the client's major version (5), and no student code has run in it yet.
    RuntimeError when the kernel dies or does not answer within ``timeout`` seconds."""
    deadline, requests = time.monotonic() + timeout, set()
    while time.monotonic() < deadline:
        requests.add(client.kernel_info())
        try:
            await _answer_to(client.shell_channel, requests, min(deadline, time.monotonic() + 1.0))
            await _answer_to(client.iopub_channel, requests, min(deadline, time.monotonic() + IDLE_WAIT), status=True)
        except Empty:
            if not await ensure_async(manager.is_alive()):
                raise RuntimeError("Kernel died before replying to kernel_info") from None
            continue
        return
    raise RuntimeError(f"Kernel didn't respond in {timeout:g} seconds")


def kernel_argv(options: GradingOptions, mode: SandboxMode, view: Path) -> list[str]:
    """The kernel's command, resource limits included (see ``kernel_launcher.py``, which
    the view carries)."""
    processes = options.processes if mode.counts_processes else 0
    return [
        sys.executable,
        str(view / "kernel_launcher.py"),
        str(options.memory_mb * 2**20),
        str(options.file_mb * 2**20),
        str(options.cpu_limit),
        str(processes),
        str(options.open_files),
        "-f",
        "{connection_file}",
        "--HistoryManager.hist_file=:memory:",
    ]


def make_client(notebook, options: GradingOptions, kernel_dir: Path, box: Path, sandbox: SandboxMode):
    """An nbclient client for the grader's kernel: outputs discarded, big messages dropped,
    the connection over Unix sockets in ``box`` (a sandboxed kernel has no network)."""

    class GradingKernelManager(AsyncKernelManager):
        def write_connection_file(self, **kwargs):
            super().write_connection_file(**kwargs)
            sandbox.grant(Path(self.connection_file))

        async def _async_wait(self, pollinterval: float = 0.1) -> None:
            # a kernel is only ever stopped with SIGKILL, gone within milliseconds: looking every
            # 0.1 s (jupyter_client's default) cost each kernel 0.1 s
            await super()._async_wait(pollinterval=0.01)

    class GradingClient(NotebookClient):
        def create_kernel_manager(self):
            self.km = GradingKernelManager(kernel_name=KERNEL_NAME, transport="ipc", ip=str(box / "ipc" / "kernel"),
                                           connection_file=str(box / "connection.json"),
                                           kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernel_dir)]))
            return self.km

        async def async_start_new_kernel_client(self):
            try:
                return await self.connect()
            except Exception:
                await self._async_cleanup_kernel()
                raise

        async def connect(self):
            """A new client on the kernel's channels, once the kernel answers (the kernel
            manager is left as it is when it does not: the caller decides what to stop)."""
            if getattr(self, "output_monitor", None) is not None:
                self.output_monitor.close(linger=0)
            context = zmq.asyncio.Context()
            context.setsockopt(zmq.MAXMSGSIZE, options.max_message_bytes)
            self.kc = self.km.client(context=context)
            await ensure_async(self.kc.start_channels())
            self.output_monitor = self.kc.iopub_channel.socket.get_monitor_socket(zmq.EVENT_DISCONNECTED)
            await wait_until_ready(self.kc, self.km, self.startup_timeout)
            self.kc.allow_stdin = False
            return self.kc

        async def output_lost(self) -> bool:
            """Whether the kernel's output channel has been cut since the last look. libzmq
            cuts a connection for good when a message is bigger than ``max_message_bytes``
            (a cell that prints a huge output), and nbclient would then wait ``iopub_timeout``
            at the end of every later cell for a message that cannot come."""
            lost = False
            while await self.output_monitor.poll(0):
                await self.output_monitor.recv_multipart()
                lost = True
            return lost

        def output(self, outs, msg, display_id, cell_index):
            return None  # the grader reads no output: nothing printed can fake a result

    return GradingClient(notebook, timeout=int(options.cell_timeout), interrupt_on_timeout=False,
                         allow_errors=True, shutdown_kernel="immediate", iopub_timeout=2,
                         startup_timeout=int(options.startup_timeout), record_timing=False)


class Run:
    """One submission's kernel session: runs cells and calls functions against deadlines."""

    def __init__(self, client, options: GradingOptions, channel: AnswerFolder, module: str, deadline: float,
                 checker: Checker):
        self.client, self.options, self.channel, self.module, self.checker = client, options, channel, module, checker
        self.deadline = deadline
        self.reply: dict = {}
        self.calls = 0
        self.gone: str | None = None
        self.seed_name = ""  # the submission graded, by path and content (set by run_notebook)
        self.stopped_by_limit = ""
        self.loop = asyncio.get_running_loop()
        client.on_cell_executed = self._record

    def _record(self, cell, cell_index, execute_reply):
        content = execute_reply.get("content", {}) if isinstance(execute_reply, dict) else {}
        ename, evalue = clip(content.get("ename", ""), 100), clip(content.get("evalue", ""), 500)
        limit = limit_hit(ename, evalue, self.options)
        self.reply = {"status": str(content.get("status")), "ename": ename,
                      "evalue": f"{evalue} ({limit})" if limit else evalue}

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    async def execute(self, source: str, limit: float, label: str, history: bool = False) -> dict:
        """Run ``source``; the reply's status, ename, evalue. Raises TimeoutError or KernelGone."""
        if self.gone:
            raise KernelGone(self.gone)
        cell = nbformat.v4.new_code_cell(source)
        self.client.nb.cells[0] = cell
        self.client.timeout = max(1, math.ceil(limit))
        self.reply = {"status": "unknown", "ename": "", "evalue": ""}
        try:
            await self.client.async_execute_cell(cell, 0, store_history=history)
        except DeadKernelError:
            self.gone = self.stopped_by_limit or f"the kernel died during {label}"
            raise KernelGone(self.gone) from None
        except CellTimeoutError:
            await self._recover(label, interrupt=True)
            raise TimeoutError from None
        if await self.client.output_lost():
            await self._recover(label, interrupt=False)
            if self.gone:
                raise KernelGone(self.gone)
        return self.reply

    async def _recover(self, label: str, interrupt: bool) -> None:
        """Reconnect to the kernel, after interrupting it when it timed out (a cancelled wait
        loses iopub messages) or when its output channel was cut; stop the kernel when it does
        not answer again within ``recover_timeout``. The kernel manager stays, whatever
        happens, for the run's own clean-up to stop the kernel with."""
        try:
            if interrupt:
                await self.client.km.interrupt_kernel()
            await ensure_async(self.client.kc.stop_channels())
            started = time.monotonic()
            await asyncio.wait_for(self.client.connect(), self.options.recover_timeout)
            self.client.timeout = max(1, math.ceil(self.options.recover_timeout - (time.monotonic() - started)))
            await self.client.async_execute_cell(nbformat.v4.new_code_cell("pass"), 0, store_history=False)
        except (TimeoutError, CellTimeoutError, DeadKernelError, RuntimeError):
            what = "was interrupted" if interrupt else "cut its output channel"
            self.gone = f"the kernel stopped answering after {label} {what}, and was stopped"
            kill_group(kernel_pgid(self.client))

    def scratch_used(self, box: Path, sandbox: SandboxMode, sweep: bool) -> tuple[int, int]:
        """Bytes and entries the kernel holds: its folder, open unlinked files, and (when
        ``sweep`` and the sandbox :attr:`~.SandboxMode.sweeps`) its files in the world-writable
        places and its System V shared-memory segments."""
        used, entries = disk_usage(box, MAX_SCRATCH_ENTRIES)
        pgid = kernel_pgid(self.client)
        pids = uids.processes_of(sandbox.uid) if sandbox.uid is not None else descendants(pgid) if pgid else []
        used += open_unlinked_bytes(pids)
        if sweep and sandbox.sweeps:
            for place in uids.world_writable_places():
                more, count = disk_usage(Path(place), MAX_SCRATCH_ENTRIES, owner=sandbox.uid)
                used, entries = used + more, entries + count
            used += sum(size for _, _, size in uids.ipc_objects(sandbox.uid))
        return used, entries

    async def watch_scratch(self, box: Path, sandbox: SandboxMode) -> None:
        """Stop the kernel (and every process of its sandbox) once it holds more than
        ``scratch_mb`` or :data:`MAX_SCRATCH_ENTRIES` files (checked 4 times a second; the
        world-writable places of ``user`` mode every 2 seconds)."""
        budget = self.options.scratch_mb * 2**20
        tick = 0
        while True:
            await asyncio.sleep(0.25)
            tick += 1
            used, entries = await self.loop.run_in_executor(None, self.scratch_used, box, sandbox, tick % 8 == 0)
            if used > budget or entries > MAX_SCRATCH_ENTRIES:
                self.stopped_by_limit = (f"resource limit: the notebook wrote more than {self.options.scratch_mb} MB "
                                         f"or {MAX_SCRATCH_ENTRIES} files, and its kernel was stopped")
                kill_group(kernel_pgid(self.client))
                if sandbox.uid is not None:
                    await self.loop.run_in_executor(None, uids.kill_all, sandbox.uid)
                return

    def call_function(self, exercise_id: str, arguments: bytes) -> bytes:
        """Run a student's function in the kernel for the checks (from the check's thread)."""
        future = asyncio.run_coroutine_threadsafe(self._call(exercise_id, arguments), self.loop)
        return future.result()

    async def _call(self, exercise_id: str, arguments: bytes) -> bytes:
        self.calls += 1
        stem = f"call-{self.calls}"
        limit = min(self.options.call_timeout, self.remaining())
        if limit <= 0:
            raise _checks.CheckFailure("the grader ran out of time before it could call your function", "not-graded")
        try:
            self.channel.write(stem + ".in", arguments)
        except OSError as error:
            raise _checks.CheckFailure(f"the grader could not hand your function its input ({error.strerror})",
                                       "not-graded") from None
        try:
            reply = await self.execute(f"__import__({self.module!r}).call({exercise_id!r}, {self.calls})",
                                       limit, "a call of your function")
        except TimeoutError:
            raise _checks.CheckFailure(f"your function did not return within {limit:.3g} s", "too-slow") from None
        except KernelGone:
            raise _checks.CheckFailure("the kernel died while your function was running", "raised") from None
        finally:
            self.channel.remove(stem + ".in")
        try:
            data = self.channel.read(stem + ".out", self.options.max_answer_bytes)
        except ValueError as error:
            raise _checks.CheckFailure(f"the grader could not read what your function returned: {clip(error, 300)}",
                                       "untransferable") from None
        if data is None:
            raise _checks.CheckFailure(f"the grader got no result from your function ({reply['ename'] or 'no error'})",
                                       "untransferable")
        return data


async def grade_check(run: Run, check: dict, reply: dict, label: str) -> TestResult:
    """Hand the answer a check cell wrote to the checks process and make its verdict a result."""
    exercise_id, points = check["exercise_id"], float(check["points"])

    def result(passed: bool, message: str, mistake: str = "") -> TestResult:
        return TestResult(exercise_id, points if passed else 0.0, points, passed, message, mistake,
                          _checks.mistake_name(exercise_id, mistake) if mistake else "")

    try:
        data = run.channel.read(f"{exercise_id}.answer", run.options.max_answer_bytes)
    except ValueError as error:
        return result(False, f"the grader could not read your answer: {error}", "untransferable")
    if data is None:
        if reply.get("status") == "error":
            return result(False, f"{label} raised {reply['ename']}: {reply['evalue']}", "raised")
        return result(False, f"{label}: no answer arrived", "no-answer")
    seed = run.options.check_seed(run.seed_name, exercise_id)
    verdict = await run.loop.run_in_executor(None, functools.partial(run.checker.check, exercise_id, data, seed,
                                                                     run.call_function))
    if verdict.get("passed"):
        return result(True, clip(verdict.get("message", ""), 2000))
    message = clip(verdict.get("message", ""), 3000)
    if verdict.get("hint"):
        message += f"\nhint: {clip(verdict['hint'], 1000)}"
    if verdict.get("function"):
        message += f"\n(graded on random instances with seed {seed})"
    return result(False, message, known_mistake(exercise_id, verdict.get("mistake")))



def kernel_pgid(client) -> int | None:
    """The process group of a client's kernel (bwrap's, in a bwrap sandbox)."""
    provisioner = getattr(getattr(client, "km", None), "provisioner", None)
    return getattr(provisioner, "pgid", None) or getattr(provisioner, "pid", None)


async def run_notebook(job: Job, notify: Callable[[int, int], None], checker: Checker) -> SubmissionResult:
    """Run a readable submission's planned cells in a sandboxed kernel and grade its checks."""
    started = time.monotonic()
    options, spec, sandbox = job.options, job.spec, job.sandbox
    module = f"_dimred_grader_{secrets.token_hex(8)}"
    root = Path(job.root)
    kernel_dir, box = root / "kernel" / KERNEL_NAME, root / "box"
    workdir, channel_dir = box / "work", box / f"channel-{secrets.token_hex(8)}"
    for folder in (workdir, channel_dir, kernel_dir):
        folder.mkdir(parents=True)
    sandbox.prepare(box)
    view = sandbox.own_view(view_for(job.exercise_set, Path(job.views), spec.get("library")), box)
    argv = cgroup.join_command(cgroup.create(options.processes, options.memory_mb * 2**20),
                               sandbox.wrap(kernel_argv(options, sandbox, view), box, view,
                                            options.scratch_mb * 2**20))
    kernel_dir.joinpath("kernel.json").write_text(json.dumps(
        {"argv": argv, "display_name": "dimred-teach grader", "language": "python", "interrupt_mode": "message"}))
    channel = AnswerFolder(channel_dir)
    cells, notes = plan_cells(job.notebook, spec, module)
    notes.insert(0, job.note)
    client = make_client(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")]), options, kernel_dir.parent,
                         box, sandbox)
    results: dict[str, TestResult] = {}
    stopped = ""
    env = sandbox.environment(workdir, view)
    quiet = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    async with client.async_setup_kernel(env=env, cwd=str(workdir), **quiet):
        notify(kernel_pgid(client) or 0, sandbox.uid or 0)
        run = Run(client, options, channel, module, time.monotonic() + options.timeout, checker)
        # names the checks' random instances (GradingOptions.check_seed): a changed notebook gets new ones, so a
        # seed a report showed cannot be answered by a notebook written for it
        run.seed_name = f"{job.submission}\0{notebook_digest(job.notebook)}"
        scratch = asyncio.ensure_future(run.watch_scratch(box, sandbox))
        bootstrap = (f"import types as _grader_types\n_grader = _grader_types.ModuleType('{module}_setup')\n"
                     f"exec(compile({HELPER_SOURCE!r}, '<grader>', 'exec'), _grader.__dict__)\n"
                     f"_grader.install({module!r}, {str(channel_dir)!r}, {options.max_answer_bytes})\n"
                     "del _grader, _grader_types\n")
        try:
            try:
                await run.execute(bootstrap, 60, "the grader's set-up")
            except TimeoutError:
                raise KernelGone("the kernel did not answer the grader's set-up within 60 s") from None
            for cell in cells:
                limit = min(options.cell_timeout, run.remaining())
                if limit <= 0:
                    stopped = f"the notebook ran out of time ({options.timeout:g} s) before {cell.label}"
                    break
                if cell.check is not None:  # only what this cell hands over counts
                    channel.remove(f"{cell.check['exercise_id']}.answer")
                try:
                    reply = await run.execute(cell.source, limit, cell.label, history=True)
                except TimeoutError:
                    notes.append(f"{cell.label} did not finish within {limit:.3g} s and was interrupted")
                    reply = {"status": "timeout"}
                if reply.get("status") == "error" and cell.check is None:
                    notes.append(f"{cell.label} raised {reply['ename']}: {reply['evalue']}")
                if cell.check is not None:
                    results[cell.check["exercise_id"]] = await grade_check(run, cell.check, reply, cell.label)
                if run.gone:
                    stopped = run.gone
                    break
        except KernelGone as gone:
            stopped = str(gone)
        finally:
            scratch.cancel()
        pgid = kernel_pgid(client)
    kill_group(pgid)
    cgroup.remove_stale()
    channel.close()
    if stopped:
        notes.append(f"the run stopped: {stopped}")
    missing = f"not graded: {stopped or 'its check cell did not run'}"
    tests = [results.get(c["exercise_id"]) or not_graded_test(c["exercise_id"], c["points"], missing)
             for c in spec["checks"]]
    return SubmissionResult(job.submission, job.report_name, job.exercise_set, tuple(tests),
                            clip("\n".join(note for note in notes if note), 6000), time.monotonic() - started, True,
                            sandbox.name, options.limits_text(sandbox))


@dataclass(frozen=True)
class Job:
    """What a worker needs to grade one submission (the last four are filled in there)."""

    path: str
    submission: str
    report_name: str
    root: str
    options: GradingOptions
    specs: dict
    sandbox: SandboxMode
    views: str = ""
    exercise_set: str | None = None
    spec: dict | None = None
    notebook: dict | None = None
    note: str = ""


def grade_job(job: Job, notify: Callable[[int, int], None]) -> SubmissionResult:
    """Grade one submission (in a worker): its own kernel user id, held until its kernel is
    gone, and its own checks process, forked before any thread starts; never raises."""
    started = time.monotonic()
    path, spec, exercise_set, written, digest = Path(job.path), None, None, (), ""

    def unusable(message: str, skipped: bool = False) -> SubmissionResult:
        result = not_graded(job.submission, job.report_name, exercise_set, spec, message, time.monotonic() - started,
                            job.sandbox.name, skipped=skipped)
        return dataclasses.replace(result, written=written, notebook_sha256=digest)

    try:
        try:
            notebook = read_notebook(path, job.options.max_notebook_bytes)
        except (OSError, ValueError) as error:
            return unusable(str(error) if isinstance(error, ValueError) else
                            f"{display_path(path.name)} could not be read ({error.strerror})")
        digest = notebook_digest(notebook)
        assignment = job.options.assignment
        exercise_set, note = identify_set(notebook, path, job.specs, assignment)
        if exercise_set is None:
            if len(assignment) == 1:  # the assignment's points, all lost
                exercise_set, spec = assignment[0], job.specs[assignment[0]]
            return unusable(note)
        spec = job.specs[exercise_set]
        if not assignment and not is_exercise_notebook(notebook, spec):
            return unusable(f"skipped: {display_path(path.name)} is not an exercise notebook (no exercise metadata "
                            "and none of its set's check cells; a lecture saved into the folder?)", skipped=True)
        written = written_answers(notebook, spec)  # plain text, read before any kernel starts
        job = dataclasses.replace(job, exercise_set=exercise_set, spec=spec, notebook=notebook, note=note)
        options = job.options
        checker = Checker(options.check_memory_mb, options.check_cpu_seconds, options.check_timeout,
                          options.max_answer_bytes)
        allocation = uids.allocate() if job.sandbox.needs_uid else None
        try:
            if allocation is not None:
                job = dataclasses.replace(job, sandbox=job.sandbox.with_uid(allocation.uid))
            return dataclasses.replace(asyncio.run(run_notebook(job, notify, checker)), written=written,
                                       notebook_sha256=digest)
        finally:
            checker.stop()
            if allocation is not None:
                uids.release(allocation, sweep_files=job.sandbox.sweeps)
    except Exception as error:
        return unusable(f"{GRADER_ERROR}: the grader failed on this submission (not your fault; tell your "
                        f"instructor): {type(error).__name__}: {clip(error, 500)}")
