"""The player's statistics, kept between runs: per variant and deck size, the games
played and won, the current and the best winning streak, and the best time.

They live in the platform's folder for a program's state (on Linux and other Unix
systems ``$XDG_STATE_HOME/machfsol/``, by default ``~/.local/state/machfsol/``, as the
XDG Base Directory specification says; ``~/Library/Application Support/machfsol`` on
macOS; ``%LOCALAPPDATA%\\machfsol`` on Windows), never in the current folder: a game is
played from anywhere. :func:`state_folder` finds it; the kept game in progress lives
there too (machfsol.terminal.kept_game).

The file is ``statistics.json``: a small JSON object, written whole and atomically,
with the file locked from the read to the write (``a8.files.updating``), so two games
played at once both count. A game counts once: won when it is won (the first time), lost
when it is left unwon after a move was made (a new deal, the same deal again, quitting
a finished game). A file that cannot be read or written never stops the game: the
statistics are then not kept for this run, and :attr:`Statistics.problem` says why in
one line naming the file, which the game shows once. A damaged file is left as it is
(not overwritten) for the player to look at or move away.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path, PureWindowsPath

from a8.errors import A8Error
from a8.files import updating, write_atomically

#: The file's name in the state folder.
FILE_NAME = "statistics.json"
#: The file's format number (the "format" field).
FORMAT = 1


def state_folder(
    environ: Mapping[str, str] | None = None, platform: str | None = None
) -> Path | None:
    """Where MAChFsol keeps its state on this platform; None when there is nowhere
    (no home folder): the game then keeps nothing rather than write into the current
    folder."""
    env = os.environ if environ is None else environ
    system = sys.platform if platform is None else platform
    if system.startswith("win"):
        base = env.get("LOCALAPPDATA", "")
        return Path(base) / "machfsol" if base and PureWindowsPath(base).is_absolute() else None
    home = env.get("HOME", "")
    if system == "darwin":
        return Path(home) / "Library" / "Application Support" / "machfsol" if home else None
    configured = env.get("XDG_STATE_HOME", "")
    if configured and Path(configured).is_absolute():  # the spec: ignore a relative one
        return Path(configured) / "machfsol"
    if home and Path(home).is_absolute():
        return Path(home) / ".local" / "state" / "machfsol"
    return None


@dataclass(frozen=True)
class Record:
    """One variant and deck size's statistics."""

    played: int = 0
    won: int = 0
    streak: int = 0  # games won in a row, up to the last one
    best_streak: int = 0
    best_seconds: float | None = None  # the fastest won game

    def after(self, won: bool, seconds: float) -> Record:
        """The record with one more game, won or lost, of ``seconds`` played."""
        if not won:
            return replace(self, played=self.played + 1, streak=0)
        streak = self.streak + 1
        best = seconds if self.best_seconds is None else min(self.best_seconds, seconds)
        return Record(self.played + 1, self.won + 1, streak, max(streak, self.best_streak), best)

    def text(self) -> str:
        """One line, e.g. ``played 5, won 2 (40%), streak 1 (best 2), best time 4:12``."""
        if self.played == 0:
            return "no games played yet"
        share = round(100 * self.won / self.played)
        best = "" if self.best_seconds is None else f", best time {clock_text(self.best_seconds)}"
        return (
            f"played {self.played}, won {self.won} ({share}%), "
            f"streak {self.streak} (best {self.best_streak}){best}"
        )


def clock_text(seconds: float) -> str:
    """``65`` -> ``1:05``; ``3725`` -> ``1:02:05``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def key_of(variant: int, deck_size: int) -> str:
    """The record's key in the file: ``1-52``."""
    return f"{variant}-{deck_size}"


class StatisticsFileError(A8Error):
    """The statistics file is not one this program wrote (one line naming it)."""


Book = dict[str, Record]


