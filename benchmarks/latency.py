"""How long MACHFSOL keeps a player waiting: frames from a key press until the game is
ready for the next key, on any ROM set, over everything a player does.

Usage:
    .venv/bin/python benchmarks/latency.py [--seeds 1-5] [--new-deals 1-1000,...]
        [--variant 1|2|both] [--os-rom F] [--basic-rom F] [--tv ntsc|pal]
        [--disk MACHFSOL.ATR] [--source MY.BAS] [--jobs 2] [--json FILE] [--menu-only]

"Ready for the next key" is measured in the machine, not guessed from the screen: the
program waits in the OS's keyboard GET-BYTE routine with no key pending (BASIC at its
``GET #2``), found in the running machine and watched with atari800's breakpoint
(a8.emu.keywait, docs/notes/emulator-atari800.md). The time is the OS's jiffy clock (RTCLOK, one
tick a frame: 1/60 s NTSC, 1/50 s PAL) from the frame the key goes down to the
instruction where the program asks for the next key. Nothing here knows the program's
line numbers, its screen layout or how it draws or undoes: only the game's keys
(docs/GAME.md) and its rules (the engine), so the measure stays valid when the
program is rewritten, as long as it reads its keys through the OS.

For each program, what a player does, every time, not a sample:

1. the menu choice (the program's digit) until the first table: boot, load, set up,
   shuffle, draw; with atari800's SIO patch, and with the OS's real serial I/O (a real
   drive's timing);
2. for each deal of ``--seeds``, one boot plays: a new deal (``N``, the number,
   RETURN: timed from RETURN); the autoplay policy's whole game typed key by key
   without hints, every key timed (a draw; a card with one place to go, its one
   key, "card move"; a card with two, its source key, "pick", and the destination
   key; the game's last move, after which the program shows the end, on its own
   row), with the help's pages (``?``, SPACE, SPACE) and the question a restart
   asks, answered N, and the record (``I``), after the first move; the record
   again at the end; then undo at every depth, from the
   played-out game back to the deal, each undo timed, and a hint (``H``) timed at
   every position on the way; redo (``Y``) at every depth to the end (the last redo,
   which shows the end again, on its own row, as the last move); one undo and
   a restart (``T``, ``Y``) back to the deal; play-all (``P``) from the deal until the
   end message; the same game again, every key typed at once at 12 keys a second
   without waiting (the keyboard queue must keep them all, in order: the keys the OS
   took are counted, the table at the end must be the engine's), timed from its last
   key; and a short burst, SPACE three times 10 frames apart;
3. new deals over ``--new-deals`` (default: seeds 1-1000 and the 100 largest, of 10
   digits), each timed twice: right after the deal before (a fresh table), and right
   after a played-out game (the deal before played to its end with ``P``).

``--menu-only`` plays only step 1: the start-up figures in a few seconds.

The tables give, for each action, how many presses were timed and over which deals,
their median and their maximum, and the target the game keeps (issue 11 and 24's
"must", on the genuine ROMs). Every measured wait is checked against what the screen
shows at that moment (the engine's table of the deal after a new deal, read with the
keyboard check's screen reader; the end message after play-all; the engine's table
after the keys typed ahead), and the ROMs against the files given. Run on the
built-in ROMs, it also prints what the genuine XL OS rev. 2 and BASIC rev. C would
take, from :data:`GENUINE_RATIO` (measured; an estimate, since a rewritten program can
change the mix: machine code called with USR runs as fast on both).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from a8.emu.cli import add_machine_arguments, check_machine
from a8.emu.emulator import FRAMES_PER_SECOND, EmulatorOptions, RunResult, resolve_roms, run
from a8.emu.keywait import KeyEvent, KeyPress, frames_between
from a8.emu.script import KEY_GAP_FRAMES, KEY_HOLD_FRAMES, MAX_FRAMES, Script
from machfsol.atari.basic_game import read_source
from machfsol.atari.build import game_programs, title_of
from machfsol.atari.screen_table import TableReadError, TableView
from machfsol.atari.test_player import HELP_KEYS, keys_for
from machfsol.atari.verify import game_disk
from machfsol.engine.autoplay import choose_move
from machfsol.engine.rules import Move, Position, variant
from machfsol.engine.seed_list import format_seed_list, parse_seed_list

#: The actions, in the order they are printed.
MENU = "menu choice until the first table (SIO patch)"
MENU_SERIAL = "menu choice until the first table (real serial I/O)"
NEW_DEAL = "new deal: RETURN after the number"
DRAW = "draw (SPACE)"
CARD_MOVE = "card move (its one key, or the destination key)"
MOVE = "move: draw or card move"
LAST_MOVE = "the game's last move (the end shown)"
PICK = "pick a card with two places (source key)"
HINT = "hint (H), at every position"
UNDO = "undo, at every depth"
UNDO_PLAYED_OUT = "undo after a played-out game"
REDO = "redo (Y), at every depth but the last"
REDO_LAST = "redo of the game's last move (the end shown)"
HELP = "help (?) and its pages (SPACE)"
CONFIRM = "leave the game? (T asks, N answers)"
RECORD = "the record (I), in a game and at its end"
RESTART = "restart the deal (T, then Y)"
PLAY_ALL = "play all, until the end message"
TYPED_AHEAD = "a whole game typed ahead at 12 keys/s, from its last key"
BURST = "burst: 3 x SPACE 10 frames apart, until ready"
NEW_DEAL_FRESH = "new deal over --new-deals, after a fresh deal"
NEW_DEAL_PLAYED_OUT = "new deal over --new-deals, after a played-out game"
ACTIONS: Final = (
    MENU,
    MENU_SERIAL,
    NEW_DEAL,
    DRAW,
    CARD_MOVE,
    MOVE,
    LAST_MOVE,
    PICK,
    HINT,
    UNDO,
    UNDO_PLAYED_OUT,
    REDO,
    REDO_LAST,
    HELP,
    CONFIRM,
    RECORD,
    RESTART,
    PLAY_ALL,
    TYPED_AHEAD,
    BURST,
    NEW_DEAL_FRESH,
    NEW_DEAL_PLAYED_OUT,
)

#: What the game must keep on the genuine ROMs (frames, NTSC): median and maximum
#: (None: no target). Issue 11's and issue 24's "must" (docs/GAME.md).
TARGETS: Final[dict[str, tuple[int | None, int | None]]] = {
    MENU_SERIAL: (None, 900),
    NEW_DEAL: (None, 90),
    MOVE: (30, 60),
    LAST_MOVE: (None, 60),
    PICK: (30, 60),
    HINT: (30, 60),
    UNDO: (None, 45),
    UNDO_PLAYED_OUT: (None, 45),
    REDO: (None, 45),
    REDO_LAST: (None, 60),
    HELP: (30, 60),
    CONFIRM: (30, 60),
    RECORD: (30, 60),
    RESTART: (None, 90),
    PLAY_ALL: (None, 3000),
    NEW_DEAL_FRESH: (None, 90),
    NEW_DEAL_PLAYED_OUT: (None, 90),
}

#: Genuine XL OS rev. 2 + BASIC rev. C over built-in AltirraOS + Altirra BASIC: the
#: ratio of the medians, averaged over both programs, measured with this benchmark on
#: 2026-12-02 with the issue 26 keys (docs/notes/latency.md has both tables). An
#: estimate for a run on the built-in ROMs only. (Keys typed ahead: the genuine machine
#: is 3 times slower over the whole game, so far more of it is left to catch up on
#: after the last key.)
GENUINE_RATIO: Final = {
    MENU: 1.76,
    MENU_SERIAL: 1.19,
    NEW_DEAL: 2.35,
    DRAW: 3.20,
    CARD_MOVE: 3.27,
    MOVE: 3.10,
    LAST_MOVE: 2.81,
    PICK: 2.80,
    HINT: 2.73,
    UNDO: 3.15,
    UNDO_PLAYED_OUT: 2.77,
    REDO: 2.99,
    REDO_LAST: 2.86,
    HELP: 1.67,
    CONFIRM: 3.00,
    RECORD: 3.00,  # an estimate: as the question, a message written by USR
    RESTART: 2.37,
    PLAY_ALL: 3.06,
    TYPED_AHEAD: 5.38,
    BURST: 2.16,
    NEW_DEAL_FRESH: 2.31,
    NEW_DEAL_PLAYED_OUT: 2.29,
}

#: Frames the longest waits may take before the run counts as stuck (genuine ROMs,
#: real serial I/O: the first table after about 1,000 frames; play-all about 3,000).
START_FRAMES: Final = 600 * 60
KEY_FRAMES: Final = 600 * 60
BURST_KEYS: Final = 3
BURST_GAP: Final = 10
#: The end message play-all stops at (or YOU WON ...).
END_MESSAGE: Final = "NO MORE MOVES"
#: The new deals a boot times, at most (more boots run side by side).
NEW_DEALS_PER_BOOT: Final = 250
#: The default new deals: seeds 1-1000 and the 100 largest (10 digits).
DEFAULT_NEW_DEALS: Final = "1-1000,2147483547-2147483646"


@dataclass
class Session:
    """A script being built, and which of its key presses are measured as what."""

    script: Script
    presses: int = 0
    #: (action, index of the timed key press among all the script's presses).
    marks: list[tuple[str, int]] = field(default_factory=list)
    #: (index of a timed press, what the screen must show when the game is ready: the
    #: engine's table, or a text).
    expect: list[tuple[int, TableView | str]] = field(default_factory=list)
    #: (index of the first and of the last key typed ahead, how many).
    ahead: list[tuple[int, int]] = field(default_factory=list)

    def type(self, text: str, action: str | None = None, timeout: int = KEY_FRAMES) -> None:
        """Type ``text``, time its last key as ``action``, wait until the game is ready."""
        self.script = self.script.type(text).wait_for_input(timeout)
        self.presses += len(text)
        if action is not None:
            self.marks.append((action, self.presses - 1))

    def new_deal(self, game: int, seed: int, action: str = NEW_DEAL) -> None:
        self.type("N")
        self.type(f"{seed}\n", action)
        self.expect.append((self.presses - 1, table_of(game, seed, ())))

    def play_all(self) -> None:
        self.type("P", PLAY_ALL, START_FRAMES)
        self.expect.append((self.presses - 1, END_MESSAGE))

    def typed_ahead(self, keys: str, expected: TableView) -> None:
        """Every key at once, at 12 keys a second; then the wait until the game has read
        them all and waits again, timed from the last key (at most the day a script
        may wait: a whole game typed ahead would ask for more)."""
        first = self.presses
        timeout = min(KEY_FRAMES * len(keys), MAX_FRAMES)
        self.script = self.script.type(keys).wait_for_input(timeout)
        self.presses += len(keys)
        self.marks.append((TYPED_AHEAD, self.presses - 1))
        self.expect.append((self.presses - 1, expected))
        self.ahead.append((first, len(keys)))


def table_of(game: int, seed: int, moves: Sequence[Move]) -> TableView:
    """The engine's table of the deal after ``moves``: what the game must show."""
    position = Position.from_seed(seed, variant(game))
    for move in moves:
        position.push(move)
    return TableView.as_shown(position)


