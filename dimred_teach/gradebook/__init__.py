"""Everything after grading: what a lecturer does with a class's reports (and, for ``similarity``, its
notebooks). It reads the reports :mod:`dimred_teach.grading` wrote (through
:class:`dimred_teach.grading.results.SubmissionResult`'s reader) and never grades;
:mod:`dimred_teach.grading` imports nothing from here.

Modules, one job each:

``class_report``  the class's reports read into submissions; exercise and mistake counts, their CSV files
``item_statistics`` each exercise's facility and discrimination, each set's alpha, their CSV files
``class_page``    the class report's page (an autoescaping template)
``class_outputs`` ``class-report``: the CSV files and the page in one folder
``roster``        a course's roster, and which student each submission belongs to
``lms``           ``gradebook``: per-student points, Canvas's and Moodle's import files, feedback pages
``written_pages`` ``written``: the written answers, a page per exercise beside its rubric
``written_scores`` the lecturer's points for the written answers (``written-scores.csv``)
``merge``         ``merge``: the shards of ``grade --shard K/N`` put back together
``similarity``    ``similarity``: students' code compared exercise by exercise (copydetect's fingerprints)
``similarity_page`` its page: the pairs that stand out side by side, copies of the course's code
``answer_code``   the code a student wrote for each exercise of a notebook, starter code left out
``course_code``   the course's own code an answer of a set could be copied from
"""
