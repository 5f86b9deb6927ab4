"""``machfsol build --test-disk`` and ``machfsol verify --results`` without the emulator:
what the disk holds, its determinism, its resumable configuration, its refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a8.basic import tokenize
from a8.disk import recording
from a8.disk.atr import AtrImage
from a8.disk.check import check_disk
from a8.disk.dos2 import Dos2Disk
from a8.disk.dos2.geometry import mydos_geometry
from a8.disk.recorded import read_recording
from machfsol.atari.build import game_programs
from machfsol.atari.test_disk import PLAN_NAME, TestDiskError, TestDiskPlan, build_test_disk
from machfsol.atari.test_mode import EOL, config_text
from machfsol.atari.test_player import expected_steps
from machfsol.cli import main

SMALL = ["build", "--test-disk", "--seeds", "1-2"]


def built(tmp_path: Path, *args: str, name: str = "TEST.ATR") -> Path:
    path = tmp_path / name
    assert main([*SMALL, *args, "-o", str(path)]) == 0
    return path


def test_the_disk_holds_the_game_disks_programs_and_is_deterministic(tmp_path: Path) -> None:
    first = built(tmp_path, name="A.ATR")
    second = built(tmp_path, name="B.ATR")
    assert first.read_bytes() == second.read_bytes()
    disk = Dos2Disk(AtrImage.read(first))
    assert check_disk(disk) == []
    names = {str(entry.name) for entry in disk.files()}
    assert {"MACHFSOL.1", "MACHFSOL.2", "MFTEST1.CFG", "MFTEST2.CFG", "MFTEST.LST"} <= names
    assert {PLAN_NAME, "RECORDS.TXT", "RECSTATE.DAT", "RECORDER.SYS"} <= names
    programs = game_programs()
    for variant in (1, 2):  # byte for byte the game disk's programs
        assert disk.read_file(f"MACHFSOL.{variant}") == programs[variant]
    plan = TestDiskPlan.parse(disk.read_file(PLAN_NAME), PLAN_NAME)
    assert plan == TestDiskPlan((1, 2), ((52, (1, 2)),))
    recording = read_recording(disk.image)
    assert recording.records == () and recording.boots == () and not recording.finished


def test_one_variant_of_the_users_program(tmp_path: Path) -> None:
    listing = tmp_path / "MY1.LST"
    assert main(["listing", "1", "-o", str(listing)]) == 0
    path = built(tmp_path, "--program", str(listing), "--variant", "1", "--deck", "40")
    disk = Dos2Disk(AtrImage.read(path))
    assert disk.read_file("MACHFSOL.1") == tokenize(listing.read_bytes(), file=str(listing))
    assert "MACHFSOL.2" not in {str(entry.name) for entry in disk.files()}
    assert disk.read_file("MFTEST.CFG").startswith(b"MFTEST 5\x9bS 40 F U 001 ")
    plan = TestDiskPlan.parse(disk.read_file(PLAN_NAME), PLAN_NAME)
    assert plan == TestDiskPlan((1,), ((40, (1, 2)),))


@pytest.mark.parametrize("variant", [1, 2])
def test_every_deal_after_a_boot_types_the_keys_it_would_have(variant: int) -> None:
    """After a power cut the disk serves the configuration from its magic line, then
    from the deal after the last recorded: that tail, read by a fresh program, must be
    the configuration of those deals on their own: the player's mistakes take turns by
    the deal's own steps, not counting a boot's first table. Only the deals' S lines
    differ: they keep their numbers of the whole disk (deal k of n), which a tail on
    its own would count from 1."""
    plan = TestDiskPlan((variant,), ((52, tuple(range(1, 13))), (40, (1, 2)), (28, (3,))))
    deals = plan.deals()
    whole = config_text(deals, list(expected_steps(variant, deals, as_is=False))).split(EOL)
    starts = [i for i, line in enumerate(whole) if line.startswith(b"S ")]
    assert len(starts) == len(deals)
    for index, start in enumerate(starts):
        rest = deals[index:]
        alone = config_text(rest, list(expected_steps(variant, rest, as_is=False))).split(EOL)
        tail = whole[start:]
        assert alone[0] == whole[0] and len(alone) - 1 == len(tail), f"deal {index + 1}"
        for number, (resumed, own) in enumerate(zip(tail, alone[1:], strict=True)):
            if resumed.startswith(b"S "):
                deal_number = starts.index(start + number) + 1
                numbers = f" {deal_number:03d} {len(deals):03d}".encode()
                assert resumed == own[:-8] + numbers, f"deal {index + 1}, line {number}"
            else:
                assert resumed == own, f"deal {index + 1}, line {number}"


@settings(max_examples=50, deadline=None)
@given(
    variants=st.sampled_from([(1,), (2,), (1, 2), (2, 1)]),
    groups=st.lists(
        st.tuples(
            st.sampled_from(range(52, 19, -4)),
            st.lists(st.integers(1, 2**31 - 2), min_size=1, max_size=6, unique=True),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_the_plan_reads_back_as_written(
    variants: tuple[int, ...], groups: list[tuple[int, list[int]]]
) -> None:
    plan = TestDiskPlan(variants, tuple((deck, tuple(seeds)) for deck, seeds in groups))
    assert TestDiskPlan.parse(plan.text(), "plan") == plan


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (b"MACHFSOL TEST DISK 9\x9b", "line 1"),
        (b"MACHFSOL TEST DISK 1\x9bPROGRAM MACHFSOL.1 VARIANT 2\x9bEND\x9b", "plan:2"),
        (b"MACHFSOL TEST DISK 1\x9bPROGRAM MACHFSOL.1 VARIANT 1\x9bDECK 53 SEEDS 1\x9b", "3"),
        (b"MACHFSOL TEST DISK 1\x9bPROGRAM MACHFSOL.1 VARIANT 1", "no END"),
        (b"MACHFSOL TEST DISK 1\x9bEND\x9b", "no program"),
    ],
)
def test_a_plan_that_is_not_one_is_named(text: bytes, said: str) -> None:
    with pytest.raises(TestDiskError, match=said):
        TestDiskPlan.parse(text, "plan")


def test_a_disk_too_small_is_refused_with_the_sizes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sixty deals of one variant, with the builder kept to the DOS 2 densities (the
    MyDOS disks would hold them)."""
    monkeypatch.setattr(recording, "FORMATS", recording.FORMATS[:3])
    path = tmp_path / "TEST.ATR"
    args = ["build", "--test-disk", "--seeds", "1-60", "--variant", "1", "-o", str(path)]
    assert main(args) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error
    assert "too small" in error and "double density" in error and "needed" in error
    assert "MyDOS" not in error and "deals fit (variant 1: seeds 1-" in error
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_a_hundred_deals_of_each_variant_go_on_one_mydos_disk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "TEST.ATR"
    args = ["build", "--test-disk", "--seeds", "1-100", "--variant", "both", "-o", str(path)]
    assert main(args) == 0
    said = capsys.readouterr().out
    # (2880 sectors hold 99 since the games keep a record: benchmarks/test_disk_capacity.py)
    assert "variants 1 and 2: seeds 1-100 of 52 cards; MyDOS, 5760 sectors of 256 bytes" in said
    disk = Dos2Disk(AtrImage.read(path))
    assert disk.geometry == mydos_geometry(5760, 256) and check_disk(disk) == []
    plan = TestDiskPlan.parse(disk.read_file(PLAN_NAME), PLAN_NAME)
    assert plan == TestDiskPlan((1, 2), ((52, tuple(range(1, 101))),))
    assert main(["verify", "--results", str(path)]) == 1  # read back: nothing recorded yet
    out = capsys.readouterr().out
    assert "0 of 200 deals verified" in out and "not recorded: the disk has not been booted" in out


