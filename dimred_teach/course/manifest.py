"""The course's manifest, ``course.toml``: the one list of its lectures.

Every tool that lists lectures (the build, ``START_HERE.md``, the README's course map, the
website, the slide decks, the tests) reads it through :func:`read_manifest`, and only this
module knows how a lecture's files are named (``notebooks/NN_slug.py`` and its executed
``.ipynb``, ``solutions/NN_slug.py``, ``exercises/NN_slug.ipynb``). ``dimred-teach new``
appends a row with :func:`manifest_row`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["MANIFEST", "Lecture", "ManifestError", "read_manifest", "course_repository", "check_new_slug",
           "find_lecture", "manifest_row", "header_problems"]

MANIFEST = "course.toml"
NUMBER = re.compile(r"\d\d")
SLUG = re.compile(r"[a-z][a-z0-9_]*")
FIELDS = {"number": str, "slug": str, "title": str, "minutes": int, "optional_minutes": int, "summary": str,
          "notes": list, "exercises": bool}
REQUIRED = ("number", "slug", "title", "minutes", "summary", "notes", "exercises")


class ManifestError(ValueError):
    """``course.toml`` is missing, malformed, or disagrees with itself."""


@dataclass(frozen=True)
class Lecture:
    """One row of the manifest, and the files it names under the course's root."""

    root: Path
    number: str
    slug: str
    title: str
    minutes: int
    summary: str
    notes: tuple[str, ...]
    exercises: bool
    optional_minutes: int = 0
    stem: str = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "stem", f"{self.number}_{self.slug}")

    @property
    def lecture_source(self) -> Path:
        return self.root / "notebooks" / f"{self.stem}.py"

    @property
    def lecture_notebook(self) -> Path:
        return self.root / "notebooks" / f"{self.stem}.ipynb"

    @property
    def solution_source(self) -> Path:
        return self.root / "solutions" / f"{self.stem}.py"

    @property
    def solution_notebook(self) -> Path:
        return self.root / "solutions" / f"{self.stem}.ipynb"

    @property
    def exercise_notebook(self) -> Path:
        return self.root / "exercises" / f"{self.stem}.ipynb"

    @property
    def sections(self) -> dict[int | str, str]:
        """The lecture's numbered sections (``## N. Title`` in its source), number to title, and
        its optional last section (``## Going further (optional)...``) under ``"going further"``."""
        text = self.lecture_source.read_text(encoding="utf-8") if self.lecture_source.is_file() else ""
        sections: dict[int | str, str] = {int(m[1]): m[2].strip() for m in SECTION_HEADING.finditer(text)}
        further = GOING_FURTHER_HEADING.search(text)
        if further:
            sections["going further"] = further[1].strip()
        return sections

    @property
    def time(self) -> str:
        """The lecture's time line, as its header must state it."""
        optional = (f", plus about {self.optional_minutes} for the optional last section"
                    if self.optional_minutes else "")
        return f"about {self.minutes} minutes{optional}"


def _lecture(root: Path, row: dict, index: int) -> Lecture:
    where = f"{MANIFEST}, lecture {index + 1}"
    unknown = sorted(set(row) - set(FIELDS))
    missing = [name for name in REQUIRED if name not in row]
    if unknown or missing:
        raise ManifestError(f"{where}: unknown field(s) {unknown}, missing field(s) {missing}")
    for name, value in row.items():
        if not isinstance(value, FIELDS[name]) or (FIELDS[name] is int and isinstance(value, bool)):
            raise ManifestError(f"{where}: {name} must be a {FIELDS[name].__name__}, got {value!r}")
    if not NUMBER.fullmatch(row["number"]) or not SLUG.fullmatch(row["slug"]):
        raise ManifestError(f"{where}: number must be two digits and slug lowercase words joined by _, "
                            f"got {row['number']!r} and {row['slug']!r}")
    if row["minutes"] <= 0 or row.get("optional_minutes", 0) < 0:
        raise ManifestError(f"{where}: minutes must be positive and optional_minutes at least 0")
    return Lecture(root=root, **{**row, "notes": tuple(row["notes"])})


