"""Fuzzing a8's parsers on a fixed seed: listing, tokenized program (.BAS), ATR image,
emulator script; and the command lines of ``a8`` and ``machfsol``.

Each sample is the same every run (fixed seeds), large enough to reach damaged
headers, chains, directories and statements, and small enough for CI (a few
seconds each); ``benchmarks/fuzz.py`` runs the long version. Every input must end
in a result or a one-line error (:class:`~a8.errors.A8Error`), never a traceback.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from a8.basic import tokenize
from a8.disk.dos2 import Density, Dos2Disk
from a8.errors import A8Error
from tests.fuzz import (
    FuzzReport,
    atr_regions,
    atr_target,
    fuzz,
    listing_target,
    program_target,
    scan,
    script_target,
)

TESTS = Path(__file__).parent
SCRIPTS = TESTS.parents[1] / "emu_scripts"
LISTINGS = sorted((TESTS / "basic" / "fixtures" / "corpus").glob("*.lst"))
DISKS = sorted((TESTS / "disk" / "corpus").glob("*.atr.gz"))
DOS3_DISKS = sorted((TESTS / "disk" / "fixtures").glob("dos3-*.atr.gz"))


#: Issue 28's reproducers among the parsers' inputs: files that are no listing (a SAVE
#: file, a PNG), a line whose listing LIST breaks in two (ESC), many bad lines.
LISTING_FINDINGS = [
    tokenize("10 PRINT 1\n"),
    b"\x89PNG\r\n\x1a\n" + bytes(64),
    "10 PRINT L\u241b.X\n".encode(),
    b"".join(b"%d GOTO\n" % n for n in range(1, 30)),
]


def listing_seeds() -> list[bytes]:
    """The corpus listings cut into pieces of five lines (a damaged piece is one
    statement), and issue 28's reproducers."""
    pieces = []
    for path in LISTINGS:
        lines = path.read_bytes().splitlines(keepends=True)
        pieces += [b"".join(lines[i : i + 5]) for i in range(0, len(lines), 5)]
    return pieces + LISTING_FINDINGS


def disk_seeds() -> list[bytes]:
    """The corpus disks up to 130K, the DOS 3 disks of tests/a8/disk/fixtures, and new
    disks of each density with files."""
    seeds = [gzip.decompress(path.read_bytes()) for path in DISKS + DOS3_DISKS]
    seeds = [data for data in seeds if len(data) <= 133136]
    for density in Density:
        disk = Dos2Disk.new(density)
        disk.add_file("ONE.BAS", bytes(range(256)) * 3)
        disk.add_file("TWO.DAT", b"two")
        seeds.append(disk.to_bytes())
    # Issue 28: a header declaring more sectors than any disk holds (268 MB).
    claims = bytearray(seeds[-1])
    claims[2:4], claims[6] = b"\xff\xff", 0xFF
    seeds.append(bytes(claims))
    return seeds


def script_seeds() -> list[bytes]:
    """The example scripts, every command of the format, and issue 28's reproducers
    (a wait of a trillion frames, control characters where names go)."""
    seeds = [path.read_bytes() for path in sorted(SCRIPTS.glob("*.txt"))]
    seeds.append(
        b'wait 150\ntype "10 PRINT 1" RETURN\nkey RETURN\nhold START 30\n'
        b'wait-file DONE.TXT 6000\nwait-text "Ready" 600\nwait-input 3000\n'
        b"screenshot out.png\n"
    )
    seeds += [
        b"wait 999999999999\n",
        b"hold START 5184000\nkey A\n",
        b"key \x1b[2JRED\n",
        b'screenshot "\x1b[2J.png"\n',
    ]
    return seeds


def assert_no_tracebacks(report: FuzzReport, tried: int) -> None:
    assert report.tried == tried
    assert report.accepted and report.refused, report.line()  # both paths were exercised
    found = [f"{c.error} at {c.where} (round {c.round})" for c in report.crashes]
    assert report.tracebacks == 0, found


def test_listing_parser() -> None:
    seeds = listing_seeds()
    report = fuzz("listing", listing_target, seeds, 1500, seed=13, expected=(A8Error,))
    assert_no_tracebacks(report, 1500 + len(seeds))


def test_program_parser() -> None:
    seeds = [tokenize(path.read_bytes(), file=path.name) for path in LISTINGS]
    report = fuzz("BAS", program_target, seeds, 3000, seed=13, expected=(A8Error,))
    assert_no_tracebacks(report, 3000 + len(seeds))


def test_script_parser() -> None:
    seeds = script_seeds()
    report = fuzz("script", script_target, seeds, 1500, seed=13, expected=(A8Error,))
    assert_no_tracebacks(report, 1500 + len(seeds))


def test_atr_parser() -> None:
    seeds = disk_seeds()
    report = fuzz("ATR", atr_target, seeds, 400, seed=13, expected=(A8Error,), regions=atr_regions)
    assert_no_tracebacks(report, 400 + len(seeds))


def test_atr_byte_scan_of_the_file_system_sectors() -> None:
    """Header, VTOC, first directory sector of a DOS 2.0S disk: each byte to each edge value."""
    disk = Dos2Disk.new()
    disk.add_file("ONE.BAS", bytes(range(256)) * 3)
    data = disk.to_bytes()
    vtoc = 16 + 359 * 128
    positions = [*range(16), *range(vtoc, vtoc + 16), *range(vtoc + 128, vtoc + 128 + 32)]
    report = scan("ATR scan", atr_target, data, positions, expected=(A8Error,))
    assert report.tracebacks == 0, [c.error for c in report.crashes]
    assert report.tried > 400


def test_atr_byte_scan_of_a_spartados_x_superblock() -> None:
    """Every byte of sector 1 of a SpartaDOS X disk to every edge value (the long run
    found struct.errors here: bytes 35-36 were trusted as a map length)."""
    data = gzip.decompress((TESTS / "disk" / "corpus" / "sdx-fa-sd.atr.gz").read_bytes())
    report = scan("SDX scan", atr_target, data, range(16, 16 + 128), expected=(A8Error,))
    assert report.tracebacks == 0, [c.error for c in report.crashes]
    assert report.tried > 900


def test_a_traceback_is_counted_and_kept() -> None:
    """The harness itself: an unexpected exception is a finding, with what reproduces it."""

    def fragile(data: bytes) -> None:
        if data[:1] == b"\xff":
            raise IndexError("boom")
        if not data:
            raise A8Error("empty")

    report = fuzz("fragile", fragile, [b"\x00abc"], 500, seed=1, expected=(A8Error,))
    assert report.tracebacks > 0 and report.crashes[0].error == "IndexError: boom"
    assert report.crashes[0].data[:1] == b"\xff"
    again = fuzz("fragile", fragile, [b"\x00abc"], 500, seed=1, expected=(A8Error,))
    assert again.crashes[0].data == report.crashes[0].data  # the seed reproduces it


@pytest.mark.parametrize("density", list(Density), ids=lambda d: d.value)
def test_regions_point_into_the_image(density: Density) -> None:
    data = Dos2Disk.new(density).to_bytes()
    assert all(span.start < len(data) for span in atr_regions(data)[:13])
