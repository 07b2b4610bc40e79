"""Writing a command's output file: never over an existing file unless asked."""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["write_new_file"]


def write_new_file(path: Path, data: bytes | str, force: bool) -> int:
    """Write ``data`` to ``path`` unless it exists (exit status 2) and ``force`` is not set."""
    if path.exists() and not force:
        print(f"error: {path} exists (use --force to overwrite)", file=sys.stderr)
        return 2
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data) if isinstance(data, bytes) else path.write_text(data)
    print(f"wrote {path}")
    return 0
