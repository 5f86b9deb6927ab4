"""``machfsol verify``: seeds syntax, the plan, and real runs of the games in atari800.

The emulator tests are the point of the command: the real programs pass, and programs
altered to play even slightly differently from the engine (a policy preference, a
rule off by one, a different shuffle step) fail, each with its seed and the first
line where it parts from the engine. A program that hangs fails on time.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from a8.basic import tokenize
from a8.emu.emulator import EmulatorOptions, RomSet, TvSystem, resolve_roms, run
from a8.emu.roms import RomImage, RomKind
from a8.emu.script import Script
from machfsol.atari.basic_game import generate, read_source
from machfsol.atari.test_player import Deal, Step, expected_steps
from machfsol.atari.verify import Plan, main_job, program_launch, scheduled_deal
from machfsol.atari.verify_batch import (
    DEAL_SECONDS,
    OWN_ROMS_DEAL_SECONDS,
    Batch,
    DealResult,
    GameDisk,
    _random_deals_vary,
    deal_seconds,
    first_divergence,
    judge_transcript,
    run_batch,
)
from machfsol.cli import main
from machfsol.engine.seed_list import MAX_SEEDS, SeedListError, format_seed_list, parse_seed_list

# ------------------------------------------------------------------ seeds


@pytest.mark.parametrize(
    ("text", "seeds"),
    [
        ("1-5", (1, 2, 3, 4, 5)),
        ("5,7,10-12", (5, 7, 10, 11, 12)),
        (" 3 , 1-2 ", (3, 1, 2)),
        ("4,2-5,4", (4, 2, 3, 5)),
        ("2147483646", (2147483646,)),
        ("7-7", (7,)),
    ],
)
def test_seed_lists(text: str, seeds: tuple[int, ...]) -> None:
    assert parse_seed_list(text) == seeds


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "give seeds like"),
        ("0", "'0' is not a seed"),
        ("abc", "'abc' is not a seed"),
        ("5-3", "range '5-3' runs backwards"),
        ("1-2147483647", "'1-2147483647' is not a seed"),
        ("1,,2", "'' is not a seed"),
        ("-5", "'-5' is not a seed"),
        ("1-2-3", "'1-2-3' is not a seed"),
        (f"1-{MAX_SEEDS + 1}", f"more than {MAX_SEEDS} deals"),
        (f"1-{MAX_SEEDS},{MAX_SEEDS + 1}", f"more than {MAX_SEEDS} deals"),
        ("\u00b2", "'\u00b2' is not a seed"),  # a digit to str.isdigit(), not to int()
        ("9" * 5000, "'999999999999999999999...' is not a seed"),  # beyond int()'s limit
    ],
)
def test_bad_seed_lists(text: str, message: str) -> None:
    with pytest.raises(SeedListError, match=re.escape(message)):
        parse_seed_list(text)


@given(st.lists(st.integers(1, 300), unique=True, max_size=40))
def test_format_reads_back(seeds: list[int]) -> None:
    text = format_seed_list(seeds)
    assert (parse_seed_list(text) if seeds else ()) == tuple(seeds)


@pytest.mark.parametrize(
    "args",
    [
        ["--seeds", "1-x"],
        ["--seeds", "9-1"],
        ["--deck", "50"],
        ["--deck", "big"],
        ["--deck", "\u00b2"],
        ["--seeds", "\u00b2"],
        ["--jobs", "0"],
        ["--deal-seconds", "0"],
        ["--program", "no-such-file.bas"],
        ["--disk", "no-such-disk.atr"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("machfsol: ") and err.count("\n") == 1


def test_a_disk_without_the_program_to_run_from_h_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default plan runs the disk's MACHFSOL.1 from H: too: a disk without it is
    refused before any boot."""
    from a8.disk.dos2 import Dos2Disk

    empty = tmp_path / "EMPTY.ATR"
    empty.write_bytes(Dos2Disk.new().to_bytes())
    assert main(["verify", "--disk", str(empty), "--variant", "1"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"machfsol: {empty}: no MACHFSOL.1 to run from H:")
    assert err.count("\n") == 1


def test_bad_variant_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["verify", "--variant", "3"])
    assert caught.value.code == 2


# ------------------------------------------------------------------ the plan


def test_batches_share_the_work_between_emulators() -> None:
    disk = Path("M.ATR")
    plan = Plan.every((GameDisk(disk, 1), GameDisk(disk, 2)), (52,), range(1, 21))
    batches = plan.batches(jobs=2)
    assert [(b.launch.variant, b.seeds) for b in batches] == [
        (1, tuple(range(1, 21))),
        (2, tuple(range(1, 21))),
    ]
    big = Plan.every((GameDisk(disk, 1),), (52, 40), range(1, 101))
    batches = big.batches(jobs=2)
    assert all(len(b.seeds) <= 40 for b in batches)
    played = [(d.deck_size, d.seed) for b in batches for d in b.deals]
    assert played == [(deck, seed) for deck in (52, 40) for seed in range(1, 101)]
    one = Plan.every((GameDisk(disk, 1),), (52,), (7,)).batches(jobs=4)
    assert [b.seeds for b in one] == [(7,)]