def policy_game(game: int, seed: int) -> list[Move]:
    """The autoplay policy's moves in the deal, to the end."""
    position = Position.from_seed(seed, variant(game))
    moves: list[Move] = []
    while (move := choose_move(position)) is not None:
        position.push(move)
        moves.append(move)
    return moves


def game_session(game: int, seed: int) -> Session:
    """Boot, menu, new deal, the game key by key (the help's pages and a question
    answered N on the way), undo to the deal with a hint at every position, redo to
    the end, restart, play-all, the game typed ahead, a burst (the module docstring)."""
    session = Session(Script().wait_for_text(title_of(game), START_FRAMES))
    session.type(str(game), MENU, START_FRAMES)
    session.expect.append((0, table_of(game, 1, ())))  # the game starts with deal 1
    session.new_deal(game, seed)
    moves = policy_game(game, seed)
    position = Position.from_seed(seed, variant(game))
    typed: list[str] = []
    for number, move in enumerate(moves, start=1):
        keys = [" " if key == "SPACE" else key for key in keys_for(position, move)]
        typed.extend(keys)
        position.push(move)
        last = number == len(moves)  # the program then shows the end (and a win)
        if len(keys) == 2:
            session.type(keys[0], PICK)
        session.type(keys[-1], LAST_MOVE if last else DRAW if move.is_draw else CARD_MOVE)
        if number == 1 and not last:  # a game in progress: the help, and a question
            for key in HELP_KEYS:
                session.type(" " if key == "SPACE" else key, HELP)
            session.type("T", CONFIRM)
            session.type("N", CONFIRM)
            session.type("I", RECORD)
    session.type("I", RECORD)  # the end shown: the record, the game not counted yet
    for depth in range(len(moves), 0, -1):
        session.type("U", UNDO_PLAYED_OUT if depth == len(moves) else UNDO)
        session.type("H", HINT)
    session.expect.append((session.presses - 1, table_of(game, seed, ())))
    for depth in range(1, len(moves) + 1):
        session.type("Y", REDO_LAST if depth == len(moves) else REDO)
    session.expect.append((session.presses - 1, table_of(game, seed, moves)))
    session.type("U")  # a game in progress again: restart asks first
    session.type("T", CONFIRM)
    session.type("Y", RESTART)
    session.expect.append((session.presses - 1, table_of(game, seed, ())))
    session.play_all()
    session.new_deal(game, seed)
    session.typed_ahead("".join(typed), table_of(game, seed, moves))
    session.new_deal(game, seed)
    burst = Script().type(" ")
    for _ in range(BURST_KEYS - 1):  # a typed key takes KEY_HOLD + KEY_GAP frames
        burst = burst.wait(BURST_GAP - KEY_HOLD_FRAMES - KEY_GAP_FRAMES).type(" ")
    session.script = (session.script + burst).wait_for_input(KEY_FRAMES)
    session.marks.append((BURST, session.presses))
    session.presses += BURST_KEYS
    return session


