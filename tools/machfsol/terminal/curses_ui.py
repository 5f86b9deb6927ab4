"""Running the full-screen game in a terminal with curses (Python's standard library).

This is the only module that touches the terminal. It turns key presses into the key
names of machfsol.terminal.full_screen, paints machfsol.terminal.screen_layout's spans
centred in the window, plays "play all" at its pace (a key stops it), waits for the
solver's answer without blocking the keys, turns mouse clicks into the piles clicked, and
makes sure the terminal is given back as it was found:

- the terminal's modes (echo, line editing, keypad, cursor, the normal screen) are
  restored however the game ends, an exception included, each step on its own so that
  a terminal already gone (a hang-up) cannot stop the others (``curses.wrapper`` would
  raise there);
- Ctrl-C (SIGINT) is the key ``INTERRUPT``: it quits like ``Q``, asking first while a
  game is under way (Ctrl-C again, or ``Y``, quits); a hang-up (the terminal window
  closed, SIGHUP) or SIGTERM quits quietly; Ctrl-D quits; a read error on the keyboard
  is the end of input;
- a resized window is painted again at its new size; one too small for the table shows
  a short message saying how big it must be (only Q, Ctrl-C and Ctrl-D work meanwhile,
  and quit at once: a game under way is kept all the same);
- Ctrl-Z suspends and resumes as in any curses program (ncurses handles SIGTSTP).

The transcript is saved after every move by the game itself, so whatever ends the game,
the file holds it up to its last move.
"""

from __future__ import annotations

import contextlib
import curses
import locale
import os
import select
import signal
import sys
import textwrap
from collections.abc import Iterator
from types import FrameType

from machfsol.errors import MachfsolError
from machfsol.terminal.full_screen import FullScreenGame
from machfsol.terminal.screen_layout import Look, layout, place_at, size_needed

_KEY_NAMES: dict[int, str] = {
    curses.KEY_UP: "UP",
    curses.KEY_DOWN: "DOWN",
    curses.KEY_LEFT: "LEFT",
    curses.KEY_RIGHT: "RIGHT",
    curses.KEY_ENTER: "ENTER",
    curses.KEY_BACKSPACE: "BACKSPACE",
    curses.KEY_DC: "BACKSPACE",
    curses.KEY_RESIZE: "RESIZE",
    curses.KEY_F1: "F1",
    curses.KEY_MOUSE: "MOUSE",
}
_CHAR_NAMES: dict[str, str] = {
    "\n": "ENTER",
    "\r": "ENTER",
    "\x1b": "ESC",
    "\x7f": "BACKSPACE",
    "\x08": "BACKSPACE",
    "\x04": "EOF",  # Ctrl-D
}


class ScreenError(MachfsolError):
    """The terminal cannot be taken over for the full-screen game (one line)."""


class Hangup(Exception):
    """The terminal went away (SIGHUP) or the game was told to stop (SIGTERM)."""


def key_name(key: int | str) -> str:
    """A curses key (``get_wch``: a character or a KEY_ code) as the game names it;
    "" for keys of no use."""
    if isinstance(key, int):
        return _KEY_NAMES.get(key, "")
    if key in _CHAR_NAMES:
        return _CHAR_NAMES[key]
    return key if key.isprintable() else ""


def run(game: FullScreenGame, colour: bool) -> bool:
    """Play until the player quits; False when the terminal went away (nothing more
    should then be written to it)."""
    locale.setlocale(locale.LC_ALL, "")  # ncurses needs it for the suit symbols
    os.environ.setdefault("ESCDELAY", "25")  # ESC answers at once, not after a second
    with _signals_end_the_game():
        try:
            with _curses_screen() as screen:
                _play(screen, game, colour)
        except KeyboardInterrupt:  # before the game's loop, or while the screen closes
            game.quit()
        except Hangup:
            game.quit()
            return False
    return True


@contextlib.contextmanager
def _curses_screen() -> Iterator[curses.window]:
    """The whole terminal for the game, given back as it was found."""
    try:
        screen = curses.initscr()
    except curses.error as error:
        raise ScreenError(
            f"the terminal cannot show the full-screen game ({error}): try --plain"
        ) from None
    try:
        curses.noecho()
        curses.cbreak()  # keys at once, but Ctrl-C, Ctrl-Z still signal
        screen.keypad(True)
        with contextlib.suppress(curses.error):
            curses.start_color()
        with contextlib.suppress(curses.error):
            curses.mousemask(curses.BUTTON1_PRESSED | curses.BUTTON1_CLICKED)
            curses.mouseinterval(0)  # a press is a click at once, no waiting for more
        yield screen
    finally:
        with contextlib.suppress(curses.error):
            screen.keypad(False)
        for undo in (curses.echo, curses.nocbreak, curses.endwin):
            with contextlib.suppress(curses.error):
                undo()


