"""The plumbing shared by the ``a8`` and ``machfsol`` commands.

Both are argparse programs whose sub-commands are contributed by modules, each with a
``register(subparsers)`` function that sets ``handler`` (``args -> exit status``).
Both turn their user-facing errors into one line on stderr and a non-zero status,
so a bad input never shows a traceback.

Every command and sub-command has a description and every argument a help text
(tests/a8/test_help.py walks them all). The help names the documentation by its
address on the web (:func:`docs`), since an installed wheel has no ``docs/`` folder.
An option a sub-command does not know gets that sub-command's usage, not the top
command's.

What reaches the terminal is shown, never obeyed: a message that quotes a file name
or a line of a script holding control characters (an escape sequence that clears
the screen) shows them escaped (:func:`printable`), and standard output escapes
what its encoding cannot show (``PYTHONIOENCODING=ascii``, a C locale) instead of
failing with a UnicodeEncodeError: an ATASCII graphics character in a disk's file
name is printed as ``\\u2665``.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import Final

#: Where the documentation is read: the repository's docs/ folder on the web.
DOCS_URL: Final = "https://github.com/machfsol/machfsol/blob/main/docs/"


def docs(page: str) -> str:
    """The address of a page of the documentation (``docs("ATR.md")``)."""
    return f"{DOCS_URL}{page}"


#: The exit status of every command of ``a8`` and ``machfsol``, said once: the end of
#: both commands' ``--help``, and the README.
EXIT_STATUS_HELP: Final = (
    "exit status, for every command: 0 done; 1 a check failed or what the command read "
    "or wrote was refused (a problem found, a deal that differs, a damaged or unreadable "
    "file, an output that cannot be written); 2 a usage or set-up problem (a bad option "
    "or value, or something the command needs is missing: atari800, a ROM file, an "
    "extra such as machfsol[cluster]); 130 interrupted (Ctrl-C, which in machfsol play "
    "is a key that quits the game)"
)

#: C0 controls, DEL and C1 controls, each as the escape Python would write for it.
_CONTROL_ESCAPES: Final = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}


def printable(text: str) -> str:
    """``text`` with every control character escaped (``\\x1b``): safe on a terminal."""
    return text.translate(_CONTROL_ESCAPES)


def build_parser(
    prog: str, description: str, version: str, command_modules: Sequence[str]
) -> argparse.ArgumentParser:
    """A parser with one sub-command per ``register`` call of ``command_modules``."""
    parser = argparse.ArgumentParser(prog=prog, description=description, epilog=EXIT_STATUS_HELP)
    parser.add_argument("--version", action="version", version=f"{prog} {version}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in command_modules:
        importlib.import_module(name).register(subparsers)
    _remember_usages(parser)
    return parser


def sub_commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The sub-commands of ``parser`` by name (none for a command without any)."""
    return {
        name: sub
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name, sub in action.choices.items()
    }


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's layout, except that a word longer than the line (an address of the
    documentation) stays whole, to be copied as it is."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(
            " ".join(text.split()), width, break_long_words=False, break_on_hyphens=False
        )

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )


def _remember_usages(parser: argparse.ArgumentParser) -> None:
    """Each sub-command notes itself in the arguments it parses: the deepest one
    chosen is the one whose usage an unknown option gets. All lay out their help alike."""
    parser.formatter_class = _HelpFormatter
    for sub in sub_commands(parser).values():
        sub.set_defaults(usage_parser=sub)
        _remember_usages(sub)


def run(
    parser: argparse.ArgumentParser,
    argv: Sequence[str] | None,
    user_errors: tuple[type[Exception], ...],
    prefix: str = "",
) -> int:
    """Parse ``argv`` and run the chosen handler; a user error becomes one line.

    An error's ``exit_status`` attribute, when it has one, is the exit status
    (usage errors use 2, like argparse's own); otherwise it is 1
    (:data:`EXIT_STATUS_HELP`).
    """
    _escape_what_stdout_cannot_show()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # argparse would show the top command's usage
        chosen: argparse.ArgumentParser = getattr(args, "usage_parser", parser)
        chosen.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        status: int = args.handler(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk or closed pipe shows here, not at exit
    except user_errors as error:
        _print_error(f"{prefix}{error}")
        return int(getattr(error, "exit_status", 1))
    except KeyboardInterrupt:
        return 130
    except AttributeError:
        if sys.stdout is not None:
            raise  # a bug, not a closed stdout
        # Started with stdout closed (``>&-``): Python sets sys.stdout to None, and a
        # command writing to it fails here instead of in a8.files.stdout_binary.
        _print_error(f"{prefix}cannot write the output: standard output is closed")
        return 1
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except OSError as error:
        if error.filename is not None:
            raise  # a file the command itself opened: a bug to report, not to hide
        _silence_stdout()
        _print_error(f"{prefix}cannot write the output: {error.strerror}")
        return 1
    return status


def _escape_what_stdout_cannot_show() -> None:
    """Standard output writes ``\\u2665`` for a character its encoding has not, as
    standard error already does, instead of raising UnicodeEncodeError."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")


def warn(message: str) -> None:
    """A warning: one line on stderr, control characters escaped."""
    _print_error(message)


def _print_error(message: str) -> None:
    """One line on stderr, control characters escaped (nothing if stderr is closed
    too: there is nowhere to say it)."""
    if sys.stderr is not None:
        print(printable(message), file=sys.stderr)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    if sys.stdout is None:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
