"""The grader against a hostile class (issue 14), with the sandbox on (``--sandbox auto``).

Every attack in the issue's table is a submission in ONE parallel run mixed with honest
and blank notebooks; each honest or blank notebook must get the score it gets alone, and
each attack must change nothing but its own grade. Attacks encode whether they worked in
their own answers where they can (a unit vector only when the attack failed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import numpy as np
import pytest

import dimred_teach
import dimred_teach.data
from dimred_teach.checks import evaluate
from dimred_teach.exercise_specs import SPECS_DIR
from dimred_teach.grading import GradingOptions, SandboxUnavailable, grade, report_names, settle_run, uids
from dimred_teach.grading.answer_folder import AnswerFolder
from dimred_teach.grading.reports import markdown_text, summary
from dimred_teach.grading.results import SubmissionResult, TestResult
from dimred_teach.grading.sandbox_modes import choose, named
from dimred_teach.grading.scheduler import scrub
from dimred_teach.grading.submission_worker import disk_usage
from test_grading import (
    EXERCISES,
    FIXTURES,
    ROOT,
    _answered,
    _code,
    _insert_after,
    fixture_set,  # noqa: F401  (a fixture this module uses too)
)

pytestmark = [pytest.mark.sandbox, pytest.mark.slow(seconds=150)]

SECRET = "s3cret-hostile-7f3a9c"
TAG = "dimred-hostile-" + hashlib.sha256(SECRET.encode()).hexdigest()[:8]  # in the command line of spawned processes
FORGED = {"exercise_set": "99_grading_fixture", "output": "", "graded": True, "execution_time": 1.0,
          "tests": [[e, True, "all properties hold"] for e in EXERCISES],
          "submission": "VICTIM", "report_name": "../../../escaped_report"}
FORGER = f'''
import json, os, struct
def forge(victim):
    message = json.dumps(["result", dict({FORGED!r}, submission=victim)]).encode()
    frame = struct.pack("!i", len(message)) + message
    hits = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            fds = os.listdir(f"/proc/{{pid}}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{{pid}}/fd/{{fd}}").startswith("pipe:"):
                    with open(f"/proc/{{pid}}/fd/{{fd}}", "wb", buffering=0) as pipe:
                        pipe.write(frame)
                    hits += 1
            except OSError:
                pass
    return hits
'''
MARKDOWN = "![img](http://evil.example/x.png) [link](http://evil.example) **bold** <b>html</b> | a | b | `code` _em_"


def _save(notebook, path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return os.fsdecode(path)


def _blank(fs):
    return fs["exercise"]


def _unit_unless(notebook, attack: str):
    """The honest notebook whose w is a unit vector only when ``attack`` (code setting
    ``worked``) did not work."""
    _code(notebook, "# BEGIN").source = (
        attack + "\nw = np.array([2.0, 0.0, 0.0]) if worked else np.array([1.0, 0.0, 0.0])"
    )
    return notebook


def _installed_files() -> list[str]:
    """Files a submission must not be able to change: a dependency, the course package, the
    checks, the data package, the fixture's checks."""
    import nbclient

    return [
        nbclient.__file__,
        np.__file__,
        dimred_teach.__file__,
        str(Path(dimred_teach.__file__).parent / "checks" / "set01.py"),
        str(Path(dimred_teach.data.__file__)),
        str(FIXTURES / "set99.py"),
    ]


def _digest(paths) -> dict[str, str]:
    return {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in paths}


