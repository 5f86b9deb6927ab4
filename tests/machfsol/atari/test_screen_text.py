"""The message lines' writer in a simulator (py65): every character lands as its screen
code where it was asked, blanks after it to the width, nothing else in memory changes,
and the screen editor's remembered cursor character follows what was written."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from machfsol.atari import screen_text
from machfsol.atari.basic_game import generate
from machfsol.atari.shuffle import FORBIDDEN
from tests.ram6502 import RecordingRam, call_usr

SAVMSC = 0x58
OLDCHR = 0x5D
OLDADR = 0x5E
SCREEN = 0x9C40
TEXT = 0x3000
STRING = 0x3100


def write(text: bytes, offset: int, width: int, cursor: int = 0x1234) -> RecordingRam:
    """Run ``X=USR(T,TEXT,LEN,offset,width)`` on a screen of 0xA5 bytes."""
    memory = RecordingRam(0xA5)
    memory.poke(TEXT, list(text))
    memory.poke(STRING, list(screen_text.code()))
    memory.poke(SAVMSC, [SCREEN & 0xFF, SCREEN >> 8])
    memory.poke(OLDADR, [cursor & 0xFF, cursor >> 8])
    memory.poke(OLDCHR, [0x77])
    call_usr(memory, STRING, [TEXT, len(text), offset, width])
    return memory


def test_the_conversion_is_antic_s_internal_code() -> None:
    assert screen_text.screen_codes(b" AZaz!0") == bytes([0, 0x21, 0x3A, 0x61, 0x7A, 1, 0x10])
    assert screen_text.screen_codes(bytes([0x00, 0x1F, 0x60, 0x7F])) == bytes(
        [0x40, 0x5F, 0x60, 0x7F]
    )
    assert screen_text.screen_codes(b"\xa0\xc1") == bytes([0x80, 0xA1])  # inverse kept


def test_every_character_and_the_blanks_after_it() -> None:
    for first in range(0, 256, 40):
        chunk = bytes(range(first, min(first + 40, 256)))
        memory = write(chunk, 80, 40)
        shown = bytes(memory.peek(SCREEN + 80 + i) for i in range(40))
        assert shown == screen_text.screen_codes(chunk) + bytes(40 - len(chunk))


@given(
    text=st.binary(max_size=40),
    row=st.integers(0, 23),
    column=st.integers(0, 39),
    width=st.integers(0, 80),
)
def test_only_the_bytes_asked_for_change(text: bytes, row: int, column: int, width: int) -> None:
    offset = row * 40 + column
    width = min(width, 960 - offset)
    memory = write(text, offset, width)
    expected = (screen_text.screen_codes(text) + bytes(width))[:width]
    assert bytes(memory.peek(SCREEN + offset + i) for i in range(width)) == expected
    written = set(range(SCREEN + offset, SCREEN + offset + width))
    assert memory.writes <= written | {*range(0xD4, 0xDA), *range(0x0100, 0x0200), OLDCHR}
    assert OLDCHR not in memory.writes  # the cursor (0x1234) is elsewhere


def test_the_cursor_s_character_follows_the_text() -> None:
    memory = write(b"HELLO", 680, 40, cursor=SCREEN + 682)
    assert memory.peek(OLDCHR) == screen_text.screen_codes(b"L")[0]
    memory = write(b"HELLO", 680, 40, cursor=SCREEN + 700)  # a blank written there
    assert memory.peek(OLDCHR) == 0
    memory = write(b"HELLO", 680, 40, cursor=SCREEN + 720)  # just past the width
    assert memory.peek(OLDCHR) == 0x77


def test_the_string_holds_no_forbidden_byte_and_the_program_carries_it() -> None:
    assert not FORBIDDEN & set(screen_text.code())
    assert screen_text.code_spelling() in generate(1)
