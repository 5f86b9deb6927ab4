"""Sub-commands of ``machfsol`` (filled in by the engine issue and later ones)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the sub-commands (none yet)."""
