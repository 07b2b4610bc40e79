"""What a class got wrong: the mistakes of many graded submissions, counted per exercise.

``dimred-teach class-report REPORTS... --out DIR`` reads what one or more runs of
``dimred-teach grade`` wrote (their ``--out`` folders, single ``<name>.json`` reports, or
``--gradebook`` CSV files) and writes into ``DIR``

- ``mistakes.csv``: one row per exercise and named mistake: how many submissions made it and
  their share of the submissions that attempted the exercise;
- ``exercises.csv``: per exercise, the submissions, attempted, passed, not graded and the
  median points;
- ``items.csv`` and ``sets.csv``: the item statistics (:mod:`.item_statistics`);
- ``index.html``: the page for the lecturer (:mod:`.class_page`, written by :mod:`.class_outputs`).

This module is the data model: reading the reports, counting, and the CSV files.

Reports are data a run wrote from students' notebooks, read by the grader's one reader
(:func:`dimred_teach.grading.results.read_report`, which checks every field's type and range);
a file that is not a report is skipped with a note, texts are clipped here for the page, and
nothing in a report is ever executed or rendered as markup.
"""

from __future__ import annotations

import csv
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .._csv_cells import csv_cell
from ..checks import MISTAKE_ID, RESERVED_MISTAKES, mistake_name
from ..course.manifest import Lecture, read_manifest
from ..exercise_specs import load_spec
from ..grading.results import SubmissionResult, WrittenAnswer, bounded_number, read_report, refuse_if_too_large

NOT_ATTEMPTED = ("no-answer", "not-graded")
"""Mistake ids that mean the exercise was not attempted (or not judged): they are counted in
``exercises.csv``, not among the mistakes."""
MESSAGE_LIMIT = 300
FEEDBACK_LIMIT = 2000


@dataclass(frozen=True)
class Outcome:
    """One exercise of one submission: points and, when it failed, the mistake."""

    exercise: str
    points: float
    max_points: float
    passed: bool
    mistake: str = ""
    mistake_name: str = ""
    message: str = ""
    feedback: str = ""
    """What the check said to the student, hint included (a report's whole output, clipped;
    empty from a gradebook): for the student's feedback page."""


@dataclass(frozen=True)
class Submission:
    """One graded notebook: its name (shown only with ``--names``), set and exercises."""

    name: str
    exercise_set: str
    outcomes: tuple[Outcome, ...]
    written: tuple[WrittenAnswer, ...] = ()
    """Its written answers (:mod:`.written_pages`), as the report holds them."""

    @property
    def score(self) -> float:
        return sum(outcome.points for outcome in self.outcomes)

    @property
    def max_score(self) -> float:
        return sum(outcome.max_points for outcome in self.outcomes)


@dataclass(frozen=True)
class ExerciseSummary:
    """How the class did on one exercise."""

    exercise: str
    exercise_set: str
    submissions: int
    attempted: int
    passed: int
    not_graded: int
    no_answer: int
    median_points: float
    max_points: float
    revisit: str
    revisit_page: str = ""
    """The site's page of the section to revisit, relative to the site's root
    (``notebooks/04_mds.html#recovering-b``), or empty."""

    @property
    def pass_rate(self) -> float:
        """Passed, as a share of the submissions that hold the exercise."""
        return self.passed / self.submissions if self.submissions else 0.0


@dataclass(frozen=True)
class MistakeCount:
    """One named mistake on one exercise: how many submissions made it, and one message it gave."""

    exercise: str
    mistake: str
    name: str
    count: int
    attempted: int
    example: str

    @property
    def share(self) -> float:
        return self.count / self.attempted if self.attempted else 0.0


def _message(output: str) -> str:
    """What the check said, without the hint and the seed line the grader adds after it."""
    return output[:4000].split("\nhint: ", 1)[0].split("\n(graded on", 1)[0][:MESSAGE_LIMIT]


def _mistake(value: str, passed: bool) -> str:
    """The mistake id of a test; ``other`` for anything that is not a well-formed id."""
    if passed:
        return ""
    return value if len(value) <= 40 and MISTAKE_ID.match(value) else "other"


def _submission(result: SubmissionResult) -> Submission | None:
    """The submission a report's result describes (None for a notebook that is not one of an
    exercise set the grader recognised, or was skipped)."""
    if result.skipped or result.exercise_set is None:
        return None
    outcomes = []
    for test in result.tests:
        mistake = _mistake(test.mistake, test.passed)
        outcomes.append(Outcome(test.name[:100], test.score, test.max_score, test.passed, mistake,
                                test.mistake_name[:200] if mistake else "", _message(test.output) if mistake else "",
                                test.output[:FEEDBACK_LIMIT]))
    return Submission(result.submission[:300], result.exercise_set[:100], tuple(outcomes), result.written)


