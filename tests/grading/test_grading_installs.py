"""Bubblewrap works however the course is installed (issue 37): the built wheel in an ordinary
venv (its interpreter a link), in a ``--copies`` venv, straight into a Python installation of
its own (a system or toolcache interpreter), an editable checkout with its venv under
``/usr/local/src`` (issue 52: ``/usr`` is bound whole), and the Gradescope bundle's layout (its
venv, the package private to root, run by its own ``run_autograder``). In each, ``--sandbox auto`` takes
bubblewrap without a word of falling back, and a hostile notebook that reads the library's own
source of a function its set forbids, from wherever the installation keeps it, does not get
that exercise while its honest ones pass; the control, ``--sandbox none``, shows the attack
works where nothing isolates (and the solution beside it keeps full marks). The editable
checkout elsewhere is the other grader tests' layout; an ordinary user's venv is CI's
``.ci/ordinary-user.sh``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

import nbformat
import pytest

from test_grading import FIXTURES, ROOT

pytestmark = [
    pytest.mark.skipif(not shutil.which("bwrap") or os.name != "posix", reason="needs bubblewrap"),
    pytest.mark.sandbox,
]

HOSTILE_EPSILON = (FIXTURES / "installed_jl_epsilon.py").read_text()
SOLUTION = ROOT / "solutions" / "06_random_projections.ipynb"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(ROOT), "-w", str(folder)],
                   check=True, timeout=600, capture_output=True)
    return next(folder.glob("dimred_teach-*.whl"))


@pytest.fixture(scope="module")
def submissions(tmp_path_factory) -> Path:
    """``honest/`` and ``hostile/``, each with a notebook of set 06."""
    folder = tmp_path_factory.mktemp("submissions")
    hostile = nbformat.read(SOLUTION, as_version=4)
    next(
        c for c in hostile.cells if c.cell_type == "code" and c.source.startswith("def epsilon_for")
    ).source = HOSTILE_EPSILON
    for name, notebook in (("honest", nbformat.read(SOLUTION, as_version=4)), ("hostile", hostile)):
        (folder / name).mkdir()
        nbformat.write(notebook, folder / name / "06_random_projections.ipynb")
    return folder


def _run(command: list, env: dict | None = None, timeout: int = 900) -> None:
    """Run a set-up ``command``; where it fails, the error names it and shows its output."""
    done = subprocess.run([str(part) for part in command], env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{command} exited {done.returncode}:\n{done.stdout}{done.stderr}"


def _install(python: Path, wheel: Path, env: dict, *extra: str, editable: bool = False) -> None:
    """The wheel (or, ``editable``, a checkout) and its pinned dependencies into ``python``'s
    environment: with uv from its cache (seconds) when uv is on the PATH, else with the
    environment's own pip, as course.py chooses (CI's stage without uv runs the pip path).
    Neither writes bytecode (uv does not unless asked; pip would spend half its time on it), so
    the kernels start alike either way."""
    uv = shutil.which("uv")
    if uv:
        command = [uv, "pip", "install", "--quiet", "--link-mode", "hardlink", "--python", python, *extra]
    else:
        command = [python, "-m", "pip", "install", "--quiet", "--no-compile"]
    _run([*command, "-c", ROOT / "constraints.txt", *(["-e"] if editable else []), wheel], env)


INTERPRETER = f"python{sys.version_info.major}.{sys.version_info.minor}"
"""The base installation's interpreter by its versioned name, which every installation has (a venv
made with copies names its own ``python``, and Debian's /usr/bin has no ``python``)."""


def _own_python(folder: Path, env: dict) -> tuple[Path, dict]:
    """A Python installation of its own, as a system or toolcache one: the base installation
    of this Python without its packages, found with LD_LIBRARY_PATH (as actions/setup-python
    does), and with pip of its own, bootstrapped offline from the wheel its ``ensurepip``
    bundles (a toolcache Python has pip; without uv, pip is what installs into it). Its
    interpreter and the environment to run it with (``env`` and LD_LIBRARY_PATH)."""
    base = Path(sys.base_prefix)
    if base == Path("/usr"):
        pytest.skip("the own-Python layout copies this Python's base installation, here the system's whole /usr "
                    "(a distribution's python3); a toolcache Python is what the layout stands for")
    with tarfile.open(folder / "python.tar", "w") as archive:
        archive.add(base, ".", filter=lambda info: None if "/site-packages/" in info.name or info.name.endswith(
            "/test") or "/test/" in info.name else info)
    with tarfile.open(folder / "python.tar") as archive:
        # the filter argument came with Python 3.11.4; before, extraction trusts the archive as this one is trusted
        trusted = {"filter": "fully_trusted"} if hasattr(tarfile, "data_filter") else {}
        archive.extractall(folder / "python", **trusted)
    (folder / "python.tar").unlink()
    interpreter = folder / "python" / "bin" / INTERPRETER
    env = {**env, "LD_LIBRARY_PATH": str(folder / "python" / "lib")}
    _run([interpreter, "-m", "ensurepip"], env, timeout=300)
    return interpreter, env


