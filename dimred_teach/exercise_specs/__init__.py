"""Grading specs written by ``dimred-teach build``: one JSON file per exercise set."""
