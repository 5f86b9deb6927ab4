"""Every command's ``--help`` is complete, for both ``a8`` and ``machfsol``.

Issue 28: ``play``, ``deal``, ``autoplay``, ``check``, ``solve``, ``main``, ``a8 atr`` and
``a8 emu`` had no description, the disk and file arguments no help; a bad option on a
sub-command printed the top command's usage; the help named ``docs/*.md`` files that
an installed wheel does not have. This walks every sub-command.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from a8.cli import build_parser as a8_parser
from a8.cli import main as a8_main
from a8.commandline import DOCS_URL, sub_commands
from machfsol.cli import build_parser as machfsol_parser
from machfsol.cli import main as machfsol_main


def walk(
    parser: argparse.ArgumentParser, words: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command and sub-command, with the words that name it."""
    yield words, parser
    for name, sub in sub_commands(parser).items():
        yield from walk(sub, (*words, name))


COMMANDS = [*walk(a8_parser(), ("a8",)), *walk(machfsol_parser(), ("machfsol",))]
MAINS = {"a8": a8_main, "machfsol": machfsol_main}


def test_there_are_many_commands_to_walk() -> None:
    names = {" ".join(words) for words, _ in COMMANDS}
    assert len(names) == 25
    assert {"a8 atr new", "a8 emu doctor", "machfsol play", "machfsol main"} <= names


@pytest.mark.parametrize(
    ("words", "parser"), COMMANDS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else ""
)
def test_help_is_complete(
    words: tuple[str, ...],
    parser: argparse.ArgumentParser,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "40")  # a narrow terminal wraps, but never an address
    with pytest.raises(SystemExit) as caught:
        MAINS[words[0]]([*words[1:], "--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: {' '.join(words)} ")
    assert parser.description, f"{' '.join(words)} has no description"
    flat = " ".join(out.split())
    assert " ".join(parser.description.split()[:6]) in flat
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                assert choice.help, f"{' '.join(words)} {choice.dest}: no help line"
            continue
        name = action.option_strings or [action.dest]
        assert action.help and action.help != argparse.SUPPRESS, f"{words} {name}: no help"
    # The documentation by its address: a wheel has no docs/ folder.
    for path in re.findall(r"\S*docs/\S*", out):
        assert path.startswith(DOCS_URL) or path.startswith(f"({DOCS_URL}"), path
    for address in re.findall(r"https?://\S*", out):
        assert re.fullmatch(re.escape(DOCS_URL) + r"[A-Z]+\.md[.,)]*", address), address


@pytest.mark.parametrize(
    ("words", "parser"),
    [(w, p) for w, p in COMMANDS if not sub_commands(p)],
    ids=lambda x: " ".join(x) if isinstance(x, tuple) else "",
)
def test_a_bad_option_gets_the_sub_command_s_usage(
    words: tuple[str, ...], parser: argparse.ArgumentParser, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was: ``a8 atr ls D.ATR --bogus`` printed ``usage: a8 [-h] [--version] COMMAND``."""
    required = [
        "1" if action.dest in ("variant",) else "X"
        for action in parser._actions
        if not action.option_strings and action.required and action.nargs != "?"
    ]
    options = []
    for action in parser._actions:
        if action.option_strings and action.required:
            options += [action.option_strings[0], "X"]
    with pytest.raises(SystemExit) as caught:
        MAINS[words[0]]([*words[1:], *options, *required, "--no-such-option"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: {' '.join(words)} ")
    assert err.rstrip().endswith(
        f"{' '.join(words)}: error: unrecognized arguments: --no-such-option"
    )