def _clean_environment() -> dict:
    """This process's environment without what points Python at the test run's own packages."""
    return {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}


def _venv(folder: Path, wheel: Path, *options: str) -> Path:
    """``python -m venv [options] folder`` of this Python's base interpreter, the wheel installed;
    the venv's interpreter."""
    base = Path(sys.base_prefix) / "bin" / INTERPRETER
    _run([base, "-m", "venv", *options, folder], timeout=300)
    _install(folder / "bin" / "python", wheel, _clean_environment())
    return folder / "bin" / "python"


def _tracked_copy(course: Path) -> Path:
    """A copy of this checkout's tracked files in ``course`` (as a clone has them, without .git)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (course / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, course / name)
    return course


def _make_package_private(python: Path, env: dict) -> None:
    """The package ``python`` imports made private to root, as the Gradescope bundle's ``setup.sh`` does."""
    where = "import dimred_teach, os; print(os.path.dirname(dimred_teach.__file__))"
    package = subprocess.run([str(python), "-c", where], env=env, cwd="/", capture_output=True, text=True,
                             check=True).stdout.strip()
    _run(["chmod", "-R", "go-rwx", package])


def _checkout(folder: Path) -> Path:
    """A copy of this checkout in ``folder``/course, its own venv inside it with the course
    installed editable (as ``course.py`` makes it); its interpreter."""
    course = _tracked_copy(folder / "course")
    base = Path(sys.base_prefix) / "bin" / INTERPRETER
    _run([base, "-m", "venv", course / ".venv"], timeout=300)
    _install(course / ".venv" / "bin" / "python", course, _clean_environment(), editable=True)
    return course / ".venv" / "bin" / "python"


def _layout(folder: Path, wheel: Path, layout: str) -> dict:
    """The wheel (or a checkout) installed in ``layout``: its interpreter and environment."""
    env = _clean_environment()
    if layout == CHECKOUT_UNDER_USR:
        python = _checkout(folder)
    elif layout == "own Python":
        python, env = _own_python(folder, env)
        _install(python, wheel, env, "--system", "--break-system-packages")
    else:
        python = _venv(folder / "venv", wheel, *layout.split()[1:])
        assert python.is_symlink() == (layout == "venv")
    where = subprocess.run([str(python), "-c", "import dimred_teach; print(dimred_teach.__file__)"], env=env, cwd="/",
                           capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(folder)), where  # the wheel's (or the copy's) package, not this checkout's
    return {"layout": layout, "python": python, "env": env}


@pytest.fixture(scope="module")
def ordinary_venv(wheel, tmp_path_factory) -> dict:
    """``python -m venv v && v/bin/pip install dimred_teach-*.whl``, as most lecturers install."""
    return _layout(tmp_path_factory.mktemp("venv"), wheel, "venv")


CHECKOUT_UNDER_USR = "checkout under /usr/local/src"


@pytest.fixture(scope="module")
def usr_checkout(wheel):
    """A clone of the course with its venv in ``/usr/local/src/<folder>/course``, installed editable."""
    if not os.access("/usr/local/src", os.W_OK):
        pytest.skip("needs a grader that may write to /usr/local/src (root)")
    folder = Path(tempfile.mkdtemp(prefix="dimred-", dir="/usr/local/src"))
    os.chmod(folder, 0o755)  # as /usr/local/src/<course> is
    try:
        yield _layout(folder, wheel, CHECKOUT_UNDER_USR)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module", params=["venv", "venv --copies", "own Python", CHECKOUT_UNDER_USR])
def installed(request, wheel, ordinary_venv, tmp_path_factory) -> dict:
    if request.param == "venv":
        return ordinary_venv
    if request.param == CHECKOUT_UNDER_USR:
        return request.getfixturevalue("usr_checkout")
    return _layout(tmp_path_factory.mktemp("install"), wheel, request.param)


def _grade(installed: dict, submissions: Path, mode: str, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(installed["python"]), "-m", "dimred_teach", "grade", str(submissions), "--out", str(out),
                           "--sandbox", mode, "--jobs", "2", "--timeout", "120", "--cell-timeout", "60"],
                          env=installed["env"], cwd="/", capture_output=True, text=True, timeout=600)


def _scores(out: Path) -> dict[str, tuple[float, str, bool]]:
    """report name -> (score, sandbox, whether 06.epsilon_for passed)."""
    found = {}
    for path in out.glob("*.json"):
        report = json.loads(path.read_text())
        passed = {t["name"]: t["status"] == "passed" for t in report["tests"]}
        found[path.stem] = (report["score"], report["extra_data"]["sandbox"], passed["06.epsilon_for"])
    return found


def test_auto_takes_bubblewrap_and_the_installed_library_stays_hidden(installed, submissions, tmp_path):
    """The hostile notebook in bubblewrap: its honest exercises pass (the kernel works), the
    library's own jl_epsilon is nowhere to be read."""
    run = _grade(installed, submissions / "hostile", "auto", tmp_path / "out")
    assert run.returncode == 1, run.stdout + run.stderr  # the hostile notebook does not pass
    assert "does not" not in run.stderr and "sandbox: bwrap" in run.stdout, run.stdout + run.stderr
    assert _scores(tmp_path / "out") == {"06_random_projections": (5, "bwrap", False)}


