"""A real terminal for tests: ``machfsol play`` in a pseudo-terminal, its screen read back.

pexpect runs the command with a pseudo-terminal as its controlling terminal (so that
the window size, SIGWINCH on a resize, Ctrl-C and a hang-up behave as in a terminal
window), and pyte, a VT100/xterm emulator, turns everything the program writes into
the characters (and colours) a person would see. Tests type keys, wait for the screen
to show something, and read it.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pyte

from machfsol.engine.cards import Card
from machfsol.engine.rules import Position

#: How long a test waits for the screen to show what it expects.
WAIT_S = 20.0
REPO = Path(__file__).resolve().parents[3]


class Terminal:
    """One program in a pseudo-terminal of ``rows`` x ``columns``, with its screen."""

    def __init__(
        self,
        argv: Sequence[str],
        rows: int = 24,
        columns: int = 80,
        env: dict[str, str] | None = None,
        shell: str | None = None,
    ) -> None:
        environment = {
            key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "COLUMNS")
        }
        environment.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
        environment["PYTHONPATH"] = os.pathsep.join([str(REPO / "tools"), str(REPO)])
        # A state folder of its own (statistics, the kept game), unless the test shares
        # one between runs: nothing from elsewhere is offered at the start.
        self._state = tempfile.TemporaryDirectory(prefix="machfsol-state-")
        environment["XDG_STATE_HOME"] = self._state.name
        environment.update(env or {})
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.output = b""
        if shell is not None:  # a shell line, with {play} standing for the command
            command = shell.format(play=" ".join([sys.executable, "-m", "machfsol.cli", *argv]))
            program, args = "/bin/sh", ["-c", command]
        else:
            program, args = sys.executable, ["-m", "machfsol.cli", *argv]
        self.child = pexpect.spawn(
            program, args, env=environment, dimensions=(rows, columns), cwd=str(REPO)
        )
        self.child.delaybeforesend = None  # pexpect waits 50 ms before each send otherwise

    # ----------------------------------------------------------------- reading

    def pump(self, seconds: float = 0.05) -> bool:
        """Read what the program wrote during ``seconds``; False once it has ended."""
        try:
            data = self.child.read_nonblocking(65536, timeout=seconds)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.output += data
        self.stream.feed(data)
        return True

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        return "\n".join(self.lines())

    def wait_for(self, wanted: str | Callable[[str], bool], timeout: float = WAIT_S) -> str:
        """Read until the screen shows ``wanted`` (text, or a test on the screen's text);
        the screen's text. Text may be wrapped over lines: it is compared word by word.
        Fails the test, showing the screen, if it never does."""
        test = wanted if callable(wanted) else (lambda text: words(wanted) in words(text))
        deadline = time.monotonic() + timeout
        while True:
            alive = self.pump()
            text = self.text()
            if test(text):
                return text
            if not alive or time.monotonic() > deadline:
                what = "the program ended" if not alive else f"{timeout} s passed"
                raise AssertionError(f"{what} before the screen showed {wanted!r}:\n{text}")

    def settle(self, quiet: float = 0.3, timeout: float = WAIT_S) -> str:
        """Read until the program has written nothing for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            before = len(self.output)
            if not self.pump(quiet) or len(self.output) == before:
                break
        return self.text()

    def finish(self, timeout: float = WAIT_S) -> int:
        """Wait for the program to end; its exit status (128 + N if signal N ended it)."""
        deadline = time.monotonic() + timeout
        while self.pump(0.1):
            if time.monotonic() > deadline:
                self.child.terminate(force=True)
                raise AssertionError(f"the program did not end:\n{self.text()}")
        self.child.close()
        if self.child.signalstatus is not None:
            return 128 + int(self.child.signalstatus)
        return int(self.child.exitstatus)

    # ----------------------------------------------------------------- writing

    def type(self, keys: str) -> None:
        self.child.send(keys)

    def press(self, key: str) -> None:
        """A named key: UP DOWN LEFT RIGHT ENTER ESC, as xterm sends them once a curses
        program has switched the cursor keys to application mode (``ESC O A``)."""
        codes = {
            "UP": "\x1bOA",
            "DOWN": "\x1bOB",
            "RIGHT": "\x1bOC",
            "LEFT": "\x1bOD",
            "ENTER": "\r",
            "ESC": "\x1b",
            "F1": "\x1bOP",
        }
        self.child.send(codes[key])

    def click(self, row: int, column: int) -> None:
        """A click of the first mouse button on the screen's cell ``row``, ``column``
        (from 0), as xterm reports it to a program that asked for the mouse (SGR
        reports: a press, then a release)."""
        self.child.send(f"\x1b[<0;{column + 1};{row + 1}M\x1b[<0;{column + 1};{row + 1}m")

    def find(self, text: str) -> tuple[int, int]:
        """Where ``text`` is on the screen: (row, column), from 0."""
        for row, line in enumerate(self.screen.display):
            column = line.find(text)
            if column >= 0:
                return row, column
        raise AssertionError(f"{text!r} is not on the screen:\n{self.text()}")

    def resize(self, rows: int, columns: int) -> None:
        """Change the window's size, as dragging a terminal window's corner does."""
        self.screen.resize(rows, columns)
        self.child.setwinsize(rows, columns)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)
        self.child.close()
        self._state.cleanup()