def _from_gradebook(path: Path) -> list[Submission]:
    """The submissions of a gradebook CSV (``grade --gradebook``): points and mistake ids, no messages."""
    submissions = []
    with path.open(newline="", encoding="utf-8", errors="replace") as file:
        rows = csv.DictReader(file)
        exercises = [name for name in rows.fieldnames or [] if f"{name} mistake" in (rows.fieldnames or [])]
        for row in rows:
            if not row.get("exercise_set") or row.get("graded") not in ("True", "False"):
                continue
            maximum = _max_points(row["exercise_set"])
            outcomes = []
            for exercise in exercises:
                if row.get(exercise, "") == "" or exercise not in maximum:
                    continue
                points = bounded_number(float(row[exercise]), exercise)
                passed = points >= maximum[exercise] and not row.get(f"{exercise} mistake")
                mistake = _mistake(row.get(f"{exercise} mistake"), passed)
                outcomes.append(Outcome(exercise, points, maximum[exercise], passed, mistake,
                                        _name_of(exercise, mistake) if mistake else ""))
            submissions.append(Submission(row.get("submission", "")[:300], row["exercise_set"][:100], tuple(outcomes)))
    return submissions


def _max_points(exercise_set: str) -> dict[str, float]:
    """The points of each exercise of a set, from its grading spec (empty for an unknown set)."""
    try:
        return {entry["exercise_id"]: float(entry["points"]) for entry in load_spec(exercise_set)["checks"]}
    except (OSError, ValueError, KeyError):
        return {}


def _name_of(exercise: str, mistake: str) -> str:
    """The short name of a mistake id (``other``'s for an id the course does not know)."""
    try:
        return mistake_name(exercise, mistake)
    except ValueError:
        return RESERVED_MISTAKES["other"]


def report_files(paths: Iterable[Path]) -> list[Path]:
    """Every report a path stands for: the ``*.json`` and ``*.csv`` files directly inside a
    folder (a ``grade --out`` folder), or the file itself; each file once, in a stable order."""
    found: dict[Path, None] = {}
    for path in map(Path, paths):
        if path.is_dir():
            candidates = sorted(p for p in path.iterdir() if p.suffix in (".json", ".csv") and p.is_file())
        elif path.is_file():
            candidates = [path]
        else:
            raise FileNotFoundError(f"REPORTS: {path} is neither a report nor a folder of reports")
        for candidate in candidates:
            found.setdefault(candidate.resolve(), None)
    return list(found)


def read_reports(paths: Iterable[Path]) -> tuple[list[Submission], list[str]]:
    """The graded submissions in ``paths`` and a note for every file skipped as not a report."""
    submissions, skipped = [], []
    for path in report_files(paths):
        try:
            if path.suffix == ".csv":
                refuse_if_too_large(path)
                submissions += _from_gradebook(path)
                continue
            submission = _submission(read_report(path))
        except (ValueError, UnicodeDecodeError, OSError) as error:
            skipped.append(f"{path.name}: not a report of dimred-teach grade ({error})")
            continue
        if submission is not None:
            submissions.append(submission)
    return submissions, skipped


def course_lectures(root: Path) -> dict[str, Lecture]:
    """The course's lectures by number, read from ``root``'s manifest (empty outside a checkout)."""
    try:
        return {lecture.number: lecture for lecture in read_manifest(root)}
    except (OSError, ValueError):
        return {}


def _revisit(exercise_set: str, lectures: dict[str, Lecture]) -> dict[str, tuple[str, str]]:
    """For each exercise of a set, the lecture section to revisit, in words, and its page on
    the course's site (empty when the course's manifest does not name the lecture)."""
    try:
        checks = load_spec(exercise_set)["checks"]
    except (OSError, ValueError, KeyError):
        return {}
    lecture = lectures.get(exercise_set[:2])
    sections = lecture.sections if lecture else {}
    revisit = {}
    for entry in checks:
        if "section" not in entry:
            continue
        section = entry["section"]
        title = sections.get(section)
        if isinstance(section, str):  # the optional last section: its heading names it
            words = f"lecture {exercise_set[:2]}, " + plain_title(title or section)
        else:
            words = f"lecture {exercise_set[:2]} §{section}" + (f" {plain_title(title)}" if title else "")
        page = f"notebooks/{lecture.stem}.html" + (f"#{section_anchor(title)}" if title else "") if lecture else ""
        revisit[entry["exercise_id"]] = (words, page)
    return revisit


def section_anchor(title: str) -> str:
    """The id the site gives a section heading (docutils' rule: lowercase ASCII letters and
    digits, runs of anything else become one ``-``, leading digits and dashes dropped):
    ``2. Recovering $\\mathbf B$`` becomes ``recovering-mathbf-b``."""
    import unicodedata

    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"^[^a-z]+", "", re.sub(r"[^a-z0-9]+", "-", ascii_text)).strip("-")


_GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon "
          "phi chi psi omega").split()
_SYMBOLS = {
    **{name: chr(0x3B1 + i + (i > 16)) for i, name in enumerate(_GREEK)},
    **{name.capitalize(): chr(0x391 + i + (i > 16)) for i, name in enumerate(_GREEK)},
    "varepsilon": "ε",
    "varphi": "φ",
    "vartheta": "ϑ",
    "ell": "ℓ",
    "infty": "∞",
    "partial": "∂",
    "nabla": "∇",
    "sum": "∑",
    "prod": "∏",
    "int": "∫",
    "dots": "…",
    "ldots": "…",
    "cdots": "⋯",
    "|": "‖",
    "{": "{",
    "}": "}",
    "top": "ᵀ",
    "prime": "′",
    ",": "",
    ";": "",
    "!": "",
    "quad": "",
    "left": "",
    "right": "",
    "to": "→",
    "rightarrow": "→",
    "mapsto": "↦",
    "gg": "≫",
    "ll": "≪",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "approx": "≈",
    "sim": "∼",
    "in": "∈",
    "times": "×",
    "cdot": "·",
    "pm": "±",
    "mid": "|",
}
"""What a LaTeX command stands for in plain text (a command not named here reads as its name)."""
_SPACED = set("=<>+→↦≫≪≤≥≠≈∼∈×±")
"""Relations and binary operators: written with a space either side."""
_CONTENT = {"mathbf", "mathbb", "mathrm", "mathit", "mathcal", "boldsymbol", "bm", "vec"}
"""Commands that only style their argument: the argument is read as it is."""
_WORDS = {"text", "textrm", "operatorname", "mathrm"}
"""Commands whose argument is words (its spaces kept)."""
_ACCENTS = {"hat": "\u0302", "widehat": "\u0302", "bar": "\u0304", "overline": "\u0304", "tilde": "\u0303",
            "widetilde": "\u0303", "dot": "\u0307"}
_SCRIPTS = {"^": dict(zip("0123456789+-=()niT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ")) | {"ᵀ": "ᵀ", "′": "′"},
            "_": dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))}
_MATH_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\s+|.", re.S)


def _argument(tokens: list[str], i: int, words: bool = False) -> tuple[str, int]:
    """The argument of a command or script starting at token ``i`` (one token, or a braced group)
    as text, and the index of the token after it."""
    while i < len(tokens) and tokens[i].isspace():
        i += 1
    if i >= len(tokens) or tokens[i] != "{":
        return _atom(tokens, i) if i < len(tokens) else ("", i)
    depth, end = 0, i
    for end in range(i, len(tokens)):
        depth += {"{": 1, "}": -1}.get(tokens[end], 0)
        if depth == 0:
            break
    inner = tokens[i + 1:end]
    return ("".join(inner) if words else _math_text(inner)), end + 1


def _wrapped(text: str) -> str:
    return text if len(text) == 1 else f"({text})"


def _atom(tokens: list[str], i: int) -> tuple[str, int]:
    """Token ``i`` (with its arguments) as text, and the index of the token after it."""
    token, name = tokens[i], tokens[i][1:]
    if token.isspace() or token in "{}":
        return "", i + 1
    if token in _SCRIPTS:
        argument, after = _argument(tokens, i + 1)
        table = _SCRIPTS[token]
        if argument and all(char in table for char in argument):
            return "".join(table[char] for char in argument), after
        return token + _wrapped(argument), after
    if name in ("frac", "tfrac", "dfrac"):
        top, after = _argument(tokens, i + 1)
        bottom, after = _argument(tokens, after)
        return f"{_wrapped(top)}/{_wrapped(bottom)}", after
    if name == "sqrt":
        argument, after = _argument(tokens, i + 1)
        return "√" + _wrapped(argument), after
    if name in _WORDS or name in _CONTENT:
        return _argument(tokens, i + 1, words=name in _WORDS)
    if name in _ACCENTS:
        argument, after = _argument(tokens, i + 1)
        return argument + _ACCENTS[name], after
    symbol = _SYMBOLS.get(name, name) if token.startswith("\\") else token
    return (f" {symbol} " if symbol in _SPACED else symbol), i + 1


def _math_text(tokens: list[str]) -> str:
    """Tokens of inline LaTeX math (:data:`_MATH_TOKEN`) as plain Unicode text: math ignores
    spaces, so ``\\mathbf X^\\top \\mathbf X`` reads ``XᵀX``, ``\\sigma^2 \\to 0`` reads
    ``σ² → 0`` and ``\\Lambda^{1/2}`` reads ``Λ^(1/2)``."""
    pieces, i = [], 0
    while i < len(tokens):
        piece, i = _atom(tokens, i)
        pieces.append(piece)
    return "".join(pieces)


