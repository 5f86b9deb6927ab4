"""The one error type the toolchain shows to users.

Every failure caused by bad input (a malformed listing, a corrupt file, a missing
emulator) is raised as a subclass of :class:`A8Error`. Its message is a single line
that names the file and the place, so the command-line front end can print it as is
and exit non-zero, with no traceback. Like python-chess, the errors are ValueErrors:
they are about values the caller passed in.
"""

from __future__ import annotations


class A8Error(ValueError):
    """Base class of every user-facing toolchain error (message: one line)."""