def words(text: str) -> str:
    """``text`` with every run of spaces and line ends as one space."""
    return " ".join(text.split())


# ------------------------------------------------------------ the table on the screen

_SIGNS = "\u2660\u2665\u2663\u2666"
_SUIT_ROW = re.compile(rf"^\s*([{_SIGNS}])\s+(\S+)(.*?)(\S+)\s+([ZXCV])\s*$")
_SPACE = re.compile(r"(?:^|\s)([1-8])\s+(\S+)")
_STOCK = re.compile(r"STOCK (\d+)\s+0 DISCARD (\S+) \((\d+)\)")


@dataclass(frozen=True)
class ShownTable:
    """The table as the screen shows it, in card codes (French style); None: empty."""

    ace_tops: tuple[str | None, ...]
    king_tops: tuple[str | None, ...]
    tableau: tuple[str | None, ...]
    stock: int
    discard_top: str | None
    discard_size: int

    @classmethod
    def read(cls, text: str) -> ShownTable:
        aces: list[str | None] = []
        kings: list[str | None] = []
        spaces: dict[int, str | None] = {}
        for line in text.splitlines():
            row = _SUIT_ROW.match(line)
            if row is None:
                continue
            aces.append(_code(row.group(2)))
            kings.append(_code(row.group(4)))
            for space in _SPACE.finditer(row.group(3)):
                spaces[int(space.group(1))] = _code(space.group(2))
        stock = _STOCK.search(text)
        if len(aces) != 4 or stock is None:
            raise AssertionError(f"no table on the screen:\n{text}")
        return cls(
            tuple(aces),
            tuple(kings),
            tuple(spaces[number] for number in sorted(spaces)),
            int(stock.group(1)),
            _code(stock.group(2)),
            int(stock.group(3)),
        )

    @classmethod
    def of_position(cls, position: Position) -> ShownTable:
        def top(pile: Sequence[Card]) -> str | None:
            return pile[-1].code if pile else None

        discard = position.discard()
        return cls(
            tuple(top(pile) for pile in position.ace_piles()),
            tuple(top(pile) for pile in position.king_piles()),
            tuple(card.code if card else None for card in position.tableau()),
            position.stock_count(),
            top(discard),
            len(discard),
        )


def _code(label: str) -> str | None:
    """``10♥`` -> ``TH``; ``--`` -> None."""
    if label == "--":
        return None
    rank, sign = label[:-1], label[-1]
    return ("T" if rank == "10" else rank) + "SHCD"[_SIGNS.index(sign)]
