#!/usr/bin/env bash
# CI stage: the grader as a lecturer without root installs and runs it (issue 37). An ordinary
# user is created, installs the built wheel into an ordinary venv (`python3 -m venv`: the
# interpreter is a link), and grades, with --sandbox bwrap, a solution notebook and a hostile
# one that reads the installed library's own source of a function its set forbids. The
# solution keeps full marks, the hostile notebook loses that exercise, every report names the
# sandbox, and, as the control, the same hostile notebook earns the exercise under
# --sandbox none (so the attack is real). Where an ordinary user cannot have user namespaces
# (and so no bubblewrap), the stage says so on a line of its own and still checks that
# --sandbox bwrap refuses to grade (exit status 2) rather than grading weaker in silence.
# Run from the checkout as root, after the README's test command made .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "ordinary-user: must start as root (to create the user)" >&2; exit 1; }
account=dimred-ci-lecturer
id "$account" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$account"
home=$(getent passwd "$account" | cut -d: -f6)
ci="$home/ci"
rm -rf "$ci"
install -d -o "$account" -m 0755 "$ci" "$ci/submissions" "$ci/submissions/honest" "$ci/submissions/hostile"

# The wheel, built once from the checkout (as `pip install .` would build it).
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
.venv/bin/python -m pip wheel --quiet --no-deps . -w "$wheels"
install -o "$account" -m 0644 "$wheels"/dimred_teach-*.whl constraints.txt "$ci/"
install -o "$account" -m 0644 solutions/06_random_projections.ipynb "$ci/submissions/honest/06_random_projections.ipynb"
install -o "$account" -m 0644 solutions/06_random_projections.ipynb "$ci/hostile-template.ipynb"
install -o "$account" -m 0644 tests/grading/fixtures/installed_jl_epsilon.py "$ci/"

# A login-like environment of the ordinary user: nothing of root's but how this machine reaches
# the package index (proxies, certificates, pip's and uv's settings).
network=()
while IFS= read -r variable; do network+=("$variable"); done < <(env | grep -E \
  '^([A-Za-z_]*_(proxy|PROXY)|SSL_CERT_(FILE|DIR)|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|PIP_[A-Z_]+|UV_[A-Z_]+)=' \
  | grep -v '^UV_CACHE_DIR=' || true)
as_user() {
  runuser -u "$account" -- env -i HOME="$home" USER="$account" LOGNAME="$account" LANG=C.UTF-8 \
    PATH="$ci/bin:/usr/local/bin:/usr/bin:/bin" "${network[@]}" "$@"
}

# The Python: CI's own (the one the constraints were made for); when it lies where the user
# cannot reach it (pyenv's, under /root), a copy of its installation, without its packages, in
# /opt, found with LD_LIBRARY_PATH as actions/setup-python's toolcache Pythons are.
python=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')
if ! as_user "$python" -c pass 2>/dev/null; then
  base=$(python3 -c 'import sys; print(sys.base_prefix)')
  copy=/opt/dimred-ci-python
  rm -rf "$copy" && mkdir -p "$copy"
  tar -C "$base" --exclude='./lib/python3*/site-packages/*' --exclude='./lib/python3*/test' -cf - . | tar -C "$copy" -xf -
  chmod -R a+rX "$copy"
  python="$copy/bin/$(basename "$python")"
  network+=("LD_LIBRARY_PATH=$copy/lib")
fi
as_user "$python" -c 'import sys; print("ordinary-user: Python", sys.version.split()[0], "at", sys.executable)'
# The install, as the user: an ordinary venv and the pinned versions (uv, when CI has it, with
# the user's own cache; pip otherwise).
as_user "$python" -m venv "$ci/venv"
if command -v uv >/dev/null 2>&1; then
  install -d -o "$account" "$ci/bin" && install -o "$account" -m 0755 "$(command -v uv)" "$ci/bin/uv"
  as_user uv pip install --quiet --python "$ci/venv/bin/python" -c "$ci/constraints.txt" "$ci"/dimred_teach-*.whl
