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
import sys
from importlib.resources import files
from pathlib import Path

import jupytext
import nbformat

from .manifest import read_manifest

__all__ = ["slide_types", "annotate_source", "build_deck", "deck_assets", "command_slides"]

_HEADER = re.compile(r"^# %%( \[markdown\])?")
_SLIDESHOW = re.compile(r' slideshow=\{"slide_type": "[a-z]+"\}')
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
    for index, kind in zip(headers, slide_types(cells)):
        # first after the cell type: jupytext writes metadata sorted by key (slideshow < tags)
        header = _SLIDESHOW.sub("", lines[index])
        cell_type = _HEADER.match(header).group(0)
        lines[index] = f'{cell_type} slideshow={json.dumps({"slide_type": kind})}{header[len(cell_type):]}'
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


def build_deck(notebook: Path, out: Path) -> Path:
    """Write the executed ``notebook`` (.ipynb) as one self-contained reveal.js deck ``out``.

    The notebook is not executed again: the deck shows its stored outputs. Returns ``out``.
    """
    from nbconvert import SlidesExporter

    notebook, out = Path(notebook), Path(out)
    if notebook.suffix != ".ipynb" or not notebook.is_file():
        raise ValueError(f"notebook must be an executed .ipynb file, got {notebook}")
    exporter = SlidesExporter(template_file="deck.html.j2",
                              extra_template_basedirs=[str(files("dimred_teach.course.templates"))],
                              extra_template_paths=[str(files("dimred_teach.course.templates").joinpath("deck"))])
    assets = {name: _inline_script(text) if name.endswith("_js") else text for name, text in deck_assets().items()}
    body, _ = exporter.from_notebook_node(nbformat.read(notebook, as_version=4),
                                          resources={"deck": assets, "metadata": {"name": notebook.stem}})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(body, encoding="utf-8")
    return out


def _lecture_notebooks(root: Path, numbers: list[str]) -> list[Path]:
    """The executed lecture notebooks numbered ``numbers`` (all of them when empty)."""
    notebooks = {lecture.number: lecture.lecture_notebook for lecture in read_manifest(root)}
    wanted = [number.zfill(2) for number in numbers] or list(notebooks)
    unknown = [number for number in wanted if number not in notebooks]
    if unknown:
        raise ValueError(f"numbers: no lecture numbered {', '.join(unknown)} in {root / 'course.toml'}")
    return [notebooks[number] for number in wanted]


def command_slides(args) -> int:
    """``dimred-teach slides``: write the decks of the chosen lectures, or (``--annotate``)
    the slide metadata of every lecture source; returns the exit status."""
    root = Path(args.root).resolve()
    if args.check and not args.annotate:
        print("error: --check only goes with --annotate", file=sys.stderr)
        return 2
    if args.annotate:
        sources = [lecture.lecture_source for lecture in read_manifest(root)]
        stale = [source for source in sources if annotate_source(source, check=args.check)]
        for source in stale:
            print(f"{source}: slide metadata out of date, run `dimred-teach slides --annotate`" if args.check
                  else f"{source}: slide metadata written")
        return 1 if args.check and stale else 0
    try:
        for notebook in _lecture_notebooks(root, args.numbers):
            print(f"wrote {build_deck(notebook, Path(args.out) / f'{notebook.stem}.html')}")
    except (ValueError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
