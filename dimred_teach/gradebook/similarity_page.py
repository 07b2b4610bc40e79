"""The page of ``dimred-teach similarity``: one self-contained, offline HTML file.

First the pairs most unusual for their exercise (at most :data:`.similarity.TOP`, each with a
z of :data:`.similarity.STANDS_OUT` or more), each with its two answers side by side and the
lines holding code found in the other answer marked (the matches copydetect's
``compare_files`` finds between their fingerprints); then the
answers that are copies of the course's own code, naming the function; then how alike each
exercise's answers are, the ground every score is set against.

The page is rendered by an autoescaping Jinja2 template: students' code and names reach it as
text, and ids are built from positions only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from .similarity import STANDS_OUT, TOP, Answer, CourseCopy, K, Pair, Spread

STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 80rem;
       padding: 0 1rem 3rem; overflow-wrap: anywhere; }
h1 { margin-bottom: .25rem; } h2 { border-top: 2px solid #0072B2; padding-top: .75rem; margin-top: 2rem; }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .4rem; }
.note, .denominator { color: #333; font-size: .95rem; } .denominator { font-style: italic; margin: .2rem 0; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
figure { margin: 0; min-width: 0; } figcaption { font-size: .95rem; margin-bottom: .2rem; }
pre { margin: 0; padding: .4rem; background: #f6f6f6; border: 1px solid #ccc; font-size: .85rem; line-height: 1.4;
      white-space: pre-wrap; overflow-wrap: anywhere; }
pre span, pre mark { display: block; min-height: 1.4em; padding-left: .5rem; }
pre mark { background: #fde9a6; color: inherit; box-shadow: inset 4px 0 #8a6d00; }
table { border-collapse: collapse; margin: .4rem 0 1rem; width: 100%; }
th, td { border-bottom: 1px solid #ccc; padding: .25rem .4rem; text-align: left; vertical-align: top; }
th[scope=row] { font-weight: normal; }
@media (max-width: 50rem) { .sides { grid-template-columns: 1fr; } }
@media print { body { max-width: none; font-size: 10pt; } .pair { break-inside: avoid; } }
"""


def _fingerprint(answer: Answer, boilerplate: np.ndarray) -> SimpleNamespace:
    """What copydetect's ``compare_files`` reads of a fingerprinted file (the attributes of its
    ``CodeFingerprint``), for an answer, the starter code's fingerprints left out."""
    from copydetect.utils import get_document_fingerprints, get_token_coverage

    hashes, positions = get_document_fingerprints(answer.filtered, K, 1)
    starter = set(boilerplate.tolist())
    positions = {value: where for value, where in positions.items() if int(value) not in starter}
    return SimpleNamespace(k=K, hashes={value for value in hashes if int(value) not in starter}, hash_idx=positions,
                           filtered_code=answer.filtered, offsets=answer.offsets,
                           token_coverage=get_token_coverage(positions, K, len(answer.filtered)))


def _lines(code: str, slices) -> list[dict]:
    """The answer's lines, each marked when it holds a character of a matching slice
    (``slices``: copydetect's 2 x M array of starts and ends in the code)."""
    starts, ends = (slices[0], slices[1]) if np.size(slices) else ((), ())  # copydetect: an empty array for no match
    lines, position = [], 0
    for text in code.rstrip("\n").split("\n"):
        end = position + len(text)
        lines.append({"text": text, "match": any(s < end and e > position for s, e in zip(starts, ends))})
        position = end + 1
    return lines


def _side_by_side(pair: Pair, answers: dict, boilerplate: dict) -> dict:
    """One pair for the page: its scores and both answers' lines, matches marked."""
    from copydetect import compare_files

    a, b = answers[(pair.a, pair.exercise)], answers[(pair.b, pair.exercise)]
    _, _, (slices_a, slices_b) = compare_files(_fingerprint(a, boilerplate[a.exercise_set]),
                                               _fingerprint(b, boilerplate[b.exercise_set]))
    return {"pair": pair, "a": _lines(a.code, slices_a), "b": _lines(b.code, slices_b)}


def render_page(pairs: Sequence[Pair], spreads: Sequence[Spread], copies: Sequence[CourseCopy],
                answers: Sequence[Answer], boilerplate: dict[str, np.ndarray], notebooks: int) -> str:
    """The page as one HTML string (``pairs`` ranked; ``boilerplate``: each set's starter fingerprints)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined
    from markupsafe import Markup

    environment = Environment(loader=PackageLoader("dimred_teach.gradebook", "templates/similarity"),
                              autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True)
    by_key = {(answer.submission, answer.exercise): answer for answer in answers}
    top = [pair for pair in pairs if pair.z is not None and pair.z >= STANDS_OUT][:TOP]
    copied = {(copy.submission, copy.exercise): copy.source for copy in copies}
    return environment.get_template("index.html.j2").render(
        style=Markup(STYLE), notebooks=notebooks, answers=len(answers), spreads=spreads, copies=copies,
        top=[_side_by_side(pair, by_key, boilerplate) for pair in top], copied=copied,
        spread_of={spread.exercise: spread for spread in spreads}, top_size=TOP, stands_out=STANDS_OUT, k=K)


def write_page(path: Path, *arguments) -> None:
    """Write :func:`render_page` (given ``arguments`` as it takes them) to ``path``."""
    Path(path).write_text(render_page(*arguments), encoding="utf-8")


__all__ = ["render_page", "write_page"]
