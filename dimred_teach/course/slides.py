"""Lecture notebooks as slide decks.

Two jobs:

* :func:`annotate_source` writes RISE / nbconvert slide metadata
  (``slideshow={"slide_type": ...}``) into the ``# %%`` header lines of a jupytext source,
  following a fixed rule on the notebook's structure (:func:`slide_types`), so the deck
  follows the sections with one idea per slide. Only header lines change.
* :func:`build_deck` turns an executed notebook into one self-contained HTML file: the
  reveal.js files (shipped by the ``sphinx-revealjs`` package) and MathJax (shipped by
  ``sphinx-mathjax-offline``) are inlined, figures are already embedded in the notebook,
  so the deck opens from disk with no network.

Both packages come with the ``site`` extra: ``pip install -e ".[site]"``.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

import jupytext
import nbformat
from jupytext.cell_metadata import metadata_to_text

from .manifest import read_manifest

__all__ = ["slide_types", "annotate_source", "paginate", "build_deck", "deck_assets", "lecture_notebooks"]

_HEADER = re.compile(r"^# %%( \[markdown\])?")
_IMPORT = re.compile(r"^@import url\([^)]*\);\n", re.MULTILINE)


def slide_types(cells) -> list[str]:
    """The slide type of each cell, from the notebook's structure alone.

    The rule: the title (``# ...``) and every section (``## ...``) start a new slide;
    every other markdown cell (an explanation, a ``###`` subsection) starts a subslide
    below its section; a code cell right after such markdown appears as a fragment of
    that slide; a code cell after the title (whose preamble fills its slide) or after
    another code cell is a new idea and gets its own subslide.

    Parameters
    ----------
    cells : list of notebook cells (``cell_type`` and ``source``), length m

    Returns
    -------
    list of str, length m: "slide", "subslide", "fragment" or "skip" (the types RISE and
    nbconvert understand; "notes" is left for a lecturer to set by hand)
    """
    types = []
    previous = "title"  # what the cell before was: "title", "markdown" or "code"
    for cell in cells:
        first_line = cell.source.lstrip().split("\n", 1)[0]
        if cell.cell_type == "markdown":
            types.append("slide" if first_line.startswith(("# ", "## ")) else "subslide")
            previous = "title" if first_line.startswith("# ") else "markdown"
        elif cell.cell_type == "code":
            types.append("fragment" if previous == "markdown" else "subslide")
            previous = "code"
        else:  # raw cells are not part of the lecture
            types.append("skip")
            previous = "code"
    return types


def annotate_source(path: Path, check: bool = False) -> bool:
    """Write :func:`slide_types` into the ``# %%`` header lines of a py:percent source.

    Returns True when the file needed a change (with ``check``, nothing is written).
    Cell contents are never touched: only the header lines get a ``slideshow=`` entry.
    """
    path = Path(path)
    text = path.read_text()
    lines = text.split("\n")
    headers = [index for index, line in enumerate(lines) if _HEADER.match(line)]
    cells = jupytext.reads(text, fmt="py:percent").cells
    if len(headers) != len(cells):
        raise ValueError(f"{path}: {len(headers)} '# %%' lines but {len(cells)} cells; "
                         "every cell must start with a '# %%' line")
    for index, kind, cell in zip(headers, slide_types(cells), cells):
        # the cell's metadata with its slide type, sorted by key as jupytext writes it from the .ipynb
        metadata = dict(sorted({**cell.metadata, "slideshow": {"slide_type": kind}}.items()))
        cell_type = _HEADER.match(lines[index]).group(0)
        lines[index] = f"{cell_type} {metadata_to_text(None, metadata)}"
    new_text = "\n".join(lines)
    if new_text != text and not check:
        path.write_text(new_text)
    return new_text != text


def _package_file(package: str, relative: str) -> str:
    try:
        return files(package).joinpath(relative).read_text(encoding="utf-8")
    except ModuleNotFoundError as error:
        raise RuntimeError(f"{package} is missing: install the site extra (pip install -e '.[site]')") from error


def deck_assets() -> dict[str, str]:
    """The texts inlined in every deck: reveal.js (script, core and theme CSS, speaker
    notes plugin), MathJax 3 with SVG output (which needs no font files) and the course's
    slide style. The theme's web-font import is dropped: the deck uses the system's sans-serif."""
    reveal = "_static/revealjs"
    return {
        "reveal_css": _package_file("sphinx_revealjs", f"{reveal}/dist/reveal.css"),
        "theme_css": _IMPORT.sub("", _package_file("sphinx_revealjs", f"{reveal}/dist/theme/white.css")),
        "reveal_js": _package_file("sphinx_revealjs", f"{reveal}/dist/reveal.js"),
        "notes_js": _package_file("sphinx_revealjs", f"{reveal}/plugin/notes/notes.js"),
        "mathjax_js": _package_file("sphinx-mathjax-offline", "static/mathjax/tex-svg-full.js"),
        "deck_css": files("dimred_teach.course.templates").joinpath("deck", "deck.css").read_text(encoding="utf-8"),
    }


def _inline_script(text: str) -> str:
    """A script's text made safe inside an HTML <script> element."""
    return text.replace("</script", "<\\/script")


SLIDE_LINES = 15
"""Lines of prose one slide holds at the deck's type size (28 px on a 1280x720 canvas, about
70 characters a line); a longer markdown cell continues on the next slide."""
LINE_CHARACTERS = 70


def _estimated_lines(paragraph: str) -> int:
    """Lines a markdown paragraph takes on a slide: its wrapped text plus the gap after it."""
    lines = [line for line in paragraph.split("\n") if line.strip()]
    display_math = paragraph.count("$$") // 2
    text = " ".join(line.strip() for line in lines)
    return max(1, -(-len(text) // LINE_CHARACTERS)) + 2 * display_math + 1


def _chunks(markdown: str) -> list[str]:
    """``markdown`` cut at paragraph breaks into pieces of at most :data:`SLIDE_LINES` lines each
    (a single longer paragraph stays whole; the deck's fit scales it down)."""
    pieces, current, used = [], [], 0
    for paragraph in re.split(r"\n\s*\n", markdown.strip()):
        lines = _estimated_lines(paragraph)
        if current and used + lines > SLIDE_LINES:
            pieces.append("\n\n".join(current))
            current, used = [], 0
        current.append(paragraph)
        used += lines
    pieces.append("\n\n".join(current))
    return pieces


LONG_FIGURE_CODE = 12
"""A cell drawing a figure with more code lines than this shows only its figure on a slide (the
code is in the notebook): the figure is what the audience reads."""
HIDDEN_INPUT = "deck-hide-input"


def _draws_a_long_figure(cell: nbformat.NotebookNode) -> bool:
    return (cell.cell_type == "code" and len(cell.source.splitlines()) > LONG_FIGURE_CODE
            and any("image/png" in output.get("data", {}) for output in cell.get("outputs", [])))


def paginate(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook cut for slides: every markdown cell too long for one slide continues on new
    subslides, a code cell that would follow more than half a slide of prose gets a slide of its
    own, and a long cell that draws a figure is tagged to show its figure without its code."""
    cells, prose_lines = [], 0  # the lines of prose already on the current slide
    for cell in notebook.cells:
        kind = cell.get("metadata", {}).get("slideshow", {}).get("slide_type")
        if _draws_a_long_figure(cell) or (kind == "fragment" and prose_lines > SLIDE_LINES // 2):
            cell = nbformat.from_dict(json.loads(json.dumps(cell)))
            if _draws_a_long_figure(cell):
                cell.metadata["tags"] = [*cell.metadata.get("tags", []), HIDDEN_INPUT]
            if kind == "fragment" and prose_lines > SLIDE_LINES // 2:  # no room left below the prose
                cell.metadata["slideshow"] = {"slide_type": "subslide"}
        if cell.cell_type != "markdown" or kind not in ("slide", "subslide"):
            cells.append(cell)
            prose_lines = 0 if cell.cell_type == "code" else prose_lines
            continue
        for number, piece in enumerate(_chunks(cell.source)):
            prose_lines = sum(_estimated_lines(paragraph) for paragraph in re.split(r"\n\s*\n", piece))
            part = nbformat.v4.new_markdown_cell(piece, metadata=json.loads(json.dumps(cell.metadata)))
            if number:
                part.metadata["slideshow"] = {"slide_type": "subslide"}
            cells.append(part)
    paged = nbformat.from_dict(dict(notebook))
    paged.cells = cells
    return paged


def build_deck(notebook: Path, out: Path) -> Path:
    """Write the executed ``notebook`` (.ipynb) as one self-contained reveal.js deck ``out``.

    The notebook is not executed again: the deck shows its stored outputs. Prose too long for
    one slide continues on the next (:func:`paginate`); in the browser, a slide whose content is
    still taller than the canvas is scaled down to fit it. Returns ``out``.
    """
    from nbconvert import SlidesExporter
    from nbconvert.preprocessors import TagRemovePreprocessor

    notebook, out = Path(notebook), Path(out)
    if notebook.suffix != ".ipynb" or not notebook.is_file():
        raise ValueError(f"notebook must be an executed .ipynb file, got {notebook}")
    exporter = SlidesExporter(template_file="deck.html.j2",
                              extra_template_basedirs=[str(files("dimred_teach.course.templates"))],
                              extra_template_paths=[str(files("dimred_teach.course.templates").joinpath("deck"))])
    exporter.register_preprocessor(TagRemovePreprocessor(remove_input_tags={HIDDEN_INPUT}), enabled=True)
    assets = {name: _inline_script(text) if name.endswith("_js") else text for name, text in deck_assets().items()}
    body, _ = exporter.from_notebook_node(paginate(nbformat.read(notebook, as_version=4)),
                                          resources={"deck": assets, "metadata": {"name": notebook.stem}})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(body, encoding="utf-8")
    return out


def lecture_notebooks(root: Path, numbers: list[str]) -> list[Path]:
    """The executed lecture notebooks numbered ``numbers`` (all of them when empty)."""
    notebooks = {lecture.number: lecture.lecture_notebook for lecture in read_manifest(root)}
    wanted = [number.zfill(2) for number in numbers] or list(notebooks)
    unknown = [number for number in wanted if number not in notebooks]
    if unknown:
        raise ValueError(f"numbers: no lecture numbered {', '.join(unknown)} in {root / 'course.toml'}")
    return [notebooks[number] for number in wanted]
