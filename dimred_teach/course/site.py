"""The course website: a static HTML site built from the executed notebooks.

``dimred-teach site --out DIR`` stages the course in a temporary folder laid out like the
repository (``index.md``, ``notebooks/NN_topic.ipynb``, ``exercises/NN_topic.ipynb``) and
builds it with Sphinx, MyST-NB and the Sphinx Book Theme. Nothing is executed again: the
pages show the outputs stored in the notebooks. MathJax comes from the
``sphinx-mathjax-offline`` package and is copied into the site, the search index is
Sphinx's own, so the site needs no network to build or to read. The exercise sets are the
generated student notebooks: they hold no solutions.

These tools come with the ``site`` extra: ``pip install -e ".[site]"``.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from importlib.resources import files
from pathlib import Path

import nbformat

from .manifest import Lecture, read_manifest

SITE_TEMPLATES = Path(__file__).parent / "templates" / "site"
"""The site's own templates (the sidebar's title), favicon and scripts."""

__all__ = ["Lecture", "course_version", "lectures", "home_page", "one_line_math", "build_site",
           "site_workflow_template"]

_NOT_A_BLANK_LINE = r"(?!\n\s*\n)"
_MATH = re.compile(rf"\$\$(?:{_NOT_A_BLANK_LINE}.)+?\$\$|\$(?:{_NOT_A_BLANK_LINE}[^$])+?\$", re.DOTALL)
"""A formula: ``$$...$$`` or ``$...$``, within one paragraph."""


def lectures(root: Path) -> list[Lecture]:
    """The course's lectures, from the manifest, in order."""
    return read_manifest(root)


def course_version(root: Path) -> str:
    """``dimred-teach X.Y.Z``, plus ``, commit abc1234`` when ``root`` is a git checkout."""
    try:
        text = f"dimred-teach {version('dimred-teach')}"
    except PackageNotFoundError:
        from .. import __version__

        text = f"dimred-teach {__version__}"
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{text}, commit {commit}" if commit else text


def home_page(course: list[Lecture], built_from: str) -> str:
    """The MyST text of the home page: the course map and the hidden navigation trees."""
    rows = []
    for lecture in course:
        exercise = f"[exercises](exercises/{lecture.stem}.ipynb)" if lecture.exercises else ""
        rows.append(f"| [{lecture.title}](notebooks/{lecture.stem}.ipynb) | {lecture.summary} | {exercise} |")
    lecture_toc = "\n".join(f"notebooks/{lecture.stem}" for lecture in course)
    exercise_toc = "\n".join(f"exercises/{lecture.stem}" for lecture in course if lecture.exercises)
    exercise_sets = sum(lecture.exercises for lecture in course)
    return f"""# Dimensionality reduction: the course

{len(course)} lecture notebooks and {exercise_sets} exercise sets. Read a lecture with its outputs and
figures here; to run it, clone the course and start `python3 course.py lab`. The exercise
sets are the notebooks students fill in: they hold no solutions, and the course's
grader (`dimred-teach grade`) checks the answers.

## Course map

| Lecture | What it shows | Practice |
| --- | --- | --- |
{chr(10).join(rows)}

*Built from {built_from}.*

```{{toctree}}
:hidden:
:caption: Lectures

{lecture_toc}
```

```{{toctree}}
:hidden:
:caption: Exercise sets

{exercise_toc}
```
"""


def _settings(built_from: str, repository_url: str | None) -> dict:
    """The Sphinx configuration of the site (no conf.py: it is passed as overrides)."""
    theme_options = {
        "use_download_button": True,  # every page links to its source .ipynb
        "use_fullscreen_button": False,
        "extra_footer": f"<p>Built from {built_from}.</p>",
        "show_toc_level": 2,
    }
    if repository_url:
        theme_options.update(repository_url=repository_url, use_repository_button=True,
                             use_source_button=True, path_to_docs="")
    return {
        "extensions": ["myst_nb", "sphinx-mathjax-offline"],
        "project": "dimred-teach",
        "html_title": "Dimensionality reduction",
        "release": built_from,
        "html_theme": "sphinx_book_theme",
        "html_theme_options": theme_options,
        "html_last_updated_fmt": None,
        "html_copy_source": True,
        "mathjax_path": "mathjax/tex-chtml.js",  # the copy sphinx-mathjax-offline puts in _static
        "nb_execution_mode": "off",
        "nb_merge_streams": True,
        "myst_enable_extensions": ["dollarmath", "amsmath"],
        "myst_dmath_double_inline": True,  # Jupyter allows $$...$$ inside a paragraph
        "mathjax3_config": {"tex": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]]},
                            "options": {"enableMenu": False}},
        "exclude_patterns": ["_build"],
        # the primary sidebar: the title in a navigation landmark and the lectures (the search button
        # is in the page header, once); the favicon and the search snippets' formulas
        "templates_path": [str(SITE_TEMPLATES)],
        "html_sidebars": {"**": ["course-home.html", "sbt-sidebar-nav.html"]},
        "html_favicon": str(SITE_TEMPLATES / "favicon.svg"),
        "html_static_path": [str(SITE_TEMPLATES / "static")],
        "html_js_files": ["search-math.js", "focusable-math.js"],
        "suppress_warnings": ["mystnb.unknown_mime_type", "myst.header"],
        "language": "en",
    }


