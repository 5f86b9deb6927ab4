"""The recording disk in atari800, with no H: device given to the machine at all.

Every run here has ``host_devices=False``: no ``-H1`` folder on atari800's command
line, its own H: and P: patches off (tests/a8/emu/atari800/test_command.py), and
the machine says so itself: the handler table it records at boot, before the
disk's H: joins, holds only P: C: E: S: K:. Whatever the programs read from H:
and write to it goes through the disk's 6502 handler and SIO, and what they wrote
is read back from the ATR atari800 wrote into, as from a real drive.

The built-in ROMs (AltirraOS, Altirra BASIC 1.55) run here. One test runs with
atari800's real serial timing (``-nopatch``), on the built-in ROMs or on your own
(A8_TEST_OS_ROM, A8_TEST_BASIC_ROM): nothing in the OS is patched then, and the
machine's checks must equal your files'.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from a8.cli import main
from a8.disk.atr import AtrImage
from a8.disk.check import check_disk
from a8.disk.dos2 import Density, Dos2Disk
from a8.disk.dos2.geometry import mydos_geometry
from a8.disk.machine_record import rom_check
from a8.disk.recorded import Recording, read_recording, read_recording_file
from a8.disk.recording import (
    RECORDS_NAME,
    SYSTEM_ADDRESS,
    RecordingDisk,
    RecordingProgram,
    RecordSpace,
    ServedFile,
    build_recording_disk,
)
from a8.emu.emulator import EmulatorOptions, RunResult, run
from a8.emu.script import Script
from tests.a8.disk.recording_programs import (
    JOBS_SPACE,
    ModelRecord,
    expected_records,
    jobs_programs,
    model_records,
    program,
)

pytestmark = pytest.mark.emulator

BARE = EmulatorOptions(host_devices=False)
#: The whole run: both programs end, and BASIC asks for a line once more (the state
#: then moves past the last program).
TO_THE_END = Script().wait_for_text("TWO DONE", 3600).wait(60)


def disk_at(path: Path, built: RecordingDisk | None = None) -> RecordingDisk:
    built = built or build_recording_disk(jobs_programs(), JOBS_SPACE, source=str(path))
    path.write_bytes(built.atr)
    return built


def boot(path: Path, script: Script, options: EmulatorOptions = BARE) -> RunResult:
    return run(replace(options, disk=path), script)


def records(recording: Recording) -> list[tuple[int, str, bytes]]:
    return [(record.program, record.name, record.data) for record in recording.records]


def screen_text(result: RunResult) -> str:
    """The screen's text, its lines joined as BASIC wraps them (columns 2-39)."""
    return "".join(line[2:40] for line in result.screens[-1].text_lines())


def clean(path: Path) -> bool:
    return check_disk(Dos2Disk(AtrImage.read(path))) == []


def test_two_programs_record_everything_on_the_disk(atari800: str, tmp_path: Path) -> None:
    path = tmp_path / "TEST.ATR"
    built = disk_at(path)
    result = boot(path, TO_THE_END.screenshot(str(tmp_path / "end.png")))
    assert result.ok and "-H1" not in result.command
    assert "JOBS DONE" in screen_text(result) and "TWO DONE" in screen_text(result)
    recording = read_recording_file(path)
    assert records(recording) == expected_records()
    assert recording.finished and recording.state.boots == 1
    assert clean(path)
    [first] = recording.boots
    machine = first.machine
    assert first.first_record == 0 and machine.boot == 1 and machine.program == 1
    assert machine.devices == "PCESK"  # no H: in the machine before the disk's own
    assert machine.os_name == "AltirraOS" and machine.basic_name == "Altirra BASIC 1.55"
    assert machine.tv == "NTSC" and machine.memlo == built.memlo
    memory = result.screens[-1].memory  # the ROMs as the CPU saw them, patches and all
    assert machine.os_checks == (rom_check(memory[0xC000:0xD000]), rom_check(memory[0xD800:]))
    assert machine.basic_check == rom_check(memory[0xA000:0xC000])
    assert memory[0x02E7] | memory[0x02E8] << 8 == built.memlo  # MEMLO, as BASIC took it


def test_a_run_cut_in_a_record_resumes_after_the_last_one(atari800: str, tmp_path: Path) -> None:
    path = tmp_path / "TEST.ATR"
    disk_at(path)
    # the S job has written 3 sectors and waits before its CLOSE: stop the machine there
    cut = boot(path, Script().wait_for_text("WAITING", 3600).wait(30))
    assert cut.ok
    assert clean(path)
    recording = read_recording_file(path)
    assert records(recording) == expected_records()[:2]  # A and B, committed
    disk = Dos2Disk(AtrImage.read(path))
    config = disk.chain(disk.find("JOBS.CFG"))[0][0]
    assert recording.state.positions[0] == (config, len(b"JOBS 1\x9bA 3\x9bB 40\x9b"))
    started = disk.image.read_sector(recording.state.next_sector)
    assert started.startswith(b"JOB S 30 NOTE FOR JOBS\x9b")  # S's first sector was written
    # booted again: line 1 of the configuration, then on from after "B 40"
    again = boot(path, TO_THE_END.screenshot(str(tmp_path / "again.png")))
    assert again.ok
    assert "WRITING A" not in screen_text(again) and "WRITING S 30" in screen_text(again)
    recording = read_recording_file(path)
    assert records(recording) == expected_records()  # nothing lost, nothing twice
    assert [(b.machine.boot, b.first_record, b.number) for b in recording.boots] == [
        (1, 0, 1),
        (2, 2, 4),
    ]
    assert recording.finished and clean(path)


