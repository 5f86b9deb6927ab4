"""Games that outlive the program: a saved transcript loaded again (``--load FILE``),
and the game in progress kept when the player quits, offered at the next start.

A saved game is a transcript (docs/TRANSCRIPT.md), the file ``S``/``save`` writes: the
engine's checker replays it first, so a damaged or edited file is refused with one line
naming the file and the line, and a game that loads is one the rules allow. The game is
then the deal with the transcript's moves made; undo takes them back.

The kept game is one file, ``game.json`` in the state folder (beside the statistics,
machfsol.terminal.statistics): the transcript and the time played, written atomically.
There is one such slot: keeping a game replaces the one kept before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from a8.errors import A8Error
from a8.files import write_atomically
from machfsol.engine.cards import Card
from machfsol.engine.checker import check_transcript
from machfsol.engine.rules import Move, Position, variant
from machfsol.engine.transcript import parse
from machfsol.errors import MachfsolError
from machfsol.terminal.statistics import clock_text

#: The kept game's file in the state folder.
FILE_NAME = "game.json"
#: Its format number.
FORMAT = 1
#: The longest transcript read (the checker's own limit: far more than any game).
MAX_BYTES = 4_000_000


class SavedGameError(MachfsolError):
    """A saved game that cannot be loaded (one line naming the file and the place)."""


@dataclass(frozen=True)
class SavedGame:
    """A game to go on with: the deal, the moves made, and the time played so far."""

    variant: int
    seed: int | None  # None: the player's own order
    order: tuple[Card, ...]
    moves: tuple[Move, ...]
    seconds: float = 0.0

    def position(self) -> Position:
        """The table after the moves."""
        position = Position(self.order, variant(self.variant))
        for move in self.moves:
            position.push(move)
        return position

    def describe(self) -> str:
        """``deal 7 of MAChFsol 1 (52 cards), 23 moves, 1:05``."""
        deal = "your own order" if self.seed is None else f"deal {self.seed}"
        moves = f"{len(self.moves)} move{'' if len(self.moves) == 1 else 's'}"
        return (
            f"{deal} of {variant(self.variant).title} ({len(self.order)} cards), "
            f"{moves}, {clock_text(self.seconds)}"
        )


def from_transcript(data: bytes, name: str, seconds: float = 0.0) -> SavedGame:
    """The game a transcript records (SavedGameError if the checker refuses it)."""
    try:
        transcript = parse(data, name)
        check_transcript(transcript)
    except MachfsolError as error:
        raise SavedGameError(str(error)) from None
    moves = tuple(
        Move(line.source, line.destination) for line in transcript.lines if not line.forced
    )
    return SavedGame(transcript.variant, transcript.seed, transcript.order, moves, seconds)


def load(path: Path) -> SavedGame:
    """The game saved in the transcript file ``path`` (``--load``)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise SavedGameError(f"{path}: cannot read: {error.strerror}") from None
    if len(data) > MAX_BYTES:
        raise SavedGameError(f"{path}: larger than {MAX_BYTES} bytes: not a transcript")
    return from_transcript(data, str(path))


class KeptGame:
    """The slot for the game in progress in the state folder (None: nothing is kept)."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / FILE_NAME
        #: Why the last read or write failed (one line), for the game to show once.
        self.problem: str | None = None

    def read(self) -> SavedGame | None:
        """The kept game, if there is one that loads."""
        if self.path is None:
            return None
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            self.problem = f"the game kept in {self.path} cannot be read: {error.strerror}"
            return None
        try:
            document = json.loads(data.decode("utf-8"))
            if not isinstance(document, dict) or document.get("format") != FORMAT:
                raise ValueError("not a kept game")
            seconds = document["seconds"]
            text = document["transcript"]
            if type(seconds) not in (int, float) or seconds < 0 or not isinstance(text, str):
                raise ValueError("not a kept game")
            return from_transcript(text.encode("ascii"), f"{self.path} (transcript)", seconds)
        except (ValueError, KeyError, UnicodeError) as error:
            self.problem = f"the game kept in {self.path} cannot be loaded: {error}"
            return None

    def keep(self, game: SavedGame, transcript: str) -> bool:
        """Keep ``game`` (whose transcript is ``transcript``) in place of any other;
        whether it was written."""
        if self.path is None:
            return False
        document = {"format": FORMAT, "seconds": round(game.seconds, 1), "transcript": transcript}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, (json.dumps(document, indent=1) + "\n").encode("ascii"))
        except (OSError, A8Error) as error:
            reason = error.strerror if isinstance(error, OSError) else str(error)
            self.problem = f"the game in progress is not kept ({self.path}: {reason})"
            return False
        return True

    def forget(self) -> None:
        """Remove the kept game (it is being played, or was given up)."""
        if self.path is None:
            return
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError as error:
            self.problem = f"the kept game {self.path} cannot be removed: {error.strerror}"
