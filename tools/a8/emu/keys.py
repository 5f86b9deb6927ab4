"""The Atari keyboard as a script holds it down, frame by frame.

A :class:`Frame` is the input of one video frame, what every backend feeds its
machine: the code of the key held during that frame (``-1`` for none), a SHIFT
flag, and the state of the console keys (START, SELECT, OPTION). Key codes are
atari800's ``AKEY`` codes, which its playback stream carries as they are (another
backend maps them to its own). The AKEY code of an ordinary key is
the POKEY keyboard code (``KBCODE``) the real keyboard produces, with bit 6 set
for SHIFT and bit 7 for CONTROL; a few negative codes (``BREAK``) are handled by
the emulator's input layer itself. The values below are facts from atari800's
``src/akey.h``.

Typing assumes the state the OS is in after boot: CAPS mode, so an unshifted
letter key types an upper-case letter. Lower-case letters would need the CAPS key
first; :func:`keystrokes_for_text` refuses them rather than guessing the mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from a8.errors import A8Error

#: atari800's code for "no key held".
NO_KEY = -1
#: The BREAK key is not a POKEY key code; atari800 turns this value into a BREAK IRQ.
BREAK_CODE = -5

SHIFT_BIT = 0x40
CONTROL_BIT = 0x80

#: The console keys are active-low bits of GTIA's CONSOL register.
CONSOLE_NONE = 0x07
CONSOLE_START = 0x01
CONSOLE_SELECT = 0x02
CONSOLE_OPTION = 0x04


class KeyNameError(A8Error):
    """A key name or a character that the Atari keyboard cannot produce."""


@dataclass(frozen=True)
class Keystroke:
    """What is held down during one key press: a keyboard key and/or console keys.

    ``code`` is the AKEY code including the SHIFT and CONTROL bits; ``console``
    is the CONSOL value (:data:`CONSOLE_NONE` when no console key is held).
    """

    code: int = NO_KEY
    console: int = CONSOLE_NONE

    @property
    def shift(self) -> bool:
        """Whether the SHIFT key is down (atari800 also wants it as a separate flag)."""
        return self.code >= 0 and bool(self.code & SHIFT_BIT)


@dataclass(frozen=True)
class Frame:
    """The input held during one video frame (1/60 s NTSC, 1/50 s PAL)."""

    key: int = NO_KEY
    shift: bool = False
    console: int = CONSOLE_NONE

    @classmethod
    def holding(cls, keystroke: Keystroke) -> Frame:
        return cls(keystroke.code, keystroke.shift, keystroke.console)


#: A frame with nothing held.
IDLE = Frame()


#: Unshifted key codes of the letters, digits and plain punctuation keys.
_PLAIN_KEYS: dict[str, int] = {
    "L": 0x00, "J": 0x01, ";": 0x02, "K": 0x05, "+": 0x06, "*": 0x07,
    "O": 0x08, "P": 0x0A, "U": 0x0B, "I": 0x0D, "-": 0x0E, "=": 0x0F,
    "V": 0x10, "C": 0x12, "B": 0x15, "X": 0x16, "Z": 0x17,
    "4": 0x18, "3": 0x1A, "6": 0x1B, "5": 0x1D, "2": 0x1E, "1": 0x1F,
    ",": 0x20, " ": 0x21, ".": 0x22, "N": 0x23, "M": 0x25, "/": 0x26,
    "R": 0x28, "E": 0x2A, "Y": 0x2B, "T": 0x2D, "W": 0x2E, "Q": 0x2F,
    "9": 0x30, "0": 0x32, "7": 0x33, "8": 0x35, "<": 0x36, ">": 0x37,
    "F": 0x38, "H": 0x39, "D": 0x3A, "G": 0x3D, "S": 0x3E, "A": 0x3F,
}  # fmt: skip

#: Characters typed with SHIFT held on another key.
_SHIFTED_KEYS: dict[str, str] = {
    "!": "1", '"': "2", "#": "3", "$": "4", "%": "5", "&": "6", "'": "7",
    "@": "8", "(": "9", ")": "0", ":": ";", "?": "/", "_": "-", "|": "=",
    "[": ",", "]": ".", "^": "*", "\\": "+",
}  # fmt: skip

#: Key codes of the keys that are not characters (AKEY values from akey.h).
_NAMED_CODES: dict[str, int] = {
    "RETURN": 0x0C,
    "ESC": 0x1C,
    "SPACE": 0x21,
    "TAB": 0x2C,
    "BACKSPACE": 0x34,
    "DELETE": 0x34,
    "INVERSE": 0x27,  # the Atari (inverse video) key
    "CAPS": 0x3C,
    "HELP": 0x11,
    "F1": 0x03,
    "F2": 0x04,
    "F3": 0x13,
    "F4": 0x14,
    "UP": CONTROL_BIT | 0x0E,
    "DOWN": CONTROL_BIT | 0x0F,
    "LEFT": CONTROL_BIT | 0x06,
    "RIGHT": CONTROL_BIT | 0x07,
    "CLEAR": SHIFT_BIT | 0x36,
    "INSERT": CONTROL_BIT | 0x37,
    "DELETE-CHAR": CONTROL_BIT | 0x34,
    "INSERT-LINE": SHIFT_BIT | 0x37,
    "DELETE-LINE": SHIFT_BIT | 0x34,
    "BREAK": BREAK_CODE,
}

_CONSOLE_BITS: dict[str, int] = {
    "START": CONSOLE_START,
    "SELECT": CONSOLE_SELECT,
    "OPTION": CONSOLE_OPTION,
}

#: Every character :func:`keystrokes_for_text` can type, with its keystroke.
CHARACTER_KEYS: MappingProxyType[str, Keystroke] = MappingProxyType(
    {
        "\n": Keystroke(_NAMED_CODES["RETURN"]),
        **{char: Keystroke(code) for char, code in _PLAIN_KEYS.items()},
        **{char: Keystroke(SHIFT_BIT | _PLAIN_KEYS[base]) for char, base in _SHIFTED_KEYS.items()},
    }
)

#: Names accepted by :func:`named_keystroke` besides the CTRL-/SHIFT- forms.
KEY_NAMES: tuple[str, ...] = tuple(sorted([*_NAMED_CODES, *_CONSOLE_BITS]))


def keystroke_for_char(char: str) -> Keystroke:
    """The keystroke that types ``char`` in CAPS mode ("\\n" is RETURN)."""
    try:
        return CHARACTER_KEYS[char]
    except KeyError:
        if char.isalpha() and char.isascii() and char.islower():
            reason = "lower-case letters need the CAPS key first; type upper case"
        else:
            reason = "no key on the Atari keyboard types it"
        raise KeyNameError(f"cannot type {char!r}: {reason}") from None


def keystrokes_for_text(text: str) -> list[Keystroke]:
    """One keystroke per character of ``text``."""
    return [keystroke_for_char(char) for char in text]


def named_keystroke(name: str) -> Keystroke:
    """The keystroke for a key name.

    Names are case-insensitive: a special key (``RETURN``, ``ESC``, ``UP`` ...,
    see :data:`KEY_NAMES`), a console key (``START``, ``SELECT``, ``OPTION``, or
    several joined with ``+`` such as ``START+OPTION``), a single character, or a
    modifier prefix on one of those: ``CTRL-A``, ``SHIFT-RETURN``, ``CTRL-SHIFT-X``.
    """
    spelled = name.strip()
    upper = spelled.upper()
    if upper and all(part in _CONSOLE_BITS for part in upper.split("+")):
        console = CONSOLE_NONE
        for part in upper.split("+"):
            console &= ~_CONSOLE_BITS[part]
        return Keystroke(console=console)
    modifiers = 0
    rest = spelled
    while len(rest) > 1:
        head = rest.upper()
        if head.startswith("CTRL-"):
            modifiers |= CONTROL_BIT
            rest = rest[5:]
        elif head.startswith("SHIFT-"):
            modifiers |= SHIFT_BIT
            rest = rest[6:]
        else:
            break
    key = _base_code(rest, spelled)
    if key < 0:
        if modifiers:
            raise KeyNameError(f"key {spelled!r}: {rest.upper()} takes no CTRL-/SHIFT- prefix")
        return Keystroke(key)
    return Keystroke(key | modifiers)


def _base_code(rest: str, spelled: str) -> int:
    upper = rest.upper()
    if upper in _NAMED_CODES:
        return _NAMED_CODES[upper]
    if len(rest) == 1 and rest != "\n":
        return keystroke_for_char(upper if rest.isalpha() else rest).code
    raise KeyNameError(f"unknown key name {spelled!r} (known: {', '.join(KEY_NAMES)})")
