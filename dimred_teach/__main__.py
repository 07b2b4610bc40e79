"""``python -m dimred_teach`` is the ``dimred-teach`` command."""

import sys

from .cli import main

sys.exit(main())
