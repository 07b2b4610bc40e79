"""Starts a grading kernel under resource limits (run as a script by the kernel's argv).

Usage: ``python kernel_launcher.py MEMORY_BYTES FILE_BYTES CPU_SECONDS PROCESSES OPEN_FILES
-f CONNECTION_FILE`` (``PROCESSES`` 0: not limited). The limits (address space, size of one
file, CPU time, processes and threads of the kernel's user, open files, no core dumps, no
POSIX message queues) are set before ipykernel starts and are inherited by every process it
starts, so nothing the notebook runs escapes them (a process may only lower its hard limits).
Standard library only until the kernel starts.
"""

import resource
import sys


def _limit(kind: int, soft: int, hard: int) -> None:
    """Lower a limit (never raise one above the current hard limit)."""
    try:
        old_soft, old_hard = resource.getrlimit(kind)
        if old_hard != resource.RLIM_INFINITY:
            soft, hard = min(soft, old_hard), min(hard, old_hard)
        resource.setrlimit(kind, (soft, hard))
    except (ValueError, OSError):
        pass


def main() -> None:
    memory, file_size, cpu, processes, open_files = (int(value) for value in sys.argv[1:6])
    del sys.argv[1:6]
    sys.path.pop(0)  # this script's folder: not a place to import from
    _limit(resource.RLIMIT_AS, memory, memory)
    _limit(resource.RLIMIT_FSIZE, file_size, file_size)
    _limit(resource.RLIMIT_CPU, cpu, cpu + 10)
    _limit(resource.RLIMIT_CORE, 0, 0)
    _limit(resource.RLIMIT_NOFILE, open_files, open_files)
    _limit(resource.RLIMIT_MSGQUEUE, 0, 0)  # no POSIX message queue (a channel that outlives the kernel)
    if processes:
        _limit(resource.RLIMIT_NPROC, processes, processes)
    # No debugger: the grader sends no debug request, and importing debugpy (which ipykernel
    # does when it can) costs every grading kernel about 0.1 s of CPU. The notebook itself may
    # still import debugpy once the kernel is set up.
    sys.modules["debugpy"] = None
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    app.initialize()
    del sys.modules["debugpy"]
    app.start()


if __name__ == "__main__":
    main()