@contextlib.contextmanager
def _signals_end_the_game() -> Iterator[None]:
    def stop(signum: int, frame: FrameType | None) -> None:
        raise Hangup

    saved = {sig: signal.signal(sig, stop) for sig in (signal.SIGHUP, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


#: How often the game looks at the window's size while waiting for a key (ms). curses
#: reports a resize as a key (KEY_RESIZE), but a resize that comes just as the game
#: starts waiting can go unnoticed until the next key; looking now and then makes sure.
POLL_MS = 200


def _play(screen: curses.window, game: FullScreenGame, colour: bool) -> None:
    looks = _Looks(colour)
    with contextlib.suppress(curses.error):
        curses.curs_set(0)
    screen.keypad(True)
    reading = _Reading()
    while not game.finished:
        try:
            _round(screen, game, looks, reading)
        except KeyboardInterrupt:  # Ctrl-C: a key of the game's (it asks before quitting)
            if reading.fits:
                game.press("INTERRUPT")
            else:
                game.quit()


class _Reading:
    """What the loop remembers from one round to the next."""

    def __init__(self) -> None:
        self.silent_reads = 0  # rounds the keyboard was readable and gave no key
        self.fits = True  # the game fitted the window when last painted


def _round(screen: curses.window, game: FullScreenGame, looks: _Looks, reading: _Reading) -> None:
    """Paint, then wait for a key (or for the time to play on, or to look for the
    solver's answer) and do what it says."""
    fits = reading.fits = _paint(screen, game, looks)
    if game.bell:
        game.bell = False
        with contextlib.suppress(curses.error):
            curses.beep()
    waiting = game.waiting if fits else None
    screen.timeout(round(waiting * 1000) if waiting is not None else POLL_MS)
    try:
        key = screen.get_wch()
    except curses.error:  # no key: the pause ended, or the input is gone
        if waiting is not None:
            game.tick()
        elif not _follow_resize(screen) and _input_waiting():
            reading.silent_reads += 1  # readable, yet no key: the end of the input
            if reading.silent_reads > 1:
                game.quit()
        return
    reading.silent_reads = 0
    name = key_name(key)
    if name in ("", "RESIZE"):
        return  # the next round paints at the new size
    if not fits:
        if name.upper() in ("Q", "EOF"):
            game.quit()
        return
    if name == "MOUSE":
        _click(screen, game)
        return
    game.press(name)


def _click(screen: curses.window, game: FullScreenGame) -> None:
    """A mouse event: a press of the first button on a pile is a click on it."""
    try:
        _id, x, y, _z, buttons = curses.getmouse()
    except curses.error:
        return
    if not buttons & (curses.BUTTON1_PRESSED | curses.BUTTON1_CLICKED):
        return
    rows, columns = screen.getmaxyx()
    needed_rows, needed_columns = size_needed(game)
    top, left = (rows - needed_rows) // 2, (columns - needed_columns) // 2
    game.click(place_at(game, y - top, x - left))


def _follow_resize(screen: curses.window) -> bool:
    """Resize curses' screen if the window's size changed unnoticed; whether it did."""
    try:
        size = os.get_terminal_size(sys.__stdout__.fileno() if sys.__stdout__ else 1)
    except OSError:
        return False
    if (size.lines, size.columns) == screen.getmaxyx():
        return False
    with contextlib.suppress(curses.error):
        curses.resizeterm(size.lines, size.columns)
    return True


def _input_waiting() -> bool:
    """Whether the keyboard has something to read (at its end: the end of the input)."""
    try:
        return bool(select.select([sys.stdin.fileno()], [], [], 0)[0])
    except (OSError, ValueError, AttributeError):
        return True


class _Looks:
    """Curses attributes for the layout's looks (colour only when wanted and there)."""

    def __init__(self, colour: bool) -> None:
        self.red = 0
        if colour and curses.has_colors():
            with contextlib.suppress(curses.error):
                curses.use_default_colors()
            background = -1
            try:
                curses.init_pair(1, curses.COLOR_RED, background)
            except curses.error:  # no default colours: red on black
                curses.init_pair(1, curses.COLOR_RED, curses.COLOR_BLACK)
            self.red = curses.color_pair(1)

    def attributes(self, look: Look) -> int:
        value = curses.A_NORMAL
        if Look.RED in look:
            value |= self.red
        if Look.KEY in look or Look.TITLE in look or Look.TARGET in look:
            value |= curses.A_BOLD
        if Look.PICKED in look:
            value |= curses.A_REVERSE
        if Look.CURSOR in look:
            value |= curses.A_UNDERLINE
        return value


def _paint(screen: curses.window, game: FullScreenGame, looks: _Looks) -> bool:
    """Draw the game, or the too-small message; whether the game fits the window."""
    rows, columns = screen.getmaxyx()
    needed_rows, needed_columns = size_needed(game)
    screen.erase()
    fits = rows >= needed_rows and columns >= needed_columns
    if fits:
        top = (rows - needed_rows) // 2
        left = (columns - needed_columns) // 2
        for span in layout(game):
            _put(screen, top + span.row, left + span.column, span.text, looks.attributes(span.look))
    else:
        text = (
            f"The window is too small for MAChFsol: it needs {needed_columns} x "
            f"{needed_rows}, this one is {columns} x {rows}. Make it larger, "
            "or press Q to quit."
        )
        for row, line in enumerate(textwrap.wrap(text, max(columns - 1, 1))[:rows]):
            _put(screen, row, 0, line, curses.A_NORMAL)
    screen.refresh()
    return fits


def _put(screen: curses.window, row: int, column: int, text: str, attributes: int) -> None:
    """Write text; writing into the last cell of the window makes curses complain
    after the fact, and nothing else may stop the game."""
    with contextlib.suppress(curses.error):
        screen.addstr(row, column, text, attributes)
