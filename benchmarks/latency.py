"""How long MACHFSOL keeps a player waiting: frames from a key press until the game is
ready for the next key, on any ROM set.

Usage:
    .venv/bin/python benchmarks/latency.py [--seeds 1-5] [--variant 1|2|both]
        [--os-rom F] [--basic-rom F] [--tv ntsc|pal] [--disk MACHFSOL.ATR]
        [--source MY.BAS] [--jobs 2] [--json FILE] [--menu-only]

"Ready for the next key" is measured in the machine, not guessed from the screen: the
program waits in the OS's keyboard GET-BYTE routine with no key pending (BASIC at its
``GET #2`` or ``INPUT``), found in the running machine and watched with atari800's
breakpoint (a8.emu.keywait, docs/EMULATOR.md). The time is the OS's jiffy clock
(RTCLOK, one tick a frame: 1/60 s NTSC, 1/50 s PAL) from the frame the key goes down
to the instruction where the program asks for the next key. Nothing here knows the
program's line numbers, its screen layout or how it draws or undoes: only the game's
keys (docs/GAME.md) and its rules (the engine), so the measure stays valid when the
program is rewritten, as long as it reads its keys through the OS.

For each program and deal, one boot of the game disk plays:

1. the menu choice (the program's digit) until the first table: boot, load, set up,
   shuffle, draw; the same on a second boot with the OS's real serial I/O
   (``--no-sio-patch``, once per program: disk timing does not depend on the deal);
2. a new deal: ``N``, the deal number, RETURN (timed from RETURN);
3. the whole game as the autoplay policy plays it, typed on the keyboard: before
   every move a hint (``H``), then the move: a draw (SPACE) or a card move (the
   source key, timed as "pick", then the destination key, timed as "card move"; the
   game's last move, after which the program shows the end, on its own line);
   after moves 1, 20 and 40 an undo (``U``), and the move typed again;
4. an undo after the played-out game (its last move undone);
5. the deal again, and play-all (``P``) until the end message;
6. the deal again, and a burst: SPACE three times, 10 frames apart (the second and
   third while the first draw is still being worked out): how many the game took,
   and the frames from the first key until it waits again.

``--menu-only`` plays only step 1 (both boots, no deal, no game): the start-up figures
in a few seconds.

It prints, for each program, the first deal's figures and the median and maximum
over the deals (for draws, card moves and hints: over every move of every deal),
in frames and seconds, with the ROM set and TV system. Run on the built-in ROMs, it
also prints what the genuine XL OS rev. 2 and BASIC rev. C would take, from the
ratios of :data:`GENUINE_RATIO` (measured; an estimate, since a rewritten program
can change the mix: machine code called with USR runs as fast on both). Every measured wait is
checked against what the screen shows at that moment (the engine's table of the
deal after a new deal, read with the keyboard check's screen reader; the end
message after play-all), and the ROMs against the files given.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from a8.emu.cli import add_machine_arguments, check_machine
from a8.emu.emulator import FRAMES_PER_SECOND, EmulatorOptions, RunResult, resolve_roms, run
from a8.emu.keywait import KeyEvent, KeyPress, frames_between
from a8.emu.script import KEY_GAP_FRAMES, KEY_HOLD_FRAMES, Script
from machfsol.atari.basic_game import read_source
from machfsol.atari.build import game_programs, title_of
from machfsol.atari.keyboard_game import keys_of
from machfsol.atari.screen_table import TableReadError, TableView
from machfsol.atari.verify import game_disk
from machfsol.engine.autoplay import choose_move
from machfsol.engine.rules import Position, variant
from machfsol.engine.seed_list import parse_seed_list

#: The actions, in the order they are printed.
MENU = "menu choice until the first table (SIO patch)"
MENU_SERIAL = "menu choice until the first table (real serial I/O)"
NEW_DEAL = "new deal: RETURN after the number"
DRAW = "draw (SPACE)"
CARD_MOVE = "card move (destination key)"
MOVE = "move: draw or card move"
LAST_MOVE = "the game's last move (the end shown)"
PICK = "pick a card (source key)"
HINT = "hint (H)"
UNDO_AFTER: Final = (1, 20, 40)
UNDO_PLAYED_OUT = "undo after a played-out game"
PLAY_ALL = "play all, until the end message"
BURST = "burst: 3 x SPACE 10 frames apart, until ready"
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
    *(f"undo after {count} moves" if count > 1 else "undo after 1 move" for count in UNDO_AFTER),
    UNDO_PLAYED_OUT,
    PLAY_ALL,
    BURST,
)

#: Genuine XL OS rev. 2 + BASIC rev. C over built-in AltirraOS + Altirra BASIC: the
#: ratio of the medians over both programs, deals 1-5 (the same within 2% on PAL),
#: measured with this benchmark on 2026-12-01 (docs/VERIFY.md has both tables).
GENUINE_RATIO: Final = {
    MENU: 2.64,
    MENU_SERIAL: 1.70,
    NEW_DEAL: 2.97,
    DRAW: 2.88,
    CARD_MOVE: 3.09,
    MOVE: 2.91,
    LAST_MOVE: 3.04,
    PICK: 2.67,
    HINT: 2.56,
    "undo after 1 move": 3.08,
    "undo after 20 moves": 3.19,
    "undo after 40 moves": 3.21,
    UNDO_PLAYED_OUT: 3.25,
    PLAY_ALL: 3.12,
    BURST: 2.91,
}

#: Frames the longest waits may take before the run counts as stuck (genuine ROMs,
#: real serial I/O: the first table after about 2,300 frames; play-all about 10,000).
START_FRAMES: Final = 600 * 60
KEY_FRAMES: Final = 600 * 60
BURST_KEYS: Final = 3
BURST_GAP: Final = 10
#: The end message play-all stops at (or YOU WON ...).
END_MESSAGE: Final = "NO MORE MOVES"


def undo_label(count: int) -> str:
    return "undo after 1 move" if count == 1 else f"undo after {count} moves"


@dataclass
class Session:
    """A script being built, and which of its key presses are measured as what."""

    script: Script
    presses: int = 0
    #: (action, index of the timed key press among all the script's presses).
    marks: list[tuple[str, int]] = field(default_factory=list)
    #: (index of a timed press, what the screen must show when the game is ready: the
    #: engine's table of a fresh deal, or a text).
    expect: list[tuple[int, TableView | str]] = field(default_factory=list)

    def type(self, text: str, action: str | None = None, timeout: int = KEY_FRAMES) -> None:
        """Type ``text``, time its last key as ``action``, wait until the game is ready."""
        self.script = self.script.type(text).wait_for_input(timeout)
        self.presses += len(text)
        if action is not None:
            self.marks.append((action, self.presses - 1))

    def new_deal(self, game: int, seed: int) -> None:
        self.type("N")
        self.type(f"{seed}\n", NEW_DEAL)
        self.expect.append((self.presses - 1, dealt(game, seed)))


def dealt(game: int, seed: int) -> TableView:
    """The table of a fresh deal, as the game must show it when it is ready."""
    return TableView.of_position(Position.from_seed(seed, variant(game)))


def game_session(game: int, seed: int) -> Session:
    """Boot, menu, new deal, the whole game with hints and undos, play-all, a burst."""
    session = Session(Script().wait_for_text(title_of(game), START_FRAMES))
    session.type(str(game), MENU, START_FRAMES)
    session.expect.append((0, dealt(game, 1)))  # the game starts with deal 1
    session.new_deal(game, seed)
    position = Position.from_seed(seed, variant(game))
    count = 0
    while (move := choose_move(position)) is not None:
        session.type("H", HINT)
        keys = keys_of(move)
        after = position.copy()
        after.push(move)
        last = choose_move(after) is None  # the program then shows the end (and a win)
        if move.is_draw:
            session.type(keys, LAST_MOVE if last else DRAW)
        else:
            session.type(keys[0], PICK)
            session.type(keys[1], LAST_MOVE if last else CARD_MOVE)
        position.push(move)
        count += 1
        if count in UNDO_AFTER:
            session.type("U", undo_label(count))
            for key in keys:  # the move again, untimed
                session.type(key)
    session.type("U", UNDO_PLAYED_OUT, START_FRAMES)
    session.new_deal(game, seed)
    session.type("P", PLAY_ALL, START_FRAMES)
    session.expect.append((session.presses - 1, END_MESSAGE))
    session.new_deal(game, seed)
    burst = Script().type(" ")
    for _ in range(BURST_KEYS - 1):  # a typed key takes KEY_HOLD + KEY_GAP frames
        burst = burst.wait(BURST_GAP - KEY_HOLD_FRAMES - KEY_GAP_FRAMES).type(" ")
    session.script = (session.script + burst).wait_for_input(KEY_FRAMES)
    session.marks.append((BURST, session.presses))
    session.presses += BURST_KEYS
    return session


def menu_session(game: int, action: str = MENU_SERIAL) -> Session:
    """Boot, and the menu choice until the first table (deal 1), timed as ``action``."""
    session = Session(Script().wait_for_text(title_of(game), START_FRAMES))
    session.type(str(game), action, START_FRAMES)
    session.expect.append((0, dealt(game, 1)))
    return session


@dataclass(frozen=True)
class Measured:
    """One timed key: the action, frames until ready, and for a burst the keys taken."""

    action: str
    frames: int
    taken: int | None = None


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
    for action, index in session.marks:
        press = presses[index]
        if action == BURST:
            ready = _last_ready(events)
            taken = sum(
                1 for event in events if event.kind == "take" and _after(event, press, ready)
            )
            found.append(Measured(action, frames_between(press, ready), taken))
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
                raise SystemExit(f"{where}: ready, but the table is not the deal's: {problem}")
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


def run_game(game: int, seed: int, options: EmulatorOptions) -> tuple[list[Measured], RunResult]:
    session = game_session(game, seed)
    result = run(options, session.script)
    return measure(result, session, f"MACHFSOL.{game} deal {seed}"), result


def run_menu_serial(game: int, options: EmulatorOptions) -> list[Measured]:
    session = menu_session(game)
    result = run(replace(options, sio_patch=False), session.script)
    return measure(result, session, f"MACHFSOL.{game}, real serial I/O")


def run_menu_patched(game: int, options: EmulatorOptions) -> tuple[list[Measured], RunResult]:
    session = menu_session(game, MENU)
    result = run(options, session.script)
    return measure(result, session, f"MACHFSOL.{game}, SIO patch"), result


@dataclass(frozen=True)
class Row:
    action: str
    first: list[int]
    every: list[int]
    taken: list[int]


def rows(per_deal: list[list[Measured]], serial: list[Measured]) -> list[Row]:
    """Per action: the first deal's frames, every deal's frames, keys taken (bursts)."""
    table: list[Row] = []
    for action in ACTIONS:
        deals = [serial] if action == MENU_SERIAL else per_deal
        wanted = {DRAW, CARD_MOVE} if action == MOVE else {action}
        first = [m.frames for m in deals[0] if m.action in wanted]
        every = [m.frames for deal in deals for m in deal if m.action in wanted]
        taken = [m.taken for deal in deals for m in deal if m.action in wanted and m.taken]
        if not every:  # --menu-only: no game played
            continue
        table.append(Row(action, first, every, taken))
    return table


def _cell(values: list[int], per_second: int) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]} ({values[0] / per_second:.2f} s)"
    median, most = statistics.median(values), max(values)
    return f"{median:.0f} / {most} ({median / per_second:.2f} / {most / per_second:.2f} s)"


def print_table(
    game: int, table: list[Row], seeds: Sequence[int], per_second: int, estimate: bool
) -> None:
    print(f"\nMACHFSOL.{game}: frames from the key press until the game waits for the next key")
    header = ["action", f"deal {seeds[0]} (median / max)", f"deals {len(seeds)}: median / max"]
    if estimate:
        header.append("genuine ROMs (est.)")
    lines = [header]
    for row in table:
        note = ""
        if row.taken:
            note = f", keys taken: {'/'.join(str(t) for t in row.taken)} of {BURST_KEYS}"
        line = [row.action, _cell(row.first, per_second), _cell(row.every, per_second) + note]
        if estimate:
            line.append(_estimate(row, per_second))
        lines.append(line)
    widths = [max(len(line[column]) for line in lines) for column in range(len(header))]
    for line in lines:
        cells = (cell.ljust(width) for cell, width in zip(line, widths, strict=True))
        print("  ".join(cells).rstrip())


def _estimate(row: Row, per_second: int) -> str:
    if not row.every:
        return "-"
    median = statistics.median(row.every) * GENUINE_RATIO[row.action]
    return f"{median:.0f} ({median / per_second:.2f} s)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-5", help="deals to play (default 1-5)")
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
    seeds = parse_seed_list(args.seeds)
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
        options = replace(base, disk=disk.resolve(), timeout_s=1800.0)
        print(
            f"MACHFSOL latency: {disk}, {args.machine.upper()} {args.tv.upper()} "
            f"(a frame, or jiffy, is 1/{per_second} s), {roms.describe()}; "
            f"deals {args.seeds}, 52 cards"
        )
        report: dict[str, object] = {"tv": args.tv, "roms": roms.describe(), "seeds": list(seeds)}
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            games_runs = {
                game: [pool.submit(run_menu_patched, game, options)]
                if args.menu_only
                else [pool.submit(run_game, game, seed, options) for seed in seeds]
                for game in games
            }
            serial_runs = {game: pool.submit(run_menu_serial, game, options) for game in games}
            first_result: RunResult | None = None
            for game in games:
                per_deal = []
                for future in games_runs[game]:
                    measured, result = future.result()
                    per_deal.append(measured)
                    first_result = first_result or result
                table = rows(per_deal, serial_runs[game].result())
                built_in = roms.os is None and roms.basic is None
                print_table(game, table, seeds, per_second, estimate=built_in)
                report[f"MACHFSOL.{game}"] = {
                    row.action: {"deal_first": row.first, "all": row.every, "taken": row.taken}
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
