"""The exercise generator: stubs, check cells, sync detection."""

import json
import shutil
import textwrap
from pathlib import Path

import nbformat
import pytest

from dimred_teach import cli
from dimred_teach.course.build import heading_problems, lecture_sections
from dimred_teach.course.execution import KERNELSPEC, WIDGET_VIEW, notebook_text
from dimred_teach.course.exercises import SolutionMarkupError, build_exercise, strip_solutions
from dimred_teach.course.manifest import read_manifest

ROOT = Path(__file__).resolve().parents[2]


def test_top_level_block_becomes_named_ellipses():
    code = "x = 1\n# BEGIN SOLUTION\na, (b, c) = 1, (2, 3)\nd += 1\nprint(a)\n# END SOLUTION\ny = 2"
    assert strip_solutions(code) == "x = 1\n# YOUR CODE HERE\na = ...\nb = ...\nc = ...\nd = ...\ny = 2"


def test_block_without_assignment_becomes_pass():
    """Issue 39: a bare ``...`` as a cell's last line printed ``Ellipsis``; ``pass`` prints nothing."""
    assert strip_solutions("# BEGIN SOLUTION\nprint(1)\n# END SOLUTION") == "# YOUR CODE HERE\npass"


def test_an_exercise_notebook_opened_alone_says_how_to_install_the_package(tmp_path):
    """Issue 39: outside the course (Colab, a downloaded file) the set-up cell stops with a
    `%pip install` line naming the course's repository (course.toml's [course] repository)."""
    import json
    import subprocess
    import sys

    from dimred_teach.course.exercises import build_exercise, install_guard

    notebook, _, _ = build_exercise(ROOT / "solutions" / "04_mds.py", "https://example.org/course.git")
    setup = next(cell for cell in notebook.cells if cell.cell_type == "code")
    assert setup.source.startswith(install_guard("https://example.org/course.git"))
    script = tmp_path / "setup.py"
    script.write_text(setup.source)
    alone = subprocess.run([sys.executable, "-I", "-S", str(script)], capture_output=True, text=True, timeout=60)
    (last,) = alone.stderr.strip().splitlines()[-1:]
    assert last == ("ModuleNotFoundError: the course package is not installed; run this in a cell, then restart the "
                    "kernel: %pip install 'dimred-teach @ git+https://example.org/course.git'"), alone.stderr
    committed = json.loads((ROOT / "exercises" / "04_mds.ipynb").read_text())
    first = next(c for c in committed["cells"] if c["cell_type"] == "code")
    assert "".join(first["source"]).startswith("import importlib.util")


def test_indented_block_raises_not_implemented():
    code = textwrap.dedent("""\
        def f(x):
            \"\"\"Doc.\"\"\"
            # BEGIN SOLUTION
            y = x + 1
            return y
            # END SOLUTION""")
    stub = strip_solutions(code)
    assert "return y" not in stub and "y = x + 1" not in stub
    namespace = {}
    exec(stub, namespace)
    with pytest.raises(NotImplementedError):
        namespace["f"](1)


def test_single_solution_lines():
    code = "def f(x):\n    return x * 2  # SOLUTION\nanswer = f(3)  # SOLUTION"
    stub = strip_solutions(code)
    assert "x * 2" not in stub and "f(3)" not in stub
    assert stub.endswith("answer = ...")


@pytest.mark.parametrize("code", [
    "# BEGIN SOLUTION\nx = 1",
    "x = 1\n# END SOLUTION",
    "# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION",
])
def test_unbalanced_markers_are_refused(code):
    with pytest.raises(SolutionMarkupError):
        strip_solutions(code)


HEADING = ("# %% [markdown]\n# # Solutions 01 · Demo\n#\n# *Time: about 5 minutes.*\n#\n"
           "# **Objectives.** After this set you can\n# 1. find the top direction.\n\n"
           "# %% [markdown]\n# ## Exercise 1 · The top direction *(5 min, lecture §2)*\n\n")


def write_solution(folder: Path, body: str, heading: str = HEADING) -> Path:
    """``solutions/01_demo.py`` with ``body`` after the heading every solution source starts with."""
    path = folder / "solutions" / "01_demo.py"
    path.parent.mkdir(parents=True)
    path.write_text(heading + body)
    return path


