"""The player's record on the Atari, in Python: what the game keeps and shows.

The game disk holds a record file per variant (MACHFSOL.ST1, MACHFSOL.ST2, one
sector: :mod:`machfsol.atari.build`), nine records of 10 bytes, one per deck size
(20 cards first, 52 last); the routines of :mod:`machfsol.atari.record_code` count
the games and write the sector back. This module is the same record for the test
mode's player (the screens the game must show) and for reading a disk's records.

A game counts once, as :mod:`machfsol.terminal.statistics` counts it: won the first
time it is won, lost when it is left unwon after a move (N, T or O; ESC from the deal
number takes the loss back, the game not left). Counts stop at 65,535, a best time's
minutes at 255 (255:59).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

#: Bytes a record takes in the file, and the file's size (nine deck sizes).
RECORD_SIZE: Final = 10
DECKS: Final = (20, 24, 28, 32, 36, 40, 44, 48, 52)
FILE_SIZE: Final = RECORD_SIZE * len(DECKS)
MOST: Final = 65535
#: The record's line as the game shows it, at most this wide.
WIDTH: Final = 40


@dataclass(frozen=True)
class AtariRecord:
    """One deck size's record: games played and won, won in a row up to the last
    one and the most, and the fastest game won (minutes, seconds; only once won)."""

    played: int = 0
    won: int = 0
    streak: int = 0
    most: int = 0
    best_minutes: int = 0
    best_seconds: int = 0

    def after_win(self, seconds: int) -> AtariRecord:
        """The record with a game won in ``seconds`` (whole seconds, as shown)."""
        minutes, rest = divmod(seconds, 60)
        if minutes > 255:
            minutes, rest = 255, 59
        best = (self.best_minutes, self.best_seconds)
        if self.won == 0 or (minutes, rest) < best:
            best = (minutes, rest)
        streak = min(self.streak + 1, MOST)
        return AtariRecord(
            min(self.played + 1, MOST),
            min(self.won + 1, MOST),
            streak,
            max(self.most, streak),
            *best,
        )

    def after_loss(self) -> AtariRecord:
        return replace(self, played=min(self.played + 1, MOST), streak=0)

    def line(self) -> bytes:
        """``RECORD WON 3/12 STREAK 1/4 BEST 4:07``, cut at 40 columns (ATASCII)."""
        text = f"RECORD WON {self.won}/{self.played} STREAK {self.streak}/{self.most}"
        if self.won:
            text += f" BEST {self.best_minutes}:{self.best_seconds:02d}"
        return text[:WIDTH].encode("ascii")

    def to_bytes(self) -> bytes:
        words = (self.played, self.won, self.streak, self.most)
        return b"".join(w.to_bytes(2, "little") for w in words) + bytes(
            [self.best_seconds, self.best_minutes]
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> AtariRecord:
        played, won, streak, most = (
            int.from_bytes(data[i : i + 2], "little") for i in range(0, 8, 2)
        )
        return cls(played, won, streak, most, best_minutes=data[9], best_seconds=data[8])


def records_of(data: bytes) -> dict[int, AtariRecord]:
    """A record file's records, by deck size (the file's first 90 bytes)."""
    return {
        deck: AtariRecord.from_bytes(data[RECORD_SIZE * i : RECORD_SIZE * (i + 1)])
        for i, deck in enumerate(DECKS)
    }


#: What the game says on the message line when the record is not saved, by the
#: reason record_file.s returns (the BASIC program's line 9100).
NOT_SAVED: Final = {
    1: "RECORD NOT SAVED: NO MACHFSOL.ST{variant} ON D1",
    2: "RECORD NOT SAVED: DISK D1 NOT READ",
    3: "RECORD NOT SAVED: D1 IS WRITE-PROTECTED",
}


def not_saved(reason: int, variant: int) -> bytes:
    return NOT_SAVED[reason].format(variant=variant).encode("ascii")
