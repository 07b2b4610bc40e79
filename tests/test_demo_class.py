"""The demo class is exact (issue 51.5): built with ``--every-mistake``, every typical mistake of
every exercise of every set is planted once (but those whose answer cannot reach a grading
kernel, which ``class.json`` names), and the class report of the graded class counts exactly
what ``class.json`` says was planted. (12.best_rank's "training-error" mutant once reached the
kernel as a pickle naming ``dimred_teach.pca``, a module set 12's kernel does not hold: the
cell that planted it failed, the right answer stayed, and the mistake was lost.)

The class is as small as covering every mistake allows (93 notebooks, one per student and
set): it grades in about 80 s on two quiet cores (``--jobs 2``, sandboxed in bubblewrap)."""

from __future__ import annotations

import json
from collections import Counter

from test_class_report import ROOT, counted, grade_and_report

from dimred_teach.cli import main
from dimred_teach.course.demo_class import UNSEEN_BY_THE_GRADER, typical_mistakes
from dimred_teach.course.manifest import read_manifest
from dimred_teach.exercise_specs import load_spec


def test_every_planted_mistake_of_every_set_is_reported(tmp_path):
    assert main(["demo-class", "--out", str(tmp_path / "class"), "--every-mistake", "--root", str(ROOT)]) == 0
    built = json.loads((tmp_path / "class" / "class.json").read_text())
    planted = Counter((exercise, mistake) for made in built["submissions"].values() for exercise, mistake in made.items())
    exercises = [entry["exercise_id"] for lecture in read_manifest(ROOT) if lecture.exercises
                 for entry in load_spec(lecture.stem)["checks"]]
    for exercise in exercises:
        mutants = [m for m in typical_mistakes(ROOT, exercise) if m.name not in built["not_planted"].get(exercise, [])]
        made = Counter(mistake for (planted_in, mistake), count in planted.items() for _ in range(count)
                       if planted_in == exercise and mistake)
        assert made == Counter(m.mistakes[0] for m in mutants), exercise
    assert sum(map(len, built["not_planted"].values())) <= 6 and not set(planted) & UNSEEN_BY_THE_GRADER
    grade_and_report(tmp_path / "class", tmp_path)
    assert counted(tmp_path / "report") == planted


def test_a_signed_argmax_is_never_taken_for_the_inverse_order():
    """The demo class above once reported 13.match_sources' "signed-argmax" mutant as
    "inverse-order": on about 1 instance in 1,000 the largest signed correlations happened to
    give the inverse permutation, which the check tests first. The instances now never do."""
    from check_cases.set13 import CASES

    from dimred_teach.checks import evaluate

    (signed,) = [mutant for mutant in CASES["13.match_sources"][1] if mutant.mistake == "signed-argmax"]
    reported = Counter(evaluate("13.match_sources", signed.answer(), seed=seed).mistake for seed in range(2000))
    assert reported == Counter({"signed-argmax": 2000})
