"""Input scripts: the builder, the text format, and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from a8.emu.keys import CHARACTER_KEYS, IDLE, KEY_NAMES, Frame, named_keystroke
from a8.emu.script import (
    KEY_GAP_FRAMES,
    KEY_HOLD_FRAMES,
    MAX_FRAMES,
    HoldKey,
    PressKey,
    Screenshot,
    Script,
    ScriptError,
    Step,
    TypeText,
    Wait,
    WaitForFile,
    WaitForInput,
    WaitForText,
)

EXAMPLES = Path(__file__).parents[3] / "emu_scripts"


def test_builder_is_immutable_and_ordered() -> None:
    empty = Script()
    script = empty.wait(10).type("RUN\n").key("ESC").wait_for_file("OUT.TXT", 100)
    assert len(empty) == 0
    assert list(script) == [
        Wait(10),
        TypeText("RUN\n"),
        PressKey("ESC"),
        WaitForFile("OUT.TXT", 100),
    ]


def test_typing_holds_then_releases_each_key() -> None:
    frames = TypeText("AB").frames()
    per_key = KEY_HOLD_FRAMES + KEY_GAP_FRAMES
    assert len(frames) == 2 * per_key
    assert frames[0] == Frame(0x3F)
    assert frames[KEY_HOLD_FRAMES] == IDLE
    assert frames[per_key] == Frame(0x15)


def test_console_key_frames() -> None:
    assert HoldKey("OPTION", 3).frames() == [Frame.holding(named_keystroke("OPTION"))] * 3
    assert Frame.holding(named_keystroke("START")).console == 0x06


def test_input_frames_counts_only_input() -> None:
    script = Script().wait(10).type("A").wait_for_file("X", 50).screenshot("a.png")
    assert script.input_frames() == 10 + KEY_HOLD_FRAMES + KEY_GAP_FRAMES


def test_parse_every_command() -> None:
    text = "\n".join(
        [
            "# a comment line",
            "wait 150",
            'type "RUN ""H1:GAME.BAS""" RETURN   # trailing comment',
            'type "A#B\\n"',
            "key ESC CTRL-C",
            "  hold OPTION 30",
            "wait-file DONE.TXT 6000",
            'wait-text "Ready" 600',
            "wait-input 900",
            "screenshot out.png",
        ]
    )
    assert Script.parse(text).steps == (
        Wait(150),
        TypeText('RUN "H1:GAME.BAS"'),
        PressKey("RETURN"),
        TypeText("A#B\n"),
        PressKey("ESC"),
        PressKey("CTRL-C"),
        HoldKey("OPTION", 30),
        WaitForFile("DONE.TXT", 6000),
        WaitForText("Ready", 600),
        WaitForInput(900),
        Screenshot("out.png"),
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("jump 3", "unknown command 'jump'"),
        ("wait", "usage: wait FRAMES"),
        ("wait -3", "not a whole number"),
        ('type "open', "string not closed"),
        ("type RUN", "double quotes"),
        ('type "print"', "CAPS"),
        ("key ENTER", "unknown key name"),
        ("wait-file ../x 10", "not a path"),
        ("wait-input", "usage: wait-input TIMEOUT_FRAMES"),
        ("wait-input 0", "frame count must be an integer >= 1"),
        ("wait-file X 0", ">= 1"),
        ("screenshot out.gif", ".png"),
        ('"RUN"', "must start with a command"),
        ('type "A\\t"', "unknown escape"),
        ("wait-text Ready 10", "usage: wait-text"),
        ('wait-text "" 10', "not empty"),
        ("wait 999999999999", "more than 5,184,000 (a day of emulated time)"),
        ("hold START 5184001", "more than 5,184,000"),
        ("wait-input 99999999999999999999", "more than 5,184,000"),
    ],
)
def test_parse_errors_name_file_and_line(line: str, message: str) -> None:
    with pytest.raises(ScriptError) as caught:
        Script.parse(f"wait 1\n{line}\n", "demo.txt")
    text = str(caught.value)
    assert text.startswith("demo.txt:2: ")
    assert message in text
    assert "\n" not in text


def test_builder_rejects_bad_steps_at_once() -> None:
    with pytest.raises(ScriptError):
        Script().wait(-1)
    with pytest.raises(ScriptError):
        Script().wait_for_file("a/b", 10)


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="cannot read script: No such file"):
        Script.load(tmp_path / "none.txt")


def test_a_script_s_input_is_bounded_when_it_is_read() -> None:
    """Was: ``wait 999999999999`` built a list with one entry per frame (MemoryError).
    Each count, and all the input together, stay within a day of emulated time."""
    day = MAX_FRAMES
    assert Script.parse(f"wait {day}\n").input_frames() == day
    with pytest.raises(ScriptError, match=r"s.txt:4: the script's input takes more than"):
        Script.parse(f"wait {day - 10}\nkey A\nkey B\nkey C\n", "s.txt")


def test_an_endless_file_is_not_read_to_its_end() -> None:
    with pytest.raises(ScriptError, match=r"/dev/zero: more than 4,194,304 bytes: not a script"):
        Script.load("/dev/zero")


def test_example_scripts_parse() -> None:
    examples = sorted(EXAMPLES.glob("*.txt"))
    assert examples, "emu_scripts/ should hold example scripts"
    for path in examples:
        assert len(Script.load(path)) > 0


# --- round trip: to_text then parse gives the same script --------------------------

_TYPEABLE = sorted(set(CHARACTER_KEYS))
_KEY_NAMES = [*KEY_NAMES, *(c for c in _TYPEABLE if c not in " \n"), "CTRL-A", "SHIFT-RETURN"]
_PRINTABLE = st.characters(min_codepoint=32, max_codepoint=126)
_NAME = st.text(_PRINTABLE, min_size=1, max_size=12).filter(
    lambda name: "/" not in name and "\\" not in name and name not in (".", "..")
)

steps_strategy = st.one_of(
    st.builds(TypeText, st.text(st.sampled_from(_TYPEABLE), max_size=20)),
    st.builds(PressKey, st.sampled_from(_KEY_NAMES)),
    st.builds(HoldKey, st.sampled_from(_KEY_NAMES), st.integers(0, 500)),
    st.builds(Wait, st.integers(0, 100_000)),
    st.builds(WaitForFile, _NAME, st.integers(1, 100_000)),
    st.builds(WaitForText, st.text(_PRINTABLE, min_size=1, max_size=30), st.integers(1, 9999)),
    st.builds(WaitForInput, st.integers(1, 99_999)),
    st.builds(Screenshot, _NAME.map(lambda name: name + ".png")),
)


@given(st.lists(steps_strategy, max_size=12))
def test_text_format_round_trip(steps: list[Step]) -> None:
    script = Script()
    for step in steps:
        script = script.then(step)
    assert Script.parse(script.to_text()) == script


def test_a_doubled_key_waits_out_the_os_debounce() -> None:
    """The genuine XL OS ignores the same key again until 3 key-up frames have passed."""
    frames = TypeText("EE").frames()
    assert [frame.key < 0 for frame in frames] == [False, False, True, True, True] * 2
