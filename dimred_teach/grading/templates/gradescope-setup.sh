#!/usr/bin/env bash
# Gradescope runs this once, as root, when the autograder image is built (written by
# `dimred-teach gradescope`). It installs bubblewrap (the grader's sandbox), a virtual
# environment with the pinned requirements, and the course package from course/, private to root.
# Choose a Gradescope base image with Python 3.11 or newer (or set PYTHON).
set -euo pipefail
cd "$(dirname "$0")"
if command -v apt-get >/dev/null; then
    apt-get update -q && apt-get install -y -q --no-install-recommends bubblewrap util-linux python3-venv || true
fi
PYTHON="${PYTHON:-python3}"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "dimred-teach needs Python >= 3.11" >&2; exit 1; }
"$PYTHON" -m venv "${AUTOGRADER_ROOT:-/autograder}/venv"
VENV_PIP="${AUTOGRADER_ROOT:-/autograder}/venv/bin/pip"
"$VENV_PIP" install -q -r requirements.txt
"$VENV_PIP" install -q --no-deps ./course
# The course's own files private to root: a kernel running as another user (--sandbox user,
# where the container has no user namespaces) can then read neither the checks nor what an
# exercise set forbids; the grader shows each kernel only its set's copy of the library.
PACKAGE=$("${AUTOGRADER_ROOT:-/autograder}/venv/bin/python" -c 'import dimred_teach, os; print(os.path.dirname(dimred_teach.__file__))')
chmod -R go-rwx "$PACKAGE" ./course