def test_check_cells_get_ids_tags_and_points(tmp_path):
    path = write_solution(tmp_path, textwrap.dedent("""\
        # %%
        from dimred_teach import check
        w = 1  # SOLUTION

        # %% points=3
        check("01.top_direction", w)

        # %% [markdown] tags=["solution"]
        # The answer is secret.
        #
        # **Rubric.**
        #
        # - 1 point: says the hidden thing.
        """))
    notebook, text, spec = build_exercise(path)
    check_cell = notebook.cells[3]  # after the heading, the exercise's heading and the set-up
    assert check_cell.id == "check-01-top_direction"
    assert check_cell.metadata["tags"] == ["check"] and check_cell.metadata["points"] == 3
    assert spec["max_score"] == 3 and spec["checks"][0]["cell_index"] == 3
    assert "secret" not in text and "SOLUTION" not in text and "hidden thing" not in text
    assert notebook.metadata["dimred_teach"]["exercise_set"] == "01_demo"


WRITTEN = textwrap.dedent("""\
    # %%
    from dimred_teach import check
    w = 1  # SOLUTION

    # %% points=2
    check("01.top_direction", w)

    # %% [markdown] tags=["solution"]
    # **Why.** The model answer, with $\\lambda_1$.
    #
    # **Rubric.**
    #
    # - 1 point: names the first eigenvalue.
    # - 2.5 points: says why it is the largest,
    #   in two lines.

    # %% [markdown] tags=["solution"]
    # A second part.
    #
    # **Rubric.**
    # - 1 point: anything.
    """)


def test_written_answers_are_marked_cells_with_their_points_in_the_spec_and_no_model_answer(tmp_path):
    """Issue 50.1: every written answer's cell carries its exercise and part in its metadata (the student's
    copy still reads "**Your answer:**"); the spec has its points; the model answer and the rubric stay in the
    solution source."""
    from dimred_teach.course.written_parts import RubricItem, read_written_parts

    path = write_solution(tmp_path, WRITTEN)
    notebook, text, spec = build_exercise(path)
    answers = [cell for cell in notebook.cells if cell.id.startswith("written-")]
    assert [cell.id for cell in answers] == ["written-01-top_direction-1", "written-01-top_direction-2"]
    assert [cell.metadata["dimred_teach"]["written"] for cell in answers] == [
        {"exercise": "01.top_direction", "part": 1}, {"exercise": "01.top_direction", "part": 2}]
    assert all(cell.source == "**Your answer:** *(write it here)*" for cell in answers)
    assert spec["written"] == [
        {"exercise": "01.top_direction", "part": 1, "points": 3.5, "cell_id": "written-01-top_direction-1",
         "cell_index": 4},
        {"exercise": "01.top_direction", "part": 2, "points": 1.0, "cell_id": "written-01-top_direction-2",
         "cell_index": 5}]
    assert notebook.cells[4].id == spec["written"][0]["cell_id"]
    for generated in (text, json.dumps(spec), json.dumps(notebook)):
        assert "model answer" not in generated and "Rubric" not in generated and "eigenvalue" not in generated
    first, second = read_written_parts(path)
    assert first.model_answer == "**Why.** The model answer, with $\\lambda_1$."
    assert first.rubric == (RubricItem(1.0, "names the first eigenvalue."),
                            RubricItem(2.5, "says why it is the largest, in two lines."))
    assert first.title == "Exercise 1 · The top direction" and second.part == 2 and second.points == 1


def test_the_course_marks_its_33_written_answers_and_keeps_their_answers_out_of_every_student_file():
    """Every ``**Your answer:**`` cell of the exercise notebooks is a marked written part with a rubric; no
    model answer or rubric item reaches exercises/ or the specs (which a student's copy of the package holds)."""
    from dimred_teach.course.written_parts import read_written_parts

    marked, parts = 0, []
    for lecture in read_manifest(ROOT):
        if not lecture.exercises:
            continue
        notebook = nbformat.read(lecture.exercise_notebook, as_version=4)
        answers = [cell for cell in notebook.cells if cell.source.startswith("**Your answer:**")]
        assert all(cell.metadata["dimred_teach"]["written"] for cell in answers)
        marked += len(answers)
        own = read_written_parts(lecture.solution_source)
        spec = json.loads((ROOT / "dimred_teach" / "exercise_specs" / f"{lecture.stem}.json").read_text())
        assert [(p.exercise, p.part, p.points) for p in own] == [(w["exercise"], w["part"], w["points"])
                                                                 for w in spec["written"]]
        student_files = [
            lecture.exercise_notebook.read_text(),
            lecture.exercise_notebook.with_suffix(".py").read_text(),
            json.dumps(spec),
        ]
        for part in own:
            assert 2 <= part.points <= 3
            for secret in (part.model_answer.split("\n")[0], *(item.text for item in part.rubric)):
                assert not any(secret in text for text in student_files), (part.exercise, secret)
        parts += own
    assert marked == len(parts) == 34


