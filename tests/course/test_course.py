"""course.py, the student's entry point: the my-work folder and the environments it runs with."""

import importlib.util
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("course_script", ROOT / "course.py")
course = importlib.util.module_from_spec(spec)
spec.loader.exec_module(course)


def make_course(root: Path, names) -> None:
    (root / "exercises").mkdir(parents=True, exist_ok=True)
    for name in names:
        (root / "exercises" / f"{name}.ipynb").write_text(f"blank {name}\n")
        (root / "exercises" / f"{name}.py").write_text("# readable copy\n")


def test_seeding_copies_blank_exercises_once_and_never_overwrites(tmp_path):
    make_course(tmp_path, ["01_a", "02_b"])
    assert course.seed_work_folder(tmp_path) == ["01_a.ipynb", "02_b.ipynb"]
    assert sorted(p.name for p in (tmp_path / "my-work").iterdir()) == ["01_a.ipynb", "02_b.ipynb"]
    (tmp_path / "my-work" / "01_a.ipynb").write_text("my answers\n")
    (tmp_path / "exercises" / "01_a.ipynb").write_text("updated blank\n")  # a course update changes the set
    make_course(tmp_path, ["03_c"])  # and adds one
    assert course.seed_work_folder(tmp_path) == ["03_c.ipynb"]
    assert (tmp_path / "my-work" / "01_a.ipynb").read_text() == "my answers\n"
    (tmp_path / "my-work" / "02_b.ipynb").unlink()  # deleting a copy brings back a blank one
    assert course.seed_work_folder(tmp_path) == ["02_b.ipynb"]


def test_environments_match_the_stored_outputs():
    base = {"MPLBACKEND": "Agg", "PATH": "/bin", "OMP_NUM_THREADS": "8"}
    env = course.course_environment(base)
    assert "MPLBACKEND" not in env and env["OMP_NUM_THREADS"] == "1" and env["PATH"] == "/bin"
    lab = course.lab_environment(ROOT, base=base)
    assert lab["JUPYTER_CONFIG_DIR"] == str(ROOT / ".jupyter") and lab["DIMRED_TEACH_LAB"] == "student"
    assert course.lab_environment(ROOT, lecturer=True, base=base)["DIMRED_TEACH_LAB"] == "lecturer"