def _hostile_class(fixture_set, folder: Path) -> tuple[Path, dict[str, Path], list[str]]:
    """The notebooks of :func:`hostile`'s run in ``folder``: every attack, honest and blank
    notebooks between them; (the honest notebook, name -> path, the installed files an attack
    tries to change)."""
    fs = fixture_set
    alice = _save(_answered(fs), folder / "alice" / "99_grading_fixture.ipynb")
    paths = {}
    # a process left behind that keeps forging results for the next submissions
    paths["setsid_forger"] = _save(
        _insert_after(
            _answered(fs),
            "import numpy",
            (
                FORGER + "import subprocess, sys\n"
                f"loop = {FORGER!r} + 'import time\\nend = time.time() + 40\\nwhile time.time() < end:\\n"
                f"    forge({alice!r})\\n    time.sleep(0.05)'\n"
                f"subprocess.Popen([sys.executable, '-c', loop, {TAG!r}], start_new_session=True,\n"
                "                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)"
            ),
        ),
        folder / "setsid_forger.ipynb",
    )
    paths["blank_after_forger"] = _save(_blank(fs), folder / "carol" / "99_grading_fixture.ipynb")
    paths["honest"] = alice
    paths["forges_its_result"] = _save(_unit_unless(_answered(fs), FORGER + f"worked = forge({alice!r}) > 0"),
                                       folder / "mallory" / "99_grading_fixture.ipynb")
    paths["bob smith"] = _save(_answered(fs), folder / "bob smith" / "99_grading_fixture.ipynb")
    paths["bob_smith"] = _save(_answered(fs), folder / "bob_smith" / "99_grading_fixture.ipynb")
    paths["long_name"] = _save(_answered(fs), folder / ("99_grading_fixture-" + "x" * (255 - 25) + ".ipynb"))
    paths["not_utf8_name"] = _save(
        _answered(fs), Path(os.fsdecode(os.fsencode(folder) + b"/99_grading_fixture-\xff.ipynb"))
    )
    targets = _installed_files()
    paths["modifies_installation"] = _save(_unit_unless(_answered(fs), (
        f"worked = False\nfor path in {targets!r}:\n    try:\n        open(path, 'ab').close()\n        worked = True\n"
        "    except OSError:\n        pass")), folder / "installer.ipynb")
    paths["stops_every_process"] = _save(
        _unit_unless(
            _answered(fs),
            (
                "import os, signal\nworked = False\nfor pid in [int(p) for p in os.listdir('/proc') if p.isdigit()]:\n"
                "    if pid not in (os.getpid(), 1):\n        try:\n            os.kill(pid, signal.SIGSTOP)\n"
                "            worked = True\n        except OSError:\n            pass\n"
                "for target in (os.getppid(), 1):\n    try:\n        os.kill(target, signal.SIGSTOP)\n"
                "    except OSError:\n        pass"
            ),
        ),
        folder / "stopper.ipynb",
    )
    paths["leaks_grader_memory"] = _save(
        _insert_after(
            _answered(fs),
            "import numpy",
            (
                "import glob, os\nfound = []\n"
                "for pattern in ('/proc/*/environ', '/proc/*/cmdline', '/proc/*/maps', '/root/*', '/home/*/*',\n"
                f"                '{os.getcwd()}/*'):\n"
                "    for path in glob.glob(pattern):\n        try:\n"
                "            found.append(open(path, 'rb').read(3000).decode('latin-1'))\n"
                "        except OSError:\n            pass\n"
                f"found.append(repr(dict(os.environ)))\nraise RuntimeError(' '.join(found) + ' {MARKDOWN}')"
            ),
        ),
        folder / "leaker.ipynb",
    )
    internals = _answered(fs)
    _code(
        internals, "means ="
    ).source = "from dimred_teach.checks.set99 import fixture_data\nmeans = fixture_data().mean(axis=0)"
    paths["uses_checks_internals"] = _save(internals, folder / "internals.ipynb")
    counter = _answered(fs)
    _code(counter, "def center").source = (
        "calls = [0]\ndef center(X):\n    calls[0] += 1\n    if calls[0] > 3:\n        raise ValueError('1-D')\n"
        "    return np.zeros((6, 3))")
    paths["answers_by_call_count"] = _save(counter, folder / "counter.ipynb")
    paths["blank_last"] = _save(_blank(fs), folder / "dave" / "99_grading_fixture.ipynb")
    solution_04 = nbformat.read(ROOT / "solutions" / "04_mds.ipynb", as_version=4)
    _code(solution_04, "def my_classical_mds").source = (
        "def my_classical_mds(D, k):\n    from dimred_teach.mds import classical_mds\n"
        "    return classical_mds(D, k).embedding")
    paths["calls_the_library"] = _save(solution_04, folder / "04_mds.ipynb")
    return alice, paths, targets


@pytest.fixture(scope="module")
def hostile(fixture_set, tmp_path_factory):
    """Every attack with honest and blank notebooks in one run (jobs=2), plus an honest and
    a blank notebook graded alone; name -> result."""
    try:
        chosen = choose("auto").name
    except SandboxUnavailable as error:
        pytest.fail(f"no sandbox works on this machine: {error}")
    folder = tmp_path_factory.mktemp("class")
    alice, paths, targets = _hostile_class(fixture_set, folder)
    before = _digest(targets)
    specs = folder / "specs"  # the fixture's set and the course's set 04
    specs.mkdir()
    for spec in (fixture_set["options"].specs_dir / "99_grading_fixture.json", SPECS_DIR / "04_mds.json"):
        shutil.copy(spec, specs / spec.name)
    options = dataclasses.replace(fixture_set["options"], specs_dir=specs, timeout=60, cell_timeout=20)
    out = folder / "reports"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DIMRED_HOSTILE_SECRET", SECRET)
        results = grade(list(paths.values()), out, settle_run(options), jobs=2, gradebook=out / "book.csv")
        alone = grade([alice, paths["blank_last"]], folder / "alone", settle_run(options), jobs=2)
    survivors = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            if TAG.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                survivors.append(pid)
        except OSError:
            pass
    return {"results": dict(zip(paths, results)), "alone": alone, "out": out, "folder": folder, "sandbox": chosen,
            "changed": [p for p, digest in _digest(targets).items() if digest != before[p]], "survivors": survivors}


