"""The course tooling: the manifest (``course.toml``), the build of exercise sets from
solutions, executing notebooks, the website, the slide decks and the scaffold of a new
lecture. It writes the course's files; it never grades (that is :mod:`dimred_teach.grading`)."""
