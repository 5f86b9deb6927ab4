"""``python -m a8``: the ``a8`` command, for a Python without the console script on PATH."""

import sys

from a8.cli import main

sys.exit(main())
