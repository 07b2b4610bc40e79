"""The shipped data files, installed as the package ``dimred_teach.data``.

Nothing to import from here: use the loaders in ``dimred_teach.datasets``.
"""