class Statistics:
    """The statistics file of one state folder (None: the statistics of this run only,
    kept nowhere)."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / FILE_NAME
        #: Why the statistics are not saved (one line), for the game to show once.
        self.problem: str | None = None
        self._book: Book = {}
        self._read()

    def record(self, variant: int, deck_size: int) -> Record:
        """The statistics as they stand (as last read or written by this game)."""
        return self._book.get(key_of(variant, deck_size), Record())

    def records(self) -> dict[tuple[int, int], Record]:
        """Every variant and deck size played, as (variant, deck size) -> record."""
        found = {}
        for key, record in self._book.items():
            number, _, size = key.partition("-")
            if number.isdigit() and size.isdigit():
                found[(int(number), int(size))] = record
        return dict(sorted(found.items()))

    def add(self, variant: int, deck_size: int, won: bool, seconds: float) -> Record:
        """Count one game; the new record. Another game writing the file meanwhile is
        waited for, and its games are kept."""
        key = key_of(variant, deck_size)

        def change(book: Book) -> Book:
            book[key] = book.get(key, Record()).after(won, seconds)
            return book

        self._update(change)
        return self._book.get(key, Record().after(won, seconds))

    # ------------------------------------------------------------------ the file

    def _read(self) -> None:
        if self.path is None or self.problem is not None:
            return
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as error:
            self._fail(f"cannot read it: {error.strerror}")
            return
        try:
            self._book = parse(data, str(self.path))
        except StatisticsFileError as error:
            self._fail_damaged(str(error))

    def _update(self, change: Callable[[Book], Book]) -> None:
        if self.path is None or self.problem is not None:
            self._book = change(dict(self._book))  # this run's games still show
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not self.path.exists():
                book = change({})
                write_atomically(self.path, dump(book))
            else:
                with updating(self.path) as update:
                    book = change(parse(update.handle.read(), str(self.path)))
                    update.write(dump(book))
        except StatisticsFileError as error:
            self._fail_damaged(str(error))
            self._book = change(dict(self._book))
            return
        except (OSError, A8Error) as error:
            reason = error.strerror if isinstance(error, OSError) else str(error)
            self._fail(f"cannot write it: {reason}")
            self._book = change(dict(self._book))
            return
        self._book = book

    def _fail(self, why: str) -> None:
        self.problem = f"statistics are not saved ({self.path}: {why})"

    def _fail_damaged(self, why: str) -> None:
        self.problem = f"statistics are not saved: {why} (move it away to start afresh)"


def parse(data: bytes, name: str) -> Book:
    """The records of a statistics file (StatisticsFileError, naming it, if it is not
    one)."""
    try:
        document = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise StatisticsFileError(f"{name}: not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise StatisticsFileError(f"{name}:{error.lineno}: not JSON ({error.msg})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise StatisticsFileError(f"{name}: not a MAChFsol statistics file of format {FORMAT}")
    games = document.get("games")
    if not isinstance(games, dict):
        raise StatisticsFileError(f'{name}: no "games" object')
    return {key: _record(name, key, value) for key, value in games.items()}


def _record(name: str, key: str, value: object) -> Record:
    if not isinstance(value, dict):
        raise StatisticsFileError(f"{name}: games.{key} is not an object")
    counts = {}
    for field in ("played", "won", "streak", "best_streak"):
        number = value.get(field)
        if type(number) is not int or number < 0:
            raise StatisticsFileError(f"{name}: games.{key}.{field} is not a count")
        counts[field] = number
    best = value.get("best_seconds")
    if best is not None and (type(best) not in (int, float) or best < 0):
        raise StatisticsFileError(f"{name}: games.{key}.best_seconds is not a time")
    if counts["won"] > counts["played"]:
        raise StatisticsFileError(f"{name}: games.{key}: more games won than played")
    return Record(**counts, best_seconds=None if best is None else float(best))


def dump(book: Book) -> bytes:
    """The file's bytes for ``book`` (keys sorted: the same records, the same bytes)."""
    games = {key: asdict(book[key]) for key in sorted(book)}
    text = json.dumps({"format": FORMAT, "games": games}, indent=1, sort_keys=True)
    return (text + "\n").encode("utf-8")
