"""Files the course ships for other repositories: ``grade-workflow.yml``, the GitHub
Actions workflow that grades a student's exercise notebooks (``dimred-teach ci-template``)."""