def new_deals_session(game: int, seeds: Sequence[int], played_out: bool) -> Session:
    """Boot, menu, then each deal of ``seeds`` in turn, timed: right after the deal
    before, or (``played_out``) after playing the deal before to its end."""
    session = Session(Script().wait_for_text(title_of(game), START_FRAMES))
    session.type(str(game), MENU, START_FRAMES)
    action = NEW_DEAL_PLAYED_OUT if played_out else NEW_DEAL_FRESH
    if played_out:  # the first timed deal comes after a played-out game too
        session.type("P", timeout=START_FRAMES)
    for seed in seeds:
        session.new_deal(game, seed, action)
        if played_out:
            session.type("P", timeout=START_FRAMES)
    return session


def menu_session(game: int, action: str = MENU_SERIAL) -> Session:
    """Boot, and the menu choice until the first table (deal 1), timed as ``action``."""
    session = Session(Script().wait_for_text(title_of(game), START_FRAMES))
    session.type(str(game), action, START_FRAMES)
    session.expect.append((0, table_of(game, 1, ())))
    return session


@dataclass(frozen=True)
class Measured:
    """One timed key: the action, frames until ready, and for keys typed ahead or a
    burst the keys the game took (of how many)."""

    action: str
    frames: int
    taken: int | None = None
    typed: int | None = None