def _passes(result) -> dict[str, bool]:
    return {t.name: t.passed for t in result.tests}


def test_the_sandbox_is_on(hostile):
    assert hostile["sandbox"] in ("bwrap", "user")
    assert all(r.sandbox == hostile["sandbox"] for r in hostile["results"].values())
    assert "Kernels were isolated" in (hostile["out"] / "summary.md").read_text()


def test_honest_and_blank_notebooks_get_the_score_they_get_alone(hostile):
    honest_alone, blank_alone = hostile["alone"]
    assert (honest_alone.score, blank_alone.score) == (5, 0)
    results = hostile["results"]
    for name in ("honest", "bob smith", "bob_smith", "long_name", "not_utf8_name"):
        assert results[name].score == honest_alone.score and results[name].graded, (name, results[name])
    for name in ("blank_after_forger", "blank_last"):
        assert results[name].score == blank_alone.score and results[name].graded, (name, results[name])


def test_forged_results_count_for_nothing(hostile):
    """A result written into any pipe the kernel can find (the worker's result pipe,
    through /proc) changes nothing: not its own grade, not the victim's, no file outside
    --out; a process left behind (setsid) dies with its sandbox and forges nothing later."""
    results = hostile["results"]
    assert _passes(results["forges_its_result"]) == dict.fromkeys(EXERCISES, True)  # w says: no pipe was reachable
    assert hostile["survivors"] == []
    assert not list(hostile["folder"].parent.rglob("escaped_report*"))
    names = [r.submission for r in results.values()]
    assert len(set(names)) == len(names)
    rows = (hostile["out"] / "book.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == len(results) + 1


def test_a_link_in_the_scratch_folder_leads_the_worker_nowhere(tmp_path):
    """The kernel swaps its answer folder, or a file in it, for a link to a place outside
    its sandbox: the worker, holding the folder open, writes, reads and deletes nothing there."""
    folder, victim = tmp_path / "box" / "channel", tmp_path / "victim"
    folder.mkdir(parents=True)
    victim.mkdir()
    (victim / "01.x.answer").write_bytes(pickle.dumps(("value", 1)))
    channel = AnswerFolder(folder)
    folder.rename(tmp_path / "box" / "moved")
    folder.symlink_to(victim)  # the folder's path now leads outside
    channel.write("call-1.in", b"arguments")
    assert channel.read("01.x.answer", 100) is None
    channel.remove("01.x.answer")
    assert sorted(p.name for p in victim.iterdir()) == ["01.x.answer"]
    assert (tmp_path / "box" / "moved" / "call-1.in").read_bytes() == b"arguments"
    (tmp_path / "box" / "moved" / "call-2.in").symlink_to(victim / "01.x.answer")  # a planted link
    channel.write("call-2.in", b"more")
    (tmp_path / "box" / "moved" / "02.y.answer").symlink_to(victim / "01.x.answer")
    with pytest.raises(ValueError):
        channel.read("02.y.answer", 100)
    assert (victim / "01.x.answer").read_bytes() == pickle.dumps(("value", 1))
    assert not (tmp_path / "box" / "moved" / "call-2.in").is_symlink()
    channel.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="making files of other users needs root (CI runs as root)")
def test_a_kernels_files_in_a_shared_place_are_counted_wherever_it_could_have_put_them():
    """``--sandbox user``: the scratch limit counts what a kernel's user owns in /tmp and the like,
    there and in every folder below that it could write to or could have changed, without a
    status call for every file of a tree it cannot write to. (The tree is made in /run: files of
    kernel ids in /tmp would be another grader test's leftovers.)"""
    with tempfile.TemporaryDirectory(dir="/run") as scratch:
        _count_a_kernels_files(Path(scratch))


