"""The recording disk without the emulator: its layout, the build's refusals, the state
and record formats read back (round trips against the format's model), the reader's
refusals of damaged and foreign disks, and the machine record's naming and checks.

What the Atari itself writes is read back in test_recording_emulator.py (atari800)
and test_recording_6502.py (the 6502 code in a simulator).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a8.disk.atr import AtrImage
from a8.disk.check import check_disk
from a8.disk.dos2 import Density, Dos2Disk, Flag
from a8.disk.dos2.geometry import mydos_geometry
from a8.disk.machine_record import MachineRecord, MachineRecordError, rom_check
from a8.disk.recorded import read_recording
from a8.disk.recording import (
    BOOT_BYTES,
    FORMATS,
    LARGE_SECTOR_COUNTS,
    MACHINE_RECORD_MAX,
    RECORDS_NAME,
    STATE_NAME,
    SYSTEM_NAME,
    RecordingError,
    RecordingProgram,
    RecordSpace,
    RunState,
    ServedFile,
    build_recording_disk,
)
from tests.a8.disk.recording_programs import (
    JOBS_SPACE,
    ModelRecord,
    jobs_programs,
    model_records,
    program,
)


def image(atr: bytes) -> AtrImage:
    return AtrImage.from_bytes(atr, "TEST.ATR")


@pytest.fixture(scope="module")
def jobs_disk() -> bytes:
    return build_recording_disk(jobs_programs(), JOBS_SPACE, source="TEST.ATR").atr


# --- the disk as built -----------------------------------------------------------------


def test_layout_is_an_ordinary_dos2_disk(jobs_disk: bytes) -> None:
    disk = Dos2Disk(image(jobs_disk))
    assert check_disk(disk) == []
    names = [str(entry.name) for entry in disk.files()]
    assert names == [
        SYSTEM_NAME,
        STATE_NAME,
        "JOBS.BAS",
        "TWO.BAS",
        "JOBS.CFG",
        "WORK.LST",
        "NOTE1.TXT",  # served to both under one name, with other bytes
        "NOTE2.TXT",
        RECORDS_NAME,
    ]
    assert disk.read_entry(disk.find("JOBS.BAS")) == program("jobs.lst")  # the SAVE file, as given
    assert disk.read_entry(disk.find("NOTE2.TXT")) == b"FOR TWO\x9b"
    assert disk.free_sectors == 0  # the records have every other sector
    records = disk.read_entry(disk.find(RECORDS_NAME))
    line = b" " * 124 + b"\x9b"  # DOS copies it as text: a line of blanks a sector
    assert records == line * (len(records) // 125)


def test_boot_code_is_in_the_boot_sectors_and_recorder_sys(jobs_disk: bytes) -> None:
    disk = Dos2Disk(image(jobs_disk))
    boot = b"".join(disk.image.read_sector(s) for s in (1, 2, 3))
    rest = disk.read_entry(disk.find(SYSTEM_NAME))
    assert boot[:4] == bytes([0, 3, 0x00, 0x07])  # 3 boot sectors, loaded at $0700
    assert boot[6:9] == bytes([0xCE, 0xFC, 0xBF])  # the boot: DEC CARTCK (is BASIC there?)
    built = build_recording_disk(jobs_programs(), JOBS_SPACE, source="TEST.ATR")
    assert build_recording_disk(jobs_programs(), JOBS_SPACE, source="TEST.ATR") == built
    assert len(boot) == BOOT_BYTES and len(rest) > 2000
    assert 0x1000 < built.memlo < 0x1400  # just above the resident code and buffers


def test_fresh_disk_reads_as_nothing_run_yet(jobs_disk: bytes) -> None:
    recording = read_recording(image(jobs_disk))
    assert recording.records == () and recording.boots == ()
    assert recording.state.program == 0 and not recording.finished
    assert recording.state.programs == 2 and recording.state.sequence == 1
    assert recording.used_sectors == 0


def test_same_bytes_under_one_name_are_stored_once() -> None:
    note = ServedFile("NOTE.TXT", b"SAME\x9b")
    programs = [
        RecordingProgram("ONE.BAS", program("two.lst"), (note,)),
        RecordingProgram("TWO.BAS", program("two.lst"), (note,)),
    ]
    built = build_recording_disk(programs, RecordSpace(2, 100))
    assert dict(built.stored_as) == {
        ("ONE.BAS", "NOTE.TXT"): "NOTE.TXT",
        ("TWO.BAS", "NOTE.TXT"): "NOTE.TXT",
    }


# --- densities and sizes ---------------------------------------------------------------


def test_the_smallest_density_that_holds_the_records() -> None:
    single = build_recording_disk(jobs_programs(), RecordSpace(10, 60_000))
    assert single.density is Density.SINGLE and single.record_sectors >= single.needed_sectors
    enhanced = build_recording_disk(jobs_programs(), RecordSpace(10, 100_000))
    assert enhanced.density is Density.ENHANCED
    double = build_recording_disk(jobs_programs(), RecordSpace(10, 150_000))
    assert double.density is Density.DOUBLE
    assert double.record_bytes >= 150_000
    forced = build_recording_disk(jobs_programs(), RecordSpace(1, 10), density=Density.ENHANCED)
    assert forced.density is Density.ENHANCED


@pytest.mark.parametrize(
    ("data_bytes", "sectors"), [(200_000, 1440), (400_000, 2880), (1_000_000, 5760)]
)
def test_past_double_density_the_smallest_mydos_disk(data_bytes: int, sectors: int) -> None:
    built = build_recording_disk(jobs_programs(), RecordSpace(10, data_bytes))
    assert built.geometry == mydos_geometry(sectors, 256) and built.density is None
    assert built.record_sectors >= built.needed_sectors and built.record_bytes >= data_bytes
    half = mydos_geometry(sectors // 2, 256)  # the size before it is too small
    assert half not in FORMATS or built.needed_sectors > half.capacity - 16
    assert built.format_name.startswith(f"MyDOS, {sectors} sectors of 256 bytes")
    disk = Dos2Disk(image(built.atr))
    assert disk.geometry.is_mydos and disk.geometry.long_links and check_disk(disk) == []
    records = disk.find(RECORDS_NAME)
    assert records.flag == Flag.IN_USE | Flag.DOS2 | Flag.LONG_LINKS
    chain = [sector for sector, _ in disk.chain(records)]
    assert chain[-1] == sectors and len(chain) == built.record_sectors
    assert disk.free_sectors == 0
    recording = read_recording(disk.image)
    assert recording.records == () and recording.record_sectors == len(chain)


def test_records_on_a_large_disk_round_trip_past_sector_1023() -> None:
    built = build_recording_disk(jobs_programs(), RecordSpace(10, 200_000))
    assert built.geometry.sector_count == 1440
    written = [ModelRecord(1, "A.TXT", bytes([65 + n % 26]) * 2000) for n in range(120)]
    recording = read_recording(image(model_records(built.atr, written)))
    assert [r.data for r in recording.records] == [r.data for r in written]
    disk = Dos2Disk(image(built.atr))
    chain = [sector for sector, _ in disk.chain(disk.find(RECORDS_NAME))]
    assert chain[recording.used_sectors - 1] > 1023  # the records reach past 10-bit links


def test_too_small_gives_the_sizes() -> None:
    with pytest.raises(RecordingError) as raised:
        build_recording_disk(jobs_programs(), RecordSpace(100, 17_000_000), source="T.ATR")
    message = str(raised.value)
    assert message.startswith("T.ATR: the disk is too small for 100 records of 17000000 bytes")
    for density in ("single density", "enhanced density", "double density"):
        assert re.search(
            rf"{density} \([^)]*\): \d+ sectors for records \(\d+ bytes\), \d+ needed", message
        )
    for count in LARGE_SECTOR_COUNTS:
        assert re.search(
            rf"MyDOS, {count} sectors of 256 bytes \(\d+ KB\): \d+ sectors for records", message
        )
    assert "\n" not in message


def test_served_files_must_lie_below_sector_1024() -> None:
    """The boot code follows the served files' links 10 bits wide: a MyDOS disk whose
    programs and served files reach past sector 1023 is refused, at every size."""
    with pytest.raises(RecordingError) as raised:
        build_recording_disk(jobs_programs(big=bytes(300_000)), RecordSpace(1, 10))
    message = str(raised.value)
    assert message.count("the boot code reads them up to sector 1023") == len(LARGE_SECTOR_COUNTS)
    double = "double density (DOS 2.0D, 720 sectors of 256 bytes)"
    assert f"{double}: the programs and their files do not fit" in message


def test_programs_that_do_not_fit_at_all() -> None:
    with pytest.raises(RecordingError, match="the programs and their files do not fit"):
        build_recording_disk(
            jobs_programs(big=bytes(200_000)), RecordSpace(1, 1), density=Density.DOUBLE
        )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2000), max_size=60), st.sampled_from([125, 253]))
def test_record_space_bounds_the_sectors_records_take(lengths: list[int], data: int) -> None:
    exact = sum(-(-(length + 32) // data) for length in lengths)
    assert exact <= RecordSpace(len(lengths), sum(lengths), boots=0).sectors(data)


# --- refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("programs", "message"),
    [
        ([], "runs 1 to 9 programs"),
        ([RecordingProgram("1ST.BAS", b"")], "program 1: file name '1ST.BAS': DOS 2 names start"),
        ([RecordingProgram("A.BAS", b""), RecordingProgram("A.BAS", b"")], "both named A.BAS"),
        ([RecordingProgram("RECORDS.TXT", b"")], "RECORDS.TXT is the recording disk's own file"),
        (
            [RecordingProgram("A.BAS", b"", (ServedFile("X", b""), ServedFile("X", b"")))],
            "program 1 (A.BAS): X is served twice",
        ),
        ([RecordingProgram("A.BAS", b"", (ServedFile("A.BAS", b""),))], "A.BAS is served twice"),
        (
            [RecordingProgram("A.BAS", b"", tuple(ServedFile(f"F{n}", b"") for n in range(9)))],
            "at most 8 served files",
        ),
        (
            [
                RecordingProgram("NOTE2.TXT", b""),
                RecordingProgram("B.BAS", b"", (ServedFile("NOTE.TXT", b"1"),)),
                RecordingProgram("C.BAS", b"", (ServedFile("NOTE.TXT", b"2"),)),
            ],
            "program 2's served file NOTE.TXT would be stored as NOTE2.TXT, the name of "
            "program NOTE2.TXT: rename one",
        ),
    ],
)
def test_bad_programs_are_refused_in_one_line(
    programs: list[RecordingProgram], message: str
) -> None:
    with pytest.raises(RecordingError, match=re.escape(message)) as raised:
        build_recording_disk(programs, RecordSpace(1, 1), source="T.ATR")
    assert str(raised.value).startswith("T.ATR: ") and "\n" not in str(raised.value)


# --- the state ---------------------------------------------------------------------------

states = st.builds(
    RunState,
    programs=st.integers(1, 9),
    sequence=st.integers(0, 0xFFFF),
    records=st.integers(0, 0xFFFF),
    next_sector=st.integers(0, 1040),
    program=st.integers(0, 9),
    boots=st.integers(0, 255),
    positions=st.lists(
        st.tuples(st.integers(0, 1040), st.integers(0, 252)), min_size=8, max_size=8
    ).map(tuple),
)


@given(states)
def test_state_round_trip(state: RunState) -> None:
    assert RunState.unpack(state.pack()) == state


@given(states, st.integers(0, 39), st.integers(1, 255))
def test_a_state_damaged_anywhere_is_not_sound(state: RunState, at: int, change: int) -> None:
    raw = bytearray(state.pack())
    raw[at] ^= change
    assert RunState.unpack(bytes(raw)) is None


# --- records: round trips against the format's model -------------------------------------

names = st.sampled_from(["T1.TXT", "MFDONE.TXT", "OUT", "A.B", "LONGNAME.EXT"])
records = st.builds(ModelRecord, st.integers(1, 2), names, st.binary(max_size=700))


@settings(max_examples=60, deadline=None)
@given(st.lists(records, max_size=12))
def test_records_round_trip(jobs_disk: bytes, written: list[ModelRecord]) -> None:
    recording = read_recording(image(model_records(jobs_disk, written)))
    assert [(r.number, r.program, r.name, r.data) for r in recording.records] == [
        (number, record.program, record.name, record.data)
        for number, record in enumerate(written, start=1)
    ]
    assert recording.state.records == len(written)
    assert check_disk(Dos2Disk(image(model_records(jobs_disk, written)))) == []


def test_record_lengths_at_the_sector_edges(jobs_disk: bytes) -> None:
    """A record's last sector takes the trailer if 93 bytes or fewer are in it."""
    lengths = [0, 1, 92, 93, 94, 124, 125, 126, 217, 218, 219, 250, 251]
    written = [ModelRecord(1, "X.Y", bytes([48 + n % 10]) * n) for n in lengths]
    recording = read_recording(image(model_records(jobs_disk, written)))
    assert [len(r.data) for r in recording.records] == lengths
    taken = [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3]
    assert recording.used_sectors == sum(taken)