def measure(result: RunResult, session: Session, where: str) -> list[Measured]:
    """Each timed press's frames until the game waits again (see the module docstring)."""
    if not result.ok:
        raise SystemExit(f"{where}: the run ended {result.reason}; log:\n{result.log[-2000:]}")
    presses = result.key_presses
    if len(presses) != session.presses:
        raise SystemExit(f"{where}: {len(presses)} key presses, the script has {session.presses}")
    events = result.key_events
    found: list[Measured] = []
    ready_at: dict[int, KeyEvent] = {}
    ahead = {first + count - 1: (first, count) for first, count in session.ahead}
    for action, index in session.marks:
        press = presses[index]
        if action == BURST:
            ready = _last_ready(events)
            taken = sum(
                1 for event in events if event.kind == "take" and _after(event, press, ready)
            )
            found.append(Measured(action, frames_between(press, ready), taken, BURST_KEYS))
            continue
        if index in ahead:
            first, count = ahead[index]
            following = presses[index + 1] if index + 1 < len(presses) else None
            ready = _last_ready_between(events, press, following, where)
            taken = sum(
                1
                for event in events
                if event.kind == "take" and _after(event, presses[first], ready)
            )
            ready_at[index] = ready
            found.append(Measured(action, frames_between(press, ready), taken, count))
            if taken != count:
                raise SystemExit(f"{where}: {count} keys typed ahead, the game took {taken}")
            continue
        ready = _ready_after(events, press, where)
        _check_settled(events, ready, f"{where}, {action}")
        ready_at[index] = ready
        found.append(Measured(action, frames_between(press, ready)))
    for index, wanted in session.expect:
        screen = ready_at[index].screen
        lines = screen.text_lines() if screen is not None else []
        shown = "\n".join(lines)
        if isinstance(wanted, TableView):
            try:
                differences = TableView.read(lines).differences(wanted)
            except TableReadError as error:
                differences = [str(error)]
            if differences:
                problem = "; ".join(differences)
                raise SystemExit(f"{where}: ready, but the table is not the engine's: {problem}")
        elif wanted not in shown and not (wanted == END_MESSAGE and "YOU WON" in shown):
            raise SystemExit(f"{where}: ready, but the screen lacks {wanted!r}:\n{shown}")
    return found


