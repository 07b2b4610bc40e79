"""The course's manifest (``course.toml``) and ``dimred-teach new`` (issue 25)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dimred_teach.course.manifest import MANIFEST, ManifestError, header_problems, read_manifest

pytestmark = pytest.mark.slow(seconds=100)

ROOT = Path(__file__).resolve().parents[2]


def write_manifest(folder: Path, rows: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MANIFEST).write_text(rows)
    return folder


ROW = '''[[lecture]]
number = "{number}"
slug = "demo"
title = "Demo"
minutes = 30
summary = "A demo."
notes = []
exercises = false
'''


def test_the_manifest_lists_every_lecture_and_only_it_names_files():
    lectures = read_manifest(ROOT)
    assert [lecture.number for lecture in lectures] == [f"{n:02d}" for n in range(1, len(lectures) + 1)]
    on_disk = sorted(path.name for path in (ROOT / "notebooks").glob("*.py"))
    assert on_disk == sorted(lecture.lecture_source.name for lecture in lectures)
    assert all(header_problems(lecture) == [] for lecture in lectures)
    # no module outside the manifest's reader spells the file-name pattern
    spelled = [str(path.relative_to(ROOT)) for path in [*ROOT.glob("dimred_teach/**/*.py"), ROOT / "course.py",
                                                        *ROOT.glob("tests/**/*.py")]
               if path.name not in ("manifest.py", "test_manifest.py") and "[0-9][0-9]_" in path.read_text()]
    assert spelled == []


@pytest.mark.parametrize("rows, message", [
    (ROW.format(number="02"), r"numbered 01, 02, \.\.\. in order, got \['02'\]"),
    (ROW.format(number="01") + "colour = 1\n", r"unknown field\(s\) \['colour'\]"),
    (ROW.format(number="01").replace("minutes = 30", 'minutes = "30"'), "minutes must be a int"),
    (ROW.format(number="01").replace('slug = "demo"', 'slug = "Demo Topic"'), "slug lowercase words"),
    (ROW.format(number="01").replace('summary = "A demo."\n', ""), r"missing field\(s\) \['summary'\]"),
    ("[[lecture]\n", "course.toml"),
])
def test_a_bad_manifest_is_refused_with_the_reason(tmp_path, rows, message):
    with pytest.raises(ManifestError, match=message):
        read_manifest(write_manifest(tmp_path, rows))


def test_a_lecture_that_disagrees_with_its_row_fails_the_build(tmp_path, capsys):
    from dimred_teach import cli

    root = write_manifest(tmp_path, ROW.format(number="01"))
    (root / "notebooks").mkdir()
    source = root / "notebooks" / "01_demo.py"
    source.write_text("# %% [markdown]\n# # 01 · Demo\n#\n# *Time: about 30 minutes.*\n")
    assert header_problems(read_manifest(root)[0]) == []
    source.write_text("# %% [markdown]\n# # 01 · Another title\n#\n# *Time: about 45 minutes.*\n")
    problems = header_problems(read_manifest(root)[0])
    assert any("heading must be '# 01 · Demo'" in problem for problem in problems)
    assert any("must say 'about 30 minutes'" in problem and "'about 45 minutes'" in problem for problem in problems)
    assert cli.main(["build", "--check", "--root", str(root)]) == 1
    assert "heading must be" in capsys.readouterr().err


def course_copy(destination: Path) -> Path:
    """The course's files (tracked and new, not ignored: what a fresh clone of this commit has), in ``destination``."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, destination / name)
    return destination


def _pytest_in(course: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    """pytest run in the course copy ``course`` on ``args``, without the project's addopts."""
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-p",
                           "dimred_teach._fast_start", *args], cwd=course, env=env, capture_output=True, text=True,
                          timeout=600)


