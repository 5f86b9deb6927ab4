"""Input scripts: what to type and when, and what to wait for.

A :class:`Script` is an ordered list of steps. Input steps (typing, pressing a
key, waiting) become playback frames; the other steps are points where the
runner pauses the emulator and looks at it (a file on the H: folder, the screen).

Scripts are built in Python (``Script().wait(150).type('RUN "H1:X.BAS"\\n')``)
or read from a small text format, one command per line (``#`` starts a comment):

    wait 150                      # frames
    type "10 PRINT 1" RETURN      # a string in double quotes, then key names if any
    type "RUN ""H1:GAME.BAS"" " RETURN   # "" inside a string is one double quote
    key RETURN                    # key names: see a8.emu.keys.named_keystroke
    wait-file DONE.TXT 6000       # until H:DONE.TXT exists and is closed
    wait-text "Ready" 600         # until a text line of the screen contains it
    wait-input 3000               # until the program waits for a key (a8.emu.keywait)
    screenshot out.png            # PNG of the Atari screen
    hold START 30                 # hold a key for N frames

Strings may contain ``\\n`` (RETURN) and ``\\\\``; nothing else is escaped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from a8.emu.keys import IDLE, Frame, Keystroke, keystrokes_for_text, named_keystroke
from a8.errors import A8Error
from a8.reading import read_at_most

#: Frames a key is held, then frames with no key before the next one. The genuine
#: XL OS debounces: after a key it ignores the same key again until its counter
#: KEYDEL, set to 3 by the key, has run out, and the vertical blank counts it down
#: only in frames with no key held. So a doubled letter needs 3 key-up frames
#: between the two presses (with 2, PEEK arrives as PEK); AltirraOS has no such rule.
KEY_HOLD_FRAMES: Final = 2
KEY_GAP_FRAMES: Final = 3

#: The most frames a script's input may take, and the most any count in it may say:
#: a day of emulated time at 60 frames a second. Each input frame is an entry in the
#: list the emulator is fed from, so a bound keeps ``wait 999999999999`` from taking
#: all the memory; a run that long is a mistake.
MAX_FRAMES: Final = 24 * 60 * 60 * 60
#: The longest file read as a script (a script that types a long listing is a few
#: hundred KB).
LARGEST_SCRIPT: Final = 4 * 2**20


class ScriptError(A8Error):
    """A malformed input script (message: ``FILE:LINE: reason``)."""


@dataclass(frozen=True)
class TypeText:
    """Type characters one after the other (see :mod:`a8.emu.keys` for what types)."""

    text: str

    def frames(self) -> list[Frame]:
        return _press_all(keystrokes_for_text(self.text))


@dataclass(frozen=True)
class PressKey:
    """Press and release one named key (or console key)."""

    name: str

    def frames(self) -> list[Frame]:
        return _press_all([named_keystroke(self.name)])


@dataclass(frozen=True)
class HoldKey:
    """Hold a named key for a number of frames (e.g. OPTION during boot)."""

    name: str
    count: int

    def frames(self) -> list[Frame]:
        return [Frame.holding(named_keystroke(self.name))] * self.count


@dataclass(frozen=True)
class Wait:
    """Let the machine run for a number of frames without input."""

    count: int

    def frames(self) -> list[Frame]:
        return [IDLE] * self.count


@dataclass(frozen=True)
class WaitForFile:
    """Run until ``name`` exists in the H: folder and the program has closed it.

    The run stops (reason ``wait-file-timeout``) if that takes more than
    ``timeout_frames`` frames.
    """

    name: str
    timeout_frames: int


@dataclass(frozen=True)
class WaitForText:
    """Run until a text line of the screen contains ``text`` (ATASCII spellings).

    The screen is read every 30 frames through the emulator's monitor; the run
    stops (reason ``wait-text-timeout``) after ``timeout_frames`` frames.
    """

    text: str
    timeout_frames: int


@dataclass(frozen=True)
class WaitForInput:
    """Run until the program waits for a key, having taken every key typed before.

    "Waits for a key" is the CPU in the OS's keyboard GET-BYTE routine with no key
    in CH (:mod:`a8.emu.keywait`): BASIC at a ``GET`` from ``K:`` or an ``INPUT``.
    The run stops (reason ``wait-input-timeout``) after ``timeout_frames`` frames.
    """

    timeout_frames: int


@dataclass(frozen=True)
class Screenshot:
    """Write a PNG of the screen as it is at this point."""

    path: str


InputStep = TypeText | PressKey | HoldKey | Wait
Step = InputStep | WaitForFile | WaitForText | WaitForInput | Screenshot


def _press_all(keystrokes: list[Keystroke]) -> list[Frame]:
    frames: list[Frame] = []
    for keystroke in keystrokes:
        frames += [Frame.holding(keystroke)] * KEY_HOLD_FRAMES
        frames += [IDLE] * KEY_GAP_FRAMES
    return frames


@dataclass(frozen=True)
class Script:
    """An ordered, immutable list of steps; each builder method returns a new Script."""

    steps: tuple[Step, ...] = field(default=())

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __add__(self, other: Script) -> Script:
        return Script(self.steps + other.steps)

    def then(self, step: Step) -> Script:
        _check_step(step)
        return Script((*self.steps, step))

    def type(self, text: str) -> Script:
        """Type ``text`` ("\\n" is RETURN); upper case, as after boot."""
        return self.then(TypeText(text))

    def key(self, name: str) -> Script:
        """Press one named key: ``RETURN``, ``ESC``, ``START``, ``CTRL-C`` ..."""
        return self.then(PressKey(name))

    def hold(self, name: str, frames: int) -> Script:
        """Hold a named key for ``frames`` frames."""
        return self.then(HoldKey(name, frames))

    def wait(self, frames: int) -> Script:
        """Let ``frames`` frames pass with no input."""
        return self.then(Wait(frames))

    def wait_for_file(self, name: str, timeout_frames: int) -> Script:
        """Run until H:``name`` exists and stops growing (``timeout_frames`` at most)."""
        return self.then(WaitForFile(name, timeout_frames))

    def wait_for_text(self, text: str, timeout_frames: int) -> Script:
        """Run until the screen shows ``text`` on one line (``timeout_frames`` at most)."""
        return self.then(WaitForText(text, timeout_frames))

    def wait_for_input(self, timeout_frames: int) -> Script:
        """Run until the program waits for the next key (``timeout_frames`` at most)."""
        return self.then(WaitForInput(timeout_frames))

    def screenshot(self, path: str) -> Script:
        """Save the screen as a PNG at ``path``."""
        return self.then(Screenshot(path))

    def input_frames(self) -> int:
        """Frames taken by the input steps alone (waits for files not counted)."""
        return sum(_frame_count(step) for step in self.steps)

    @classmethod
    def parse(cls, text: str, source: str = "<script>") -> Script:
        """Read the text format described in this module's docstring."""
        steps: list[Step] = []
        frames = 0
        for number, line in enumerate(text.splitlines(), start=1):
            try:
                read = _parse_line(line)
            except A8Error as error:
                raise ScriptError(f"{source}:{number}: {error}") from None
            frames += sum(_frame_count(step) for step in read)
            if frames > MAX_FRAMES:
                raise ScriptError(
                    f"{source}:{number}: the script's input takes more than {MAX_FRAMES:,} "
                    "frames (a day of emulated time)"
                )
            steps.extend(read)
        return cls(tuple(steps))

    def to_text(self) -> str:
        """The script in the text format, one command per step (``parse`` reads it back)."""
        return "".join(_format_step(step) + "\n" for step in self.steps)

    @classmethod
    def load(cls, path: str | Path) -> Script:
        """Read a script file (errors name the file and line)."""
        try:
            data = read_at_most(path, LARGEST_SCRIPT)
        except OSError as error:
            raise ScriptError(f"{path}: cannot read script: {error.strerror}") from None
        if len(data) > LARGEST_SCRIPT:
            raise ScriptError(f"{path}: more than {LARGEST_SCRIPT:,} bytes: not a script")
        return cls.from_bytes(data, str(path))

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "<script>") -> Script:
        """A script file's bytes (UTF-8), as :meth:`load` reads them."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ScriptError(f"{source}: cannot read script: {error}") from None
        return cls.parse(text, source)


def _check_step(step: Step) -> None:
    """Reject steps that could never run, at the point they are written."""
    match step:
        case TypeText(text):
            keystrokes_for_text(text)
        case PressKey(name):
            named_keystroke(name)
        case HoldKey(name, count):
            named_keystroke(name)
            _check_count(count, "hold")
        case Wait(count):
            _check_count(count, "wait")
        case WaitForFile(name, timeout):
            _check_h_name(name)
            _check_count(timeout, "wait-file timeout", minimum=1)
        case WaitForText(text, timeout):
            if not text or "\n" in text:
                raise ScriptError("wait-text: give the text of one screen line, not empty")
            _check_count(timeout, "wait-text timeout", minimum=1)
        case WaitForInput(timeout):
            _check_count(timeout, "wait-input timeout", minimum=1)
        case Screenshot(path):
            if not path.lower().endswith(".png"):
                raise ScriptError(f"screenshot {path!r}: the file name must end in .png")


def _check_count(count: int, what: str, minimum: int = 0) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or count < minimum:
        raise ScriptError(f"{what}: frame count must be an integer >= {minimum}, got {count!r}")
    if count > MAX_FRAMES:
        raise ScriptError(
            f"{what}: {count} frames is more than {MAX_FRAMES:,} (a day of emulated time)"
        )


def _frame_count(step: Step) -> int:
    """The playback frames an input step takes (0 for the others), without making them."""
    match step:
        case TypeText(text):
            return len(keystrokes_for_text(text)) * (KEY_HOLD_FRAMES + KEY_GAP_FRAMES)
        case PressKey():
            return KEY_HOLD_FRAMES + KEY_GAP_FRAMES
        case HoldKey(_, count) | Wait(count):
            return count
    return 0


def _check_h_name(name: str) -> None:
    """H: file names are plain names inside the H: folder, never paths."""
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        raise ScriptError(f"wait-file {name!r}: give a file name in the H: folder, not a path")


# --- the text format -----------------------------------------------------------------

#: The commands of the text format.
COMMANDS: Final = (
    "type",
    "key",
    "hold",
    "wait",
    "wait-file",
    "wait-text",
    "wait-input",
    "screenshot",
)


def _parse_line(line: str) -> list[Step]:
    words = _split_words(line)
    if not words:
        return []
    command, args = words[0], words[1:]
    if isinstance(command, _Quoted):
        raise ScriptError("a line must start with a command, not a string")
    name = command.lower()
    if name == "type":
        return _parse_type(args)
    if name == "key":
        if not args:
            raise ScriptError("key: give one or more key names, e.g. key RETURN")
        return [_built(PressKey(str(arg))) for arg in args]
    if name == "hold":
        key, count = _expect_words(args, 2, "hold KEY FRAMES")
        return [_built(HoldKey(key, _parse_int(count, "hold")))]
    if name == "wait":
        (count,) = _expect_words(args, 1, "wait FRAMES")
        return [_built(Wait(_parse_int(count, "wait")))]
    if name == "wait-file":
        file_name, timeout = _expect_words(args, 2, "wait-file NAME TIMEOUT_FRAMES")
        return [_built(WaitForFile(file_name, _parse_int(timeout, "wait-file")))]
    if name == "wait-text":
        if len(args) != 2 or not isinstance(args[0], _Quoted) or isinstance(args[1], _Quoted):
            raise ScriptError('usage: wait-text "TEXT" TIMEOUT_FRAMES')
        return [_built(WaitForText(str(args[0]), _parse_int(args[1], "wait-text")))]
    if name == "wait-input":
        (timeout,) = _expect_words(args, 1, "wait-input TIMEOUT_FRAMES")
        return [_built(WaitForInput(_parse_int(timeout, "wait-input")))]
    if name == "screenshot":
        if len(args) != 1:
            raise ScriptError("screenshot: give one file name, e.g. screenshot out.png")
        return [_built(Screenshot(str(args[0])))]
    raise ScriptError(f"unknown command {command!r} (known: {', '.join(COMMANDS)})")


def _built(step: Step) -> Step:
    _check_step(step)
    return step


def _parse_type(args: list[str]) -> list[Step]:
    if not args or not isinstance(args[0], _Quoted):
        raise ScriptError('type: give a string in double quotes, e.g. type "RUN"')
    steps: list[Step] = []
    for arg in args:
        steps.append(_built(TypeText(str(arg)) if isinstance(arg, _Quoted) else PressKey(arg)))
    return steps


def _expect_words(args: list[str], count: int, usage: str) -> list[str]:
    """Exactly ``count`` words; a name may be quoted (blanks, ``#``), a number may not."""
    if len(args) != count or isinstance(args[-1], _Quoted):
        raise ScriptError(f"usage: {usage}")
    return [str(arg) for arg in args]


def _parse_int(word: str, what: str) -> int:
    if not word.isdigit():
        raise ScriptError(f"{what}: {word!r} is not a whole number of frames")
    return int(word)


class _Quoted(str):
    """A word that was written as a double-quoted string."""

    __slots__ = ()


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '""').replace("\n", "\\n")
    return f'"{escaped}"'


