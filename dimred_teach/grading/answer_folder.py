"""The answer folder: where the kernel writes its answers, opened once and used without following links.

The kernel writes each answer and function result as a file of the plain-data format
(:mod:`.plain_data`); the worker reads it right after the cell that wrote it (a regular file of
bounded size, opened without following links) and hands the bytes on, undecoded, to the
checks process (:mod:`.checker`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class AnswerFolder:
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