def read_manifest(root: Path) -> list[Lecture]:
    """The lectures of the course at ``root``, in teaching order (numbers 01, 02, ... without gaps)."""
    path = Path(root) / MANIFEST
    try:
        rows = tomllib.loads(path.read_text(encoding="utf-8")).get("lecture", [])
    except FileNotFoundError:
        raise ManifestError(f"{path} does not exist: the course's root holds {MANIFEST}") from None
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{path}: {error}") from None
    lectures = [_lecture(Path(root), row, index) for index, row in enumerate(rows)]
    numbers = [lecture.number for lecture in lectures]
    if numbers != [f"{n:02d}" for n in range(1, len(numbers) + 1)]:
        raise ManifestError(f"{path}: lectures must be numbered 01, 02, ... in order, got {numbers}")
    slugs = [lecture.slug for lecture in lectures]
    repeated = sorted({slug for slug in slugs if slugs.count(slug) > 1})
    if repeated:
        raise ManifestError(f"{path}: each slug names one lecture's files, but {', '.join(repeated)} names several")
    return lectures


def check_new_slug(lectures: list[Lecture], slug: str) -> None:
    """ValueError naming ``slug`` unless it is lowercase words joined by ``_`` and no lecture's yet."""
    if not SLUG.fullmatch(slug):
        raise ValueError(f"slug must be lowercase words joined by _ (e.g. demo_topic), got {slug!r}")
    taken = {lecture.slug: lecture.number for lecture in lectures}
    if slug in taken:
        raise ValueError(f"slug: {slug!r} is lecture {taken[slug]}'s already; choose another")


def course_repository(root: Path) -> str | None:
    """``[course] repository`` of course.toml: the URL of the course's git repository, which a
    notebook opened outside the course names in its install line (None when unset)."""
    try:
        table = tomllib.loads((Path(root) / MANIFEST).read_text(encoding="utf-8")).get("course", {})
    except (FileNotFoundError, tomllib.TOMLDecodeError):
        return None
    repository = table.get("repository") if isinstance(table, dict) else None
    return repository if isinstance(repository, str) and repository else None


def find_lecture(root: Path, number: str) -> Lecture:
    """The lecture numbered ``number`` (``"4"`` or ``"04"``); ValueError naming the known numbers."""
    lectures = {lecture.number: lecture for lecture in read_manifest(root)}
    wanted = str(number).zfill(2)
    if wanted not in lectures:
        raise ValueError(f"number: no lecture {wanted} in {MANIFEST}; known: {', '.join(lectures)}")
    return lectures[wanted]


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def manifest_row(number: str, slug: str, title: str, minutes: int, summary: str, notes: list[str],
                 exercises: bool) -> str:
    """The TOML text of one ``[[lecture]]`` row (what ``dimred-teach new`` appends)."""
    return "\n".join([
        "[[lecture]]",
        f"number = {_toml_string(number)}",
        f"slug = {_toml_string(slug)}",
        f"title = {_toml_string(title)}",
        f"minutes = {int(minutes)}",
        f"summary = {_toml_string(summary)}",
        "notes = [" + ", ".join(_toml_string(note) for note in notes) + "]",
        f"exercises = {'true' if exercises else 'false'}",
        "",
    ])


SECTION_HEADING = re.compile(r"^# ## (\d+)\. (.+)$", re.M)
GOING_FURTHER_HEADING = re.compile(r"^# ## (Going further \(optional\).*)$", re.M)
TIME_LINE = re.compile(r"Time:?\**:? (about \d+ minutes(?:, plus about \d+ for the optional last section)?)")


def header_problems(lecture: Lecture) -> list[str]:
    """Where the lecture's source disagrees with its manifest row (missing files, heading, time)."""
    needed = [lecture.lecture_source] + ([lecture.solution_source] if lecture.exercises else [])
    problems = [f"{path} is listed in {MANIFEST} but does not exist" for path in needed if not path.is_file()]
    if not lecture.lecture_source.is_file():
        return problems
    text = lecture.lecture_source.read_text(encoding="utf-8")
    heading = f"# # {lecture.number} · {lecture.title}"
    if heading not in text.split("\n")[:3]:
        problems.append(f"{lecture.lecture_source}: the heading must be '{heading[2:]}' as in {MANIFEST}")
    stated = TIME_LINE.search(text)
    if stated is None or stated.group(1) != lecture.time:
        problems.append(f"{lecture.lecture_source}: the time line must say '{lecture.time}' as in {MANIFEST} "
                        f"(minutes, optional_minutes); it says {stated.group(1) if stated else 'nothing'!r}")
    if not lecture.exercises and lecture.solution_source.is_file():
        problems.append(f"{lecture.solution_source} exists but {MANIFEST} says lecture {lecture.number} has no "
                        f"exercises")
    return problems