def test_machine_records_say_where_their_boot_began(jobs_disk: bytes) -> None:
    machine = sample_machine_text()
    written = [
        ModelRecord(1, "(MACHINE)", machine),
        ModelRecord(1, "A.TXT", b"one\x9b"),
        ModelRecord(1, "(MACHINE)", machine.replace(b"BOOT 01", b"BOOT 02")),
        ModelRecord(1, "B.TXT", b"two\x9b"),
    ]
    recording = read_recording(image(model_records(jobs_disk, written)))
    assert [(b.number, b.first_record, b.machine.boot) for b in recording.boots] == [
        (1, 0, 1),
        (3, 1, 2),
    ]
    assert [r.name for r in recording.records] == ["A.TXT", "B.TXT"]


# --- the reader's refusals ------------------------------------------------------------------


def test_a_foreign_disk_is_not_a_recording_disk() -> None:
    plain = Dos2Disk.new(Density.SINGLE, "PLAIN.ATR")
    plain.add_file("X.TXT", b"x")
    with pytest.raises(RecordingError, match=r"^PLAIN.ATR: not a recording disk: it has no"):
        read_recording(plain.image)
    blank = AtrImage.blank(720, 128, "BLANK.ATR")
    with pytest.raises(RecordingError, match=r"^BLANK.ATR: not a recording disk: no DOS 2"):
        read_recording(blank)


