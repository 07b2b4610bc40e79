"""``dimred-teach execute`` starts its kernels over Unix sockets, as the course's JupyterLab
does: no TCP port, and no "Kernel is running over TCP without encryption" warning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dimred_teach.course.execution import ipc_kernels


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
