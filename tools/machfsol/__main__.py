"""``python -m machfsol``: the ``machfsol`` command, for a Python without the console
script on PATH."""

import sys

from machfsol.cli import main

sys.exit(main())
