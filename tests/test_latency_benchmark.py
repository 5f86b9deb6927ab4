"""benchmarks/latency.py keeps working: one deal of MACHFSOL.2 on the built-in ROMs.

The figures themselves change whenever the program does (docs/VERIFY.md records
them); what is checked here is that every action is measured, in the order and
proportions any version of the game must keep.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).parent.parent / "benchmarks" / "latency.py"


def load_benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("latency_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.emulator
@pytest.mark.slow
def test_one_deal_measures_every_action(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latency = load_benchmark()
    figures = tmp_path / "latency.json"
    arguments = ["--seeds", "1", "--new-deals", "1-2", "--variant", "2", "--json", str(figures)]
    assert latency.main(arguments) == 0
    out = capsys.readouterr().out
    assert "XL NTSC (a frame, or jiffy, is 1/60 s), OS AltirraOS (built-in)" in out
    assert "genuine ROMs (est.)" in out
    report = json.loads(figures.read_text())
    game = report["MACHFSOL.2"]
    assert list(game) == list(latency.ACTIONS)
    median = {action: sorted(row["all"])[len(row["all"]) // 2] for action, row in game.items()}
    assert all(median[action] > 0 for action in latency.ACTIONS)
    assert median[latency.MENU_SERIAL] > median[latency.MENU]  # real serial I/O is slower
    moves = (
        len(game[latency.DRAW]["all"])
        + len(game[latency.CARD_MOVE]["all"])
        + len(game[latency.LAST_MOVE]["all"])
    )
    # a pick only before a card with two places: deal 1 has two (machfsol.atari.test_player)
    assert 0 < len(game[latency.PICK]["all"]) < len(game[latency.CARD_MOVE]["all"])
    # undo at every depth, back to the deal, a hint at every position on the way; redo
    # at every depth; the help's three keys and two questions, a restart
    assert len(game[latency.UNDO]["all"]) + len(game[latency.UNDO_PLAYED_OUT]["all"]) == moves
    assert len(game[latency.HINT]["all"]) == moves
    assert len(game[latency.REDO]["all"]) == moves - 1
    assert len(game[latency.REDO_LAST]["all"]) == 1
    assert len(game[latency.HELP]["all"]) == 3
    assert len(game[latency.CONFIRM]["all"]) == 3
    assert len(game[latency.RESTART]["all"]) == 1
    # every key of the game typed ahead, every one taken
    ((taken, typed),) = game[latency.TYPED_AHEAD]["taken"]
    assert taken == typed == moves + len(game[latency.PICK]["all"])
    assert game[latency.BURST]["taken"] == [[3, 3]]
    assert len(game[latency.NEW_DEAL_FRESH]["all"]) == 2
    assert len(game[latency.NEW_DEAL_PLAYED_OUT]["all"]) == 2
    assert game[latency.NEW_DEAL_FRESH]["over"] == "2 presses, deals 1,2"
    assert median[latency.PLAY_ALL] > median[latency.MOVE] > median[latency.PICK]


def test_a_wait_in_the_frame_of_the_press_is_not_the_wait_after_it() -> None:
    """The game may begin to wait in the very frame the script types the next key (on
    the genuine ROMs a new deal then played all was measured from its own start)."""
    from a8.emu.keywait import KeyEvent, KeyPress

    latency = load_benchmark()
    press = KeyPress(frame=900, code=0x0A, console=7, jiffy=500)
    events = [
        KeyEvent("ready", 400),
        KeyEvent("take", 410, 0x0C),
        KeyEvent("ready", 500),  # ready again in the frame the key goes down...
        KeyEvent("take", 500, 0x0A),  # ...which the OS takes at once
        KeyEvent("ready", 800),
    ]
    assert latency._ready_after(events, press, "test") is events[4]
    with pytest.raises(SystemExit, match="took another key"):
        latency._ready_after(events[:3] + [KeyEvent("take", 500, 0x3F)], press, "test")
