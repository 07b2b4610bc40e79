"""The environment every course kernel runs in (the executed notebooks and the grader's
kernels alike): one BLAS thread, and the inline figure backend."""

from __future__ import annotations

import os

__all__ = ["PINNED_THREADS", "UNSET_FOR_KERNELS", "pinned_environment"]

PINNED_THREADS = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "VECLIB_MAXIMUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
}
"""One BLAS thread: results then do not depend on the machine's core count."""

UNSET_FOR_KERNELS = ("MPLBACKEND",)
"""Variables a kernel must not inherit: the stored figures come from the inline backend."""


def pinned_environment(base: dict | None = None) -> dict:
    """A copy of the environment with BLAS threads pinned and the kernels' inline backend kept."""
    env = dict(os.environ if base is None else base)
    env.update(PINNED_THREADS)
    for name in UNSET_FOR_KERNELS:
        env.pop(name, None)
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    return env