def test_every_path_has_its_share_of_any_seed_list() -> None:
    deals = Plan.every((GameDisk(Path("M.ATR"), 1),), (52,), range(1, 41)).deal_list()
    share = {letter: sum(letter in d.extras for d in deals) for letter in "HKUPNLEX"}
    assert share == {"H": 20, "K": 10, "U": 20, "P": 20, "N": 8, "L": 5, "E": 13, "X": 4}
    assert all("E" in d.extras for d in deals if "X" in d.extras)
    assert all("H" in d.extras for d in deals if "K" in d.extras)
    assert all(("H" in d.extras) != ("P" in d.extras) for d in deals)  # the policy checked
    assert sum(d.spanish for d in deals) == 20


def test_the_default_plan_has_every_deck_size_and_the_longest_numbers() -> None:
    plan = Plan.default((GameDisk(Path("M.ATR"), 1),))
    deals = plan.deal_list()
    assert {d.deck_size for d in deals} == set(range(20, 53, 4))
    assert {65537, 2147483646} <= {d.seed for d in deals}
    assert plan.describe().startswith(
        "seeds 1-60,195,386,65537,2147483646 of 52 cards; on a PAL machine 1,2 of 48"
    )


def test_the_default_plan_plays_its_last_deals_on_a_pal_machine() -> None:
    plan = Plan.default((GameDisk(Path("M.ATR"), 1), GameDisk(Path("M.ATR"), 2)))
    batches = plan.batches(jobs=2)
    pal = [
        deal
        for variant in (1, 2)
        for batch in batches
        if batch.tv == "pal" and batch.launch.variant == variant
        for deal in batch.deals
    ]
    assert [(d.deck_size, d.seed) for d in pal] == 2 * [
        *((deck, seed) for deck in range(48, 19, -4) for seed in (1, 2)),
        (52, 28079),
        (52, 28145),
        (52, 65535),
        (52, 65536),
        (20, 4),
        (20, 7),
        *((52, seed) for seed in (99999, 86, 101, 109, 90, 69)),
        (20, 8),
        (20, 15),
        (52, 2633),
    ]
    assert all(batch.tv is None for batch in batches if batch.deck == 52 and batch.seeds[0] == 1)
    # the PAL deals are the plan's last, with their extras from their places in it
    assert [d.extras for d in pal[:31]] == [d.extras for d in plan.deal_list()[-31:]]
    assert "H" in pal[30].extras  # 2633: a hint where the policy digs five deep
    assert [d.extras for d in pal[26:28]] == ["HK", "HUKE"]  # 90 and 69
    # those of 20 cards, won by play-all (P) with their last card from the discard
    # pile and from the stock
    assert all("P" in d.extras for d in pal[20:22])
    assert any("H" in d.extras for d in pal)  # a deal of many steps: its time counts
    # the last PAL deal run from H: with no disk: the game cannot read D1 for its record
    from_h = [(b.launch.variant, b.seeds) for b in batches if b.from_h]
    assert from_h == [(1, (2633,)), (2, (2633,))]
    assert all(
        b.tv == "pal" and not b.protected and not b.without_record for b in batches if b.from_h
    )
    assert {b.group for b in batches if b.from_h} == {"v1-h", "v2-h"}
    assert plan.describe().endswith(
        "2633 of 52 cards (the last deal from H:, no disk in the machine)"
    )


def test_first_divergence_of_a_cut_transcript() -> None:
    from machfsol.engine.autoplay import play
    from machfsol.engine.rules import Position, variant
    from machfsol.engine.transcript import Player, of_game

    text = of_game(play(Position.from_seed(3, variant(1))), seed=3, player=Player.AUTO)
    lines = text.splitlines(keepends=True)
    moves = lines.index("MOVES\n")
    cut = "".join(lines[: moves + 20]).encode().replace(b"\n", b"\x9b")
    assert first_divergence(cut, "T.TXT") is None
    assert first_divergence(cut + b"M S W 7", "T.TXT") is None  # a half-written line
    # The first move of the game replaced by a forced step: nothing is forced there.
    first_move = next(i for i in range(moves, len(lines)) if lines[i].startswith("M "))
    broken = "".join([*lines[:first_move], "F S T1 AS\n"]).encode().replace(b"\n", b"\x9b")
    message = first_divergence(broken, "T.TXT")
    assert message == f"T.TXT:{first_move + 1}: nothing is forced here, found 'F S T1 AS'"


#: A deal of MACHFSOL.2 that made a random deal (seed 4 of the list 1-4: N, and an even
#: number), as atari800 recorded it: the random deal's transcript and the deal's own.
RANDOM_DEAL = Path(__file__).parent / "fixtures" / "random_deal"


def _random_deal_case() -> tuple[Deal, list[Step], bytes, bytes]:
    deals = [scheduled_deal(52, 3, 2), scheduled_deal(52, 4, 3)]  # one boot's
    steps = list(expected_steps(2, deals))[1]
    own, drawn = (
        (RANDOM_DEAL / name).read_bytes().replace(b"\n", b"\x9b")
        for name in ("d52-seed4.txt", "d52-seed4-random.txt")
    )
    return deals[1], steps, own, drawn