@pytest.mark.parametrize("change, message", [
    (("# **Rubric.**\n", ""), "ends with its rubric"),
    (("# - 1 point: anything.", "# - one point: anything."), "is not an item"),
    (("# - 1 point: anything.", "# - 0 points: anything."), "positive points"),
    (('check("01.top_direction", w)', 'check("01.top_direction", w)\n\n# %%\ncheck("01.best_projection", w)'),
     "has 2 checks"),
    (("# A second part.", "# A second part.\n#\n# ## Exercise 2 · More *(5 min, lecture §2)*"),
     "holds the heading of exercise 2"),
])
def test_a_written_answer_that_cannot_be_graded_is_refused_naming_the_cell(tmp_path, change, message):
    """Issue 50.1 (and set 04, whose exercise 4 answer swallowed exercise 5's heading and prompt, so that no
    student ever saw them)."""
    with pytest.raises(ValueError, match=message):
        build_exercise(write_solution(tmp_path, WRITTEN.replace(*change)))


def test_a_written_exercise_without_a_check_names_its_id(tmp_path):
    body = WRITTEN.replace('# %% [markdown] tags=["solution"]\n# A second part.',
                           '# %% [markdown]\n# ## Exercise 2 · Only words *(5 min, lecture §2)*\n\n'
                           '# %% [markdown] exercise="01.only_words" tags=["solution"]\n# A second part.')
    heading = HEADING.replace("about 5 minutes", "about 10 minutes").replace(
        "# 1. find the top direction.\n", "# 1. find the top direction;\n# 2. say it.\n")
    _, _, spec = build_exercise(write_solution(tmp_path, body, heading))
    assert [w["exercise"] for w in spec["written"]] == ["01.top_direction", "01.only_words"]
    with pytest.raises(ValueError, match="has 0 checks"):
        build_exercise(write_solution(tmp_path / "bad", body.replace(' exercise="01.only_words"', ""), heading))


@pytest.mark.parametrize("cell, message", [
    ('check("01.no_such_exercise", 1)', "unknown"),
    ('check("02.smallest_k", 1)', "must start with 01"),
    ('x = 1\ncheck("01.top_direction", x)', "exactly one"),
])
def test_bad_check_cells_are_refused(tmp_path, cell, message):
    path = write_solution(tmp_path, f"# %%\n{cell}\n")
    with pytest.raises(ValueError, match=message):
        build_exercise(path)


def test_solutions_are_headed_solutions_and_exercises_exercises(tmp_path):
    """Issue 23: three tabs named 04_mds.ipynb; the solution's heading says Solutions, the
    student's copy Exercises, and the build refuses a source without the heading."""
    body = '# %%\nfrom dimred_teach import check\nw = 1  # SOLUTION\n\n# %%\ncheck("01.top_direction", w)\n'
    notebook, _, _ = build_exercise(write_solution(tmp_path / "good", body))
    assert notebook.cells[0].source.startswith("# Exercises 01 · Demo")
    with pytest.raises(ValueError, match="Solutions 01"):
        build_exercise(write_solution(tmp_path / "bad", body, heading=HEADING.replace("Solutions 01", "Exercises 01")))
    for lecture in read_manifest(ROOT):
        assert lecture.solution_source.read_text().split("\n")[1].startswith(f"# # Solutions {lecture.number} · ")


@pytest.mark.parametrize(
    "change, message",
    [
        (("about 5 minutes", "about 40 minutes"), "must say '\\*Time: about 5 minutes"),
        (("# 1. find the top direction.\n", ""), "one item per exercise \\(1\\); it has 0"),
        (
            ("Exercise 1 · The top direction *(5 min, lecture §2)*", "Exercise 1 · The top direction"),
            "before any exercise heading",
        ),
        (("Exercise 1 · The", "Exercise 2 · The"), r"found numbers \[2\]"),
    ],
)
def test_a_header_that_no_longer_describes_its_exercises_is_refused(tmp_path, change, message):
    """Issue 22, item 11: a stale time or list of objectives fails the build, naming what to fix."""
    body = '# %%\nfrom dimred_teach import check\nw = 1  # SOLUTION\n\n# %%\ncheck("01.top_direction", w)\n'
    build_exercise(write_solution(tmp_path / "good", body))
    with pytest.raises(ValueError, match=message):
        build_exercise(write_solution(tmp_path / "bad", body, heading=HEADING.replace(*change)))


