"""Errors the ``machfsol`` command reports to users as one line."""

from __future__ import annotations


class MachfsolError(ValueError):
    """Base class of every user-facing error in the games package (one-line message)."""