def test_a_random_deal_is_judged_for_the_number_it_drew() -> None:
    deal, steps, own, drawn = _random_deal_case()
    assert "N" in deal.extras
    result = judge_transcript(2, deal, steps, own, None, "T4.TXT", earlier=[drawn])
    assert result.ok and result.drawn == 1434292770, result.error
    assert result.as_json()["random_deal"] == 1434292770
    # the deal's own transcript alone: its random deal's is missing
    alone = judge_transcript(2, deal, steps, own, None, "T4.TXT")
    assert (
        alone.error
        == "T4.TXT: 0 transcripts of random deals before it, the engine's player makes 1"
    )


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        # the number shown is not the deal laid out: its order is another deal's
        (
            b"SEED 1434292770",
            b"SEED 1434292771",
            "T3.TXT:7: card 1 of the order is 7S, deal 1434292771 has ",
        ),
        (b"SEED 1434292770", b"SEED 0", "T3.TXT:5: "),
        (b"DECK 52", b"DECK 48", "T3.TXT:7: 'TD' is not a card of the 48-card deck"),
        # a move made in the deal just laid out
        (b"F S  T8 6D", b"M S  W  6D", "T3.TXT:23: "),
        # its table's screen: the checksum of the random deal's step
        (
            b" 28425\x9b",
            b" 28426\x9b",
            "T3.TXT:28: screen 4 of 4, after N, RETURN: a random deal: ",
        ),
    ],
)
def test_a_wrong_random_deal_fails_the_deal(old: bytes, new: bytes, error: str) -> None:
    deal, steps, own, drawn = _random_deal_case()
    assert drawn.count(old) == 1
    result = judge_transcript(
        2, deal, steps, own, None, "T4.TXT", earlier=[drawn.replace(old, new)]
    )
    assert not result.ok and result.error is not None
    assert result.error.startswith(error.replace("T3.TXT", "T4.TXT (its random deal)")), (
        result.error
    )


def test_the_prompt_typed_over_a_random_deal_is_checked_for_it() -> None:
    """The deal's own transcript starts with the prompt's screens over the random
    deal's table: foreseen only with the number drawn."""
    deal, steps, own, drawn = _random_deal_case()
    lines = own.split(b"\x9b")
    first = next(i for i, line in enumerate(lines) if line.startswith(b"SCREEN "))
    values = lines[first].split()
    lines[first] = b" ".join([values[0], str(int(values[1]) ^ 1).encode(), *values[2:]])
    result = judge_transcript(2, deal, steps, b"\x9b".join(lines), None, "T4.TXT", earlier=[drawn])
    assert result.error is not None
    assert result.error.startswith(f"T4.TXT:{first + 1}: screen 1 of "), result.error
    assert "after the deal number's prompt, no digit typed: " in result.error


def test_a_boot_s_random_deals_must_not_all_draw_one_number() -> None:
    def drew(seed: int, number: int | None) -> DealResult:
        return DealResult(variant=1, deck=52, seed=seed, ok=True, drawn=number)

    same = (drew(4, 1), drew(5, None), drew(14, 1), drew(24, 1), drew(25, None))
    judged = _random_deals_vary(same)
    assert [r.ok for r in judged] == [True, True, True, False, True]
    assert judged[3].error == (
        "every random deal of this boot drew deal 1 (3 deals): RETURN alone at the deal "
        "number's prompt must choose one at random"
    )
    assert _random_deals_vary(same[:3]) == same[:3]  # two: not compared
    varied = (drew(4, 1), drew(14, 2), drew(24, 1))
    assert _random_deals_vary(varied) == varied


def test_program_launch_reads_listings_and_save_files(tmp_path: Path) -> None:
    listing = tmp_path / "P.LST"
    listing.write_text('10 PRINT "HI"\n', encoding="ascii")
    launch = program_launch(listing, 1)
    assert launch.program[:2] == b"\x00\x00"
    saved = tmp_path / "P.BAS"
    saved.write_bytes(launch.program)
    assert program_launch(saved, 1).program == launch.program
    broken = tmp_path / "B.LST"
    broken.write_text("10 PRINT (\n", encoding="ascii")
    # A program that cannot be tokenized is a bad argument (2), not a deal that differs (1).
    assert main(["verify", "--program", str(broken), "--variant", "1", "--seeds", "1"]) == 2