def test_a_second_exercise_needs_its_objective_and_its_minutes(tmp_path):
    body = ('# %%\nfrom dimred_teach import check\nw = 1  # SOLUTION\n\n# %%\ncheck("01.top_direction", w)\n\n'
            '# %% [markdown]\n# ## Exercise 2 · Again *(10 min, lecture §1)*\n')
    with pytest.raises(ValueError, match="about 15 minutes"):
        build_exercise(write_solution(tmp_path / "time", body))
    heading = HEADING.replace("about 5 minutes", "about 15 minutes")
    with pytest.raises(ValueError, match="one item per exercise \\(2\\); it has 1"):
        build_exercise(write_solution(tmp_path / "objective", body, heading=heading))
    heading = heading.replace("# 1. find the top direction.\n", "# 1. find the top direction;\n# 2. again.\n")
    build_exercise(write_solution(tmp_path / "both", body, heading=heading))


@pytest.mark.parametrize("section, problem", [
    ("2", None),
    ("1", "names lecture section 1, which mentions none of the title's words"),
    ("4", "names lecture section 4, which 01_demo.py does not have"),
])
def test_an_exercise_heading_names_a_section_that_teaches_its_idea(tmp_path, section, problem):
    """Issue 40, item 10: the section a heading names exists and mentions the exercise's idea (a word of its title)."""
    lecture = tmp_path / "notebooks" / "01_demo.py"
    lecture.parent.mkdir(parents=True)
    lecture.write_text("# %% [markdown]\n# ## 1. Data\n# The crabs.\n\n# %% [markdown]\n# ## 2. Maximum variance\n"
                       "# The top-direction vector maximises the variance.\n\n# %% [markdown]\n# ## 3. Summary\n")
    heading = HEADING.replace("lecture §2", f"lecture §{section}")
    problems = heading_problems(write_solution(tmp_path, "", heading=heading), lecture)
    assert problems == [] if problem is None else len(problems) == 1 and problem in problems[0]
    assert lecture_sections(lecture.read_text()).keys() == {1, 2, 3}


def test_build_check_passes_on_the_repository(capsys):
    assert cli.main(["build", "--check", "--root", str(ROOT)]) == 0
    assert "0 problem(s)" in capsys.readouterr().out


