"""Set up and run the course from a clean clone, with nothing but Python and pip.

    python course.py lab     install into .venv and open the course in JupyterLab
    python course.py test    install into .venv (with the test extra) and run every test

Both create ``.venv`` on first use and install the package with the pinned versions in
``constraints.txt``, so every student and every CI run gets the same library versions and
hence the same printed digits.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PINNED_THREADS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                  "VECLIB_MAXIMUM_THREADS": "1", "NUMEXPR_NUM_THREADS": "1"}


def run(*command: str | Path, env: dict | None = None) -> None:
    print("+", " ".join(str(part) for part in command), flush=True)
    subprocess.run([str(part) for part in command], cwd=ROOT, env=env, check=True)


def install(extra: str) -> None:
    if not (BIN / "python").exists() and not (BIN / "python.exe").exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{extra}]" if extra else "."
    run(BIN / "python", "-m", "pip", "install", "--quiet", "-c", "constraints.txt", "-e", target)


def headless() -> bool:
    return sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("lab", "test"):
        print(__doc__, file=sys.stderr)
        return 2
    env = dict(os.environ, **PINNED_THREADS)
    try:
        if argv[0] == "lab":
            install("")
            options = ["--no-browser", "--ip=127.0.0.1"] if headless() else []
            if hasattr(os, "geteuid") and os.geteuid() == 0:
                options.append("--allow-root")  # containers and cloud shells often run as root
            if options:
                print("No screen here: JupyterLab serves on localhost; open the URL it prints below.", flush=True)
            run(BIN / "jupyter", "lab", *options, env=env)
        else:
            install("test")
            run(BIN / "dimred-teach", "build", "--check", env=env)
            run(BIN / "python", "-m", "pytest", env=env)
    except subprocess.CalledProcessError as error:
        return error.returncode or 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