def _check_settled(events: Sequence[KeyEvent], ready: KeyEvent, where: str) -> None:
    """The screen when the game asked for a key is the screen when it took the next one:
    it was complete, not still being drawn (by an interrupt, say) while it waited."""
    following = events[events.index(ready) + 1 :]
    take = next((event for event in following if event.kind == "take"), None)
    if take is None or ready.screen is None or take.screen is None:
        return
    if ready.screen.text_lines() != take.screen.text_lines():
        raise SystemExit(f"{where}: the screen changed while the game waited for a key")


def _after(event: KeyEvent, press: KeyPress, end: KeyEvent) -> bool:
    assert press.jiffy is not None
    return 0 <= (event.jiffy - press.jiffy) % (1 << 24) <= frames_between(press, end)


def _last_ready(events: Sequence[KeyEvent]) -> KeyEvent:
    return next(event for event in reversed(events) if event.kind == "ready")


def _last_ready_between(
    events: Sequence[KeyEvent], press: KeyPress, following: KeyPress | None, where: str
) -> KeyEvent:
    """The game's last wait for a key after ``press`` and before the ``following`` press:
    with keys typed ahead it waits, and takes a queued key at once, many times; the
    last wait is the one with nothing left to take."""
    assert press.jiffy is not None
    start = press.jiffy
    end = None if following is None else following.jiffy
    waits = [
        event
        for event in events
        if event.kind == "ready"
        and not event.at_start
        and (event.jiffy - start) % (1 << 24) < (1 << 23)
        and (end is None or (end - event.jiffy) % (1 << 24) < (1 << 23))
    ]
    if not waits:
        raise SystemExit(f"{where}: the game never waited for a key after the keys typed ahead")
    return waits[-1]


def _ready_after(events: Sequence[KeyEvent], press: KeyPress, where: str) -> KeyEvent:
    """The first wait for a key after the program took this press's key.

    A timed key is pressed while the game waits, so the OS takes it in the frame it
    goes down; that frame may also hold the wait itself (the game began to wait in
    the frame the script typed), so the take is looked for among the events of that
    jiffy, and the wait counted is the first after it. A key the program reads
    without the OS (the boot menu's digit) has no take, and the first wait after it
    counts.
    """
    assert press.jiffy is not None
    start = next(
        (index for index, event in enumerate(events) if event.jiffy >= press.jiffy), len(events)
    )
    same_jiffy = range(start, len(events))
    take = next(
        (i for i in same_jiffy if events[i].jiffy == press.jiffy and events[i].kind == "take"),
        None,
    )
    if take is not None:
        if events[take].key != press.code:
            raise SystemExit(f"{where}: the game took another key than {press}")
        start = take + 1
    elif start < len(events) and events[start].kind == "take":
        raise SystemExit(f"{where}: the game took another key than {press}")
    for event in events[start:]:
        if event.kind == "ready" and not event.at_start:
            return event
    raise SystemExit(f"{where}: the game never waited for a key after press {press}")


# ------------------------------------------------------------------ running


def run_session(
    session: Session, options: EmulatorOptions, where: str
) -> tuple[list[Measured], RunResult]:
    result = run(options, session.script)
    return measure(result, session, where), result


def chunks(seeds: Sequence[int], size: int) -> list[Sequence[int]]:
    return [seeds[start : start + size] for start in range(0, len(seeds), size)]


