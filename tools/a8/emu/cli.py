"""Sub-commands of ``a8`` for this package (filled in by its issue)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add this package's sub-commands (none yet)."""
