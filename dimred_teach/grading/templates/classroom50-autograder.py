"""The Classroom 50 autograder of a dimred-teach assignment: exercise sets __SETS__.

Written by `dimred-teach classroom50`; it lives in the organisation's classroom50 repository at
CLASSROOM/autograders/ASSIGNMENT/autograder.py, beside the course's constraints.txt. Classroom
50's runner runs it once per submission, with the student's checkout as its working directory
and the submission's identity in its environment. It

1. takes the course's grader, pinned by the lecturer (GRADER below): as it is, when the Python
   running this file was installed with it (a runtime image, a self-hosted runner); otherwise
   it installs it into a virtual environment of its own, outside the student's files, with the
   course's constraints.txt (with uv when uv is on the PATH, else with pip), and makes the
   installed package readable by its own user only;
2. lets bubblewrap, the grader's sandbox, create user namespaces where AppArmor forbids it
   (GitHub's Ubuntu runners: sudo lifts the restriction; a container run as root grades with
   the grader's `user` sandbox instead);
3. grades the notebooks in exercises/ (`python -m dimred_teach.grading.classroom`), which
   writes result.json and release-body.md there.

Exit status 0 once graded (failed exercises are in result.json); non-zero only when grading
could not run (the runner then records an infrastructure error, not a score). It runs isolated
(-I), as every Python it starts: the working directory, the student's checkout, holds a copy of
the library and could hold a venv.py or a pip/, and Python would otherwise import them first.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

GRADER = __GRADER__
SETS = __SETS_LIST__
HERE = Path(__file__).resolve().parent
APPARMOR_USERNS = Path("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")


def installed_source():
    """Where this Python's dimred-teach was installed from, as pip names a source
    (git+URL@REF, or an archive's URL); None when it has none or it was not recorded."""
    try:
        record = metadata.distribution("dimred-teach").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    info = json.loads(record or "{}")
    vcs = info.get("vcs_info")
    return f"git+{info.get('url')}@{vcs.get('requested_revision')}" if vcs else info.get("url")


def install():
    """A new virtual environment outside the checkout with the pinned grader; its Python. The
    installers run in that folder, and uv without configuration files: the checkout's
    pyproject.toml could name another package index."""
    folder = Path(tempfile.mkdtemp(prefix="dimred-grader-", dir=os.environ.get("RUNNER_TEMP") or None))
    folder.chmod(0o755)  # a `user` kernel runs this Python as another user

    def run(*command):
        return subprocess.run(command, cwd=folder, check=True, capture_output=True, text=True).stdout.strip()

    run(sys.executable, "-I", "-m", "venv", str(folder / "venv"))
    python = str(folder / "venv" / "bin" / "python")
    requirement = ["-c", str(HERE / "constraints.txt"), f"dimred-teach @ {GRADER}"]
    uv = shutil.which("uv")
    if uv:
        run(uv, "pip", "install", "--no-config", "--quiet", "--compile-bytecode", "--python", python, *requirement)
    else:
        run(python, "-I", "-m", "pip", "install", "--quiet", *requirement)
    package = run(python, "-I", "-c", "import dimred_teach, os; print(os.path.dirname(dimred_teach.__file__))")
    for place, folders, names in os.walk(package):  # the checks and what each set forbids: no kernel reads them
        for name in folders:
            os.chmod(os.path.join(place, name), 0o700)
        for name in names:
            os.chmod(os.path.join(place, name), 0o600)
    os.chmod(package, 0o700)
    return python


def allow_user_namespaces():
    """Lift AppArmor's restriction on unprivileged user namespaces (Ubuntu 24.04) when it is on
    and sudo works without a password, as on GitHub's hosted runners."""
    if os.geteuid() != 0 and APPARMOR_USERNS.is_file() and APPARMOR_USERNS.read_text().strip() == "1":
        if shutil.which("sudo"):
            subprocess.run(["sudo", "-n", "sysctl", "-q", "-w", "kernel.apparmor_restrict_unprivileged_userns=0"],
                           check=False)


def main():
    try:
        if installed_source() == GRADER:
            python = sys.executable
            print(f"autograder: the grader of this Python ({GRADER})", flush=True)
        else:
            print(f"autograder: installing the grader {GRADER}", flush=True)
            python = install()
    except subprocess.CalledProcessError as error:
        print(f"::error::the grader could not be installed from {GRADER}: {error}\n{error.stderr}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as error:
        print(f"::error::the grader could not be installed from {GRADER}: {error}", file=sys.stderr)
        return 2
    allow_user_namespaces()
    return subprocess.run([python, "-I", "-m", "dimred_teach.grading.classroom", "--set", ",".join(SETS)]).returncode


if __name__ == "__main__":
    if not sys.flags.isolated:  # what it finds installed is then what the isolated grading run imports
        os.execv(sys.executable, [sys.executable, "-I", *sys.argv])
    sys.exit(main())