def test_a_write_protected_disk_says_so_and_is_not_written(atari800: str, tmp_path: Path) -> None:
    path = tmp_path / "TEST.ATR"
    atr = bytearray(disk_at(path).atr)
    atr[15] = 1  # the ATR's write-protect flag: atari800's drive refuses every write
    path.write_bytes(atr)
    result = boot(path, Script().wait(900).screenshot(str(tmp_path / "wp.png")))
    text = screen_text(result)
    assert "THE DISK IS WRITE-PROTECTED. WHAT IS RECORDED IS KEPT:" in text
    assert "JOBS:" not in text  # no program ran
    assert path.read_bytes() == atr


def test_a_full_record_file_says_so_and_keeps_what_fits(atari800: str, tmp_path: Path) -> None:
    probe = build_recording_disk(jobs_programs(), JOBS_SPACE)
    big = bytes((probe.record_sectors - 6) * 125)  # 6 sectors left for records
    built = build_recording_disk(jobs_programs(big=big), RecordSpace(0, 0, boots=1))
    assert built.record_sectors == 6
    path = tmp_path / "FULL.ATR"
    disk_at(path, built)
    result = boot(path, Script().wait(1200).screenshot(str(tmp_path / "full.png")))
    text = screen_text(result)
    assert "THE RECORD FILE ON THIS DISK IS FULL. WHAT IS RECORDED IS KEPT." in text
    recording = read_recording_file(path)
    assert records(recording) == expected_records()[:1]  # the machine record, 4 sectors, and A
    assert not recording.finished and clean(path)


def test_a_finished_disk_booted_again_writes_nothing(atari800: str, tmp_path: Path) -> None:
    path = tmp_path / "TEST.ATR"
    disk_at(path)
    assert boot(path, TO_THE_END).ok
    done = path.read_bytes()
    result = boot(path, Script().wait(600).screenshot(str(tmp_path / "done.png")))
    assert "ALL PROGRAMS ON THIS DISK HAVE RUN: THEIR RECORDS ARE ON IT." in screen_text(result)
    assert path.read_bytes() == done


def first_record_sector(built: RecordingDisk) -> int:
    return read_recording(AtrImage.from_bytes(built.atr, "probe")).state.next_sector


@pytest.mark.parametrize(
    ("density", "start"),
    [(Density.SINGLE, 357), (Density.ENHANCED, 717), (Density.DOUBLE, 358)],
)
def test_records_across_the_gaps_in_every_density(
    atari800: str, tmp_path: Path, density: Density, start: int
) -> None:
    """RECORDS.TXT starts a few sectors before the VTOC and directory (or DOS 2.5's
    sector 720): the machine record runs across the gap, and so does the run."""
    probe = build_recording_disk(jobs_programs(), JOBS_SPACE, density=density)
    disk = Dos2Disk(AtrImage.from_bytes(probe.atr, "probe"))
    sectors = [sector for sector, _ in disk.chain(disk.find(RECORDS_NAME))]
    big = bytes(sectors.index(start) * disk.geometry.data_bytes)  # the sectors up to start
    built = build_recording_disk(jobs_programs(big=big), JOBS_SPACE, density=density)
    assert first_record_sector(built) == start
    path = tmp_path / "GAPS.ATR"
    disk_at(path, built)
    assert boot(path, TO_THE_END).ok
    recording = read_recording_file(path)
    assert records(recording) == expected_records() and recording.finished
    assert clean(path)


def test_the_layouts_that_stopped_at_boot_run(atari800: str, tmp_path: Path) -> None:
    """Five disks whose MEMLO steps a byte at a time over $12C1, the disk of issue 25
    (MEMLO - $0880, where RECORDER.SYS is read to, a multiple of a sector's 125 data
    bytes). The boot code then kept its sector number a fixed distance below MEMLO,
    among the bytes it loaded: on the middle three it met a sector's link and the
    load stood still. Each must now record its boot and its program's record (the
    tables grow a byte a character of the program's name, 16 bytes a served file)."""
    note = ServedFile("NOTE.TXT", b"FOR TWO\x9b")
    spare = tuple(ServedFile(f"SPARE{i}.TXT", b"X\x9b") for i in range(2))
    names = ["TWOTWOTW", "TWOTWOT.B", "TWOTWOTW.B", "TWOTWOTW.BA", "TWOTWOTW.BAS"]
    disks = [
        build_recording_disk(
            [RecordingProgram(name, program("two.lst"), (note, *spare))],
            RecordSpace(1, 100, boots=1),
        )
        for name in names
    ]
    edge = disks[2].memlo
    assert (edge - SYSTEM_ADDRESS) % 125 == 0
    assert [built.memlo for built in disks] == list(range(edge - 2, edge + 3))
    for number, built in enumerate(disks):
        path = tmp_path / f"EDGE{number}.ATR"
        disk_at(path, built)
        result = boot(path, Script().wait_for_text("TWO DONE", 1800).wait(60))
        assert result.ok, f"MEMLO ${built.memlo:04X}: {result.reason}"
        recording = read_recording_file(path)
        assert records(recording) == [(1, "OUT.TXT", b"TWO NOTE FOR TWO\x9b")]
        assert recording.boots[0].machine.memlo == built.memlo and clean(path)