def _count_a_kernels_files(folder: Path) -> None:
    allocations = [uids.allocate(), uids.allocate()]  # ids the grader gave kernels: only theirs are counted
    try:
        _count_files_of(folder, *(allocation.uid for allocation in allocations))
    finally:
        for allocation in allocations:
            uids.release(allocation)


def _count_files_of(folder: Path, kernel: int, other_kernel: int) -> None:

    def make(path: Path, owner: int = 0, mode: int = 0o755, size: int = 0) -> Path:
        if size:
            path.write_bytes(b"x" * size)
        else:
            path.mkdir()
        os.chown(path, owner, owner)
        os.chmod(path, mode)
        return path

    world = make(folder / "tmp", mode=0o1777)
    make(world / "its file", kernel, 0o644, 5000)
    make(world / "root's file", 0, 0o644, 5000)
    checkout = make(world / "checkout")  # root's, read-only to others: only its folders are listed
    for i in range(50):
        make(checkout / f"module{i}.py", 0, 0o644, 10)
    make(make(checkout / "shared", mode=0o777) / "deep file", kernel, 0o644, 5000)
    make(make(make(world / "private", mode=0o700) / "unreachable", mode=0o777) / "never made by it", kernel, 0o644, 10)
    make(make(world / "its own folder", kernel, 0o777) / "hidden later", kernel, 0o644, 5000)
    os.chmod(world / "its own folder", 0o500)  # the kernel may change its own folder's mode
    make(make(world / "another kernel's folder", other_kernel, 0o777) / "lent", kernel, 0o644, 5000)
    os.chmod(world / "another kernel's folder", 0o700)  # ... and so may the kernel that lent it
    used, entries = disk_usage(world, 20000, owner=kernel)
    assert entries == 5  # four files and the kernel's own folder
    assert used >= 4 * 5000
    assert disk_usage(world, 20000, owner=other_kernel)[1] == 1


def test_the_installation_is_read_only(hostile):
    assert hostile["changed"] == []
    assert _passes(hostile["results"]["modifies_installation"])["99.unit_vector"]  # no file could be opened for writing


def test_the_grader_cannot_be_stopped_from_the_kernel(hostile):
    result = hostile["results"]["stops_every_process"]
    assert result.graded and _passes(result)["99.unit_vector"], result  # it saw no process to stop


def test_reports_carry_no_grader_memory_or_environment(hostile):
    result = hostile["results"]["leaks_grader_memory"]
    assert result.graded and result.score == 5 and "RuntimeError" in result.output
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in hostile["out"].iterdir()]
    for text in texts:
        assert SECRET not in text and "DIMRED_HOSTILE_SECRET" not in text
        assert "PYTEST_CURRENT_TEST" not in text


def test_forbidden_modules_cannot_be_imported_in_the_grading_kernel(hostile):
    internals = hostile["results"]["uses_checks_internals"]
    assert _passes(internals) == {**dict.fromkeys(EXERCISES, True), "99.column_means": False, "99.norm_of_means": False}
    assert "No module named 'dimred_teach.checks.set99'" in internals.output  # the kernel's view has no checks
    library = hostile["results"]["calls_the_library"]
    failed = {t.name: t.output for t in library.tests if not t.passed}
    assert list(failed) == ["04.classical_mds"], failed
    assert "exercise set 04 may not use dimred_teach.mds" in failed["04.classical_mds"]