def plain_title(title: str) -> str:
    """A section title with its LaTeX math as plain text, to read as a link's words:
    ``Forming $\\mathbf X^\\top \\mathbf X$ can lose digits`` reads ``Forming XᵀX can lose digits``."""
    text = re.sub(r"\$([^$]*)\$", lambda match: _math_text(_MATH_TOKEN.findall(match.group(1))), title)
    return " ".join(text.split())


def summarise(submissions: Sequence[Submission], lectures: dict[str, Lecture] | None = None
              ) -> tuple[list[ExerciseSummary], list[MistakeCount]]:
    """Per exercise: how the class did, and its named mistakes, most frequent first."""
    lectures = lectures or {}
    outcomes: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for submission in submissions:
        for outcome in submission.outcomes:
            outcomes[(submission.exercise_set, outcome.exercise)].append(outcome)
    revisit = {exercise: where for exercise_set in {key[0] for key in outcomes}
               for exercise, where in _revisit(exercise_set, lectures).items()}
    order = {exercise: (exercise_set, position) for exercise_set in {key[0] for key in outcomes}
             for position, exercise in enumerate(_max_points(exercise_set))}  # the set's own order
    summaries, mistakes = [], []
    for (exercise_set, exercise), results in sorted(
        outcomes.items(), key=lambda item: order.get(item[0][1], (item[0][0], 10**6, item[0][1]))
    ):
        kinds = Counter(result.mistake for result in results)
        attempted = len(results) - kinds["no-answer"] - kinds["not-graded"]
        summaries.append(ExerciseSummary(exercise, exercise_set, len(results), attempted, kinds[""],
                                         kinds["not-graded"], kinds["no-answer"],
                                         float(statistics.median(result.points for result in results)),
                                         max(result.max_points for result in results),
                                         *revisit.get(exercise, ("", ""))))
        examples: dict[str, Outcome] = {}
        for result in results:
            examples.setdefault(result.mistake, result)
        named = [(mistake, count) for mistake, count in kinds.items() if mistake and mistake not in NOT_ATTEMPTED]
        for mistake, count in sorted(named, key=lambda item: (-item[1], item[0])):
            example = examples[mistake]
            mistakes.append(MistakeCount(exercise, mistake, example.mistake_name or _name_of(exercise, mistake),
                                         count, attempted, example.message))
    return summaries, mistakes


def write_csvs(out: Path, summaries: Sequence[ExerciseSummary], mistakes: Sequence[MistakeCount]) -> None:
    """``mistakes.csv`` and ``exercises.csv`` in ``out``."""
    revisit = {summary.exercise: summary.revisit for summary in summaries}
    with (out / "mistakes.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["exercise", "mistake", "id", "count", "share", "attempted", "revisit"])
        for row in mistakes:
            writer.writerow([csv_cell(row.exercise), csv_cell(row.name), csv_cell(row.mistake), row.count,
                             f"{row.share:.4f}", row.attempted, csv_cell(revisit.get(row.exercise, ""))])
    with (out / "exercises.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["exercise", "exercise_set", "submissions", "attempted", "passed", "not_graded", "no_answer",
                         "pass_rate", "median_points", "max_points", "revisit"])
        for row in summaries:
            writer.writerow([csv_cell(row.exercise), csv_cell(row.exercise_set), row.submissions, row.attempted,
                             row.passed, row.not_graded, row.no_answer, f"{row.pass_rate:.4f}",
                             f"{row.median_points:g}", f"{row.max_points:g}", csv_cell(row.revisit)])


UNEXPLAINED = "other"
"""The mistake id of a failure no named mistake explains: not a misunderstanding the lecturer
can teach against, so it is ranked apart from the named mistakes."""


def _ranked(mistakes: Iterable[MistakeCount]) -> list[MistakeCount]:
    """The most submissions first, then the larger share (compared at 4 decimals), then exercise
    and id, so the order is the same on every machine."""
    return sorted(mistakes, key=lambda m: (-m.count, -round(m.share, 4), m.exercise, m.mistake))


def top_mistakes(mistakes: Sequence[MistakeCount], count: int = 10) -> list[MistakeCount]:
    """The class's ``count`` most common named mistakes across every set (:data:`UNEXPLAINED`
    left out: see :func:`unexplained`)."""
    return _ranked(m for m in mistakes if m.mistake != UNEXPLAINED)[:count]


def unexplained(mistakes: Sequence[MistakeCount]) -> list[MistakeCount]:
    """The failures no named mistake explains, one row per exercise, the most first."""
    return _ranked(m for m in mistakes if m.mistake == UNEXPLAINED)


__all__ = ["Outcome", "Submission", "ExerciseSummary", "MistakeCount", "read_reports", "summarise", "write_csvs",
           "top_mistakes", "unexplained", "plain_title", "section_anchor", "course_lectures"]