def test_new_scaffolds_a_lecture_that_builds_and_whose_checks_are_proven(tmp_path):
    """Issue 25's "done when": `new 13 demo_topic "Demo topic"`, then `build`: set 13 is listed in
    START_HERE.md and the README's course map, `build --check` passes, the proofs of set 13 pass."""
    course = course_copy(tmp_path / "course")
    env = dict(os.environ, PYTHONPATH=str(course))  # the copy's package, with its new checks module

    def tool(*args, expect=0):
        result = subprocess.run([sys.executable, "-m", "dimred_teach", *args, "--root", str(course)], cwd=course,
                                env=env, capture_output=True, text=True, timeout=300)
        assert result.returncode == expect, result.stdout + result.stderr
        return result.stdout + result.stderr

    number = f"{len(read_manifest(ROOT)) + 1:02d}"
    assert "must be the next lecture's" in tool("new", "99", "demo_topic", "Demo topic", expect=2)
    assert "slug must be lowercase" in tool("new", number, "Demo-Topic", "Demo topic", expect=2)
    tool("new", number, "demo_topic", "Demo topic")
    assert "must be the next lecture's" in tool("new", number, "demo_topic", "Again", expect=2)
    tool("build")
    tool("build", "--check")
    stem = f"{number}_demo_topic"
    assert f"[Demo topic](notebooks/{stem}.ipynb)" in (course / "START_HERE.md").read_text()
    assert re.search(rf"\| {number} \| `notebooks/{stem}` \| `exercises/{stem}` \| 30 min \|",
                     (course / "README.md").read_text())
    assert (course / "exercises" / f"{stem}.ipynb").is_file()
    proofs = _pytest_in(course, env, "-p", "no:randomly", "tests/checks/test_check_proofs.py", "-k", f"{number}.")
    assert proofs.returncode == 0, proofs.stdout[-3000:]
    assert re.search(r"(\d+) passed", proofs.stdout) and int(re.search(r"(\d+) passed", proofs.stdout)[1]) >= 7
    lecture = _pytest_in(course, env, "--nbval", "--nbval-sanitize-with=tests/sanitize.cfg", f"notebooks/{stem}.ipynb",
                         f"solutions/{stem}.ipynb")
    assert lecture.returncode == 0, lecture.stdout[-3000:]
    # issue 43: a slug names one lecture; rename moves a lecture's files; an orphan fails the check;
    # remove takes the last lecture out again, leaving the course as it was
    assert "is lecture 04's already" in tool("new", f"{int(number) + 1:02d}", "mds", "Again", expect=2)
    assert "is lecture 04's already" in tool("rename", number, "mds", expect=2)
    tool("rename", number, "demo_renamed")
    assert not (course / "notebooks" / f"{stem}.py").exists()
    assert (course / "solutions" / f"{number}_demo_renamed.ipynb").is_file()
    tool("build")
    tool("build", "--check")
    manifest = (course / MANIFEST).read_text()
    (course / MANIFEST).write_text((ROOT / MANIFEST).read_text())
    found = tool("build", "--check", expect=1)
    for orphan in (f"notebooks/{number}_demo_renamed.py", f"solutions/{number}_demo_renamed.ipynb",
                   f"dimred_teach/checks/set{number}.py", f"tests/check_cases/set{number}.py"):
        assert f"{orphan} belongs to no lecture of course.toml" in found
    (course / MANIFEST).write_text(manifest)
    assert "only the last lecture" in tool("remove", "05", expect=2)
    removed = tool("remove", number)
    assert removed.count("deleted ") >= 8
    tool("build")
    tool("build", "--check")
    assert (course / MANIFEST).read_text() == (ROOT / MANIFEST).read_text()
    assert (
        not list(course.glob(f"*/{number}_*")) and not (course / "dimred_teach" / "checks" / f"set{number}.py").exists()
    )


def test_a_slug_names_one_lecture(tmp_path):
    rows = ROW.format(number="01") + "\n" + ROW.format(number="02")
    with pytest.raises(ManifestError, match="demo names several"):
        read_manifest(write_manifest(tmp_path, rows))


def test_build_check_refuses_a_source_that_is_not_python(tmp_path, capsys):
    from dimred_teach import cli

    root = write_manifest(tmp_path, ROW.format(number="01"))
    (root / "notebooks").mkdir()
    source = root / "notebooks" / "01_demo.py"
    source.write_text("# %% [markdown]\n# # 01 · Demo\n#\n# *Time: about 30 minutes.*\n# a formula\nwith its words\n")
    assert cli.main(["build", "--check", "--root", str(root)]) == 1
    assert "01_demo.py:6: not valid Python" in capsys.readouterr().err