def test_check_in_the_notebook_gives_the_same_verdict():
    """The policy hook of ``evaluate`` as ``check()`` runs it (with the notebook's globals):
    a function answer that calls the library, directly or through an import inside it, and
    an answer computed with the checks' internals, fail with the grader's plain words; an
    own implementation passes."""
    namespace: dict = {}
    exec("import numpy as np\nfrom dimred_teach.mds import classical_mds\n"
         "def direct(D, k):\n    return classical_mds(D, k).embedding\n"
         "def hidden(D, k):\n    import dimred_teach.mds as m\n    return m.classical_mds(D, k).embedding\n", namespace)
    clean: dict = {}  # a notebook that never imported the library's MDS
    exec("import numpy as np\n"
         "def own(D, k):\n    n = len(D)\n    H = np.eye(n) - 1 / n\n    w, V = np.linalg.eigh(-0.5 * H @ (D**2) @ H)\n"
         "    top = np.argsort(w)[::-1][:k]\n    return V[:, top] * np.sqrt(np.clip(w[top], 0, None))\n"
         "def hidden(D, k):\n    import dimred_teach.mds as m\n    return m.classical_mds(D, k).embedding\n", clean)
    for name in ("direct", "hidden"):
        verdict = evaluate("04.classical_mds", namespace[name], namespace=namespace)
        assert not verdict.passed and "exercise set 04 may not use dimred_teach.mds" in verdict.message, verdict
        assert evaluate("04.classical_mds", namespace[name]).passed  # not from a notebook: the library's tests
    assert evaluate("04.classical_mds", clean["own"], namespace=clean).passed
    verdict = evaluate("04.classical_mds", clean["hidden"], namespace=clean)  # seen only while it runs
    assert not verdict.passed and "exercise set 04 may not use dimred_teach.mds" in verdict.message, verdict
    cell = ("from dimred_teach import check\n"
            "def sample_covariance(X):\n    Xc = X - X.mean(axis=0)\n    return Xc.T @ Xc / (len(X) - 1)\n"
            "check('01.sample_covariance', sample_covariance)")
    with contextlib.redirect_stdout(io.StringIO()) as printed:  # the check's own reference helpers do not count
        exec(cell, {"np": np, "In": ["", cell]})
    assert printed.getvalue().startswith("[passed] 01.sample_covariance"), printed.getvalue()
    history = {"In": ["", "from dimred_teach.checks.set01 import _reference_covariance"]}
    verdict = evaluate("01.sample_covariance", np.eye(2), namespace=history)
    assert "exercise set 01 may not use dimred_teach.checks internals" in verdict.message


def test_a_function_cannot_answer_by_call_count(hostile):
    result = hostile["results"]["answers_by_call_count"]
    assert not _passes(result)["99.center"] and "seed" in next(t.output for t in result.tests if t.name == "99.center")


def test_report_names_are_unique_and_inside_out(hostile, tmp_path):
    out = hostile["out"]
    results = hostile["results"]
    assert len({r.report_name for r in results.values()}) == len(results)
    for result in results.values():
        assert (out / f"{result.report_name}.json").is_file() and len((result.report_name + ".json").encode()) <= 255
    assert results["bob smith"].report_name != results["bob_smith"].report_name
    assert "\ufffd" in results["not_utf8_name"].submission
    suites = ET.parse(out / "junit.xml").getroot()
    assert len(suites) == len(results)
    names = report_names([Path("../../../escaped report.ipynb"), Path("a/..ipynb"), Path("b/..ipynb")])
    assert all("/" not in n and not n.startswith(".") for n in names) and len(set(names)) == 3


def test_markdown_and_html_in_messages_are_escaped(hostile):
    text = (hostile["out"] / "summary.md").read_text(encoding="utf-8")
    assert "RuntimeError" in text
    for markup in ("![", "](", "**", "<b>", "| a |", "`code`", "_em_", "http://"):
        assert markup not in text.replace("| --- |", ""), markup
    result = SubmissionResult("x.ipynb", "x", "99", (TestResult("99.a", 0, 1, False, MARKDOWN),), MARKDOWN, 1.0, True)
    rendered = summary([result], 1.0)
    assert "img" in rendered and "!\\[img\\]" in rendered
    assert markdown_text("a\nb<c>") == "a b\\<c\\>"
    # rendered as GitHub renders a summary, the student's text is text: no link, image, tag or emphasis
    import markdown_it  # (jupytext's own Markdown parser)

    html = markdown_it.MarkdownIt("commonmark").enable("table").enable("strikethrough").render(rendered)
    for tag in ("<a ", "<img", "<strong>", "<em>", "<code>", "<b>", "<s>"):
        assert tag not in html, tag
    assert "<td>not yet: ![img](http://evil.example/x.png)" in html


def test_summary_names_read_as_themselves_in_a_terminal():
    """Issue 23: names were numeric character references (my&#45;work/01&#95;pca); they are plain now."""
    assert markdown_text("my-work/01_pca_lagrangian.ipynb") == "my-work/01_pca_lagrangian.ipynb"
    assert markdown_text("limits: 64 processes; 2048 MB") == "limits: 64 processes; 2048 MB"


def test_scrub_hides_environment_values():
    assert scrub(f"read {SECRET} from /proc", {"KEY": SECRET, "SHORT": "1"}) == "read [hidden] from /proc"