def test_my_work_and_jupyterlab_state_are_ignored_by_git():
    ignored = ["my-work/01_pca_lagrangian.ipynb", ".jupyter/lab/workspaces/default.jupyterlab-workspace",
               ".jupyter/lab/user-settings/x.jupyterlab-settings"]
    tracked = [".jupyter/jupyter_server_config.py", ".jupyter/labconfig/default_setting_overrides.json",
               ".jupyter/labextensions/dimred-teach-figure-descriptions/static/remoteEntry.js"]
    result = subprocess.run(["git", "check-ignore", "--no-index", *ignored, *tracked], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.stdout.split() == ignored


def test_the_student_lab_shows_the_grading_reports(monkeypatch):
    """Issue 23: ``course.py grade`` announces grading-out/; the student's file browser shows it
    (read-only, like everything outside my-work/), and still hides the course's internals."""
    from traitlets.config import Config

    for mode, hidden in (("student", True), ("lecturer", False)):
        monkeypatch.setenv("DIMRED_TEACH_LAB", mode)
        config = Config()
        path = ROOT / ".jupyter" / "jupyter_server_config.py"
        # as traitlets' config loader runs it: get_config and the file's own path
        exec(
            compile(path.read_text(), str(path), "exec"),
            {"get_config": lambda config=config: config, "__file__": str(path)},
        )
        globs = config.ContentsManager.hide_globs
        assert "grading-out" not in globs
        assert ("dimred_teach" in globs) is hidden and ("tests" in globs) is hidden


def test_the_notes_are_cited_by_title_never_by_a_path():
    """Issue 22: the lecture notes are cited by title and institution; a path to a file that is not in
    the repository (``seeds/000``, "file 002") tells a reader nothing."""
    import re

    from dimred_teach.course.manifest import read_manifest

    sources = [path for lecture in read_manifest(ROOT) for path in (lecture.lecture_source, lecture.solution_source)]
    sources += ROOT.glob("dimred_teach/**/*.py")
    offenders = [f"{path.relative_to(ROOT)}:{number}" for path in sources
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 if re.search(r"seeds/\d|seeds file|\bfile 00\d", line)]
    assert offenders == []


def test_installs_take_the_pinned_versions_with_pip_or_with_uv_on_the_path():
    pip = [str(part) for part in course.install_command(".[test]", None)]
    uv = [str(part) for part in course.install_command(".[test]", "/opt/bin/uv")]
    assert pip[:4] == [str(course.BIN / "python"), "-m", "pip", "install"]
    assert uv[:3] == ["/opt/bin/uv", "pip", "install"] and uv[uv.index("--python") + 1] == str(course.BIN / "python")
    assert "--compile-bytecode" in uv  # sandboxed kernels cannot write bytecode: it must come with the install
    for command in (pip, uv):
        assert command[-4:] == ["-c", "constraints.txt", "-e", ".[test]"]


def test_without_bubblewrap_the_test_command_stops_with_one_line_naming_the_package(tmp_path):
    """Issue 39: on a machine without bubblewrap, `course.py test` says how to install it (exit 2)
    before it installs or runs anything, instead of ten errors from the grader's tests."""
    import os
    import sys

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    result = subprocess.run([str(bin_dir / "python3"), str(ROOT / "course.py"), "test", "tests/test_pca.py"],
                            env={"PATH": str(bin_dir), "HOME": os.environ.get("HOME", "/root")},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert "bubblewrap" in result.stderr and "apt-get install bubblewrap" in result.stderr
    assert course.missing_system_program("test", which=lambda name: "/usr/bin/bwrap") is None
    assert course.missing_system_program("grade", which=lambda name: None) is None  # reports say which sandbox


def test_a_python_without_venv_support_gets_one_line_naming_python3_venv(monkeypatch):
    """Debian's python3 lacks ensurepip until python3-venv is installed: without uv, say so."""
    import builtins

    real_import = builtins.__import__

    def no_ensurepip(name, *args, **kwargs):
        if name == "ensurepip":
            raise ImportError("No module named 'ensurepip'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ensurepip)
    monkeypatch.setattr(course, "VENV", Path("/nonexistent/never-created"))
    try:
        course.create_venv(None)
    except course.MissingVenv as error:
        assert "apt-get install python3-venv" in str(error) and "\n" not in str(error)
    else:
        raise AssertionError("no MissingVenv")


def _declared(requirements) -> set[str]:
    import re

    return {re.match(r"[A-Za-z0-9_.-]+", r).group().lower().replace("_", "-") for r in requirements}


def test_every_module_the_core_commands_import_is_installed_by_the_core_dependencies():
    """Issue 39: `demo-class` crashed on a core install (cloudpickle came only with the test
    extra). Every third-party module the library imports must come with the core dependencies
    (or what they require), except the modules of the site and similarity extras and the lectures'
    widgets (lab)."""
    import ast
    import importlib.metadata as metadata
    import re
    import sys
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    closure, todo = set(), list(_declared(project["dependencies"]))
    while todo:
        name = todo.pop()
        if name in closure:
            continue
        closure.add(name)
        try:
            requirements = metadata.requires(name) or []
        except metadata.PackageNotFoundError:  # required only elsewhere (a marker: another OS or Python)
            continue
        for requirement in requirements:
            if "extra ==" not in requirement:
                todo += _declared([requirement])
    providers = metadata.packages_distributions()
    needs_extra = {"course/site.py": "site", "course/slides.py": "site", "gradebook/similarity.py": "similarity",
                   "gradebook/similarity_page.py": "similarity"}
    undeclared = []
    for path in sorted((ROOT / "dimred_teach").rglob("*.py")):
        relative = path.relative_to(ROOT / "dimred_teach").as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            for top in {name.split(".")[0] for name in names}:
                if top in sys.stdlib_module_names or top == "dimred_teach" or top not in providers:
                    continue
                distributions = {re.sub(r"[_.]", "-", d.lower()) for d in providers[top]}
                if not distributions & closure and not (relative in needs_extra or top == "ipywidgets"):
                    undeclared.append(f"{relative}: {top}")
    assert not undeclared, undeclared
    lab = _declared(project["optional-dependencies"]["lab"])
    assert {"jupyterlab", "ipywidgets", "jupyterlab-rise"} <= lab and not lab & _declared(project["dependencies"])
    assert course.EXTRAS["lab"] == "lab" and course.EXTRAS["grade"] == ""


def test_readme_and_the_grading_guide_quote_the_same_measured_grading_times():
    """Issue 39: the README promised 46 s and docs/grading.md 30 a minute; both now quote the
    grading benchmark (tests/benchmarks/grading.py), and the same numbers."""
    import re

    readme, guide = (ROOT / "README.md").read_text(), (ROOT / "docs" / "grading.md").read_text()
    assert (ROOT / "tests" / "benchmarks" / "grading.py").is_file()
    quoted = []
    for text in (readme, guide):
        assert "python -m tests.benchmarks grading" in text
        paragraph = " ".join(text[text.index("python -m tests.benchmarks grading"):].split("\n\n")[0].split())
        quoted.append(re.findall(r"(\d[\d.,]*) (s|a minute)\b", paragraph))
    assert quoted[0] and quoted[0] == quoted[1], quoted


def test_an_install_that_brought_an_extra_is_not_repeated_for_what_it_includes(tmp_path, monkeypatch):
    """Issue 51.7: after `course.py lab` (the lab extra, which includes the core), the first
    `build --check` (the core) reinstalled the core (33 s). An install now satisfies every
    command whose extras it brought; a new extra, or a changed constraints.txt, installs again."""
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    root = tmp_path / "course"
    root.mkdir()
    for name in ("pyproject.toml", "constraints.txt"):
        (root / name).write_bytes((ROOT / name).read_bytes())
    ran = []
    monkeypatch.setattr(course, "ROOT", root)
    monkeypatch.setattr(course, "VENV", venv)
    monkeypatch.setattr(course, "BIN", venv / "bin")
    monkeypatch.setattr(course, "run", lambda *command, env=None: ran.append(command[-1]))
    for command in ("lab", "build", "grade", "execute", "lab"):
        course.install(course.EXTRAS[command])
    assert ran == [".[lab]"]
    course.install(course.EXTRAS["test"])
    course.install(course.EXTRAS["lab"])
    assert ran == [".[lab]", ".[test]"]
    (root / "constraints.txt").write_text((ROOT / "constraints.txt").read_text() + "\n")
    course.install(course.EXTRAS["build"])
    assert ran == [".[lab]", ".[test]", "."]
    assert course.included_extras("test,browser") == {"", "lab", "similarity", "test", "site", "browser"}
