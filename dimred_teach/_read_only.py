"""Results of the library are frozen dataclasses; this makes their arrays read-only too,
so a result cannot be changed by accident after it is returned (one helper for all modules)."""

from __future__ import annotations

import numpy as np


def read_only(*arrays) -> None:
    """Mark every NumPy array among ``arrays`` read-only; other values (None, sparse
    matrices, numbers) are left alone."""
    for array in arrays:
        if isinstance(array, np.ndarray):
            array.setflags(write=False)