def test_the_user_sandbox_or_a_clear_refusal(fixture_set, tmp_path):
    """``--sandbox user`` (a root grader without user namespaces): the attacks on the
    grader's processes find nothing to write to or stop, and an honest notebook gets full
    marks; where it cannot work, the refusal says why."""
    try:
        choose("user")
    except SandboxUnavailable as error:
        assert "root" in str(error) and "--sandbox none" in str(error)
        return
    fs = fixture_set
    honest = _save(_answered(fs), tmp_path / "alice" / "99_grading_fixture.ipynb")
    forger = _save(_unit_unless(_answered(fs), FORGER + f"worked = forge({honest!r}) > 0"), tmp_path / "forger.ipynb")
    options = dataclasses.replace(fs["options"], sandbox="user", accept_readable_files=True)  # a readable checkout
    results = grade([forger, honest], tmp_path / "out", settle_run(options), jobs=2)
    assert [r.sandbox for r in results] == ["user", "user"]
    assert [r.score for r in results] == [5, 5], results


def test_a_stopped_grader_still_ends_with_reports(fixture_set, tmp_path):
    """Without a sandbox the kernel can reach the grading process and SIGSTOP it: the
    watchdog (its parent, given no handle to any kernel) ends the run and writes reports."""
    stopper = _insert_after(_answered(fixture_set), "import numpy", (
        "import os, signal\nworker = os.getppid()\n"
        "grader = int(open(f'/proc/{worker}/stat').read().rsplit(')', 1)[1].split()[1])\n"
        "os.kill(grader, signal.SIGSTOP)"))
    path = _save(stopper, tmp_path / "99_grading_fixture.ipynb")
    options = dataclasses.replace(fixture_set["options"], sandbox="none")
    script = ("import sys, pickle\nfrom dimred_teach.grading import grade_supervised, settle_run\n"
              "paths, out, options = pickle.loads(sys.stdin.buffer.read())\n"
              "results = grade_supervised(paths, out, settle_run(options), patience=8)\n"
              "print(results[0].output.splitlines()[-1])")
    run = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(([path], tmp_path / "out", options)),
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode()
    report = json.loads((tmp_path / "out" / "99_grading_fixture.json").read_text())
    assert report["score"] == 0 and "did not finish" in report["output"] and report["output"].startswith("not isolated")
    assert (tmp_path / "out" / "summary.md").is_file()


FORK_BOMB = """import os, resource, time
soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
if not 0 < hard <= 1024 or os.getuid() == 0:  # never light a bomb nothing contains
    raise RuntimeError(f'no process limit here ({hard}, uid {os.getuid()}): the bomb stays unlit')
parent = os.getpid()
try:
    while True:
        os.fork()
finally:
    if os.getpid() != parent:
        time.sleep(20)
        os._exit(0)"""
RESOURCE_ATTACKS = {  # name -> (code run after the imports, what the report must say)
    "fork_bomb": (FORK_BOMB, "resource limit: 64 processes/threads"),
    "allocates_50_gb": ("big = np.ones(50 * 2**30 // 8)", "resource limit: 2048 MB of memory"),
    "writes_a_huge_file": (
        "with open('huge', 'wb') as file:\n    for _ in range(50 * 1024):\n        file.write(bytes(2**20))",
        "resource limit: 64 MB per file",
    ),
    "fills_the_disk": (
        "for n in range(1000):\n    with open(f'part-{n}', 'wb') as file:\n"
        "        for _ in range(32):\n            file.write(bytes(2**20))",
        "256 MB",
    ),  # bwrap: a full tmpfs (ENOSPC, "256 MB of scratch space"); user: the kernel is stopped
    "opens_100k_files": (
        "files = []\nfor _ in range(100_000):\n    files.append(open('/dev/null'))",
        "resource limit: 1024 open files",
    ),
}


