"""Errors the ``machfsol`` command reports to users as one line."""

from __future__ import annotations


class MachfsolError(ValueError):
    """Base class of every user-facing error in the games package (one-line message)."""


class UsageError(MachfsolError):
    """A bad command-line value (seed, deck, variant, option): exit status 2, like
    argparse's own usage errors."""

    exit_status = 2
