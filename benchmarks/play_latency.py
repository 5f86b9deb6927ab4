"""How fast the full-screen ``machfsol play`` answers a key, seen from a terminal.

Usage: .venv/bin/python benchmarks/play_latency.py [MOVES [SEED]]

Starts ``machfsol play`` in a pseudo-terminal of 80 x 24 (as the pty tests do,
tests/machfsol/terminal/pty_terminal.py), times the start until the dealt table is on
the screen, then types MOVES moves (default 100) of the tests' keyboard game
(tests/machfsol/terminal/typed_game.py: two keys a move, as on the Atari), one move at
a time, and times each
from the first key sent until the screen (read through the pyte terminal emulator)
shows the engine's table after that move. It prints the start time and the median,
90th percentile and slowest move, in milliseconds of wall time; the figures include
the emulator's reading of the screen, so the program itself is at least this quick.
docs/notes/play-terminal.md and docs/notes/2026-12-02-play-keys.md record them.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' pty helper

from tests.machfsol.terminal.pty_terminal import ShownTable, Terminal  # noqa: E402
from tests.machfsol.terminal.typed_game import mixed_moves, two_keys  # noqa: E402

from machfsol.engine.rules import Position, variant  # noqa: E402


def shows(text: str, expected: ShownTable) -> bool:
    try:
        return ShownTable.read(text) == expected
    except AssertionError:
        return False


def main(argv: list[str]) -> int:
    moves_wanted = int(argv[0]) if argv else 100
    seed = int(argv[1]) if len(argv) > 1 else 289
    position = Position.from_seed(seed, variant(1))
    moves = mixed_moves(position, moves_wanted)
    started = time.perf_counter()
    terminal = Terminal(["play", "--seed", str(seed)])
    try:
        dealt = ShownTable.of_position(position)
        terminal.wait_for(lambda text: shows(text, dealt))
        start_ms = (time.perf_counter() - started) * 1000
        times = []
        for move in moves:
            position.push(move)
            expected = ShownTable.of_position(position)
            sent = time.perf_counter()
            terminal.type(two_keys(move))
            terminal.wait_for(lambda text, expected=expected: shows(text, expected))
            times.append((time.perf_counter() - sent) * 1000)
        terminal.type("qy")
        terminal.finish()
    finally:
        terminal.close()
    ordered = sorted(times)
    print(f"python {platform.python_version()}, {platform.machine()}, seed {seed}")
    print(f"start to the dealt table: {start_ms:.0f} ms")
    print(
        f"{len(times)} moves, key to table: median {statistics.median(times):.1f} ms, "
        f"90% {ordered[int(0.9 * (len(ordered) - 1))]:.1f} ms, slowest {ordered[-1]:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
