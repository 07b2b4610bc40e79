"""``dimred-teach class-report``: reads the reports (:mod:`.class_report`, the data model),
computes the item statistics (:mod:`.item_statistics`) and writes the CSV files and the page
(:mod:`.class_page`) into one folder."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .class_page import write_page
from .class_report import course_lectures, read_reports, summarise, write_csvs
from .item_statistics import item_statistics, write_statistics


def class_report(paths: Sequence[Path], out: Path, root: Path, names: bool = False, students: bool = False,
                 site_url: str = "") -> str:
    """Read the reports, write the four CSV files and the page; returns a one-line account."""
    submissions, skipped = read_reports(paths)
    if not submissions:
        raise ValueError(f"REPORTS: no graded submission found in {', '.join(map(str, paths))}"
                         + (f" ({len(skipped)} file(s) skipped as not reports)" if skipped else ""))
    if site_url and not site_url.startswith(("https://", "http://")):
        raise ValueError(f"--site-url must start with https:// or http://, got {site_url!r}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lectures = course_lectures(root)
    summaries, mistakes = summarise(submissions, lectures)
    write_csvs(out, summaries, mistakes)
    items, sets = item_statistics(submissions, summaries)
    write_statistics(out, items, sets)
    write_page(out / "index.html", submissions, summaries, mistakes, items, sets, names=names, students=students,
               titles={number: lecture.title for number, lecture in lectures.items()},
               site_url=site_url.rstrip("/") + "/" if site_url else "")
    account = (f"{len(submissions)} submission(s), {len(summaries)} exercise(s), {len(mistakes)} mistake row(s): "
               + ", ".join(str(out / name) for name in ("index.html", "mistakes.csv", "exercises.csv", "items.csv",
                                                        "sets.csv")))
    return account + "".join(f"\nskipped {note}" for note in skipped)
