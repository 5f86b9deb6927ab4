"""The player's statistics: where they live, what a game adds, the file kept safe."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machfsol.engine.autoplay import play
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant
from machfsol.terminal.game import Sitting
from machfsol.terminal.kept_game import KeptGame
from machfsol.terminal.statistics import (
    Record,
    Statistics,
    clock_text,
    dump,
    parse,
    state_folder,
)
from machfsol.terminal.table_view import CardFace


@pytest.mark.parametrize(
    ("environ", "platform", "folder"),
    [
        ({"XDG_STATE_HOME": "/s", "HOME": "/h"}, "linux", "/s/machfsol"),
        ({"HOME": "/h"}, "linux", "/h/.local/state/machfsol"),
        ({"XDG_STATE_HOME": "relative", "HOME": "/h"}, "linux", "/h/.local/state/machfsol"),
        ({"XDG_STATE_HOME": "", "HOME": "/h"}, "freebsd14", "/h/.local/state/machfsol"),
        ({}, "linux", None),
        ({"HOME": "relative"}, "linux", None),
        ({"HOME": "/Users/m"}, "darwin", "/Users/m/Library/Application Support/machfsol"),
        ({"LOCALAPPDATA": "C:\\Users\\m\\AppData\\Local"}, "win32",
         "C:\\Users\\m\\AppData\\Local/machfsol"),
        ({"LOCALAPPDATA": "AppData"}, "win32", None),
        ({}, "win32", None),
    ],
)  # fmt: skip
def test_the_platforms_state_folder_never_the_current_one(
    environ: dict[str, str], platform: str, folder: str | None
) -> None:
    assert state_folder(environ, platform) == (None if folder is None else Path(folder))


def test_a_record_counts_games_streaks_and_the_best_time() -> None:
    record = Record()
    assert record.text() == "no games played yet"
    for won, seconds in [(True, 300), (True, 200), (False, 50), (True, 250)]:
        record = record.after(won, seconds)
    assert record == Record(played=4, won=3, streak=1, best_streak=2, best_seconds=200)
    assert record.text() == "played 4, won 3 (75%), streak 1 (best 2), best time 3:20"
    assert clock_text(3725) == "1:02:05" and clock_text(0) == "0:00"


def test_the_file_keeps_every_variant_and_deck_and_two_games_at_once_both_count(
    tmp_path: Path,
) -> None:
    first, second = Statistics(tmp_path), Statistics(tmp_path)
    first.add(1, 52, True, 100.0)
    second.add(1, 52, False, 80.0)  # another game, running at the same time
    first.add(2, 40, True, 90.5)
    again = Statistics(tmp_path)
    assert again.record(1, 52) == Record(2, 1, 0, 1, 100.0)
    assert again.record(2, 40) == Record(1, 1, 1, 1, 90.5)
    assert again.records() == {(1, 52): again.record(1, 52), (2, 40): again.record(2, 40)}
    assert again.problem is None
    document = json.loads((tmp_path / "statistics.json").read_text())
    assert document["format"] == 1 and set(document["games"]) == {"1-52", "2-40"}


records = st.builds(
    Record,
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.none() | st.floats(0, 10**7, allow_nan=False),
).filter(lambda record: record.won <= record.played)


@settings(max_examples=200)
@given(st.dictionaries(st.sampled_from(["1-52", "2-40", "1-20", "2-28"]), records))
def test_the_file_reads_back_what_it_wrote(book: dict[str, Record]) -> None:
    data = dump(book)
    assert parse(data, "s.json") == book
    assert dump(parse(data, "s.json")) == data


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"{", "s.json:1: not JSON"),
        (b"\xff", "not UTF-8"),
        (b'{"format": 2, "games": {}}', "not a MAChFsol statistics file"),
        (b'{"format": 1}', 'no "games" object'),
        (b'{"format": 1, "games": {"1-52": {"played": -1}}}', "games.1-52.played is not a count"),
        (b'{"format": 1, "games": {"1-52": {"played": 1, "won": 2, "streak": 0, '
         b'"best_streak": 0}}}', "more games won than played"),
        (b'{"format": 1, "games": {"1-52": {"played": 1, "won": 1, "streak": 1, '
         b'"best_streak": 1, "best_seconds": "x"}}}', "best_seconds is not a time"),
    ],
)  # fmt: skip
def test_a_damaged_file_is_named_and_left_alone(content: bytes, says: str, tmp_path: Path) -> None:
    path = tmp_path / "statistics.json"
    path.write_bytes(content)
    statistics = Statistics(tmp_path)
    problem = statistics.problem
    assert problem is not None and str(path) in problem
    assert says.replace("s.json", str(path)) in problem
    assert "\n" not in problem and "move it away" in problem
    statistics.add(1, 52, True, 10.0)  # counted for this run, not written
    assert statistics.record(1, 52).won == 1
    assert path.read_bytes() == content


def test_a_folder_that_cannot_be_written_leaves_the_game_playing(tmp_path: Path) -> None:
    if os.geteuid() == 0:  # root writes anyway: a file where the folder should be
        blocked = tmp_path / "file"
        blocked.write_text("")
        folder = blocked / "machfsol"
    else:
        tmp_path.chmod(0o500)
        folder = tmp_path / "machfsol"
    try:
        statistics = Statistics(folder)
        statistics.add(1, 52, False, 3.0)
    finally:
        tmp_path.chmod(0o700)
    assert statistics.problem is not None and "statistics are not saved" in statistics.problem
    assert statistics.record(1, 52).played == 1


def sitting_in(folder: Path, seed: int = 3, number: int = 1, size: int = 52) -> Sitting:
    sitting = Sitting(
        variant(number), CardFace(), statistics=Statistics(folder), kept=KeptGame(folder)
    )
    sitting.new_deal(deal(seed, size), seed)
    return sitting


def _won_seed(number: int, size: int) -> int:
    return next(
        s for s in range(1, 500) if play(Position.from_seed(s, variant(number), size)).is_won()
    )


def test_a_game_counts_once_won_when_won_lost_when_left(tmp_path: Path) -> None:
    seed = _won_seed(1, 28)
    sitting = sitting_in(tmp_path, seed, 1, 28)
    sitting.deal_seed(seed)  # no move made: the deal left does not count
    assert sitting.statistics.record(1, 28) == Record()
    while (move := sitting.hint()) is not None:
        sitting.play(move)
    assert sitting.statistics.record(1, 28).won == 1
    sitting.undo(3)
    sitting.redo(3)  # won again: still one game
    sitting.restart()  # left, but it was won
    assert sitting.statistics.record(1, 28) == Record(
        1, 1, 1, 1, sitting.statistics.record(1, 28).best_seconds
    )
    sitting.play(sitting.hint() or sitting.position.legal_moves()[0])
    sitting.restart()  # a move made, not won: lost
    assert Statistics(tmp_path).record(1, 28).played == 2
    assert Statistics(tmp_path).record(1, 28).streak == 0


def test_a_lost_game_shows_its_count_before_it_is_left(tmp_path: Path) -> None:
    lost = next(
        s for s in range(1, 100) if not play(Position.from_seed(s, variant(1), 28)).is_won()
    )
    sitting = sitting_in(tmp_path, lost, 1, 28)
    while (move := sitting.hint()) is not None:
        sitting.play(move)
    assert sitting.record() == Record(1, 0, 0, 0, None)  # as it will be counted
    assert Statistics(tmp_path).record(1, 28) == Record()  # undo could still save it
    assert not sitting.end_sitting()  # over: left, not kept
    assert Statistics(tmp_path).record(1, 28) == Record(1, 0, 0, 0, None)


def test_quitting_keeps_a_game_under_way_and_the_next_start_offers_it(tmp_path: Path) -> None:
    sitting = sitting_in(tmp_path, 7)
    for _ in range(3):
        sitting.play(sitting.position.legal_moves()[0])
    assert sitting.end_sitting()
    assert Statistics(tmp_path).record(1, 52) == Record()  # kept, not lost
    later = sitting_in(tmp_path, 9)
    later.offered = KeptGame(tmp_path).read()
    assert later.offered is not None and later.offered.describe().startswith(
        "deal 7 of MAChFsol 1 (52 cards), 3 moves"
    )
    later.take_offered()
    assert later.seed == 7 and later.moves == 3 and later.in_progress
    assert KeptGame(tmp_path).read() is None  # being played: no longer kept
    assert later.end_sitting()
    declined = sitting_in(tmp_path, 9)
    kept = KeptGame(tmp_path).read()
    assert kept is not None
    declined.offered = kept
    declined.decline(kept)
    assert KeptGame(tmp_path).read() is None
    assert Statistics(tmp_path).record(1, 52) == Record(1, 0, 0, 0, None)


def test_a_kept_game_not_taken_is_lost_when_another_takes_its_place(tmp_path: Path) -> None:
    first = sitting_in(tmp_path, 7)
    first.play(first.position.legal_moves()[0])
    assert first.end_sitting()
    second = sitting_in(tmp_path, 9, 2, 40)
    second.offered = KeptGame(tmp_path).read()
    second.play(second.position.legal_moves()[0])
    assert second.end_sitting()  # kept in its place: the first one counts as lost
    assert Statistics(tmp_path).record(1, 52).played == 1
    kept = KeptGame(tmp_path).read()
    assert kept is not None and kept.seed == 9 and kept.variant == 2
