"""A game typed on the Atari's keyboard, and the table it leaves checked with the engine.

The test mode proves that the programs deal and autoplay like the engine; this proves
the path a person takes: the game's own keys (docs/GAME.md). A script boots the game,
asks for a deal with ``N``, types a sequence of moves as a player would (``SPACE`` to
draw; a source key ``1-8``, ``0`` or ``Q W E R`` then a destination key ``A`` or
``Q W E R``), and reads the screen at the end (:mod:`machfsol.atari.screen_table`). The same
moves are made on the engine's :class:`~machfsol.engine.rules.Position`; the two tables must
be the same card for card.

The moves are not the autoplay policy's: two times out of three a card is played,
picked among the legal plays by a fixed rule that goes round the list, otherwise a
card is drawn; so Ace-pile and King-pile moves from the tableau, the discard pile and
the King piles all come up, including moves the policy would never make.

Each key is typed when the program is ready for it: the script waits until the
program waits for a key in the OS's keyboard routine (``wait-input``,
:mod:`a8.emu.keywait`), however long the key before took, so the same game runs
on the built-in ROMs and on the genuine, three times slower ones. The deal number
goes in the same way, a digit at a time.

Or, ``typed_ahead``, the way a quick player types: every key of the game at 12 keys a
second (each held 2 frames, released 3: the XL keyboard's debounce allows no more),
without waiting for the screen, while the program is still working out the moves
before; the game's keyboard queue (:mod:`machfsol.atari.key_queue`) must keep them
all, in order, and the table at the end must still be the engine's.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from a8.emu.emulator import EmulatorOptions, run
from a8.emu.script import Script
from machfsol.atari.screen_table import TableReadError, TableView
from machfsol.atari.test_player import destination_key, keys_for, source_key
from machfsol.atari.verify_batch import (
    MIN_FRAMES_PER_WALL_SECOND,
    PROGRAM_NAME,
    GameDisk,
    GameProgram,
)
from machfsol.engine.rules import Move, Position, variant

#: Frames a key may take until the program asks for the next one (a move on the
#: genuine ROMs: about 100), before the run counts as stuck.
KEY_FRAMES: Final = 60 * 60
#: Frames allowed for the boot and the first table, and for a new deal to be drawn.
START_FRAMES: Final = 120 * 60
DEAL_FRAMES: Final = 60 * 60
#: Wall-clock budget per key for the kill timeout (emulated frames a key takes, at most).
TYPICAL_KEY_FRAMES: Final = 600
#: The rule that picks moves goes round the legal moves in steps of this many.
MOVE_STRIDE: Final = 7
SCREEN_FILE: Final = "final.png"


def keys_of(move: Move) -> str:
    """The keys that make ``move``, a source key and a destination key always (the
    terminal game's spelling; the Atari game takes a card with one place to go at its
    source key alone: :func:`machfsol.atari.test_player.keys_for`)."""
    if move.is_draw:
        return " "
    return source_key(move.source) + destination_key(move.destination)


def player_moves(position: Position, count: int) -> tuple[Move, ...]:
    """Up to ``count`` legal moves from ``position`` (see the module docstring);
    fewer if the game ends. ``position`` itself is not changed."""
    table = position.copy()
    moves: list[Move] = []
    for number in range(count):
        legal = table.legal_moves()
        if not legal or table.is_won():
            break
        plays = [move for move in legal if not move.is_draw]
        if plays and (number % 3 != 2 or len(plays) == len(legal)):
            move = plays[(MOVE_STRIDE * number) % len(plays)]
        else:
            move = legal[0] if legal[0].is_draw else legal[-1]
        table.push(move)
        moves.append(move)
    return tuple(moves)


@dataclass(frozen=True)
class KeyboardGame:
    """A deal and the moves to type in it.

    With ``undo_every`` k, every k-th move is undone (``U``) and typed again, and
    ``undo_last`` moves are undone at the end: undo is then checked the way a player
    sees it, by the table left on the screen (the moves undone at the end are not in
    :meth:`expected`'s table).
    """

    variant: int
    seed: int
    moves: tuple[Move, ...]
    undo_every: int = 0
    undo_last: int = 0
    #: Every key at once, at 12 keys a second, instead of each when the game is ready.
    typed_ahead: bool = False

    @classmethod
    def of_seed(cls, game: int, seed: int, count: int) -> KeyboardGame:
        return cls(game, seed, player_moves(Position.from_seed(seed, variant(game)), count))

    def expected(self) -> TableView:
        """The engine's table after the moves."""
        position = Position.from_seed(self.seed, variant(self.variant))
        for move in self.moves[: len(self.moves) - self.undo_last]:
            position.push(move)
        return TableView.of_position(position)

    def keys(self) -> list[str]:
        """Every key typed after the deal number, in order (a card with one place to go
        moves at its source key alone)."""
        position = Position.from_seed(self.seed, variant(self.variant))
        typed: list[str] = []
        for number, move in enumerate(self.moves, start=1):
            keys = [" " if key == "SPACE" else key for key in keys_for(position, move)]
            typed.extend(keys)
            position.push(move)
            if self.undo_every and number % self.undo_every == 0:
                typed.append("U")
                typed.extend(keys)
        typed.extend("U" * min(self.undo_last, len(self.moves)))
        return typed

    def script(self, launch: GameDisk | GameProgram, screenshot: Path) -> Script:
        """Start the game, ask for the deal, type the moves, take a picture."""
        script = (
            launch.start()
            .wait_for_input(START_FRAMES)
            .type("N")
            .wait_for_input(KEY_FRAMES)
            .type(f"{self.seed}\n")
            .wait_for_input(DEAL_FRAMES)
        )
        if self.typed_ahead:
            keys = self.keys()
            script = script.type("".join(keys)).wait_for_input(KEY_FRAMES * len(keys))
        else:
            for key in self.keys():
                script = script.type(key).wait_for_input(KEY_FRAMES)
        return script.screenshot(str(screenshot))


@dataclass(frozen=True)
class KeyboardCheck:
    """The table the screen showed after a keyboard game, against the engine's."""

    game: KeyboardGame
    expected: TableView
    shown: TableView | None
    #: Places that differ, or why the screen could not be read (empty: all is well).
    differences: tuple[str, ...]
    screen_text: tuple[str, ...]
    screenshot: Path | None

    @property
    def ok(self) -> bool:
        return not self.differences


def play_on_keyboard(
    game: KeyboardGame,
    launch: GameDisk | GameProgram,
    *,
    folder: Path | None = None,
    options: EmulatorOptions | None = None,
) -> KeyboardCheck:
    """Type ``game`` into the program of ``launch`` in atari800 and compare the tables.

    The screenshot (PNG) is kept in ``folder`` when one is given.
    """
    with tempfile.TemporaryDirectory(prefix="mfkeys-") as scratch:
        work = folder if folder is not None else Path(scratch)
        hdir = work / "h"
        hdir.mkdir(parents=True, exist_ok=True)
        if isinstance(launch, GameProgram):
            (hdir / PROGRAM_NAME).write_bytes(launch.program)
        script = game.script(launch, work / SCREEN_FILE)
        frames = script.input_frames() + TYPICAL_KEY_FRAMES * len(game.keys())
        base = options if options is not None else EmulatorOptions()
        emulator = replace(
            base,
            disk=launch.path if isinstance(launch, GameDisk) else None,
            hdir=hdir,
            timeout_s=120.0
            + (frames + START_FRAMES + 2 * DEAL_FRAMES) / MIN_FRAMES_PER_WALL_SECOND,
        )
        result = run(emulator, script)
        expected = game.expected()
        if not result.screens:
            problem = f"no screen to read: the emulator run ended ({result.reason})"
            return KeyboardCheck(game, expected, None, (problem,), (), None)
        lines = tuple(result.screens[-1].text_lines())
        screenshot = work / SCREEN_FILE if folder is not None else None
        try:
            shown = TableView.read(lines)
        except TableReadError as error:
            return KeyboardCheck(game, expected, None, (str(error),), lines, screenshot)
        differences = tuple(shown.differences(expected))
        return KeyboardCheck(game, expected, shown, differences, lines, screenshot)