@pytest.mark.parametrize("layout", ["ordinary_venv", "usr_checkout"])
def test_the_attack_works_where_nothing_isolates(request, layout, submissions, tmp_path):
    run = _grade(request.getfixturevalue(layout), submissions, "none", tmp_path / "out")
    assert _scores(tmp_path / "out") == {"honest__06_random_projections": (6, "none", True),
                                         "hostile__06_random_projections": (6, "none", True)}, run.stdout + run.stderr


def test_the_gradescope_layout_grades_in_bubblewrap(wheel, submissions, tmp_path):
    """The bundle's run_autograder with its default Python, ``$AUTOGRADER_ROOT/venv`` (made as
    setup.sh makes it: an ordinary venv, the package private to root), and ``--sandbox auto``:
    the instructors' output names bubblewrap."""
    from dimred_teach.cli import main

    root = tmp_path / "autograder"
    assert main(["gradescope", "--out", str(tmp_path / "bundle.zip"), "--sandbox", "auto", "--timeout", "120"]) == 0
    with zipfile.ZipFile(tmp_path / "bundle.zip") as archive:
        archive.extractall(root / "source")
    env = _clean_environment()
    python = _venv(root / "venv", wheel)
    _make_package_private(python, env)
    shutil.copytree(submissions / "hostile", root / "submission")
    run = subprocess.run(["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
                         env={**env, "AUTOGRADER_ROOT": str(root)}, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert ", sandbox bwrap, " in run.stdout and "does not" not in run.stderr, run.stdout + run.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 5, results
    assert [t["status"] for t in results["tests"] if t["name"] == "06.epsilon_for"] == ["failed"], results


@pytest.fixture(scope="module")
def built_in_a_tree():
    """The course as a lecturer may build it: ``pip wheel . -w dist`` in a copy of its sources
    (pip leaves ``build/lib/dimred_teach`` beside ``dist/``, readable by everyone), the wheel
    installed from ``dist/`` into a venv whose package is private to root (as the Gradescope
    bundle's ``setup.sh`` makes it); the venv's ``direct_url.json`` names that wheel."""
    folder = Path(tempfile.mkdtemp(prefix="dimred-tree-", dir="/var/cache"))
    os.chmod(folder, 0o755)
    try:
        course = _tracked_copy(folder / "course")
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", ".", "-w", "dist"], cwd=course,
                       check=True, timeout=600, capture_output=True)
        assert (course / "build" / "lib" / "dimred_teach" / "jl.py").is_file()
        python = _venv(folder / "venv", next((course / "dist").glob("dimred_teach-*.whl")))
        env = _clean_environment()
        _make_package_private(python, env)
        yield {"layout": "wheel built in a tree", "python": python, "env": env, "course": course}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="user mode needs a root grader")


@needs_root
def test_user_mode_hides_what_a_wheel_build_leaves_beside_it(built_in_a_tree, submissions, tmp_path):
    """Issue 52: the tree the wheel was built in, as ``direct_url.json`` names it (its
    ``build/lib`` and ``dist/``, its sources), is empty in a ``user`` kernel's mount namespace:
    the hostile answer no longer gets the library's jl_epsilon from ``build/lib`` (it did), and
    its honest exercises pass."""
    run = _grade(built_in_a_tree, submissions / "hostile", "user", tmp_path / "out")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _scores(tmp_path / "out") == {"06_random_projections": (5, "user", False)}, run.stdout + run.stderr


@needs_root
def test_without_namespaces_user_mode_requires_what_a_wheel_build_leaves_private(built_in_a_tree, submissions,
                                                                                tmp_path):
    """Without mount namespaces nothing hides that tree: the run stops before any kernel with
    one line naming ``build/`` and the fix (the mode as it is taken, without its probe, since the
    check, not the kernels, is under test)."""
    script = ("import sys\nfrom dimred_teach.grading import run_settings\n"
              "from dimred_teach.grading.unprivileged_user import UnprivilegedUser\n"
              "run_settings.choose = lambda name: UnprivilegedUser(private=False)\n"
              "from dimred_teach.cli import main\nsys.exit(main(sys.argv[1:]))")
    run = subprocess.run([str(built_in_a_tree["python"]), "-c", script, "grade", str(submissions / "hostile"),
                          "--out", str(tmp_path / "out"), "--sandbox", "user"], env=built_in_a_tree["env"], cwd="/",
                         capture_output=True, text=True, timeout=600)
    refusal = run.stderr.strip()
    assert run.returncode == 2 and refusal.count("\n") == 0, run.stdout + run.stderr
    build = built_in_a_tree["course"] / "build"
    assert f"{build} is readable by other users" in refusal and f"chmod -R go-rwx {build}" in refusal, refusal
    assert not (tmp_path / "out").exists()
