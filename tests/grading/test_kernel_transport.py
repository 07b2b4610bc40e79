"""``dimred-teach execute`` starts its kernels over Unix sockets, as the course's JupyterLab
does: no TCP port, and no "Kernel is running over TCP without encryption" warning; and the
grader's kernel start (``submission_worker.wait_until_ready``) asks again at once when the
first request's status is lost, and fails when the kernel dies or never answers."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from queue import Empty

import pytest

from dimred_teach.course.execution import ipc_kernels
from dimred_teach.grading.submission_worker import wait_until_ready


def test_execute_talks_to_its_kernel_over_unix_sockets(tmp_path):
    source = tmp_path / "tiny.py"
    source.write_text("# %%\nprint(1 + 1)\n")
    run = subprocess.run([sys.executable, "-m", "dimred_teach", "execute", str(source)],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "without encryption" not in run.stderr + run.stdout
    assert "TCP" not in run.stderr, run.stderr
    assert (tmp_path / "tiny.ipynb").is_file()


def test_each_execution_gets_its_own_absolute_socket_path():
    first, second = ipc_kernels(), ipc_kernels()
    assert first.KernelManager.transport == "ipc"
    assert Path(first.KernelManager.ip).is_absolute() and first.KernelManager.ip != second.KernelManager.ip


class _Channel:
    """A kernel channel's ``get_msg``: the next message, else Empty after ``timeout`` seconds."""

    def __init__(self):
        self.messages = deque()

    def get_msg(self, timeout):
        if self.messages:
            return self.messages.popleft()
        time.sleep(timeout)
        raise Empty


class _Kernel:
    """A kernel as a client and its manager see it: it answers every ``kernel_info`` request on
    the shell channel (when ``answers``), and publishes each one's "busy" and "idle" status on
    the output channel but for the first ``lost`` (sent before the subscription reached it)."""

    def __init__(self, lost: int, answers: bool = True, alive: bool = True):
        self.shell_channel, self.iopub_channel = _Channel(), _Channel()
        self.lost, self.answers, self.alive, self.requests = lost, answers, alive, []

    def kernel_info(self) -> str:
        request = f"request-{len(self.requests)}"
        self.requests.append(request)
        if self.answers:
            self.shell_channel.messages.append({"parent_header": {"msg_id": request}, "msg_type": "kernel_info_reply"})
        if self.answers and len(self.requests) > self.lost:
            for state in ("busy", "idle"):
                self.iopub_channel.messages.append({"parent_header": {"msg_id": request}, "msg_type": "status",
                                                    "content": {"execution_state": state}})
        return request

    def is_alive(self) -> bool:
        return self.alive


@pytest.mark.parametrize("lost", [0, 1, 3])
def test_a_kernel_start_asks_again_when_a_status_is_lost(lost):
    kernel = _Kernel(lost)
    started = time.monotonic()
    asyncio.run(wait_until_ready(kernel, kernel, timeout=30))
    assert len(kernel.requests) == lost + 1
    assert time.monotonic() - started < 0.25 + 0.05 * lost  # not the 0.5 s per lost status it once waited


def test_a_kernel_start_fails_when_the_kernel_dies_or_never_answers():
    with pytest.raises(RuntimeError, match="died"):
        asyncio.run(wait_until_ready(*[_Kernel(0, answers=False, alive=False)] * 2, timeout=30))
    started = time.monotonic()
    with pytest.raises(RuntimeError, match="didn't respond in 2 seconds"):
        asyncio.run(wait_until_ready(*[_Kernel(0, answers=False)] * 2, timeout=2))
    assert time.monotonic() - started < 4
