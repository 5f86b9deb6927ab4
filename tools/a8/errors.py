"""The error types the toolchain shows to users, and the exit status each gives.

Every failure caused by bad input (a malformed listing, a corrupt file, a missing
emulator) is raised as a subclass of :class:`A8Error`. Its message is a single line
that names the file and the place, so the command-line front end can print it as is
and exit non-zero, with no traceback. Like python-chess, the errors are ValueErrors:
they are about values the caller passed in.

The exit status follows one rule for every command of ``a8`` and ``machfsol``
(:data:`a8.commandline.EXIT_STATUS_HELP`): an :class:`A8Error` is 1 (what the command
read, checked or wrote is wrong), a :class:`UsageError` is 2 (the command could not
run as asked: a bad value on the command line, or something it needs is missing).
"""

from __future__ import annotations


class A8Error(ValueError):
    """Base class of every user-facing toolchain error (message: one line; exit status 1)."""


class UsageError(A8Error):
    """A command line or set-up the command cannot run with: a value that makes no sense,
    or a program or file it needs that is missing (atari800, a ROM). Exit status 2, like
    argparse's own usage errors, so that 1 keeps meaning "what was checked is wrong"."""

    exit_status = 2
