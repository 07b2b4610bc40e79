"""``dimred-teach similarity`` on a class of 200 students x 14 sets (``python -m tests.benchmarks similarity``).

The class is the demo class (``dimred-teach demo-class --size 200``: right answers, blanks and
the proofs' typical mistakes) with every student's code disguised: each name gets the
student's own suffix and each cell a comment, so no two students' answers are the same text
and every one of the 15,000 answers is tokenised (the demo class as built repeats the solution's
text, which is tokenised once). Ours runs the command with ``--jobs 2``; the peer is the
tokenising alone (copydetect's ``filter_code`` of every answer, in one process), most of the
work. A second row compares one exercise's 200 answers pair by pair: ours from the fingerprints'
sparse 0/1 matrix, the peer with copydetect's ``compare_files`` for each of the 19,900 pairs.
"""

import atexit
import builtins
import io
import keyword
import os
import resource
import shutil
import subprocess
import tempfile
import tokenize
from pathlib import Path

import nbformat
import numpy as np

from dimred_teach.exercise_specs import load_spec
from dimred_teach.gradebook import similarity
from dimred_teach.gradebook.answer_code import answers, starter_code

from .harness import Benchmark

STUDENTS = 200
ROOT = Path(__file__).resolve().parents[2]
COMMAND = ROOT / ".venv" / "bin" / "dimred-teach"
KEEP = set(dir(builtins)) | {"np", "dr", "check"}


def _disguised(source: str, student: int) -> str:
    """``source`` with every name but the builtins and the course's own given the student's
    suffix, and a comment on top (a cell Python cannot tokenise is left as it is)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return source
    renamed = [token._replace(string=f"{token.string}_s{student}")
               if token.type == tokenize.NAME and not keyword.iskeyword(token.string) and token.string not in KEEP
               else token for token in tokens]
    return f"# student {student}'s own work\n" + tokenize.untokenize(renamed)


def _class(folder: Path) -> Path:
    """The demo class of :data:`STUDENTS`, every set, each student's code disguised."""
    demo = folder / "class"
    subprocess.run([COMMAND, "demo-class", "--out", demo, "--size", str(STUDENTS), "--seed", "0"], cwd=ROOT,
                   check=True, capture_output=True)
    for path in sorted(demo.glob("student-*/*.ipynb")):
        student = int(path.parent.name.split("-")[1])
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code" and not cell.source.lstrip().startswith("check("):
                cell.source = _disguised(cell.source, student)
        nbformat.write(notebook, path)
    return demo


def benchmarks():
    from copydetect import compare_files
    from copydetect.utils import filter_code

    work = Path(tempfile.mkdtemp(prefix="dimred-bench-similarity-"))
    atexit.register(shutil.rmtree, work, True)
    demo = _class(work)
    specs = {name: load_spec(name) for name in sorted({path.stem for path in demo.glob("*/*.ipynb")})}
    starters = {name: starter_code(ROOT, name) for name in specs}
    codes = [code for path in sorted(demo.glob("*/*.ipynb"))
             for code in answers(nbformat.read(path, as_version=4), specs[path.stem], starters[path.stem]).values()]

    cpu = []

    def ours():
        shutil.rmtree(work / "out", ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([COMMAND, "similarity", demo, "--out", work / "out", "--jobs", "2"], cwd=ROOT, check=True,
                       capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)

    yield Benchmark(
        f"similarity --jobs 2: {STUDENTS} students x {len(specs)} sets, every answer its own text",
        ours=ours,
        baselines={"filter_code of every answer, one process (the tokenising alone)":
                   lambda: [filter_code(code, "answer.py", "python") for code in codes]},
        why="the command also reads 2,800 notebooks, starts Python and copydetect (Matplotlib) and writes the page",
        notes=lambda: f"{len(codes)} answers, {len(set(codes))} distinct texts; "
                      f"{sum(1 for _ in open(work / 'out' / 'pairs.csv')) - 1} rows in pairs.csv; the command used "
                      f"{min(cpu):.1f} s of CPU (user + sys, its workers included: what a shared machine cannot "
                      f"inflate), load average {os.getloadavg()[0]:.1f} at the end",
        repeat=1, warmup=False)

    exercise = "04.classical_mds"
    chosen = [similarity.Answer(f"student {number}", "04_mds", exercise, code, *filter_code(code, "a.py", "python"))
              for number, code in enumerate(code for path in sorted(demo.glob("*/04_mds.ipynb"))
                                            for name, code in answers(nbformat.read(path, as_version=4),
                                                                      specs["04_mds"], starters["04_mds"]).items()
                                            if name == exercise)]
    for answer in chosen:
        answer.fingerprints = similarity._kgrams(answer.filtered)
    from dimred_teach.gradebook.similarity_page import _fingerprint

    fingerprinted = [_fingerprint(answer, np.zeros(0, dtype=np.int64)) for answer in chosen]

    def every_pair():
        return [compare_files(one, other) for i, one in enumerate(fingerprinted) for other in fingerprinted[i + 1:]]

    yield Benchmark(
        f"one exercise's {len(chosen)} answers, every pair ({exercise})",
        ours=lambda: similarity.compare_exercise(exercise, chosen),
        baselines={"copydetect compare_files for each pair": every_pair},
        repeat=2)
