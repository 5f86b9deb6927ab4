"""Fuzzing the transcript parser and checker (``machfsol check``) on a fixed seed.

Damaged transcripts (real ones written by the autoplayer and by the Atari
programs, with bit flips, edge bytes, cuts, splices) must each end in a report or
a one-line error, never a traceback; ``benchmarks/fuzz.py`` runs the long version.
"""

from __future__ import annotations

from pathlib import Path

from machfsol.engine.autoplay import play
from machfsol.engine.checker import check_bytes
from machfsol.engine.rules import Position, variant
from machfsol.engine.transcript import Player, of_game
from machfsol.errors import MachfsolError
from tests.fuzz import fuzz

FIXTURES = Path(__file__).parent / "fixtures"


def transcript_seeds() -> list[bytes]:
    """Autoplayed games (both variants, three deck sizes) with timing lines, and the blog game."""
    seeds = []
    for number, size, seed in [(1, 52, 3), (2, 40, 7), (1, 20, 11), (2, 52, 5)]:
        game = play(Position.from_seed(seed, variant(number), size))
        text = of_game(game, seed=seed, player=Player.AUTO)
        lines = text.splitlines()
        lines.insert(1, "JIFFIES DEAL 812")
        lines.append("JIFFIES GAME 12345")
        seeds.append(("\n".join(lines) + "\n").encode("ascii"))
        seeds.append(b"\x9b".join(line.encode("ascii") for line in lines) + b"\x9b")
    seeds.append((FIXTURES / "blog_game1.transcript").read_bytes())
    return seeds


def check(data: bytes) -> None:
    check_bytes(data, "FUZZ.TXT").summary()


def test_transcript_parser_and_checker() -> None:
    seeds = transcript_seeds()
    report = fuzz("transcript", check, seeds, 2000, seed=13, expected=(MachfsolError,))
    assert report.tried == 2000 + len(seeds)
    assert report.accepted and report.refused, report.line()
    assert report.tracebacks == 0, [f"{c.error} at {c.where}" for c in report.crashes]