@dataclass(frozen=True)
class Row:
    """One action's figures: the first deal's frames, every frame, what they are over."""

    action: str
    first: list[int]
    every: list[int]
    #: Keys taken, of keys typed (keys typed ahead, bursts).
    taken: list[tuple[int, int]]
    over: str


def rows(
    games: list[list[Measured]],
    game_seeds: Sequence[int],
    menu_patched: list[Measured],
    menu_serial: list[Measured],
    new_deals: list[Measured],
    new_deal_seeds: Sequence[int],
) -> list[Row]:
    """Per action: the first deal's frames, every frame, keys taken, what it is over."""
    table: list[Row] = []
    deals = f"deals {format_seed_list(game_seeds)}" if game_seeds else ""
    for action in ACTIONS:
        wanted = {DRAW, CARD_MOVE} if action == MOVE else {action}
        if action in (MENU, MENU_SERIAL):
            source = [menu_patched if action == MENU else menu_serial]
            over = "one boot"
        elif action in (NEW_DEAL_FRESH, NEW_DEAL_PLAYED_OUT):
            source = [new_deals]
            over = f"deals {format_seed_list(new_deal_seeds)}"
        else:
            source = games
            over = deals
        first = [m.frames for m in source[0] if m.action in wanted] if source else []
        every = [m.frames for deal in source for m in deal if m.action in wanted]
        taken = [
            (m.taken, m.typed)
            for deal in source
            for m in deal
            if m.action in wanted and m.taken is not None and m.typed is not None
        ]
        if not every:  # --menu-only, or no new deals asked for
            continue
        presses = "1 press" if len(every) == 1 else f"{len(every)} presses"
        table.append(Row(action, first, every, taken, f"{presses}, {over}"))
    return table


def _cell(values: list[int], per_second: int) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]} ({values[0] / per_second:.2f} s)"
    median, most = statistics.median(values), max(values)
    return f"{median:.0f} / {most} ({median / per_second:.2f} / {most / per_second:.2f} s)"


def _target(row: Row, judged: bool = True) -> str:
    """The row's target, and whether it is met (``judged``: the figures are genuine)."""
    median_target, max_target = TARGETS.get(row.action, (None, None))
    if median_target is None and max_target is None:
        return ""
    parts = []
    met = True
    if median_target is not None:
        parts.append(f"median {median_target}")
        met = met and statistics.median(row.every) <= median_target
    if max_target is not None:
        parts.append(f"max {max_target}")
        met = met and max(row.every) <= max_target
    if not judged:
        return ", ".join(parts)
    return f"{', '.join(parts)}: {'met' if met else 'NOT MET'}"


def print_table(game: int, table: list[Row], per_second: int, estimate: bool) -> None:
    """The rows; on the built-in ROMs (``estimate``) the targets are not judged, as they
    hold for the genuine ROMs: the estimate beside them is what to compare."""
    print(f"\nMACHFSOL.{game}: frames from the key press until the game waits for the next key")
    header = ["action", "first deal", "median / max", "over", "must (genuine ROMs)"]
    if estimate:
        header.append("genuine ROMs (est.)")
    lines = [header]
    for row in table:
        over = row.over
        if row.taken:
            kept = sum(t for t, _ in row.taken)
            typed = sum(n for _, n in row.taken)
            over += f"; keys taken {kept} of {typed}"
        line = [row.action, _cell(row.first, per_second), _cell(row.every, per_second), over]
        line.append(_target(row, judged=not estimate))
        if estimate:
            line.append(_estimate(row, per_second))
        lines.append(line)
    widths = [max(len(line[column]) for line in lines) for column in range(len(header))]
    for line in lines:
        cells = (cell.ljust(width) for cell, width in zip(line, widths, strict=True))
        print("  ".join(cells).rstrip())