def damaged(atr: bytes, sector_of: str, offset: int, value: int) -> AtrImage:
    disk = Dos2Disk(image(atr))
    sector = disk.chain(disk.find(sector_of))[0][0]
    raw = bytearray(disk.image.read_sector(sector))
    raw[offset] = value
    disk.image.write_sector(sector, bytes(raw))
    return disk.image


def test_damaged_states_and_trailers(jobs_disk: bytes) -> None:
    written = model_records(jobs_disk, [ModelRecord(1, "A.TXT", b"x" * 10)] * 3)
    disk = Dos2Disk(image(written))
    state_sectors = [s for s, _ in disk.chain(disk.find(STATE_NAME))]
    # the newer state torn: the older one is used, which holds two records
    torn = image(written)
    raw = bytearray(torn.read_sector(state_sectors[1]))  # sequence 4 went to the second
    raw[20] ^= 0xFF
    torn.write_sector(state_sectors[1], bytes(raw))
    assert len(read_recording(torn).records) == 2
    raw = bytearray(torn.read_sector(state_sectors[0]))
    raw[0] = 0
    torn.write_sector(state_sectors[0], bytes(raw))
    with pytest.raises(RecordingError, match=r"RECSTATE.DAT: neither state sector \(\d+, \d+\)"):
        read_recording(torn)
    # a trailer overwritten
    first = disk.chain(disk.find(RECORDS_NAME))[0][0]
    with pytest.raises(
        RecordingError, match=rf"sector {first} does not end with record 1's trailer"
    ):
        read_recording(damaged(written, RECORDS_NAME, 125 - 32 + 5, ord("Z")))  # its number