def one_line_math(markdown: str) -> str:
    """``markdown`` with every ``$...$`` and ``$$...$$`` formula on one line.

    Jupyter takes the formulas out before it parses the markdown; MyST parses the lines
    first, so a formula's continuation line starting with ``- 2G`` would become a list
    item. Inside TeX a line break is a space, so joining the lines changes nothing else.
    """
    return _MATH.sub(lambda match: " ".join(match.group(0).split("\n")), markdown)


def described_figure(output: nbformat.NotebookNode) -> None:
    """Turn a figure output with a written description (``metadata["image/png"]["alt"]``, see
    :func:`.execution.describe_figures`) into an HTML image carrying it as its alt text:
    MyST-NB takes an image's alt text only from cell-level options, one for all the cell's
    figures, so a cell with several figures would otherwise lose all but one."""
    alt = output.get("metadata", {}).get("image/png", {}).get("alt")
    if alt and "image/png" in output.get("data", {}):
        source = "data:image/png;base64," + "".join(output["data"]["image/png"].split())
        output["data"] = {"text/html": f'<img class="course-figure" src="{source}" alt="{html.escape(alt)}">'}


EMPTY_HEADER_CELL = re.compile(r"<th(\s[^>]*)?>\s*</th>")


def table_corners(output: nbformat.NotebookNode) -> None:
    """In an HTML table output (a pandas DataFrame), make the empty header cells (the corner
    above the row labels) plain cells: a header cell without text names nothing for a
    screen reader."""
    html_text = output.get("data", {}).get("text/html")
    if html_text:
        text = "".join(html_text) if isinstance(html_text, list) else html_text
        output["data"]["text/html"] = EMPTY_HEADER_CELL.sub(lambda match: f"<td{match.group(1) or ''}></td>", text)


def _stage_notebook(source: Path, folder: Path) -> None:
    """Copy a notebook into the staging ``folder`` with its formulas on one line each, its
    figures' descriptions as their alt text and no empty table headers."""
    notebook = nbformat.read(source, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = one_line_math(cell.source)
        for output in cell.get("outputs", []):
            described_figure(output)
            table_corners(output)
    nbformat.write(notebook, folder / source.name)


def _stage(root: Path, stage: Path, course: list[Lecture], built_from: str) -> None:
    """Lay out the site's sources in ``stage`` the way they are in the repository."""
    for folder in ("notebooks", "exercises"):
        (stage / folder).mkdir(parents=True)
    for lecture in course:
        _stage_notebook(lecture.lecture_notebook, stage / "notebooks")
        if lecture.exercises:
            _stage_notebook(lecture.exercise_notebook, stage / "exercises")
    (stage / "index.md").write_text(home_page(course, built_from))


def build_site(root: Path, out: Path, repository_url: str | None = None, quiet: bool = True) -> Path:
    """Build the course website from ``root``'s executed notebooks into ``out``.

    Parameters
    ----------
    root : the course's root folder (holding ``notebooks/`` and ``exercises/``)
    out : the folder receiving the HTML site (created; its previous contents are replaced)
    repository_url : optional, e.g. ``https://github.com/owner/course``: each page then
        also links to its notebook in that repository
    quiet : silence Sphinx's progress output (warnings are still printed)

    Returns
    -------
    Path of the home page, ``out/index.html``.
    """
    try:
        from sphinx.application import Sphinx
    except ModuleNotFoundError as error:
        raise RuntimeError("Sphinx is missing: install the site extra (pip install -e '.[site]')") from error
    root, out = Path(root).resolve(), Path(out).resolve()
    course = lectures(root)
    missing = [str(path) for lecture in course
               for path in [lecture.lecture_notebook] + ([lecture.exercise_notebook] if lecture.exercises else [])
               if not path.is_file()]
    if not course or missing:
        raise ValueError(f"root has no lectures in course.toml, or notebooks are missing (execute and build first): "
                         f"{', '.join(missing) or root}")
    if out.exists():
        if any(out.iterdir()) and not (out / ".buildinfo").is_file():  # never wipe what is not an earlier site
            raise ValueError(f"out exists and is not a site built by Sphinx; choose a new folder: {out}")
        shutil.rmtree(out)
    built_from = course_version(root)
    # Everything Sphinx and MyST-NB write (doctrees, jupyter_execute/ beside the output)
    # stays in a temporary folder; only the finished site moves to ``out``.
    with tempfile.TemporaryDirectory(prefix="dimred-site-") as temporary:
        stage, html = Path(temporary) / "source", Path(temporary) / "html"
        _stage(root, stage, course, built_from)
        app = Sphinx(str(stage), None, str(html), str(Path(temporary) / "doctrees"), "html",
                     confoverrides=_settings(built_from, repository_url),
                     status=None if quiet else sys.stdout, warning=sys.stderr, freshenv=True)
        app.build()
        if app.statuscode:
            raise RuntimeError(f"Sphinx failed with status {app.statuscode}")
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(html, out)
    for lecture in course:  # each page's download: the notebook as committed
        for notebook in [lecture.lecture_notebook] + ([lecture.exercise_notebook] if lecture.exercises else []):
            staged = out / "_sources" / notebook.parent.name / notebook.name
            if staged.is_file():
                shutil.copyfile(notebook, staged)
    return out / "index.html"


def site_workflow_template(install: str) -> str:
    """The GitHub Actions workflow publishing the site to GitHub Pages on every push,
    installing the course with the pip requirement ``install``."""
    text = files("dimred_teach.course.templates").joinpath("site-workflow.yml").read_text()
    return text.replace("__INSTALL__", install)