def _estimate(row: Row, per_second: int) -> str:
    median = statistics.median(row.every) * GENUINE_RATIO[row.action]
    return f"{median:.0f} ({median / per_second:.2f} s)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-5", help="deals played whole (default 1-5)")
    parser.add_argument(
        "--new-deals",
        default=DEFAULT_NEW_DEALS,
        help=f"deals timed as new deals, fresh and after a played-out game "
        f"(default {DEFAULT_NEW_DEALS}; 'none' for none)",
    )
    parser.add_argument("--variant", choices=("1", "2", "both"), default="both")
    parser.add_argument("--disk", type=Path, help="game disk (default: built from the source)")
    parser.add_argument("--source", type=Path, help="one-source file to build the disk from")
    parser.add_argument("--jobs", type=int, default=2, help="emulators at once (default 2)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument(
        "--menu-only",
        action="store_true",
        help="only the menu choice until the first table (both boots): no deal, no game",
    )
    add_machine_arguments(parser)
    args = parser.parse_args(argv)
    check_machine(args.machine, args.tv)
    seeds = () if args.menu_only else parse_seed_list(args.seeds)
    new_deal_seeds: Sequence[int] = ()
    if not args.menu_only and args.new_deals != "none":
        new_deal_seeds = parse_seed_list(args.new_deals)
    games = (1, 2) if args.variant == "both" else (int(args.variant),)
    base = EmulatorOptions(
        machine=args.machine, tv=args.tv, os_rom=args.os_rom, basic_rom=args.basic_rom
    )
    roms = resolve_roms(base)
    per_second = FRAMES_PER_SECOND[args.tv]
    with tempfile.TemporaryDirectory(prefix="latency-") as scratch:
        disk = args.disk
        if disk is None:
            programs = game_programs(read_source(args.source))
            disk = game_disk(Path(scratch) / "MACHFSOL.ATR", programs)
        options = replace(base, disk=disk.resolve(), timeout_s=7200.0)
        print(
            f"MACHFSOL latency: {disk}, {args.machine.upper()} {args.tv.upper()} "
            f"(a frame, or jiffy, is 1/{per_second} s), {roms.describe()}; "
            f"deals played {args.seeds if seeds else 'none'}, new deals "
            f"{format_seed_list(new_deal_seeds) if new_deal_seeds else 'none'}, 52 cards"
        )
        report: dict[str, object] = {
            "tv": args.tv,
            "roms": roms.describe(),
            "seeds": list(seeds),
            "new_deals": format_seed_list(new_deal_seeds) if new_deal_seeds else "",
        }
        first_result: RunResult | None = None
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            submitted: dict[int, dict[str, list[Future[tuple[list[Measured], RunResult]]]]] = {}
            for game in games:
                plan: dict[str, list[Future[tuple[list[Measured], RunResult]]]] = {
                    "menu": [
                        pool.submit(
                            run_session, menu_session(game, MENU), options, f"v{game}, SIO patch"
                        )
                    ],
                    "serial": [
                        pool.submit(
                            run_session,
                            menu_session(game),
                            replace(options, sio_patch=False),
                            f"v{game}, real serial I/O",
                        )
                    ],
                    "games": [
                        pool.submit(
                            run_session, game_session(game, seed), options, f"v{game} deal {seed}"
                        )
                        for seed in seeds
                    ],
                    "new deals": [
                        pool.submit(
                            run_session,
                            new_deals_session(game, chunk, played_out),
                            options,
                            f"v{game} new deals {format_seed_list(chunk)}"
                            + (" after played-out games" if played_out else ""),
                        )
                        for played_out in (False, True)
                        for chunk in chunks(new_deal_seeds, NEW_DEALS_PER_BOOT)
                    ],
                }
                submitted[game] = plan
            for game in games:
                plan = submitted[game]
                menu, first = plan["menu"][0].result()
                first_result = first_result or first
                serial = plan["serial"][0].result()[0]
                played = [future.result()[0] for future in plan["games"]]
                dealt = [m for future in plan["new deals"] for m in future.result()[0]]
                table = rows(played, seeds, menu, serial, dealt, new_deal_seeds)
                built_in = roms.os is None and roms.basic is None
                print_table(game, table, per_second, estimate=built_in)
                report[f"MACHFSOL.{game}"] = {
                    row.action: {
                        "deal_first": row.first,
                        "all": row.every,
                        "taken": [list(pair) for pair in row.taken],
                        "over": row.over,
                        "target": _target(row, judged=not built_in),
                    }
                    for row in table
                }
        if first_result is not None:
            print()
            for line in first_result.rom_report():
                print(line)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
