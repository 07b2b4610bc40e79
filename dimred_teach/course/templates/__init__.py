"""Files the course tooling writes out: the deck template and style of ``dimred-teach
slides`` (``deck/``), the website's sidebar template, favicon and scripts (``site/``), and
``site-workflow.yml``, the GitHub Pages workflow publishing the website (``dimred-teach
ci-template --site``), and the students' README of a Classroom 50 assignment's template
repository, ``classroom-README.md`` (``dimred-teach classroom50``)."""