# --- the machine record ---------------------------------------------------------------------


def sample_machine_text(
    os_id: str = "10 05 83 02 42 42 00 00 01 02 12 34", a8e2: str = "EA"
) -> bytes:
    lines = [
        "MACHINE 1",
        "BOOT 01 PROGRAM 1",
        "TV PAL D014 01",
        f"OS FFEE {os_id}",
        "OS C000 12 34 FCD8 00",
        "OS SUM C000-CFFF 00010002 D800-FFFF 00030004",
        f"BASIC A8E2 {a8e2} BFFA 00 A0 00 05 F0 BF",
        "BASIC A000 " + " ".join(["00"] * 32),
        "BASIC SUM A000-BFFF 00050006",
        "MEMLO 12CD MEMTOP 9C1F",
        "HATABS PCESK",
    ]
    return "\x9b".join(lines).encode("latin-1") + b"\x9b"


def test_machine_record_names_the_roms_from_their_signatures() -> None:
    genuine = MachineRecord.parse(sample_machine_text(), "here")
    assert genuine.os_name == "XL/XE OS rev. 2 (dated 10/05/83)"
    assert genuine.basic_name == "Atari BASIC rev. C"
    assert genuine.tv == "PAL" and genuine.devices == "PCESK" and genuine.memlo == 0x12CD
    altirra = MachineRecord.parse(
        sample_machine_text("01 01 13 02 43 58 00 00 00 00 00 00", "D0"), "here"
    )
    assert altirra.os_name == "AltirraOS"
    assert altirra.basic_name == "a BASIC I do not know (A8E2: D0)"
    banner = b"\xa6\x08\x30\x42\x20\x0a\xbb\x4c\x51\xac" + b"Altirra 8K BASIC 1.55\x00"
    text = sample_machine_text().replace(
        b"BASIC A000 " + b" ".join([b"00"] * 32),
        b"BASIC A000 " + banner.hex(" ").upper().encode("ascii"),
    )
    assert MachineRecord.parse(text, "here").basic_name == "Altirra BASIC 1.55"
    older = MachineRecord.parse(sample_machine_text(a8e2="60"), "here")
    assert older.basic_name == "Atari BASIC rev. B"
    assert len(sample_machine_text()) <= MACHINE_RECORD_MAX


