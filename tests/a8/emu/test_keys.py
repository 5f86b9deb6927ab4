"""Key mapping: characters and key names to atari800 AKEY codes (values from akey.h)."""

from __future__ import annotations

import pytest

from a8.emu.keys import (
    CHARACTER_KEYS,
    CONSOLE_NONE,
    KEY_NAMES,
    KeyNameError,
    Keystroke,
    keystroke_for_char,
    keystrokes_for_text,
    named_keystroke,
)


@pytest.mark.parametrize(
    ("char", "code"),
    [
        ("A", 0x3F),
        ("B", 0x15),
        ("L", 0x00),
        ("Z", 0x17),
        ("0", 0x32),
        ("1", 0x1F),
        ("9", 0x30),
        (" ", 0x21),
        ("\n", 0x0C),
        ('"', 0x5E),
        (":", 0x42),
        (".", 0x22),
        (",", 0x20),
        ("#", 0x5A),
        ("!", 0x5F),
        ("'", 0x73),
        ("@", 0x75),
        ("(", 0x70),
        (")", 0x72),
        ("?", 0x66),
        ("_", 0x4E),
        ("[", 0x60),
        ("]", 0x62),
        ("^", 0x47),
        ("\\", 0x46),
        ("|", 0x4F),
        ("=", 0x0F),
        ("<", 0x36),
        (">", 0x37),
    ],
)
def test_characters_match_akey_codes(char: str, code: int) -> None:
    assert keystroke_for_char(char).code == code


def test_shift_flag_follows_the_shift_bit() -> None:
    assert keystroke_for_char('"').shift
    assert not keystroke_for_char("A").shift
    assert not Keystroke().shift


def test_every_printable_ascii_except_lower_case_and_braces_types() -> None:
    typeable = {chr(c) for c in range(32, 127)} - set("abcdefghijklmnopqrstuvwxyz{}~`")
    assert typeable <= set(CHARACTER_KEYS)
    assert len({k.code for k in CHARACTER_KEYS.values()}) == len(CHARACTER_KEYS)


def test_lower_case_is_refused_with_the_reason() -> None:
    with pytest.raises(KeyNameError, match="CAPS"):
        keystrokes_for_text("print")


def test_untypeable_character_is_refused() -> None:
    with pytest.raises(KeyNameError, match="no key"):
        keystroke_for_char("~")


@pytest.mark.parametrize(
    ("name", "code", "console"),
    [
        ("RETURN", 0x0C, CONSOLE_NONE),
        ("return", 0x0C, CONSOLE_NONE),
        ("ESC", 0x1C, CONSOLE_NONE),
        ("UP", 0x8E, CONSOLE_NONE),
        ("DOWN", 0x8F, CONSOLE_NONE),
        ("LEFT", 0x86, CONSOLE_NONE),
        ("RIGHT", 0x87, CONSOLE_NONE),
        ("CLEAR", 0x76, CONSOLE_NONE),
        ("BREAK", -5, CONSOLE_NONE),
        ("INVERSE", 0x27, CONSOLE_NONE),
        ("CTRL-A", 0xBF, CONSOLE_NONE),
        ("ctrl-c", 0x92, CONSOLE_NONE),
        ("SHIFT-RETURN", 0x4C, CONSOLE_NONE),
        ("CTRL-SHIFT-A", 0xFF, CONSOLE_NONE),
        ("Q", 0x2F, CONSOLE_NONE),
        ("START", -1, 0x06),
        ("SELECT", -1, 0x05),
        ("OPTION", -1, 0x03),
        ("START+OPTION", -1, 0x02),
    ],
)
def test_named_keys(name: str, code: int, console: int) -> None:
    assert named_keystroke(name) == Keystroke(code, console)


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(KeyNameError, match="RETURN"):
        named_keystroke("ENTER")
    with pytest.raises(KeyNameError):
        named_keystroke("CTRL-BREAK")


def test_key_names_all_resolve() -> None:
    for name in KEY_NAMES:
        named_keystroke(name)
