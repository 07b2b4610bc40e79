"""Helpers shared by the browser tests and their fixtures."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_course_script():
    """course.py (the student's entry point) as a module."""
    spec = importlib.util.spec_from_file_location("course_script", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def git(*args: str, cwd: Path) -> str:
    """Run git in ``cwd`` with a fixed identity; returns its output."""
    command = ["git", "-c", "user.name=Course Tests", "-c", "user.email=tests@example.invalid",
               "-c", "init.defaultBranch=main", *args]
    return subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True).stdout
