"""MACHFSOL.1 and MACHFSOL.2 really run in atari800: their test mode autoplays deals and
every transcript they write must pass the engine's checker (same deal, same forced steps,
the policy's moves, the right result)."""

from __future__ import annotations

import pytest

from machfsol.atari_test_mode import Deal, run_deals, run_test_mode
from machfsol.checker import check_bytes
from machfsol.deal import deal
from machfsol.transcript import parse

SEEDS = tuple(range(1, 11))


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("deck_size", [52, 40])
@pytest.mark.parametrize("variant", [1, 2])
def test_atari_transcripts_pass_the_checker(atari800: str, variant: int, deck_size: int) -> None:
    run = run_test_mode(variant, deck_size, SEEDS)
    assert len(run.transcripts) == len(SEEDS)
    for seed, data in zip(SEEDS, run.transcripts, strict=True):
        report = check_bytes(data, f"MACHFSOL.{variant} seed {seed}")
        assert (report.variant, report.deck_size, report.seed) == (variant, deck_size, seed)
        transcript = parse(data)
        assert transcript.program == f"MACHFSOL.{variant} ATARI"
        assert transcript.order == deal(seed, deck_size)
        timings = dict(transcript.jiffies)
        assert {"SHUFFLE", "DEAL", "GAME"} <= timings.keys()
        assert 0 < timings["SHUFFLE"] <= timings["DEAL"] <= timings["GAME"]
    assert run.free_bytes > 4096


@pytest.mark.emulator
@pytest.mark.slow
def test_deals_of_every_deck_size_match_the_engine(atari800: str) -> None:
    """The exact-integer shuffle at every other deck size, with extreme seeds."""
    seeds = (1, 2147483646, 127773, 16807, 1043618065)
    deals = [Deal(size, seed) for size in (48, 44, 36, 32, 28, 24, 20) for seed in seeds[:2]]
    deals += [Deal(48, seed) for seed in seeds[2:]]
    run = run_deals(2, deals)
    for item, data in zip(deals, run.transcripts, strict=True):
        report = check_bytes(data, f"deck {item.deck_size} seed {item.seed}")
        assert (report.deck_size, report.seed) == (item.deck_size, item.seed)
