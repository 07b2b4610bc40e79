#!/usr/bin/env bash
# The README calls uv optional, and a uv on the PATH would hide what only pip does (issue 54): in
# a fresh clone, with no uv on the PATH, course.py makes .venv with pip and resolves the test
# extra with pip, and the install test whose layout starts without pip (a Python of its own,
# which bootstraps pip with ensurepip) runs. About 100 s of CPU, most of it pip's, on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
python=$(python3 -c 'import sys; print(sys.executable)')
PATH=$(IFS=:; for dir in $PATH; do [ -x "$dir/uv" ] || printf '%s:' "$dir"; done)
PATH=${PATH%:}  # a trailing colon would put the working folder on the PATH
if command -v uv; then echo "uv is still on the PATH" >&2; exit 1; fi
clone=$(mktemp -d)
trap 'rm -rf "$clone"' EXIT
git clone --quiet "$PWD" "$clone/course"
cd "$clone/course"
install_test=test_auto_takes_bubblewrap_and_the_installed_library_stays_hidden
"$python" course.py test "tests/grading/test_grading_installs.py::$install_test[own Python]"
