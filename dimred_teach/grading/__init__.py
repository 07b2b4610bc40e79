"""The grader behind ``dimred-teach grade``: run submitted exercise notebooks in fresh,
sandboxed kernels, score them with the course's checks, and always write a report.

Modules, one job each:

``submissions``  which notebooks, which exercise set each is, reading one safely
``submission_cells``
                 the cells of one submission to run, every check cell restored from the grading spec
``written``      a submission's written answers, read as plain text before its kernel starts
``run_settings`` the options, the sets' specs and the sandbox mode of a whole run, settled once
``sandbox``      the interface of a sandbox mode (where and as whom a kernel runs, what it hides,
                 how it fails closed, what its reports say) and what every mode shares
``sandbox_modes`` the registry of modes: ``--sandbox``'s choices, ``auto``'s probe, a report's mode
``bubblewrap``, ``unprivileged_user``
                 the ``bwrap`` and ``user`` modes (``none`` is in :mod:`.sandbox`)
``installation`` what of the course's installation a kernel needs, and what it must never read
``mounts``       what a ``user`` kernel's own mount namespace hides and covers
``readable_to_kernels``
                 what a ``user`` kernel could read that it must not: the refusals before any kernel
``kernel_helper``, ``kernel_launcher``
                 the code that runs in the kernel (real files, sent or executed as is)
``plain_data``   the plain-data format of answers, arguments and results (no pickle)
``course_view``  each exercise set's copy of the course, without what the set forbids
``uids``         kernel user ids, unique across grader runs on the machine
``checker``      a submission's checks, in a process of their own under limits
``answer_folder`` the kernel's answer folder, read without following links
``submission_worker``
                 one submission in its worker: the kernel, the cells, the checks
``scheduler``    the main process: provisional reports, workers, deadlines
``watchdog``     the outer deadline of the command, outside anything a kernel can reach
``reports``      report names, JSON per submission, junit.xml, summary.md, gradebook
``report_staging``
                 where a run's reports wait, private, until no kernel of the run is alive
``grade_command``
                 the ``grade``, ``gradescope`` and ``ci-template`` commands
``gradescope``   the Gradescope autograder bundle and its ``run_autograder``
``classroom``    a Classroom 50 submission: its ``result.json`` and ``release-body.md``
``shards``       ``grade --shard K/N``: a stable share of a class, and the checks of ``merge``
``regrade``      ``regrade``: a run's notebooks graded again with the grader installed now, and what changed
``engine_templates``
                 ``class-template``: a class in shards on GitHub Actions, Slurm or Kubernetes

How a submission is graded
--------------------------
1. The exercise set comes from the notebook's metadata, else from its file name; only sets
   with a grading spec are accepted.
2. The notebook is rebuilt from its code cells alone; every check cell is restored from
   the spec (by cell id, by the exercise id in its ``check(...)`` call, else put back
   where it was) and rewritten to hand its answer to a helper installed in the kernel
   under a per-run random name.
3. The kernel starts in the sandbox (``--sandbox``, see :mod:`.sandbox_modes`) as a user id of its
   own (:mod:`.uids`), with a scrubbed environment, rlimits, per-cell and whole-notebook
   time limits, outputs discarded, and its set's view of the course (:mod:`.course_view`): what
   the set forbids, the checks, the grader and the solutions are not there to import or read.
4. Right after a check cell runs, the worker hands the bytes the kernel wrote, undecoded,
   to the submission's checks process (:mod:`.checker`, forked before the kernel started,
   under memory, CPU and time limits), which reads them as plain data (:mod:`.plain_data`); a
   function answer stays in the kernel and the checks call it through the worker.
5. The worker sends the main process only the outcome of each exercise; the main process
   attaches it to the submission it gave that worker, takes the points from the spec, and
   stages the report under a name it chose, in a folder no kernel can read; the reports are
   published once no kernel of the run is alive. A watchdog process ends a run that stops
   making progress.
"""

# isort: off
from .. import _fast_start  # noqa: F401  (first: before anything imports nbformat)
# isort: on
from .grade_command import workflow_template
from .options import GradingOptions
from .plain_data import PlainDataError, decode, encode
from .reports import report_names, write_gradebook, write_reports
from .results import SubmissionResult, TestResult
from .run_settings import RunSettings, settle_run
from .sandbox import SandboxUnavailable, scrubbed_environment
from .sandbox_modes import CHOICES as SANDBOXES
from .scheduler import grade
from .submission_cells import plan_cells
from .submissions import find_submissions, identify_set, load_specs
from .watchdog import grade_supervised

__all__ = [
    "GradingOptions", "RunSettings", "settle_run", "SANDBOXES", "SandboxUnavailable", "TestResult", "SubmissionResult",
    "grade", "grade_supervised", "load_specs", "find_submissions", "identify_set", "encode", "decode", "PlainDataError",
    "plan_cells", "report_names", "scrubbed_environment", "write_reports", "write_gradebook", "workflow_template",
]
