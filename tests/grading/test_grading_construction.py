"""The grader's guarantees hold by construction (issue 21), in both sandbox modes a root
grader can use: ``bwrap`` and ``user`` (what a Gradescope container gets).

Each mode grades ONE parallel run (``jobs=4``) of attacks beside honest notebooks: every
honest notebook keeps full marks, no attack earns a point it did not earn honestly, every
submission gets a report, and nothing is left on disk or running. Where an attack could
succeed in principle, a control run under ``--sandbox none`` (nothing isolated) shows that
it does there, so a passing test here is not an attack that never worked.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import pytest

import dimred_teach
from checkout_lock import checkout_permissions_changing
from dimred_teach.exercise_specs import SPECS_DIR
from dimred_teach.grading import grade, installation, mounts, readable_to_kernels, sandbox_modes, settle_run, uids
from dimred_teach.grading.installation import UNREACHABLE, secret_folders
from dimred_teach.grading.sandbox import SandboxUnavailable
from dimred_teach.grading.sandbox_modes import choose
from dimred_teach.grading.unprivileged_user import UnprivilegedUser
from test_grading import (
    FIXTURES,
    ROOT,
    _answered,
    _code,
    _insert_after,
    fixture_set,  # noqa: F401  (a fixture this module uses too)
)

PACKAGE = Path(dimred_teach.__file__).resolve().parent
ROOT_ONLY = os.name == "posix" and os.geteuid() == 0
pytestmark = [
    pytest.mark.skipif(not ROOT_ONLY, reason="both sandbox modes with their own user ids need a root grader"),
    pytest.mark.sandbox,
    pytest.mark.slow(seconds=300),
]

# Every way a notebook can reach the library's own jl_epsilon besides calling it: its closure, the
# garbage collector, the module's source or compiled file wherever Python or the installation says
# it is, a fresh import, an exec in the module's namespace. The answer to 06.epsilon_for is right
# only if one works.
BYPASS = f'''
import gc, glob, importlib, importlib.util, marshal, sys, types
import dimred_teach.jl as jl

def _routes():
    stub = jl.jl_epsilon
    yield lambda: [c.cell_contents for c in (stub.__closure__ or ())][0]
    yield from (lambda o=o: o for o in gc.get_objects()
                if isinstance(o, types.FunctionType) and o.__name__ == "jl_epsilon" and o is not stub)
    sources = {{jl.__file__, importlib.util.find_spec("dimred_teach.jl").origin, {str(PACKAGE / "jl.py")!r}}}
    for finder in [m for n, m in sys.modules.items() if "editable" in n]:
        sources |= {{p + "/jl.py" for p in getattr(finder, "MAPPING", {{}}).values()}}
    for source in sources:
        def run(source=source):
            namespace = {{"__name__": "dimred_teach.jl", "__package__": "dimred_teach"}}
            exec(compile(open(source).read(), source, "exec"), namespace)
            return namespace["jl_epsilon"]
        yield run
    for compiled in glob.glob({str(PACKAGE / "__pycache__" / "jl*.pyc")!r}):
        def run(compiled=compiled):
            namespace = {{"__name__": "dimred_teach.jl", "__package__": "dimred_teach"}}
            exec(marshal.loads(open(compiled, "rb").read()[16:]), namespace)
            return namespace["jl_epsilon"]
        yield run
    yield lambda: importlib.reload(jl).jl_epsilon
    sys.meta_path[:] = [f for f in sys.meta_path if "Forbidden" not in type(f).__name__]
    yield lambda: importlib.import_module("dimred_teach.jl").jl_epsilon

def epsilon_for(n, q, delta):
    for route in _routes():
        try:
            return route()(n, q, delta)
        except Exception:
            continue
    return -1
'''

READ_SOLUTIONS = f'''
for _path in ({str(ROOT / "solutions" / "04_mds.py")!r}, {str(ROOT / "tests" / "check_cases" / "set04.py")!r}):
    try:
        exec(compile(open(_path).read(), _path, "exec"), globals())
    except Exception:
        pass
'''

# the solutions from the checkout's git repository (a clone's .git, or a worktree's common folder
# elsewhere: issue 52), as a user who is not the repository's owner may read it
READ_GIT = f'''
import subprocess
try:
    _text = subprocess.run(["git", "-c", "safe.directory=*", "-C", {str(ROOT)!r}, "show", "HEAD:solutions/04_mds.py"],
                           capture_output=True, text=True, timeout=60).stdout
    exec(compile(_text, "solution", "exec"), globals())
except Exception:
    pass
'''

CRAFTED = """
import pickle, struct, sys
_helper = next(m for n, m in sys.modules.items() if n.startswith("_dimred_grader_") and not n.endswith("_setup"))
_channel = next(c.cell_contents for c in _helper.capture.__closure__ if isinstance(c.cell_contents, str))
def _bomb():
    data = b"\\x80\\x04]\\x94"
    for _ in range(60):
        data += b"h\\x00h\\x00\\x86\\x94"
    return data + b"."
def _wire(header, blobs=()):
    import json
    text = json.dumps(header).encode()
    return b"DRT1" + struct.pack("<II", len(text), len(blobs)) + text + b"".join(struct.pack("<Q", len(b)) for b in blobs)
_crafted = {"99.column_means": _bomb(),
            "99.unit_vector": _wire({"t": ["value", {"a": ["<f8", [10**6, 10**6], 0]}]}, [b""]),
            "99.norm_of_means": b"DRT1" + struct.pack("<II", 600000, 0) + b'{"l":[' * 100000}
_original = _helper.capture
def _capture(exercise_id, answer):
    import os
    if exercise_id not in _crafted:
        return _original(exercise_id, answer)
    with open(os.path.join(_channel, exercise_id + ".answer"), "wb") as file:
        file.write(_crafted.get(exercise_id, b""))