def test_machine_record_confirms_rom_files() -> None:
    os_image = bytes(range(256)) * 64
    basic = bytes(reversed(range(256))) * 32
    low, high = rom_check(os_image[:0x1000]), rom_check(os_image[0x1800:])
    text = sample_machine_text().replace(
        b"C000-CFFF 00010002 D800-FFFF 00030004",
        f"C000-CFFF {low:08X} D800-FFFF {high:08X}".encode(),
    )
    text = text.replace(b"A000-BFFF 00050006", f"A000-BFFF {rom_check(basic):08X}".encode())
    record = MachineRecord.parse(text, "here")
    assert record.os_matches(os_image) and record.basic_matches(basic)
    changed = bytearray(os_image)
    changed[0x2000] ^= 1
    assert not record.os_matches(bytes(changed))
    self_test_differs = os_image[:0x1000] + bytes(0x800) + os_image[0x1800:]
    assert record.os_matches(self_test_differs)  # $D000-$D7FF is I/O: not in the checks
    with pytest.raises(MachineRecordError, match="16384 or 10240 bytes"):
        record.os_matches(bytes(8192))


def test_rom_check_is_order_sensitive() -> None:
    assert rom_check(b"") == 0
    assert rom_check(b"\x01\x02") == (1 + 3) << 16 | 3
    assert rom_check(b"\x01\x02") != rom_check(b"\x02\x01")
    assert rom_check(b"\xff" * 0x10000) < 1 << 32


def test_a_record_that_is_not_a_machine_record() -> None:
    with pytest.raises(MachineRecordError, match="^R: line 3 is not a machine record's$"):
        MachineRecord.parse(sample_machine_text().replace(b"TV PAL", b"TV SECAM"), "R")
    with pytest.raises(MachineRecordError, match="has 11 lines, this one 1"):
        MachineRecord.parse(b"MACHINE 1\x9b", "R")