def test_a_program_needs_its_variant(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    listing = tmp_path / "P.LST"
    listing.write_text('10 PRINT "HI"\n', encoding="ascii")
    assert main(["verify", "--program", str(listing)]) == 2
    assert "say which game it plays (--variant 1 or 2)" in capsys.readouterr().err


# ------------------------------------------------------------------ in the emulator


def _json_run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    status = main(["verify", "--json", *args])
    out = capsys.readouterr().out
    return status, json.loads(out)  # exactly one JSON document, nothing else


@pytest.mark.emulator
def test_the_game_disk_passes_with_json_report(
    atari800: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = _json_run(capsys, "--seeds", "3,1-2", "--deck", "52,40")
    assert status == 0
    assert set(report) == {"ok", "tv", "jiffies_per_second", "roms", "results"}
    assert report["ok"] is True
    assert (report["tv"], report["jiffies_per_second"]) == ("ntsc", 60)
    assert report["roms"] == [
        "OS: AltirraOS (built-in)",
        "BASIC: Altirra BASIC 1.55 (built-in, CRC32 4D7C9A51)",
    ]
    results = report["results"]
    assert isinstance(results, list)
    assert [(r["variant"], r["deck"], r["seed"]) for r in results] == [
        (variant, deck, seed) for variant in (1, 2) for deck in (52, 40) for seed in (3, 1, 2)
    ]
    for result in results:
        assert set(result) >= {
            "variant", "deck", "seed", "ok", "result", "deal_jiffies", "game_jiffies"
        }  # fmt: skip
        assert result["ok"] is True and result["error"] is None
        assert result["transcript"] is None  # all passed: the scratch folder is gone
        assert result["result"] in ("WON", "LOST")
        assert isinstance(result["deal_jiffies"], int) and 0 < result["deal_jiffies"] < 600
        assert isinstance(result["game_jiffies"], int)
        assert result["game_jiffies"] > result["deal_jiffies"]


@pytest.mark.emulator
def test_text_report_and_progress(atari800: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--variant", "2", "--seeds", "5", "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # no progress bar when stderr is not a terminal
    assert re.search(r"^2 +52 +1 +1 +0 +[01] +\d+ \(\d+\.\d s\) +\d+ \(\d+\.\d s\)$", out, re.M)
    assert "1 of 1 deals verified" in out and out.rstrip().endswith("OK")


@pytest.mark.emulator
def test_a_save_file_given_as_the_program_passes(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a user does with a program saved on the Atari: ``SAVE "D:MY.BAS"``."""
    program = tmp_path / "MY.BAS"
    program.write_bytes(tokenize(generate(2)))
    status, report = _json_run(
        capsys, "--program", str(program), "--variant", "2", "--seeds", "4,9"
    )
    assert status == 0
    results = report["results"]
    assert isinstance(results, list)
    assert [(r["variant"], r["seed"], r["ok"]) for r in results] == [(2, 4, True), (2, 9, True)]


#: Deliberate changes to the generated listings: each makes the program play some deal
#: differently from the engine. (variant, a piece of the listing, what it becomes)
ALTERATIONS = {
    # rule 3a of the policy: rescue when the discard top is 1 away, not 2
    "policy-rescue-threshold": (1, "L9=2+(RC>1)", "L9=1+(RC>1)"),
    # rule 3b: look one card deeper under the discard top (two cards with one rescue)
    "policy-dig-one-deeper": (
        2,
        "IF RC>1 THEN IF WN>2 THEN IF WT(W(WN-2))",
        "IF RC>0 THEN IF WN>2 THEN IF WT(W(WN-2))",
    ),
    # rule 2: suits in the order D C H S instead of S H C D
    "policy-suit-order": (
        2,
        "S=0:K=PT(AN(0)):IF K<0 THEN S=1:K=PT(AN(1)):IF K<0 THEN S=2:K=PT(AN(2)):IF K<0 THEN "
        "S=3:K=PT(AN(3))",
        "S=3:K=PT(AN(3)):IF K<0 THEN S=2:K=PT(AN(2)):IF K<0 THEN S=1:K=PT(AN(1)):IF K<0 THEN "
        "S=0:K=PT(AN(0))",
    ),
    # the distance of a card (its Ace pile's part), off by one
    "distance-off-by-one": (1, "IF B-AN(S)<=L9 THEN", "IF B-AN(S)+1<=L9 THEN"),
    # the shuffle routine given the next seed (its low 16 bits one too many)
    "shuffle-seed-off-by-one": (2, "Y9=SE-H*65536:", "Y9=SE-H*65536+1:"),
    # forced step 3 of the rules: an empty space takes the stock's card before the discard's
    "fill-from-stock-first": (
        1,
        "IF WN THEN C=W(WN):SR=1:DS=I+2:",
        "IF WN AND P>N THEN C=W(WN):SR=1:DS=I+2:",
    ),
    # variant 1's King piles off by one: a card goes on the card two ranks above it
    "king-pile-two-ranks-down": (
        1,
        "X=USR(Q,BA+2202,N,1,1,6):X=USR(Q,BA+2520,N-1,0,1,6)",
        "X=USR(Q,BA+2202,N-1,2,1,6):X=USR(Q,BA+2526,N-2,0,1,6)",
    ),
}


def altered(variant: int, old: str, new: str) -> str:
    """The generated listing with ``old`` (found exactly once) replaced by ``new``."""
    listing = generate(variant)
    assert listing.count(old) == 1, f"update the test: the listing has {old!r} not once"
    return listing.replace(old, new)


def failed_deal(
    folder: Path, variant: int, old: str, new: str, deal: Deal, tv: TvSystem | None = None
) -> DealResult:
    """``deal`` played in one boot by the listing with ``old`` made ``new``
    (:func:`altered`), written to ``folder``: it must fail (its ``error`` is set)."""
    folder.mkdir(parents=True, exist_ok=True)
    listing = folder / "A.LST"
    listing.write_text(altered(variant, old, new), encoding="ascii")
    outcome = run_batch(Batch(program_launch(listing, variant), (deal,), tv), folder / "run")
    (result,) = outcome.results
    assert not result.ok and result.error is not None
    return result


def trapped_on_seed(folder: Path, variant: int, when: str, before: str, then: str) -> list[str]:
    """The one source, made to do ``then`` ``when`` (a BASIC condition) just before the
    first statement ``before`` of the test mode's player (the overlay's lines
    7200-7599), written to ``folder``; the ``verify`` arguments that play it (its
    MACHFSOL.<variant>, and its overlay, which the program ENTERs)."""
    lines = read_source().text.splitlines()
    assert not [line for line in lines if re.match(r"(#T )?3200[01] ", line)]
    found = [
        index
        for index, line in enumerate(lines)
        if re.match(r"#T 7[2-5]\d\d ", line) and before in line
    ]
    assert len(found) == 1, f"update the test: the test mode's player has {before!r} not once"
    lines[found[0]] = lines[found[0]].replace(before, f"GOSUB 32000:{before}", 1)
    lines += [f"#T 32000 IF {when} THEN {then}", "#T 32001 RETURN"]
    source = folder / "TRAPPED.BAS"
    source.write_text("\n".join(lines) + "\n", encoding="ascii")
    program = folder / "TRAPPED.LST"
    program.write_text(
        generate(variant, source=source.read_text(encoding="ascii")), encoding="ascii"
    )
    return ["--program", str(program), "--variant", str(variant), "--source", str(source)]


def hanging(folder: Path, variant: int, when: str, before: str) -> list[str]:
    """The source, made to loop for ever ``when`` (see trapped_on_seed)."""
    return trapped_on_seed(folder, variant, when, before, "32000")


@pytest.mark.emulator
@pytest.mark.parametrize("name", sorted(ALTERATIONS))
def test_an_altered_program_fails(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    variant, old, new = ALTERATIONS[name]
    program = tmp_path / "ALTERED.LST"
    program.write_text(altered(variant, old, new), encoding="ascii")
    keep = tmp_path / "keep"
    args = ["--program", str(program), "--variant", str(variant), "--seeds", "1-8"]
    args += ["--keep", str(keep)]
    assert main(["verify", *args]) == 1
    out = capsys.readouterr().out
    failed = re.findall(
        rf"^FAILED variant {variant}, deck 52, seed (\d+): (\S+seed\1\.txt):(\d+): (.*)$",
        out,
        re.M,
    )
    assert failed, out
    for seed, path, line, message in failed:
        assert re.search(r"expected|plays|deal|screen \d+ of \d+, after", message), message
        kept = Path(path).read_text(encoding="ascii").splitlines()
        assert 1 <= int(line) <= len(kept)  # the line named exists in the kept transcript
        # the deal asked for, unless keys typed into a game gone astray dealt no other
        # (a key the program took as something else): then the message says so
        assert f"SEED {seed}" in kept[:6] or "deal" in message, message
    assert out.rstrip().endswith("FAILED")


@pytest.mark.emulator
@pytest.mark.parametrize(
    ("extras", "error"),
    [
        # play-all: the program's own policy makes the move, the transcript shows it
        ("P", "the policy plays 'M T5 AS 2S', found 'M S W 6S'"),
        # a hint: the screen shows the program's policy's move
        ("H", "the message line shows 'HINT: DRAW (SPACE)', the engine's 'HINT: 2H T3 TO AH'"),
    ],
)
def test_the_failure_names_the_engine_expectation(
    atari800: str, tmp_path: Path, extras: str, error: str
) -> None:
    variant, old, new = ALTERATIONS["policy-rescue-threshold"]
    result = failed_deal(tmp_path, variant, old, new, Deal(52, 1, extras))
    assert result.error is not None
    # seed 1: the engine rescues a 2 from the tableau; the altered threshold draws.
    assert result.error.endswith(error), result.error


@pytest.mark.emulator
def test_stop_on_failure_ends_the_boot_at_the_first_failed_deal(
    atari800: str, tmp_path: Path
) -> None:
    """The mutation benchmark's quick verdict: the deals after a failed one are left
    over, not played (they would be, without stop_on_failure)."""
    variant, old, new = ALTERATIONS["policy-rescue-threshold"]
    listing = tmp_path / "A.LST"
    listing.write_text(altered(variant, old, new), encoding="ascii")
    deals = (Deal(52, 1, "P"), Deal(52, 2, "P"), Deal(52, 3, "P"))
    batch = Batch(program_launch(listing, 1), deals)
    outcome = run_batch(batch, tmp_path / "stop" / "run", stop_on_failure=True)
    assert [(r.seed, r.ok) for r in outcome.results] == [(1, False)]
    assert outcome.leftover == deals[1:]
    outcome = run_batch(batch, tmp_path / "all" / "run")
    assert [r.seed for r in outcome.results] == [1, 2, 3] and not outcome.leftover


@pytest.mark.emulator
def test_the_ten_digit_deal_shows_the_status_line_short_form(atari800: str, tmp_path: Path) -> None:
    """The default plan's ten-digit deal starts from a score of 9 of 999 (the S line
    sets it): MACHFSOL.2 wins it, and its screens then hold line 200's short form."""
    deal = scheduled_deal(52, 2147483646, 63)
    assert deal.score == (9, 999)
    listing = tmp_path / "MACHFSOL.2"
    listing.write_bytes(tokenize(generate(2)))
    outcome = run_batch(Batch(program_launch(listing, 2), (deal,)), tmp_path / "w" / "run")
    (result,) = outcome.results
    assert result.ok and result.outcome == "WON", result.error
    rows = [step.screen.text_lines()[1] for step in next(expected_steps(2, (deal,))) if step.screen]
    assert [row for row in rows if "2147483646" in row][0].rstrip() == (
        "DEAL 2147483646  52 CARDS  WON 9/999"
    )
    assert rows[-1].rstrip() == "DEAL 2147483646 52 CARDS WON 10/1000"


@pytest.mark.emulator
@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the clock's high byte read from the middle one's place (record_keeper.s's
        # "clock", LDA RTCLOK: its bytes in the listing's string)
        ("{$A5}{$12}", "{$A5}{$13}"),
        # the deal's start not noted (line 284): the time counted from an older start
        ("X=USR(RK,0,ADR(ST$)):RETURN", "X=0:RETURN"),
    ],
)
def test_the_time_shown_is_the_real_clock_read_as_a_player_s(
    atari800: str, tmp_path: Path, old: str, new: str
) -> None:
    """The test mode sets the real clock from its count of steps just before the game
    reads it (its bytes far apart), so the game's own reading of the clock counts."""
    result = failed_deal(tmp_path, 1, old, new, Deal(52, 1, "H"))
    assert result.error is not None
    # seed 1 ends at its 100th move, 204 steps after the deal: the end's screen differs
    # (its time and the record's best, far from the engine's: not named one by one)
    assert "screen 205 of 206, after move 100 (T8 AS): " in result.error


@pytest.mark.emulator
def test_the_error_handler_is_verified(atari800: str, tmp_path: Path) -> None:
    """Every twelfth deal, one with mistakes (E), has an error made in the game (X): its
    handler (line 9010) must show it and go on; one that shows another message fails
    at that step."""
    old, new = 'LN$="ERROR ":LN$(7)=', 'LN$="ERROR  ":LN$(8)='
    result = failed_deal(tmp_path, 1, old, new, Deal(52, 2, "EX"))
    assert result.error is not None
    assert re.search(r"screen \d+ of \d+, after an error in the game, shown: ", result.error)


@pytest.mark.emulator
@pytest.mark.parametrize(
    ("old", "new", "page"),
    [
        (
            '"I YOUR RECORD  ANY KEY: THE RULES"',
            '"I YOUR RECORD  ANY KEY: THE RULEZ"',
            "1 (its keys)",
        ),
        (
            '"PILE, ELSE THE STOCK. WIN: ALL UP."',
            '"PILE, ELSE THE STOCK. WIN: ALL UP!"',
            "2 (the rules)",
        ),
    ],
)
def test_each_help_page_is_checked(
    atari800: str, tmp_path: Path, old: str, new: str, page: str
) -> None:
    """The help's pages are screens the game waits on, with the next key typed
    already: the test mode records each as the game reaches it."""
    result = failed_deal(tmp_path, 1, old, new, Deal(52, 2, "E"))
    assert result.error is not None
    assert f"after the help, page {page}: " in result.error, result.error


@pytest.mark.emulator
def test_the_options_page_is_checked_before_each_key(atari800: str, tmp_path: Path) -> None:
    """O, D, D, S, RETURN typed at once: the options page is recorded before each key
    (the deck size and the style it shows so far)."""
    deal = Deal(44, 1, spanish=True)
    result = failed_deal(tmp_path, 1, '"D  DECK SIZE  "', '"D  DECK SIZE: "', deal)
    assert result.error is not None
    assert (
        "screen 2 of " in result.error and "after the options: 52 cards, French: " in result.error
    )


@pytest.mark.emulator
def test_a_random_deal_must_be_the_number_it_shows(atari800: str, tmp_path: Path) -> None:
    """N, RETURN: the transcript written then names the number drawn, and the deal laid
    out must be that number's (here the status line's number is left from the deal
    before: the split into two halves skipped)."""
    old = "(2147483640+6))+1:GOTO 8052"
    result = failed_deal(tmp_path, 1, old, old.replace("8052", "8053"), Deal(52, 2, "N"))
    assert result.error is not None
    assert re.match(r"\S+d52-seed2-random\.txt:\d+: card 1 of the order is ", result.error)


@pytest.mark.emulator
def test_random_deals_that_never_vary_fail(atari800: str, tmp_path: Path) -> None:
    """RND divided instead of multiplied: every random deal is deal 1, a valid deal
    each time; three of them in one boot fail the third."""
    listing = tmp_path / "A.LST"
    listing.write_text(
        altered(1, "RND(0)*(2147483640+6)", "RND(0)/(2147483640+6)"), encoding="ascii"
    )
    deals = tuple(Deal(52, seed, "N") for seed in (2, 4, 6))
    outcome = run_batch(Batch(program_launch(listing, 1), deals), tmp_path / "run")
    assert [(r.ok, r.drawn) for r in outcome.results] == [(True, 1), (True, 1), (False, 1)]
    assert "every random deal of this boot drew deal 1 (3 deals)" in str(outcome.results[2].error)


@pytest.mark.emulator
@pytest.mark.parametrize(
    ("old", "new", "shown"),
    [
        ('"(RETURN: RANDOM) "', '"(RETURN: RANDOM): "', "no digit typed"),
        # the cursor hidden: it shows once the first digit is echoed
        (':L$="":POKE 752,0', ':L$="":POKE 752,1', "2 typed"),
    ],
)
def test_the_deal_number_prompt_is_checked_before_each_key(
    atari800: str, tmp_path: Path, old: str, new: str, shown: str
) -> None:
    """N, the digits, RETURN typed at once: the prompt is recorded before each key."""
    result = failed_deal(tmp_path, 1, old, new, Deal(52, 23))
    assert result.error is not None
    assert f"after the deal number's prompt, {shown}: " in result.error, result.error


@pytest.mark.emulator
def test_a_pal_batch_runs_on_a_pal_machine(atari800: str, tmp_path: Path) -> None:
    """50 jiffies a second on PAL (record_keeper.s: LDA #50, its bytes in the listing's
    string): a program that counts 70 there passes on NTSC, and fails in a batch of the
    default plan's PAL boots."""
    old, new = "{$A9}{$32}", "{$A9}{$46}"
    deal = Deal(52, 5, "H")
    listing = tmp_path / "A.LST"
    listing.write_text(altered(2, old, new), encoding="ascii")
    outcome = run_batch(Batch(program_launch(listing, 2), (deal,)), tmp_path / "ntsc" / "run")
    assert [(r.ok, r.tv) for r in outcome.results] == [(True, None)]
    result = failed_deal(tmp_path / "pal", 2, old, new, deal, "pal")
    assert result.tv == "pal" and result.error is not None
    assert "the end shows TIME" in result.error


@pytest.mark.emulator
def test_a_wrong_question_fails_the_step_that_asks_it(atari800: str, tmp_path: Path) -> None:
    """The question for a card with two places (program line 222) is a screen the game
    waits on: the test mode records it, so a wrong one fails its deal there."""
    result = failed_deal(tmp_path, 2, '" TO A OR QWER?"', '" TO A OR QWER!"', Deal(52, 3))
    assert result.error is not None
    # seed 3 of MACHFSOL.2: the first card with two places is picked at move 46
    assert re.search(r"screen \d+ of \d+, after move 46 \(T7 AC\): the question: ", result.error)


@pytest.mark.emulator
@pytest.mark.parametrize(
    ("when", "before", "error"),
    [
        # deal 3 dealt, at its 6th step
        ("SE=3 AND NS=6", "NS=NS+1", "no transcript: not finished within 120 emulated seconds"),
        # deal 3 played, as its transcript is about to be written
        ("SE=3", "K9=K9+1", "no transcript: not finished within 120 emulated seconds"),
        # deal 3's transcript half written
        ("SE=3", 'PRINT #1;"RESULT', "the deal did not finish: not finished within 120"),
    ],
    ids=["in-the-deal", "before-the-transcript", "in-the-transcript"],
)
def test_a_hung_program_fails_on_time_and_the_other_seeds_still_run(
    atari800: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    when: str,
    before: str,
    error: str,
) -> None:
    hung = hanging(tmp_path, 1, when, before)
    status, report = _json_run(
        capsys, *hung, "--seeds", "1-5", "--deal-seconds", "120", "--jobs", "1"
    )
    assert status == 1 and report["ok"] is False
    results = report["results"]
    assert isinstance(results, list)
    assert [(r["seed"], r["ok"]) for r in results] == [
        (1, True), (2, True), (3, False), (4, True), (5, True)
    ]  # fmt: skip
    assert results[2]["error"].startswith(error)
    log = re.search(r"emulator log: (\S+)\)", results[2]["error"])
    assert log is not None and Path(log.group(1)).is_file()


@pytest.mark.emulator
def test_a_basic_error_in_a_deal_fails_that_deal(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Division by zero in deal 2, while it is played: the program's TRAP writes
    # "ERROR 11 AT 32000" in MFDONE.TXT and ends; deals 3 and 4 get a new boot.
    # (not at step 6: deal 2 makes its error in the game (X) there, which the game's
    # own handler, 9000, catches until the next step)
    trapped = trapped_on_seed(tmp_path, 2, "SE=2 AND NS=7", "NS=NS+1", "Z9=1/0")
    status, report = _json_run(capsys, *trapped, "--seeds", "1-4", "--jobs", "1")
    assert status == 1
    results = report["results"]
    assert isinstance(results, list)
    assert [(r["seed"], r["ok"]) for r in results] == [(1, True), (2, False), (3, True), (4, True)]
    assert results[1]["error"] == ("the program stopped: ERROR 11 AT 32000 (in MFDONE.TXT)")


@pytest.mark.emulator
def test_a_program_that_never_starts_a_deal_fails_fast(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "LOOP.LST"
    program.write_text("10 GOTO 10\n", encoding="ascii")
    status, report = _json_run(
        capsys, "--program", str(program), "--variant", "1", "--seeds", "1-5",
        "--deal-seconds", "2", "--jobs", "1",
    )  # fmt: skip
    assert status == 1
    results = report["results"]
    assert isinstance(results, list)
    assert [r["ok"] for r in results] == [False] * 5
    assert all("no transcript" in r["error"] for r in results[:3])
    assert all(r["error"].startswith("not run: the program stopped in 3") for r in results[3:])


def test_a_crashing_emulator_is_a_failure_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "atari800"
    fake.write_text("#!/bin/sh\necho 'segmentation fault (pretend)'\nexit 139\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("A8_ATARI800", str(fake))
    program = tmp_path / "P.LST"
    program.write_text('10 PRINT "HI"\n', encoding="ascii")
    args = ["--program", str(program), "--variant", "1", "--seeds", "1-2", "--keep", str(tmp_path)]
    assert main(["verify", *args]) == 1
    out = capsys.readouterr().out
    assert "FAILED variant 1, deck 52, seed 1: no transcript: the emulator exited" in out
    logs = list(tmp_path.glob("program-v1/boot-1.log"))
    assert logs and "segmentation fault (pretend)" in logs[0].read_text()


@pytest.mark.emulator
@pytest.mark.slow
def test_main_job_builds_the_disk_and_verifies_both_variants(
    atari800: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # outside a checkout the disk goes to ./MACHFSOL.ATR
    assert main_job(seeds=(1, 2)) == 0
    out = capsys.readouterr().out
    disk = tmp_path / "MACHFSOL.ATR"
    assert disk.is_file()
    assert "4 of 4 deals verified" in out
    assert out.rstrip().endswith(f"the game disk: {disk}")
    # The disk it leaves verifies again from a relative path.
    assert main(["verify", "--disk", "MACHFSOL.ATR", "--variant", "1", "--seeds", "3"]) == 0


def test_deal_result_json_has_the_documented_keys() -> None:
    result = DealResult(variant=1, deck=52, seed=1, ok=True, outcome="WON", deal_jiffies=3)
    data = result.as_json()
    assert list(data)[:9] == [
        "variant", "deck", "seed", "extras", "cards", "ok", "result", "on_foundations", "moves"
    ]  # fmt: skip
    assert (data["extras"], data["cards"], data["screens"]) == ("", "french", None)
    assert data["deal_jiffies"] == 3 and data["game_jiffies"] is None


@pytest.mark.emulator
def test_keyboard_game_in_the_json_report(
    atari800: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = _json_run(capsys, "--variant", "2", "--seeds", "1", "--keyboard")
    assert status == 0 and report["ok"] is True
    assert report["keyboard"] == [
        {
            "variant": 2,
            "seed": 277,
            "moves": 74,
            "typed_ahead": False,
            "ok": True,
            "differences": [],
        },
        {
            "variant": 2,
            "seed": 277,
            "moves": 74,
            "typed_ahead": True,
            "ok": True,
            "differences": [],
        },
    ]


def test_a_keep_folder_that_cannot_be_made_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "F"
    a_file.write_text("")
    assert main(["verify", "--seeds", "1", "--keep", str(a_file / "sub")]) == 2
    assert capsys.readouterr().err == (
        f"machfsol: --keep {a_file / 'sub'}: cannot make the folder: Not a directory\n"
    )


def test_a_bad_rom_file_is_a_bad_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rom = tmp_path / "os.rom"
    rom.write_bytes(bytes(1000))
    assert main(["verify", "--seeds", "1", "--os-rom", str(rom)]) == 2
    assert capsys.readouterr().err == (
        f"machfsol: {rom} (from --os-rom): 1000 bytes, an XL/XE OS ROM has 16384\n"
    )
    assert main(["verify", "--seeds", "1", "--basic-rom", str(tmp_path / "none.rom")]) == 2
    assert "none.rom (from --basic-rom): ROM file not found" in capsys.readouterr().err


@pytest.mark.emulator
def test_pal_and_your_own_roms(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The built-in ROMs dumped and given back as files, on a PAL machine."""
    shot = run(EmulatorOptions(), Script().wait(200).screenshot(str(tmp_path / "s.png")))
    basic = tmp_path / "basic.rom"
    basic.write_bytes(shot.screens[0].memory[0xA000:0xC000])
    args = ["verify", "--seeds", "1-2", "--variant", "2", "--tv", "pal", "--basic-rom", str(basic)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "XL PAL, OS AltirraOS (built-in), BASIC Altirra BASIC 1.55" in out.splitlines()[0]
    assert f"BASIC: Altirra BASIC 1.55 (CRC32 4D7C9A51), from {basic}: in the machine" in out
    assert "TV: PAL, a jiffy is 1/50 s" in out
    assert out.rstrip().endswith("OK")


def test_a_deal_has_longer_on_rom_images_of_your_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """machfsol verify and the mutation benchmark give a deal the same time: longer
    with an image of your own (given, or named by the environment), whose code is
    slower than the built-in ROMs'."""
    for name in ("A8_OS_ROM", "A8_800_OS_ROM", "A8_BASIC_ROM"):
        monkeypatch.delenv(name, raising=False)
    assert deal_seconds(resolve_roms(EmulatorOptions())) == DEAL_SECONDS
    basic = RomImage(RomKind.BASIC, bytes(8192), Path("~/roms/basic.rom"), "--basic-rom")
    assert deal_seconds(RomSet(None, basic)) == OWN_ROMS_DEAL_SECONDS > DEAL_SECONDS