_helper.capture = _capture
"""  # noqa: E501  (a kernel's source, kept as the kernel runs it)

HOG = '''
import os
_held = []
def _fill(path, megabytes):
    try:
        with open(path, "wb") as file:
            for _ in range(megabytes):
                file.write(b"x" * 2**20)
                file.flush()
    except OSError:
        return False
    return True
for _place in (".", "/tmp", "/dev/shm", "/var/tmp"):
    try:
        _file = open(os.path.join(_place, "dimred-hog"), "wb")
        os.unlink(os.path.join(_place, "dimred-hog"))
        _held.append(_file)
        for _ in range(24):
            _file.write(b"y" * 2**20)
            _file.flush()
    except OSError:
        pass
    _fill(os.path.join(_place, "dimred-hog-kept"), 8)
import time
time.sleep(2)
'''

DEEP_TREE = '''
import os
_path = "tree"
for _ in range(1500):
    os.mkdir(_path)
    _path = os.path.join(_path, "d")
'''

SNOOP = '''
import glob, os, time
stolen = []
end = time.time() + 8
while time.time() < end and not stolen:
    boxes = set()
    for cmdline in glob.glob("/proc/*/cmdline"):
        try:
            words = open(cmdline, "rb").read().split(b"\\0")
        except OSError:
            continue
        boxes |= {w.decode(errors="replace") for w in words if b"dimred-grade-" in w}
    for word in boxes:
        root = word.split("/box")[0]
        for path in glob.glob(root + "/box/*") + glob.glob(root + "/box/*/*") + glob.glob(root + "/*"):
            if os.getcwd().startswith(root):
                continue
            try:
                if os.path.isfile(path):
                    stolen.append(open(path, "rb").read(100))
                else:
                    stolen += os.listdir(path)
            except OSError:
                pass
    time.sleep(0.2)
worked = bool(stolen)
'''


OTHER_VIEW = '''
import os, time
from pathlib import Path
worked = False
end = time.time() + 10
while time.time() < end and not worked:  # set 04's view exists once a set-04 kernel of the run started
    for folder in Path(os.environ.get("PYTHONPATH", "/")).parents:
        try:
            worked = worked or bool(open(folder / "views" / "04_mds" / "dimred_teach" / "__init__.py").read(10))
        except OSError:
            pass
    time.sleep(0.2)
'''

CLASSMATES = '''
import glob, os, time
def _look():
    found = []
    try:
        found.append(open(CLASSMATE, "rb").read(100))
    except OSError:
        pass
    for folder in (os.path.dirname(CLASSMATE), OUT, *glob.glob(OUT + "/.*"), *glob.glob(OUT + "/*")):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        found += [name for name in names if name.endswith((".json", ".ipynb", ".xml", ".md", ".csv"))]
        for name in names:
            try:
                found.append(open(os.path.join(folder, name), "rb").read(100))
            except OSError:
                pass
    for fd in os.listdir("/proc/self/fd"):  # a folder of the grader's left open to the kernel
        try:
            if ".grading-" in os.readlink("/proc/self/fd/" + fd):
                found.append(fd)
        except OSError:
            pass
    return found
stolen = []
end = time.time() + 8
while time.time() < end and not stolen:  # earlier reports appear while this kernel runs
    stolen = _look()
    time.sleep(0.2)
worked = bool(stolen)
'''

LEAVES_IPC_KEY = 0x64726D37
LEAVES = '''
import ctypes, os
_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmget(0x64726D37, 2**20, 0o1000 | 0o666)  # IPC_CREAT, readable and writable by every later kernel
_libc.msgget(0x64726D38, 0o1000 | 0o666)
try:
    _rt = ctypes.CDLL("librt.so.1", use_errno=True)
    _rt.mq_open(b"/dimred-leaves", os.O_CREAT | os.O_RDWR, 0o666, None)
except OSError:
    pass
for _place in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", OPEN_FOLDER):
    try:
        with open(os.path.join(_place, "dimred-left-" + str(os.getpid())), "w") as _file:
            _file.write("for the next kernel")
    except OSError:
        pass
'''


def _save(notebook, folder: Path, name: str) -> str:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return os.fspath(path)


def _solution(name: str):
    return nbformat.read(ROOT / "solutions" / f"{name}.ipynb", as_version=4)


def _before_checks(notebook, source: str):
    """``source`` as a code cell before every check cell of ``notebook``."""
    cells = []
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.lstrip().startswith("check("):
            cells.append(nbformat.v4.new_code_cell(source))
        cells.append(cell)
    notebook.cells = cells
    return notebook


def _class(fixture_set, folder: Path, open_folder: Path = Path("/var/tmp")) -> dict[str, str]:
    """Every attack and the honest notebooks beside them: name -> path (``open_folder``: a
    world-writable folder of no fixed list, for an attack to leave a file in)."""
    fs = fixture_set
    paths = {"honest_99": _save(_answered(fs), folder, "alice/99_grading_fixture.ipynb"),
             "honest_04": _save(_solution("04_mds"), folder, "bob/04_mds.ipynb"),
             "honest_06": _save(_solution("06_random_projections"), folder, "carol/06_random_projections.ipynb")}
    bypass = _solution("06_random_projections")
    _code(bypass, "def epsilon_for").source = BYPASS
    paths["bypass_06"] = _save(bypass, folder, "mallory/06_random_projections.ipynb")
    blank = nbformat.read(ROOT / "exercises" / "04_mds.ipynb", as_version=4)
    paths["reads_solutions_04"] = _save(_before_checks(blank, READ_SOLUTIONS), folder, "eve/04_mds.ipynb")
    blank = nbformat.read(ROOT / "exercises" / "04_mds.ipynb", as_version=4)
    paths["reads_git_04"] = _save(_before_checks(blank, READ_GIT), folder, "gary/04_mds.ipynb")
    helper = _solution("04_mds")
    _code(helper, "B =").source = ("from dimred_teach.linalg import center_rows_and_columns\n"
                                   "B = center_rows_and_columns(-0.5 * D2)")
    paths["center_helper_04"] = _save(helper, folder, "trent/04_mds.ipynb")
    paths["crafted_answers_99"] = _save(_insert_after(_answered(fs), "import numpy", CRAFTED), folder,
                                        "oscar/99_grading_fixture.ipynb")
    paths["hog_99"] = _save(_insert_after(_answered(fs), "import numpy", HOG), folder, "peggy/99_grading_fixture.ipynb")
    paths["deep_tree_99"] = _save(_insert_after(_answered(fs), "import numpy", DEEP_TREE), folder,
                                  "walter/99_grading_fixture.ipynb")
    snoop = _answered(fs)
    _code(snoop, "# BEGIN").source = SNOOP + "\nw = np.array([2.0, 0.0, 0.0]) if worked else np.array([1.0, 0.0, 0.0])"
    paths["snoops_neighbours_99"] = _save(snoop, folder, "sybil/99_grading_fixture.ipynb")
    other_view = _answered(fs)
    _code(other_view, "# BEGIN").source = (
        OTHER_VIEW + "\nw = np.array([2.0, 0.0, 0.0]) if worked else np.array([1.0, 0.0, 0.0])"
    )
    paths["reads_another_sets_view_99"] = _save(other_view, folder, "ivan/99_grading_fixture.ipynb")
    leaves = LEAVES.replace("OPEN_FOLDER", repr(str(open_folder)))
    paths["leaves_ipc_and_files_99"] = _save(_insert_after(_answered(fs), "import numpy", leaves), folder,
                                             "victor/99_grading_fixture.ipynb")
    own_python = _answered(fs)  # "worked": the kernel runs another installation's standard library than the grader's
    _code(own_python, "# BEGIN").source = (f"import os\nworked = os.__file__ != {os.__file__!r}\n"
                                           "w = np.array([2.0, 0.0, 0.0]) if worked else np.array([1.0, 0.0, 0.0])")
    paths["runs_the_graders_python_99"] = _save(own_python, folder, "ursula/99_grading_fixture.ipynb")
    classmates = _answered(fs)  # last: graded when classmates' reports exist
    _code(classmates, "# BEGIN").source = (
        f"CLASSMATE, OUT = {paths['honest_99']!r}, {str(folder / 'reports')!r}\n" + CLASSMATES
        + "\nw = np.array([2.0, 0.0, 0.0]) if worked else np.array([1.0, 0.0, 0.0])")
    paths["reads_classmates_99"] = _save(classmates, folder, "yves/99_grading_fixture.ipynb")
    return paths


@contextlib.contextmanager
def _course_private(private: bool = True):
    """The checkout's own files unreadable for other users (root keeps reading them), as a
    Gradescope bundle installs the course; the virtual environment stays usable. With
    ``private`` False, readable by everyone (and their folders' folders searchable), as a
    checkout usually is."""
    folders = [Path(f) for f in secret_folders()]
    folders += [
        Path(f) for f in installation.source_leftovers() if Path(f).is_relative_to(ROOT)
    ]  # never another repository
    if not private:
        folders += sorted({p for f in folders for p in f.parents} - {Path("/")})
    with checkout_permissions_changing():  # no other worker's kernel reads the checkout meanwhile
        modes = {f: f.stat().st_mode & 0o777 for f in folders}
        try:
            for folder in folders:
                os.chmod(folder, modes[folder] & 0o770 if private else modes[folder] | (0o005 if folder in
                                                                                          secret_folders() else 0o001))
            yield
        finally:
            for folder, mode in modes.items():
                os.chmod(folder, mode)


def _specs(fixture_set, folder: Path) -> Path:
    specs = folder / "specs"
    specs.mkdir()
    for spec in (fixture_set["options"].specs_dir / "99_grading_fixture.json", SPECS_DIR / "04_mds.json",
                 SPECS_DIR / "06_random_projections.json"):
        shutil.copy(spec, specs / spec.name)
    return specs


def _librt():
    import ctypes

    return ctypes.CDLL("librt.so.1", use_errno=True)


def _posix_queue_left() -> bool:
    """Whether the POSIX message queue of ``LEAVES`` exists (in the grader's IPC namespace)."""
    descriptor = _librt().mq_open(b"/dimred-leaves", os.O_RDONLY)
    if descriptor >= 0:
        _librt().mq_close(descriptor)
    return descriptor >= 0


def _leftovers() -> list[str]:
    """What a finished run left: files (in every world-writable place) and System V IPC objects
    of kernel user ids that no longer run anything (a concurrent run's live kernels are not
    leftovers), and kernel processes whose grading folder is gone."""
    alive = uids.in_use()
    found = [f"{kind} {ident} of user {uid}" for uid in uids.allocated_ids() - alive
             for kind, ident, _ in uids.ipc_objects(uid)]
    found += ["the POSIX queue /dimred-leaves"] if _posix_queue_left() else []
    for place in uids.world_writable_places():
        # files come and go under the feet of this walk (other test modules grade at the same time): os.walk
        # skips what vanished; a running grader's own workspace is not a leftover and is not entered
        for folder, subfolders, files in os.walk(place):
            subfolders[:] = [name for name in subfolders if not (folder == "/tmp" and name.startswith("dimred-run-"))]
            for name in subfolders + files:
                with contextlib.suppress(OSError):
                    owner = os.lstat(os.path.join(folder, name)).st_uid
                    if uids.is_kernel_id(owner) and owner not in alive:
                        found.append(os.path.join(folder, name))
    for uid in alive:
        for pid in uids.processes_of(uid):
            with contextlib.suppress(OSError):
                words = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
                folders = [w.split("/box/")[0] for w in words if "/dimred-grade-" in w]
                if any(not os.path.exists(folder) for folder in folders):
                    found.append(f"process {pid} of user {uid}")
    return found


@contextlib.contextmanager
def _sandbox_of(param: str):
    """The mode a test parameter names, ``user-no-namespaces`` being ``user`` for a root grader
    that cannot make mount namespaces (as in a container that forbids ``unshare``). Where the
    mode refuses this installation because its kernels' user cannot reach it (a checkout or a
    Python under a folder only its owner can enter), the test is skipped with the grader's line."""
    mode = param.split("-")[0]
    with pytest.MonkeyPatch.context() as patch:
        if param == "user-no-namespaces":
            patch.setattr(mounts, "private_namespaces", lambda: False)
        else:
            assert param == "bwrap" or mounts.private_namespaces(), "root cannot unshare here: user mode is untested"
        sandbox_modes.forget()
        try:
            try:
                choose(mode)
            except SandboxUnavailable as error:
                if UNREACHABLE in str(error):
                    pytest.skip(str(error))
                pytest.fail(f"--sandbox {mode} does not work on this machine: {error}")
            yield mode
        finally:
            sandbox_modes.forget()


@contextlib.contextmanager
def _readable_folder(prefix: str = "dimred-shared-"):
    """A folder other users can read and enter (0755), as a lecturer's folders usually are,
    outside every world-writable folder (which a user kernel's private tmpfs covers anyway)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/var/cache"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module", params=["bwrap", "user", "user-no-namespaces"])
def attacked(request, fixture_set):
    """One run of the class per mode: ``user`` with the mount, PID and IPC namespaces a root
    grader can make without user namespaces, and ``user`` where it cannot (permissions and
    the grader's sweep alone). The class folder and --out are readable by other users
    (:func:`_readable_folder`); without namespaces each student's folder is private to root
    (``dimred-teach grade`` refuses readable submissions there)."""
    with _readable_folder(f"dimred-class-{request.param}-") as folder:
        with _sandbox_of(request.param) as mode:
            options = dataclasses.replace(fixture_set["options"], specs_dir=_specs(fixture_set, folder), sandbox=mode,
                                          timeout=60, cell_timeout=20, scratch_mb=16)
            open_folder = Path(tempfile.mkdtemp(prefix="dimred-open-", dir="/var/cache"))  # as a package may leave one
            os.chmod(open_folder, 0o1777)
            uids.world_writable_places.cache_clear()
            paths = _class(fixture_set, folder, open_folder)
            if request.param == "user-no-namespaces":
                for path in paths.values():
                    os.chmod(Path(path).parent, 0o700)
            started = time.monotonic()
            with _course_private(), _files_of_nobody() as nobodys:
                results = grade(list(paths.values()), folder / "reports", settle_run(options), jobs=4)
                leftovers = _leftovers()
                nobodys_kept = all(path.exists() for path in nobodys)
            shutil.rmtree(open_folder)
            uids.world_writable_places.cache_clear()
            private = getattr(sandbox_modes.named(mode), "private", False)
        yield {"mode": mode, "private": private, "results": dict(zip(paths, results)), "out": folder / "reports",
               "wall": time.monotonic() - started, "leftovers": leftovers, "nobodys_kept": nobodys_kept}


@contextlib.contextmanager
def _files_of_nobody():
    """A folder and a file of ``nobody`` (65534) in /tmp, as any machine where a service ran as
    nobody has (issue 44): neither is a kernel's, so neither is a leftover or swept."""
    folder = Path(tempfile.mkdtemp(prefix="dimred-nobody-", dir="/tmp"))
    made = [folder, folder / "its file"]
    made[1].write_text("nobody's")
    try:
        for path in made:
            os.chown(path, 65534, 65534)
        yield made
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _passed(result) -> dict[str, bool]:
    return {t.name: t.passed for t in result.tests}


def test_honest_notebooks_keep_full_marks(attacked):
    for name in ("honest_99", "honest_04", "honest_06"):
        result = attacked["results"][name]
        assert result.graded and result.score == result.max_score > 0, (name, result)


def test_no_route_reaches_a_function_the_set_forbids(attacked):
    passed = _passed(attacked["results"]["bypass_06"])
    assert not passed["06.epsilon_for"], attacked["results"]["bypass_06"]
    assert all(ok for name, ok in passed.items() if name != "06.epsilon_for")  # the rest of the notebook is honest


def test_solutions_checks_and_cases_are_not_readable(attacked):
    assert attacked["results"]["reads_solutions_04"].score == 0


def test_the_checkouts_git_repository_is_not_readable(attacked):
    """``git show HEAD:solutions/04_mds.py`` in a checkout (issue 52: a user kernel read it through
    the repository, which no check required private): bubblewrap binds no checkout, a user
    kernel's mount namespace hides it, and without one the run requires it private."""
    assert attacked["results"]["reads_git_04"].score == 0


def test_a_helper_that_answers_an_exercise_is_forbidden_too(attacked):
    passed = _passed(attacked["results"]["center_helper_04"])
    assert not passed["04.recover_b"] and passed["04.classical_mds"]


def test_crafted_answer_files_are_refused_quickly_and_alone(attacked):
    result = attacked["results"]["crafted_answers_99"]
    passed = _passed(result)
    assert not passed["99.column_means"] and not passed["99.unit_vector"] and not passed["99.norm_of_means"]
    assert passed["99.center"], result  # a function answer, untouched by the attack
    assert all("transfer" in t.output for t in result.tests if t.name != "99.center"), result
    assert result.execution_time < 30


def test_writing_past_the_scratch_limit_ends_only_that_kernel(attacked):
    result = attacked["results"]["hog_99"]
    assert result.score < result.max_score or attacked["mode"] == "bwrap", result
    if attacked["mode"] == "user":
        assert "resource limit" in result.output, result


def test_a_deep_tree_is_cleaned_up_and_ends_nothing(attacked):
    result = attacked["results"]["deep_tree_99"]
    assert result.graded and result.score == result.max_score, result


def test_a_kernel_cannot_read_its_neighbours(attacked):
    assert _passed(attacked["results"]["snoops_neighbours_99"])["99.unit_vector"]


def test_a_kernel_leaves_no_ipc_or_files_for_the_next(attacked):
    """System V segments and queues (mode 0666), a POSIX queue, files in /run/lock and in a
    world-writable folder of no fixed list: gone after the run (``_leftovers``), and the
    notebook is otherwise honest."""
    result = attacked["results"]["leaves_ipc_and_files_99"]
    assert result.graded and result.score == result.max_score, result
    assert attacked["leftovers"] == []


def test_a_kernel_cannot_read_or_list_a_classmates_submission_or_an_earlier_report(attacked):
    """For 8 s while the class is graded, a kernel looks for a classmate's notebook (its path
    known: the grader's command line names the class) and for the reports in --out and below,
    both readable by other users, and for a folder of the grader's left open to it: bubblewrap
    binds neither folder, a user kernel's mount namespace covers both with an empty tmpfs, and
    without namespaces the student's folder is private and the reports wait in a folder only
    root can read or list until no kernel of the run is alive (issue 37; the control:
    ``test_the_attacks_work_where_nothing_is_isolated``)."""
    assert _passed(attacked["results"]["reads_classmates_99"])["99.unit_vector"]


def test_a_kernel_reads_no_other_sets_view(attacked):
    """A set-99 kernel looks for set 04's view in the run's folder, found from its own import
    path (a set's view holds what another set forbids)."""
    assert _passed(attacked["results"]["reads_another_sets_view_99"])["99.unit_vector"]


def test_every_kernel_runs_the_graders_own_python(attacked):
    """Its interpreter, standard library and packages, also where they lie under a folder only
    their owner can enter (here the base Python under /root, 0700): a ``user`` kernel's mount
    namespace passes it through that folder (issue 54; before, the kernel's Python fell back to
    another installation's standard library where there was one, and died where there was none)."""
    assert _passed(attacked["results"]["runs_the_graders_python_99"])["99.unit_vector"]


def test_nothing_is_left_behind(attacked):
    assert attacked["leftovers"] == []
    assert attacked["nobodys_kept"]  # the files of an account are not a kernel's to delete


def test_reports_state_the_guarantees_of_their_mode(attacked):
    report = json.loads(next(attacked["out"].glob("alice__*.json")).read_text())
    held = report["extra_data"]["guarantees"]
    assert held["the set's forbidden code, the checks and solutions absent"] == "held"
    assert held["other submissions unreachable"].startswith("held")
    assert (held["no network"] == "held") == (attacked["mode"] == "bwrap")
    if attacked["mode"] == "user":
        assert ("IPC namespace vanish" in held["nothing left behind"]) == attacked["private"]


def test_the_attacks_work_where_nothing_is_isolated(fixture_set, tmp_path):
    """The control: under ``--sandbox none`` the bypass reaches the library's function and the
    solutions are read, so the tests above would fail if the sandbox let them through."""
    paths = _class(fixture_set, tmp_path)
    chosen = [paths[name] for name in ("bypass_06", "reads_solutions_04", "leaves_ipc_and_files_99",
                                       "reads_another_sets_view_99", "reads_classmates_99", "reads_git_04")]
    options = dataclasses.replace(fixture_set["options"], specs_dir=_specs(fixture_set, tmp_path), sandbox="none",
                                  timeout=60, cell_timeout=20)
    try:
        bypass, reads, leaves, other_view, classmates, git = grade(chosen, tmp_path / "reports", settle_run(options),
                                                                   jobs=2)
        segments = Path("/proc/sysvipc/shm").read_text().split()
        queue = _posix_queue_left()
    finally:
        for kind in ("-M", "-Q"):  # the control's own leftovers
            subprocess.run(["ipcrm", kind, str(LEAVES_IPC_KEY + (kind == "-Q"))], capture_output=True)
        _librt().mq_unlink(b"/dimred-leaves")
        for place in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock"):
            for left in Path(place).glob("dimred-left-*"):
                left.unlink()
    assert _passed(bypass)["06.epsilon_for"], bypass
    assert reads.score == reads.max_score, reads
    assert git.score == git.max_score, git
    assert not _passed(other_view)["99.unit_vector"], other_view  # set 04's view was read
    assert not _passed(classmates)["99.unit_vector"], classmates  # a classmate's notebook and reports were read
    assert leaves.score == leaves.max_score and str(LEAVES_IPC_KEY) in segments, leaves  # the segment outlived it
    # POSIX queues: the kernel launcher's RLIMIT_MSGQUEUE of 0 holds in every mode, this one too
    # (the queue was not made); a process without it makes one here
    assert not queue
    made = _librt().mq_open(b"/dimred-leaves", os.O_CREAT | os.O_RDWR, 0o600, None)
    assert made >= 0 and _posix_queue_left()
    _librt().mq_close(made)
    _librt().mq_unlink(b"/dimred-leaves")


@pytest.mark.parametrize("mode", ["bwrap", "user"])
def test_two_grader_runs_on_one_machine_do_not_touch_each_other(fixture_set, tmp_path, mode):
    """A kernel that kills every process it may and holds processes, in one run, beside a slow
    honest kernel in another run started at the same time: the honest one keeps full marks."""
    slow = _insert_after(_answered(fixture_set), "import numpy", "import time\ntime.sleep(6)")
    killer = _insert_after(_answered(fixture_set), "import numpy", (
        "import os, signal, subprocess, sys, time\n"
        "children = [subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)']) for _ in range(8)]\n"
        "end = time.time() + 8\nwhile time.time() < end:\n    try:\n        os.kill(-1, signal.SIGKILL)\n"
        "    except OSError:\n        pass\n    time.sleep(0.1)"))
    runs = []
    for name, notebook in (("slow", slow), ("killer", killer)):
        path = _save(notebook, tmp_path / name, "99_grading_fixture.ipynb")
        command = [
            sys.executable,
            "-c",
            (
                "import sys; from pathlib import Path\n"
                "from dimred_teach import checks\nchecks.__path__.append(sys.argv[1])\n"
                "from dimred_teach.grading import GradingOptions, grade, settle_run\n"
                "options = GradingOptions(sandbox=sys.argv[2], specs_dir=Path(sys.argv[3]), "
                "extra_check_dirs=(Path(sys.argv[1]),),"
                " timeout=60, cell_timeout=20, accept_readable_files=True)\n"
                "grade([sys.argv[4]], Path(sys.argv[5]), settle_run(options))"
            ),
            str(FIXTURES),
            mode,
            str(fixture_set["options"].specs_dir),
            path,
            str(tmp_path / name / "out"),
        ]
        runs.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        time.sleep(1.5)  # the slow kernel is running when the killer starts
    for run in runs:
        assert run.wait(180) == 0, run.stderr.read().decode()[-2000:]
    report = json.loads((tmp_path / "slow" / "out" / "99_grading_fixture.json").read_text())
    assert report["score"] == report["max_score"] == 5, report


def test_user_mode_stops_before_any_kernel_while_the_course_is_readable(fixture_set, tmp_path):
    """``--sandbox user`` keeps the course from the kernels by permissions alone: from a
    world-readable checkout the run stops before any kernel with one line naming the readable
    folder and the fixes (issue 37). The control: accepting the weaker guarantee, a blank set-04
    notebook that executes the solutions scores 12/12, and its report says "not held"."""
    paths = _class(fixture_set, tmp_path)
    options = dataclasses.replace(fixture_set["options"], specs_dir=_specs(fixture_set, tmp_path), sandbox="user",
                                  timeout=60, cell_timeout=20)
    with _course_private(private=False):
        with pytest.raises(SandboxUnavailable, match=r"is readable by other users.*chmod -R go-rwx .*"
                                                     r"--accept-readable-files") as refusal:
            grade([paths["reads_solutions_04"]], tmp_path / "refused", settle_run(options))
        assert "\n" not in str(refusal.value) and str(refusal.value).split(" ")[2] in secret_folders()
        assert not (tmp_path / "refused").exists()  # nothing graded, nothing written
        accepted = dataclasses.replace(options, accept_readable_files=True)
        [reads] = grade([paths["reads_solutions_04"]], tmp_path / "accepted", settle_run(accepted))
    # a checkout under /tmp (a CI clone) is hidden anyway: the kernel's private tmpfs covers it
    from dimred_teach.grading.installation import checkout_folder
    from dimred_teach.grading.uids import world_writable_places

    checkout = checkout_folder() or ""
    hidden = sandbox_modes.named("user").private and any(checkout.startswith(place.rstrip("/") + "/")
                                                  for place in world_writable_places())
    assert reads.max_score == 12 and reads.score == (0 if hidden else 12), reads
    report = json.loads(next((tmp_path / "accepted").glob("*.json")).read_text())
    assert report["extra_data"]["guarantees"]["the set's forbidden code, the checks and solutions absent"].startswith(
        "not held")


def test_user_mode_refuses_an_installation_its_kernels_cannot_reach(fixture_set, tmp_path, capsys, monkeypatch):
    """A course and its venv under a folder only its owner can enter (0700, as ``mktemp -d`` and
    many home folders make it; issue 54, simulated: the installation is said to be there). Without
    mount namespaces the kernels' user cannot reach its interpreter, so the run stops before any
    kernel (not even the probe's: no kernel user id is taken) with one line naming that folder and
    the fix; with them, the folder is an empty one in each kernel's namespace, through which the
    installation is bound back (no refusal)."""
    private = Path(tempfile.mkdtemp(prefix="dimred-private-", dir="/var/cache"))
    try:
        (private / "course" / ".venv").mkdir(parents=True)
        monkeypatch.setattr(installation, "installation_paths", lambda: [str(private / "course" / ".venv")])
        assert str(private) in UnprivilegedUser(private=True).for_run().hidden
        monkeypatch.setattr(mounts, "private_namespaces", lambda: False)
        sandbox_modes.forget()

        def no_kernel(*args, **kwargs):
            raise AssertionError("a kernel user id was taken: a kernel (or the probe's) was about to start")

        monkeypatch.setattr(uids, "allocate", no_kernel)
        submission = _save(_answered(fixture_set), tmp_path / "alice", "99_grading_fixture.ipynb")
        assert _cli(fixture_set, submission, "--out", str(tmp_path / "out"), "--sandbox", "user") == 2
        refusal = capsys.readouterr().err.strip()
        assert refusal.count("\n") == 0 and UNREACHABLE in refusal, refusal
        assert f"{private} is closed to other users (mode 0700); let them pass (chmod o+x {private})" in refusal
        assert not (tmp_path / "out").exists()
    finally:
        sandbox_modes.forget()
        shutil.rmtree(private, ignore_errors=True)


SPY = '''
def _spied():
    found = []
    try:
        found.append(open(OTHER_SHARD, "rb").read(100))
    except OSError:
        pass
    try:
        table = open("/proc/self/mountinfo").read()
    except OSError:
        table = ""
    return found + [name for name in CLASSMATES if name in table]
worked = bool(_spied())
'''


def _sharded_class(fixture_set, folder: Path) -> dict[str, str]:
    """A class in ``folder`` graded in two shards: ``spy`` and ``friend`` in shard 0, ``victim``
    in shard 1 (names are tried until the shares fall so); the spy reads the victim's notebook by
    its path and looks for its classmates' folder names in its own mount table."""
    from dimred_teach.grading.shards import plan_shard

    folder.mkdir(parents=True, exist_ok=True)  # the listing's keys are relative to it once it exists
    for attempt in range(200):
        names = {role: f"{role}-{attempt}" for role in ("spy", "friend", "victim")}
        paths = {role: folder / name / "99_grading_fixture.ipynb" for role, name in names.items()}
        first = set(plan_shard([folder], sorted(paths.values()), 0, 2, 0.0).paths)
        if first == {paths["spy"], paths["friend"]}:
            break
    spy = _answered(fixture_set)
    _code(spy, "# BEGIN").source = (f"OTHER_SHARD, CLASSMATES = {str(paths['victim'])!r}, "
                                    f"{[names['friend'], names['victim']]!r}\n" + SPY
                                    + "\nw = np.array([2.0, 0.0, 0.0]) if worked else np.array([1.0, 0.0, 0.0])")
    _save(spy, folder, f"{names['spy']}/99_grading_fixture.ipynb")
    for role in ("friend", "victim"):
        _save(_answered(fixture_set), folder, f"{names[role]}/99_grading_fixture.ipynb")
    return {role: str(path) for role, path in paths.items()}


def test_a_sharded_user_run_hides_the_whole_class_and_names_no_student(fixture_set, tmp_path, capsys):
    """Issue 52: a ``user`` kernel's mount namespace covers the whole class folder given, not
    only its shard's folders, with one mount: a kernel of shard 0 cannot read a classmate's
    notebook that shard 1 grades, and its mount table names no student's folder (before, the
    other shard's folder was open to it and each student's folder was a mount point by name)."""
    with _readable_folder() as shared, _sandbox_of("user") as mode, _course_private():
        paths = _sharded_class(fixture_set, shared / "class")
        status = _cli(fixture_set, str(shared / "class"), "--shard", "0/2", "--out", str(shared / "out"),
                      "--sandbox", mode)
        report = json.loads(next((shared / "out").glob(f"*{Path(paths['spy']).parent.name}*.json")).read_text())
    assert status == 0, (capsys.readouterr(), report)
    assert {t["name"]: t["status"] for t in report["tests"]}["99.unit_vector"] == "passed", report
    assert report["extra_data"]["guarantees"]["other submissions unreachable"].startswith("held for the run's")


def test_without_namespaces_the_readability_check_covers_every_shard(fixture_set, tmp_path, capsys, monkeypatch):
    """Issue 52: without mount namespaces, ``grade --shard`` checks every notebook of the class
    given, not only its shard's, before any kernel: a classmate whom shard 1 grades, readable by
    other users, stops shard 0 with one line naming it (before, shard 0's kernels could read it).
    The mode is taken as it is (no probe: the check, not the kernels, is under test)."""
    from dimred_teach.grading import run_settings

    def no_kernel(*args, **kwargs):
        raise AssertionError("a kernel user id was taken: a kernel was about to start")

    with _readable_folder() as shared, _course_private():
        paths = _sharded_class(fixture_set, shared / "class")
        os.chmod(Path(paths["spy"]).parent, 0o700)
        os.chmod(Path(paths["friend"]).parent, 0o700)
        monkeypatch.setattr(run_settings, "choose", lambda name: UnprivilegedUser(private=False))
        monkeypatch.setattr(uids, "allocate", no_kernel)
        # a worktree's repository, outside the checkout, is not this test's (and not this test's to chmod)
        monkeypatch.setattr(readable_to_kernels, "source_leftovers", lambda: [])
        status = _cli(fixture_set, str(shared / "class"), "--shard", "0/2", "--out", str(shared / "out"),
                      "--sandbox", "user")
    refusal = capsys.readouterr().err.strip()
    assert status == 2 and refusal.count("\n") == 0, refusal
    assert f"{paths['victim']} is readable by other users" in refusal, refusal


def _cli(fixture_set, *arguments: str) -> int:
    """``dimred-teach grade`` with the test-only set 99, in this process."""
    from dimred_teach.cli import main

    return main(["grade", *arguments, "--specs-dir", str(fixture_set["options"].specs_dir),
                 "--extra-check-dir", str(FIXTURES)])


def _published_mode() -> int:
    """The mode of a file the grader writes, as the lecturer's umask makes it."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@pytest.mark.parametrize("param", ["bwrap", "user", "user-no-namespaces"])
def test_a_readable_out_is_graded_in_every_mode(fixture_set, tmp_path, capsys, param):
    """An --out other users can read no longer stops a run (issue 37: ``--sandbox user``
    refused it): while a run grades, its reports wait in a folder only root can read or list,
    and they are published with the lecturer's modes once no kernel of the run is alive."""
    submission = _save(_answered(fixture_set), tmp_path / "alice", "99_grading_fixture.ipynb")  # private to root
    with _readable_folder() as shared, _sandbox_of(param) as mode, _course_private():
        assert _cli(fixture_set, submission, "--out", str(shared / "out"), "--sandbox", mode) == 0, capsys.readouterr()
        report = shared / "out" / "99_grading_fixture.json"
        assert json.loads(report.read_text())["score"] == 5
        assert stat.S_IMODE(report.stat().st_mode) == _published_mode()
        assert sorted(p.name for p in (shared / "out").iterdir()) == ["99_grading_fixture.json", "junit.xml",
                                                                      "summary.md"]


@pytest.mark.parametrize("param", ["user", "user-no-namespaces"])
def test_a_readable_class_is_graded_where_namespaces_hide_it_and_refused_where_not(fixture_set, tmp_path, capsys,
                                                                                  param):
    """A class folder other users can read: with mount namespaces the kernel's covers it (and
    --out) with an empty tmpfs, so it is graded; without, permissions are all there is, and the
    run stops before any kernel with one line naming the submission and the fix, as it does for
    an --out other users can enter that holds something already (an earlier run's reports) or
    can write to; accepting that (``--accept-readable-files``), the reports say "not held"."""
    with _readable_folder() as shared, _sandbox_of(param) as mode, _course_private():
        submission = Path(_save(_answered(fixture_set), shared / "alice", "99_grading_fixture.ipynb"))
        arguments = [str(shared / "alice"), "--sandbox", mode]
        if param == "user":
            assert _cli(fixture_set, *arguments, "--out", str(shared / "out")) == 0, capsys.readouterr()
            assert json.loads((shared / "out" / "99_grading_fixture.json").read_text())["score"] == 5
            return
        assert _cli(fixture_set, *arguments, "--out", str(shared / "refused")) == 2
        refusal = capsys.readouterr().err.strip()
        assert refusal.count("\n") == 0 and f"{submission} is readable by other users" in refusal, refusal
        assert "chmod -R go-rwx" in refusal and "--accept-readable-files" in refusal
        assert not (shared / "refused").exists()  # nothing graded, nothing written
        os.chmod(shared / "alice", 0o700)
        (shared / "out").mkdir()
        (shared / "out" / "earlier.json").write_text("{}")
        assert _cli(fixture_set, *arguments, "--out", str(shared / "out")) == 2
        refusal = capsys.readouterr().err.strip()
        assert refusal.count("\n") == 0 and f"{shared / 'out'} is readable by other users and holds earlier.json" \
            in refusal, refusal
        (shared / "open").mkdir(mode=0o777)
        os.chmod(shared / "open", 0o777)  # empty, but a kernel could plant links the reports would be written through
        assert _cli(fixture_set, *arguments, "--out", str(shared / "open")) == 2
        assert f"{shared / 'open'} is writable by other users" in capsys.readouterr().err
        os.chmod(shared / "alice", 0o755)
        assert _cli(fixture_set, *arguments, "--out", str(shared / "out"), "--accept-readable-files") == 0
        report = json.loads((shared / "out" / "99_grading_fixture.json").read_text())
        assert report["score"] == 5
        assert report["extra_data"]["guarantees"]["other submissions unreachable"].startswith("not held")


def test_reports_wait_in_a_private_folder_until_no_kernel_is_alive(fixture_set, tmp_path):
    """While a run grades (here: as each submission finishes, its kernel gone but the next
    one's not yet), --out holds no report, only the run's staging folder, 0700 with files 0600;
    at the end the reports, junit.xml, summary.md and the gradebook are published with the
    lecturer's modes, and the staging folder is gone."""
    out, seen = tmp_path / "out", []

    def look(result) -> None:
        [staging] = out.iterdir()
        seen.append((staging.name, stat.S_IMODE(staging.stat().st_mode),
                     {p.name: stat.S_IMODE(p.stat().st_mode) for p in staging.iterdir()}))

    paths = [_save(_answered(fixture_set), tmp_path / name, "99_grading_fixture.ipynb") for name in ("alice", "bob")]
    options = dataclasses.replace(fixture_set["options"], sandbox="bwrap")
    grade(paths, out, settle_run(options), on_result=look, gradebook=out / "book.csv")
    assert len(seen) == 2
    for name, mode, files in seen:
        assert name.startswith(".grading-") and mode == 0o700, seen
        assert sorted(files) == ["alice__99_grading_fixture.json", "bob__99_grading_fixture.json", "lock"], seen
        assert set(files.values()) == {0o600}, seen
    published = {p.name: stat.S_IMODE(p.stat().st_mode) for p in out.iterdir()}
    assert published == dict.fromkeys(["alice__99_grading_fixture.json", "bob__99_grading_fixture.json", "book.csv",
                                       "junit.xml", "summary.md"], _published_mode())


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            if int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _lock_free(path: Path) -> bool:
    """Whether no process holds the lock ``path`` (taken and given back at once)."""
    with open(path) as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
    return True


def test_a_rerun_publishes_what_a_killed_run_staged(fixture_set, tmp_path):
    """The grader and its grading process killed (SIGKILL) while a kernel runs: nothing is
    published (the kernel may be alive), the staging folder stays, private; the next run into
    the same --out publishes what the killed run finished (alice), then grades its own (bob)."""
    alice = _save(_answered(fixture_set), tmp_path / "class", "99_grading_fixture-alice.ipynb")
    bob = _save(_insert_after(_answered(fixture_set), "import numpy", "import time\ntime.sleep(120)"),
                tmp_path / "class", "99_grading_fixture-bob.ipynb")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "dimred_teach", "grade", alice, bob, "--out", str(out), "--sandbox", "user",
               "--accept-readable-files", "--cell-timeout", "150", "--timeout", "200", "--specs-dir",
               str(fixture_set["options"].specs_dir), "--extra-check-dir", str(FIXTURES)]
    run = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not any(json.loads(p.read_text())["extra_data"]["graded"]
                  for p in out.glob(".grading-*/99_grading_fixture-alice.json")):
        assert time.monotonic() < deadline and run.poll() is None, run.stderr.read().decode()[-2000:]
        time.sleep(0.5)
    grading = _children(run.pid)  # the grading process, in a session of its own with its workers
    os.killpg(run.pid, signal.SIGKILL)
    for child in grading:
        os.killpg(child, signal.SIGKILL)
    run.wait(30)
    [left] = out.iterdir()
    assert left.name.startswith(".grading-") and stat.S_IMODE(left.stat().st_mode) == 0o700
    deadline = time.monotonic() + 30
    while not _lock_free(left / "lock"):  # the killed processes let go of it as they end
        assert time.monotonic() < deadline
        time.sleep(0.2)
    _save(_answered(fixture_set), tmp_path / "class", "99_grading_fixture-bob.ipynb")  # bob's notebook, honest now
    assert _cli(fixture_set, bob, "--out", str(out), "--sandbox", "user", "--accept-readable-files") == 0
    reports = {p.stem: json.loads(p.read_text()) for p in out.glob("*.json")}
    assert (
        reports["99_grading_fixture-alice"]["score"] == 5
        and reports["99_grading_fixture-alice"]["extra_data"]["graded"]
    )
    assert reports["99_grading_fixture-bob"]["score"] == 5
    assert not list(out.glob(".grading-*"))


def test_two_runs_grade_into_one_out(fixture_set, tmp_path):
    """Two runs at once into one --out: the second neither takes the first's staging folder for
    a killed run's nor publishes its reports; each publishes its own, and no staging folder is left."""
    slow = _insert_after(_answered(fixture_set), "import numpy", "import time\ntime.sleep(20)")
    out, runs = tmp_path / "out", []
    for name, notebook in (("slow", slow), ("quick", _answered(fixture_set))):
        path = _save(notebook, tmp_path / "class", f"99_grading_fixture-{name}.ipynb")
        command = [sys.executable, "-m", "dimred_teach", "grade", path, "--out", str(out), "--sandbox", "user",
                   "--accept-readable-files", "--specs-dir", str(fixture_set["options"].specs_dir),
                   "--extra-check-dir", str(FIXTURES)]
        runs.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        time.sleep(3)  # the slow run grades when the quick one starts
    assert runs[1].wait(180) == 0, runs[1].stderr.read().decode()[-2000:]
    assert runs[0].poll() is None  # the quick run ended while the slow one still grades
    assert runs[0].wait(180) == 0, runs[0].stderr.read().decode()[-2000:]
    reports = {p.stem: json.loads(p.read_text())["score"] for p in out.glob("*.json")}
    assert reports == {"99_grading_fixture-slow": 5, "99_grading_fixture-quick": 5}
    assert not list(out.glob(".grading-*"))