else
  as_user "$ci/venv/bin/pip" install --quiet -c "$ci/constraints.txt" "$ci"/dimred_teach-*.whl
fi
echo "ordinary-user: installed in $SECONDS s"
[ -L "$ci/venv/bin/python" ] || { echo "ordinary-user: the venv's interpreter is not a link" >&2; exit 1; }

# The hostile notebook: epsilon_for is the library's own jl_epsilon, read from wherever the
# installation keeps it (tests/grading/fixtures/installed_jl_epsilon.py).
as_user "$ci/venv/bin/python" - "$ci" <<'EOF'
import sys
import nbformat
ci = sys.argv[1]
notebook = nbformat.read(f"{ci}/hostile-template.ipynb", as_version=4)
cell = next(c for c in notebook.cells if c.cell_type == "code" and c.source.startswith("def epsilon_for"))
cell.source = open(f"{ci}/installed_jl_epsilon.py").read()
nbformat.write(notebook, f"{ci}/submissions/hostile/06_random_projections.ipynb")
EOF

# Scores of a run's reports: "name score/max sandbox epsilon_for-passed", one line per report.
scores() {
  as_user "$ci/venv/bin/python" -c '
import json, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    report = json.loads(path.read_text())
    passed = {t["name"]: t["status"] == "passed" for t in report["tests"]}
    score = "{score:g}/{max_score:g}".format(**report)
    print(path.stem, score, report["extra_data"]["sandbox"], "epsilon_for" if passed.get("06.epsilon_for") else "-")' "$1"
}
expect() {  # expect OUT EXPECTED-LINES
  local found
  found=$(scores "$1")
  echo "$found"
  [ "$found" = "$2" ] || { printf 'ordinary-user: expected\n%s\n' "$2" >&2; exit 1; }
}

echo "ordinary-user: kernel.unprivileged_userns_clone=$(cat /proc/sys/kernel/unprivileged_userns_clone 2>/dev/null || echo absent)" \
  "user.max_user_namespaces=$(cat /proc/sys/user/max_user_namespaces 2>/dev/null || echo absent)" \
  "kernel.apparmor_restrict_unprivileged_userns=$(cat /proc/sys/kernel/apparmor_restrict_unprivileged_userns 2>/dev/null || echo absent)"
grade() {  # grade MODE OUT [NOTEBOOK]: the exit status is the grader's
  as_user "$ci/venv/bin/dimred-teach" grade "${3:-$ci/submissions}" --out "$1" --sandbox "$2" --jobs 2 \
    --timeout 120 --cell-timeout 60
}
set +e
grade "$ci/out-bwrap" bwrap
status=$?
set -e
if as_user bwrap --unshare-user --unshare-pid --ro-bind / / true 2>/dev/null; then
  # the solution passes, the hostile notebook fails (exit status 1) and loses epsilon_for only
  [ "$status" -eq 1 ] || { echo "ordinary-user: grade --sandbox bwrap exited $status, expected 1" >&2; exit 1; }
  expect "$ci/out-bwrap" "honest__06_random_projections 6/6 bwrap epsilon_for
hostile__06_random_projections 5/6 bwrap -"
else
  echo "ordinary-user: NOT TESTED HERE: this machine gives an ordinary user no user namespaces, so bubblewrap" \
       "cannot run for $account; checking only that --sandbox bwrap refuses to grade (exit status 2)"
  [ "$status" -eq 2 ] || { echo "ordinary-user: grade --sandbox bwrap exited $status, expected 2" >&2; exit 1; }
fi
# The control: nothing isolates the kernel, and the hostile notebook earns epsilon_for.
set +e
grade "$ci/out-none" none "$ci/submissions/hostile/06_random_projections.ipynb"
set -e
expect "$ci/out-none" "06_random_projections 6/6 none epsilon_for"
echo "ordinary-user: held ($SECONDS s)"
