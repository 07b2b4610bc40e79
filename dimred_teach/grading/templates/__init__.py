"""Files the grader ships for other places: ``grade-workflow.yml``, the GitHub Actions
workflow that grades a student's exercise notebooks (``dimred-teach ci-template``), and
``gradescope-setup.sh`` / ``gradescope-run_autograder``, the scripts of the Gradescope
autograder bundle (``dimred-teach gradescope``), ``classroom50-autograder.py``, a Classroom 50
assignment's autograder (``dimred-teach classroom50``), and ``class-*``, a class graded in shards
on an engine (``dimred-teach class-template``)."""