@pytest.mark.parametrize("sio_patch", [True, False], ids=["sio-patch", "nopatch"])
def test_a_large_mydos_disk_records_past_sector_1023(
    atari800: str, tmp_path: Path, sio_patch: bool
) -> None:
    """A MyDOS disk of 1440 sectors of 256 bytes, 16-bit links: an earlier boot's
    record (written here by the format's model) fills RECORDS.TXT up to sector 1019,
    so everything this run writes, its machine record first, goes to sectors 1020
    and up, across 1023/1024, where 10-bit links end. With ``-nopatch`` the
    sectors go through atari800's emulated drive and the OS's own serial I/O."""
    built = build_recording_disk(jobs_programs(), JOBS_SPACE, density=mydos_geometry(1440, 256))
    disk = Dos2Disk(AtrImage.from_bytes(built.atr, "probe"))
    sectors = [sector for sector, _ in disk.chain(disk.find(RECORDS_NAME))]
    start = sectors.index(1020)
    earlier = ModelRecord(1, "EARLIER.TXT", b"E" * (start * 253 - 32))  # takes them exactly
    path = tmp_path / "LARGE.ATR"
    path.write_bytes(model_records(built.atr, [earlier]))
    assert clean(path) and read_recording_file(path).state.next_sector == 1020
    options = EmulatorOptions(host_devices=False, sio_patch=sio_patch)
    result = boot(path, Script().wait_for_text("TWO DONE", 12000).wait(120), options)
    assert result.ok
    recording = read_recording_file(path)
    assert records(recording) == [(1, "EARLIER.TXT", earlier.data), *expected_records()]
    assert recording.finished and [boot.number for boot in recording.boots] == [2]
    last = sectors[recording.used_sectors - 1]
    assert last > 1024  # the run's records reach past sector 1023
    image = AtrImage.read(path)
    assert image.read_sector(1023)[253:] == bytes([1024 >> 8, 1024 & 0xFF, 253])
    assert image.read_sector(1020).startswith(b"MACHINE 1\x9bBOOT 01")  # this run's first
    assert clean(path)


def test_a8_emu_run_leaves_what_the_atari_wrote_in_the_disk(
    atari800: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "TEST.ATR"
    disk_at(path)
    assert main(["emu", "run", str(path), "--frames", "2400", "--no-host-devices"]) == 0
    assert "ended: script-end" in capsys.readouterr().out
    recording = read_recording_file(path)
    assert records(recording) == expected_records() and recording.finished


def test_with_real_serial_timing_on_the_roms_given(atari800: str, tmp_path: Path) -> None:
    """With ``-nopatch`` nothing in the OS is patched: the machine's checks are those
    of the ROMs it runs, the built-in ones (as the CPU saw them) or your own files
    (A8_TEST_OS_ROM, A8_TEST_BASIC_ROM), which the record then confirms."""
    os_name, basic_name = os.environ.get("A8_TEST_OS_ROM"), os.environ.get("A8_TEST_BASIC_ROM")
    os_rom = Path(os_name) if os_name else None
    basic_rom = Path(basic_name) if basic_name else None
    options = EmulatorOptions(
        host_devices=False, sio_patch=False, os_rom=os_rom, basic_rom=basic_rom
    )
    path = tmp_path / "TEST.ATR"
    disk_at(path)
    script = Script().wait_for_text("TWO DONE", 12000).wait(120)
    result = boot(path, script.screenshot(str(tmp_path / "end.png")), options)
    assert result.ok and "-nopatch" in result.command
    recording = read_recording_file(path)
    assert records(recording) == expected_records() and recording.finished
    machine = recording.boots[0].machine
    memory = result.screens[-1].memory
    assert machine.os_checks == (rom_check(memory[0xC000:0xD000]), rom_check(memory[0xD800:]))
    assert machine.basic_check == rom_check(memory[0xA000:0xC000])
    if os_rom is not None:
        assert machine.os_matches(os_rom.read_bytes())  # nothing patched: the file's checks
    if basic_rom is not None:
        assert machine.basic_matches(basic_rom.read_bytes())
    assert clean(path)