def _word(text: str) -> str:
    """A name as a plain word when it can be one, else quoted."""
    plain = text and not any(char in ' \t"#\\' or not char.isprintable() for char in text)
    return text if plain else _quote(text)


def _format_step(step: Step) -> str:
    match step:
        case TypeText(text):
            return f"type {_quote(text)}"
        case PressKey(name):
            return f"key {_word(name)}"
        case HoldKey(name, count):
            return f"hold {_word(name)} {count}"
        case Wait(count):
            return f"wait {count}"
        case WaitForFile(name, timeout):
            return f"wait-file {_word(name)} {timeout}"
        case WaitForText(text, timeout):
            return f"wait-text {_quote(text)} {timeout}"
        case WaitForInput(timeout):
            return f"wait-input {timeout}"
        case Screenshot(path):
            return f"screenshot {_word(path)}"
    raise AssertionError(step)


def _split_words(line: str) -> list[str]:
    """Blank-separated words; "..." strings keep blanks, "" is a quote, # starts a comment."""
    words: list[str] = []
    index = 0
    while index < len(line):
        char = line[index]
        if char in " \t":
            index += 1
        elif char == "#":
            break
        elif char == '"':
            text, index = _read_string(line, index + 1)
            words.append(_Quoted(text))
        else:
            end = index
            while end < len(line) and line[end] not in ' \t"#':
                end += 1
            words.append(line[index:end])
            index = end
    return words


def _read_string(line: str, index: int) -> tuple[str, int]:
    chars: list[str] = []
    while index < len(line):
        char = line[index]
        if char == '"':
            if line.startswith('""', index):
                chars.append('"')
                index += 2
                continue
            return "".join(chars), index + 1
        if char == "\\":
            escaped = line[index + 1 : index + 2]
            if escaped == "n":
                chars.append("\n")
            elif escaped == "\\":
                chars.append("\\")
            else:
                raise ScriptError(f"unknown escape \\{escaped} in a string (use \\n or \\\\)")
            index += 2
            continue
        chars.append(char)
        index += 1
    raise ScriptError("string not closed: a closing double quote is missing")