def _descendants(root: int) -> int:
    """How many processes descend from ``root`` now (sandboxed kernels and their children included)."""
    parents = {}
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        parents[int(pid)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = 0, {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier}
        found += len(frontier)
    return found


@pytest.fixture(scope="module")
def resource_run(fixture_set, tmp_path_factory):
    """The resource attacks and two honest notebooks in one run (jobs=2), with the number of
    processes under this test sampled every 50 ms."""
    import threading
    import time

    folder = tmp_path_factory.mktemp("resources")
    fs = fixture_set
    paths = {"honest": _save(_answered(fs), folder / "alice" / "99_grading_fixture.ipynb")}
    for name, (attack, _) in RESOURCE_ATTACKS.items():
        paths[name] = _save(_insert_after(_answered(fs), "import numpy", attack), folder / f"{name}.ipynb")
    paths["honest_last"] = _save(fs["solution"], folder / "99_grading_fixture.ipynb")
    options = dataclasses.replace(fs["options"], timeout=60, cell_timeout=30, file_mb=64, scratch_mb=256)
    samples, done = [], threading.Event()

    def sample():
        while not done.wait(0.05):
            samples.append(_descendants(os.getpid()))

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.monotonic()
    try:
        results = grade(list(paths.values()), folder / "out", settle_run(options), jobs=2)
    finally:
        done.set()
        sampler.join()
    return {"results": dict(zip(paths, results)), "elapsed": time.monotonic() - started, "samples": samples,
            "options": options, "out": folder / "out", "left": _descendants(os.getpid())}


def test_the_process_limit_applies_inside_the_sandbox(fixture_set, tmp_path):
    """Before any bomb: a kernel's process limit is set and really counts (the kernel is not
    root outside the sandbox), so the bomb in :func:`resource_run` cannot escape it."""
    probe = _insert_after(
        _answered(fixture_set),
        "import numpy",
        (
            "import os, resource, time\nassert resource.getrlimit(resource.RLIMIT_NPROC) == (64, 64)\nn = 0\n"
            "try:\n    for n in range(200):\n        if os.fork() == 0:\n"
            "            time.sleep(5)\n            os._exit(0)\n"
            "except BlockingIOError:\n    pass\nworked = n >= 199"
        ),
    )
    _code(probe, "# BEGIN").source = "w = np.array([2.0, 0.0, 0.0]) if worked else np.array([1.0, 0.0, 0.0])"
    result, = grade([_save(probe, tmp_path / "probe.ipynb")], tmp_path / "out", settle_run(fixture_set["options"]))
    assert result.sandbox in ("bwrap", "user") and result.score == 5, result


def test_resource_attacks_fail_alone_and_honest_notebooks_keep_full_marks(resource_run):
    results = resource_run["results"]
    for name in ("honest", "honest_last"):
        assert results[name].score == 5 and results[name].graded, results[name]
        assert results[name].execution_time < 20, results[name]
    for name, (_, said) in RESOURCE_ATTACKS.items():
        result = results[name]
        everything = result.output + "\n".join(t.output for t in result.tests)
        assert said in everything, (name, result)
        print(f"{name}: {result.score:g} / 5 in {result.execution_time:.1f} s")
    # the attack cells raise (their answers stay right); the disk filler loses its kernel
    disk = results["fills_the_disk"]
    if disk.sandbox == "bwrap":  # the scratch folder is a tmpfs of that size: the write fails, the kernel lives
        assert "resource limit: 256 MB of scratch space" in disk.output, disk
    else:
        assert all(t.output.startswith("not graded: resource limit") for t in disk.tests[1:]), disk
    # the run ends within one notebook's time limit and its own start and end: a kernel holding every file it may
    # open can stall in ipykernel's output (10 s for each flush it cannot signal) until that limit, under load
    assert resource_run["elapsed"] < resource_run["options"].timeout + 10, resource_run["elapsed"]


def test_the_process_count_stays_bounded(resource_run):
    """Two workers, each a kernel of at most 64 processes and threads, plus the grader's own."""
    print(f"processes under the grading run: at most {max(resource_run['samples'])} "
          f"({len(resource_run['samples'])} samples), {resource_run['left']} left after it")
    assert max(resource_run["samples"]) <= 2 * 64 + 20
    assert resource_run["left"] == 0


def test_reports_state_the_limits(resource_run):
    limits = resource_run["options"].limits_text(named(resource_run["results"]["honest"].sandbox))
    assert all(r.limits == limits for r in resource_run["results"].values())
    assert "64 processes/threads" in limits and "2048 MB memory" in limits
    assert f"Limits of each kernel: {markdown_text(limits)}." in (resource_run["out"] / "summary.md").read_text()
    honest = resource_run["results"]["honest"]
    report = json.loads((resource_run["out"] / f"{honest.report_name}.json").read_text())
    assert report["extra_data"]["limits"] == limits


LIBRARY_ANSWERS = {  # exercise -> (the solution's function, an answer by the forbidden function, the forbidden name)
    "05.tfidf": ("def my_tfidf", "def my_tfidf(counts):\n    return lsi.tfidf(counts).matrix.toarray()",
                 "dimred_teach.lsi.tfidf"),
    "05.fold_in": ("def fold_in", "def fold_in(space, counts):\n    return space.transform([' '.join(\n"
                   "        w for w, c in zip(space.vocabulary, counts) for _ in range(int(c)))])[0]",
                   "dimred_teach.lsi.LSIResult.transform"),
    "03.bootstrap_angle": ("def bootstrap_angle", "def bootstrap_angle(X, j, n_boot, seed):\n"
                           "    from dimred_teach.pca import bootstrap_pca\n"
                           "    return bootstrap_pca(X, j, n_boot=n_boot, seed=seed).angles[:, j - 1]",
                           "dimred_teach.pca.bootstrap_pca"),
    # the notebook names itself after a library module: the guard must not take it for one
    "09.t_statistic": ("def two_sample_t", "__name__ = 'dimred_teach.selection'\n"
                       "def two_sample_t(a, b):\n    X = np.concatenate([a, b])[:, None]\n"
                       "    y = np.r_[np.ones(len(a)), np.zeros(len(b))]\n"
                       "    return float(selection.t_statistic(X, y)[0])",
                       "dimred_teach.selection.t_statistic"),
}
SOLUTION_OF_SET = {"03": "03_biplots", "05": "05_lsi", "09": "09_feature_selection"}


def _library_answer(exercise: str) -> nbformat.NotebookNode:
    start, source, _ = LIBRARY_ANSWERS[exercise]
    notebook = nbformat.read(ROOT / "solutions" / f"{SOLUTION_OF_SET[exercise[:2]]}.ipynb", as_version=4)
    _code(notebook, start).source = source
    return notebook


def test_a_forbidden_function_answers_nothing_in_the_grading_kernel(tmp_path):
    """Set 05's set-up cells load the LSI space and the solution (searching it with its own
    fold_in) gets full marks; an answer calling lsi.tfidf, LSIResult.transform,
    pca.bootstrap_pca or (from a notebook posing as a library module) selection.t_statistic
    gets 0 for that exercise, with the policy's words, and nothing else."""
    paths = [_save(_library_answer(e), tmp_path / e / f"{SOLUTION_OF_SET[e[:2]]}.ipynb") for e in LIBRARY_ANSWERS]
    paths.append(os.fspath(ROOT / "solutions" / "05_lsi.ipynb"))
    options = GradingOptions(timeout=120, cell_timeout=60, call_timeout=20)
    results = grade(paths, tmp_path / "out", settle_run(options), jobs=2)
    for exercise, result in zip(LIBRARY_ANSWERS, results):
        failed = {t.name: t.output for t in result.tests if not t.passed}
        assert list(failed) == [exercise], (exercise, result)
        assert f"exercise set {exercise[:2]} may not use {LIBRARY_ANSWERS[exercise][2]}" in failed[exercise]
    assert results[-1].score == results[-1].max_score > 0, results[-1]


def test_check_in_the_notebook_refuses_a_forbidden_function():
    """``check()`` in a notebook gives the grader's verdict for a forbidden function called
    by the answer, while the set's other library calls (loading the LSI space, tokenising a
    query, which reads the module ``lsi`` that holds the absent function ``lsi.lsi``) stay allowed."""
    from dimred_teach import datasets, lsi

    namespace: dict = {"np": np, "lsi": lsi, "In": ["", "from dimred_teach import lsi"]}
    exec(LIBRARY_ANSWERS["05.tfidf"][1] + "\n" + "def own(counts):\n    n = counts.shape[0]\n"
         "    weighted = counts * np.log(n / (counts > 0).sum(axis=0))\n"
         "    return weighted / np.linalg.norm(weighted, axis=1, keepdims=True)\n", namespace)
    verdict = evaluate("05.tfidf", namespace["my_tfidf"], namespace=namespace)
    assert not verdict.passed and "exercise set 05 may not use dimred_teach.lsi.tfidf" in verdict.message, verdict
    namespace["space"] = datasets.load_corpus_space()  # the set-up cell
    assert evaluate("05.tfidf", namespace["own"], namespace=namespace).passed
    exec("def hidden_matches(ranking, texts, query):\n    words = set(lsi.tokenize(query))\n"
         "    return [row for row in ranking if not words & set(lsi.tokenize(texts[row]))]\n", namespace)
    assert evaluate("05.hidden_match", namespace["hidden_matches"], namespace=namespace).passed
    exec("def via_search(ranking, texts, query):\n"  # names a function the set's kernel does not hold, unused here
         "    return hidden_matches(ranking, texts, query) if ranking else lsi.search(texts, query)\n", namespace)
    verdict = evaluate("05.hidden_match", namespace["via_search"], namespace=namespace)
    assert not verdict.passed and "exercise set 05 may not use dimred_teach.lsi.search" in verdict.message, verdict
    assert evaluate("05.tfidf", namespace["my_tfidf"]).passed  # not from a notebook: the library's own tests