def test_build_check_detects_a_hand_edited_exercise_and_a_stale_pair(tmp_path, capsys):
    for folder in ("solutions", "exercises", "notebooks"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    shutil.copyfile(ROOT / "course.toml", tmp_path / "course.toml")
    exercise = tmp_path / "exercises" / "01_pca_lagrangian.ipynb"
    notebook = nbformat.read(exercise, as_version=4)
    notebook.cells[2].source += "\n# edited by hand"
    nbformat.write(notebook, exercise)
    lecture = tmp_path / "notebooks" / "01_pca_lagrangian.py"
    lecture.write_text(lecture.read_text() + "\n# %%\nprint('new cell')\n")
    assert cli.main(["build", "--check", "--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "01_pca_lagrangian.ipynb is out of date" in out
    assert "notebooks/01_pca_lagrangian.ipynb has" in out


def test_specs_match_the_exercise_notebooks():
    for spec_file in (ROOT / "dimred_teach" / "exercise_specs").glob("*.json"):
        spec = json.loads(spec_file.read_text())
        notebook = nbformat.read(ROOT / "exercises" / f"{spec['exercise_set']}.ipynb", as_version=4)
        for entry in spec["checks"]:
            cell = notebook.cells[entry["cell_index"]]
            assert cell.id == entry["cell_id"] and cell.source == entry["source"]


GENERATED = [path for lecture in read_manifest(ROOT)
             for path in (lecture.lecture_notebook, lecture.solution_notebook, lecture.exercise_notebook)]


@pytest.mark.parametrize("path", GENERATED, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_notebooks_are_stored_as_jupyterlab_saves_them(path):
    """Open + save in JupyterLab must change no byte: its JSON form, its kernel metadata, no pairing."""
    text = path.read_text(encoding="utf-8")
    notebook = nbformat.reads(text, as_version=4)
    assert notebook_text(notebook) == text
    assert "jupytext" not in notebook.metadata
    assert notebook.metadata["kernelspec"] == KERNELSPEC
    assert {"codemirror_mode", "file_extension", "mimetype", "name", "pygments_lexer", "version"} <= set(
        notebook.metadata["language_info"])
    for cell in notebook.cells:
        outputs = cell.get("outputs", [])
        assert not any(WIDGET_VIEW in output.get("data", {}) for output in outputs)
        assert not any(a.output_type == b.output_type == "stream" and a.name == b.name
                       for a, b in zip(outputs, outputs[1:])), "JupyterLab merges consecutive streams"


def test_exercises_take_the_kernel_metadata_of_their_executed_solution():
    for lecture in read_manifest(ROOT):
        exercise, solution = lecture.exercise_notebook, lecture.solution_notebook
        assert (nbformat.read(exercise, as_version=4).metadata.language_info
                == nbformat.read(solution, as_version=4).metadata.language_info)


def test_build_check_detects_a_notebook_in_another_form(tmp_path, capsys):
    for folder in ("solutions", "exercises", "notebooks"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    for name in ("START_HERE.md", "course.toml"):
        shutil.copyfile(ROOT / name, tmp_path / name)
    assert cli.main(["build", "--check", "--root", str(tmp_path)]) == 0
    lecture = tmp_path / "notebooks" / "02_eig_vs_svd.ipynb"
    notebook = nbformat.read(lecture, as_version=4)
    notebook.metadata["jupytext"] = {"formats": "ipynb,py:percent"}  # a pairing a save would drop
    nbformat.write(notebook, lecture)
    solution = tmp_path / "solutions" / "03_biplots.ipynb"
    solution.write_text(json.dumps(json.loads(solution.read_text()), indent=2))  # not JupyterLab's JSON layout
    assert cli.main(["build", "--check", "--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "notebooks/02_eig_vs_svd.ipynb is not in the form JupyterLab saves" in out
    assert "solutions/03_biplots.ipynb is not in the form JupyterLab saves" in out


def test_start_page_links_every_lecture_exercise_and_solution():
    text = (ROOT / "START_HERE.md").read_text()
    for lecture in read_manifest(ROOT):
        assert f"(notebooks/{lecture.stem}.ipynb)" in text
        assert f"(my-work/{lecture.stem}.ipynb)" in text and f"(solutions/{lecture.stem}.ipynb)" in text


def test_an_exercise_on_the_optional_section_says_so_and_the_class_report_names_it():
    """Issue 45: exercise 6 of sets 02 and 04 practise the lectures' optional last section, not §6."""
    from dimred_teach.exercise_specs import load_spec
    from dimred_teach.gradebook.class_report import _revisit, course_lectures

    for exercise_set, exercise_id in (("02_eig_vs_svd", "02.pseudo_inverse"), ("04_mds", "04.non_euclidean_metric")):
        entry = next(e for e in load_spec(exercise_set)["checks"] if e["exercise_id"] == exercise_id)
        assert entry["section"] == "going further"
        words, page = _revisit(exercise_set, course_lectures(ROOT))[exercise_id]
        assert words == f"lecture {exercise_set[:2]}, Going further (optional)"
        assert page == f"notebooks/{exercise_set}.html#going-further-optional"
    assert _revisit("04_mds", course_lectures(ROOT))["04.recover_b"][0].startswith("lecture 04 §2 ")


def test_every_lecture_opens_with_the_install_guard(tmp_path):
    """Issue 39: a lecture opened alone (Colab, a download) says how to install the course's package;
    build --check refuses a lecture whose first code cell lost the guard."""
    from dimred_teach.course.build import install_guard_problems
    from dimred_teach.course.manifest import course_repository

    lectures = read_manifest(ROOT)
    assert install_guard_problems(lectures, course_repository(ROOT)) == []
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "course.toml").write_text((ROOT / "course.toml").read_text())
    source = read_manifest(tmp_path)[0].lecture_source
    source.write_text(lectures[0].lecture_source.read_text().replace("import importlib.util\n", "", 1))
    assert [problem.split(":")[0] for problem in install_guard_problems(read_manifest(tmp_path)[:1], None)] == [
        str(source)]