def test_what_fits_below_sector_1024_on_the_largest_disks() -> None:
    """The boot code reads the files it serves below sector 1024: a program that
    takes nearly all of them leaves room for the configuration of a few deals only,
    on every disk, however large."""
    plan = TestDiskPlan((1,), ((52, tuple(range(1, 21))),))
    programs = {1: bytes(960 * 253)}  # 960 sectors of 256 bytes
    with pytest.raises(TestDiskError) as raised:
        build_test_disk(programs, b"OVERLAY\x9b", plan, "T.ATR")
    message = str(raised.value)
    assert "MyDOS, 65535 sectors of 256 bytes (16383 KB): the programs and the files" in message
    fits = re.search(r"the first (\d+) deals fit \(variant 1: seeds 1-(\d+) of 52 cards\)", message)
    assert fits is not None and 0 < int(fits[1]) == int(fits[2]) < 20


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["build", "--seeds", "1-3"], "--seeds is for a test disk: add --test-disk"),
        (["build", "--variant", "1"], "--variant is for a test disk"),
        (["build", "--test-disk"], "--test-disk: say which deals it plays with --seeds"),
        (["build", "--test-disk", "--seeds", "3-1"], "--seeds"),
        (["build", "--test-disk", "--seeds", "1", "--deck", "53"], "53"),
        (["build", "--test-disk", "--seeds", "1", "--program", "X.LST"], "--variant 1 or 2"),
        (
            ["build", "--test-disk", "--seeds", "1", "--program", "NO.LST", "--variant", "1"],
            "NO.LST",
        ),
    ],
)
def test_bad_arguments_are_one_line_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    path = tmp_path / "TEST.ATR"
    assert main([*args, "-o", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and said in error, error
    assert list(tmp_path.iterdir()) == []


def test_a_disk_never_booted_has_every_deal_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = built(tmp_path)
    capsys.readouterr()
    assert main(["verify", "--results", str(path)]) == 1
    out = capsys.readouterr().out
    assert "no boot recorded" in out
    missing = "MISSING variant 1: seeds 1,2 of 52 cards: not recorded: the disk has not been booted"
    assert missing in out
    assert "0 of 4 deals verified" in out and out.rstrip().endswith("FAILED")


@pytest.mark.parametrize(
    ("extra", "said", "status"),
    [
        (["--seeds", "1"], "--seeds does not apply", 2),
        (["--keyboard"], "--keyboard does not apply", 2),
    ],
)
def test_results_refuses_what_does_not_apply(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    said: str,
    status: int,
) -> None:
    path = built(tmp_path)
    capsys.readouterr()
    assert main(["verify", "--results", str(path), *extra]) == status
    assert said in capsys.readouterr().err


def test_results_of_a_disk_that_is_no_test_disk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "GAME.ATR"
    assert main(["build", "-o", str(game)]) == 0
    capsys.readouterr()
    assert main(["verify", "--results", str(game)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "not a recording disk" in error
    assert main(["verify", "--results", str(tmp_path / "NONE.ATR")]) == 2
    assert "disk image not found" in capsys.readouterr().err


def test_a_disk_whose_player_typed_other_keys_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25: a disk made by a machfsol whose player types other keys failed every
    deal, each with its own mismatch. Here deal 2 of variant 2 types another key."""
    path = built(tmp_path)
    capsys.readouterr()
    disk = Dos2Disk(AtrImage.read(path))
    config = disk.read_file("MFTEST2.CFG")
    deal_2 = config.index(b"\x9bS 52 F U 002 ")
    keys = config.index(b"\x9bK ", deal_2) + 3  # the first key a step of deal 2 types
    other = b"X" if config[keys : keys + 1] != b"X" else b"Y"
    offset = 0
    for sector, link in disk.chain(disk.find("MFTEST2.CFG")):  # the byte, in place
        if offset <= keys < offset + link.bytes_used:
            data = bytearray(disk.image.read_sector(sector))
            data[keys - offset : keys - offset + 1] = other
            disk.image.write_sector(sector, bytes(data))
        offset += link.bytes_used
    assert disk.read_file("MFTEST2.CFG") != config
    path.write_bytes(disk.image.to_bytes())
    assert main(["verify", "--results", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err == (
        f"machfsol: {path}: made by another version of machfsol: the keys its MFTEST2.CFG "
        "types in variant 2's deal 2 (seed 2 of 52 cards) are not this version's; build the "
        "disk again with this version (machfsol build --test-disk) and play it, or check it "
        "with the version that made it\n"
    )
