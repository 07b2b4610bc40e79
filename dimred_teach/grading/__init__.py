"""The grader behind ``dimred-teach grade``: run submitted exercise notebooks in fresh,
sandboxed kernels, score them with the course's checks, and always write a report.

Modules, one job each:

``submissions``  which notebooks, which exercise set each is, reading one safely
``plan``         the cells to run, every check cell restored from the grading spec
``sandbox``      where and as whom a kernel runs (bubblewrap, an unprivileged user, none)
``kernel_helper``, ``kernel_launcher``
                 the code that runs in the kernel (real files, sent or executed as is)
``channel``      answers and function results from the kernel, read as data only
``session``      one submission in its worker: the kernel, the cells, the checks
``scheduler``    the main process: provisional reports, workers, deadlines
``watchdog``     the outer deadline of the command, outside anything a kernel can reach
``reports``      report names, JSON per submission, junit.xml, summary.md, gradebook
``command``      the ``grade``, ``gradescope`` and ``ci-template`` commands
``gradescope``   the Gradescope autograder bundle and its ``run_autograder``

How a submission is graded
--------------------------
1. The exercise set comes from the notebook's metadata, else from its file name; only sets
   with a grading spec are accepted.
2. The notebook is rebuilt from its code cells alone; every check cell is restored from
   the spec (by cell id, by the exercise id in its ``check(...)`` call, else put back
   where it was) and rewritten to hand its answer to a helper installed in the kernel
   under a per-run random name.
3. The kernel starts in the sandbox (``--sandbox``, see :mod:`.sandbox`), with a scrubbed
   environment, rlimits, per-cell and whole-notebook time limits, outputs discarded, and
   the modules the exercise set may not use unimportable (:mod:`dimred_teach.checks.policy`).
4. Right after a check cell runs, the worker reads the answer from the kernel's scratch
   folder as data and runs the check in the worker, whose code was imported before any
   kernel ran; a function answer stays in the kernel and is called through a proxy.
5. The worker sends the main process only the outcome of each exercise; the main process
   attaches it to the submission it gave that worker, takes the points from the spec, and
   writes the report under a name it chose. A watchdog process ends a run that stops
   making progress.
"""

from .command import workflow_template
from .channel import load_answer
from .options import SANDBOXES, GradingOptions
from .plan import plan_cells
from .reports import report_names, write_gradebook, write_reports
from .results import SubmissionResult, TestResult
from .sandbox import SandboxUnavailable, scrubbed_environment
from .scheduler import grade
from .submissions import find_submissions, identify_set, load_specs
from .watchdog import grade_supervised

__all__ = ["GradingOptions", "SANDBOXES", "SandboxUnavailable", "TestResult", "SubmissionResult", "grade",
           "grade_supervised", "load_specs", "find_submissions", "identify_set", "load_answer", "plan_cells",
           "report_names", "scrubbed_environment", "write_reports", "write_gradebook", "workflow_template"]
