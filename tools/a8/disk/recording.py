"""The recording disk: a boot disk that runs Atari BASIC programs and records on itself
what they write.

The programs need no DOS and no emulator: the disk's boot code (``recording.s``,
assembled here with Ophis) gives BASIC an ``H:`` device of its own that serves
files from the disk (each program its own set: a configuration, a listing to
``ENTER`` ...) and appends what the programs write to a file of the disk. It runs
the programs one after the other, as if typed at the keyboard: ``RUN "H:NAME"``.
What the programs see of ``H:`` is what atari800's ``H:`` folder gives them, so an
unchanged program that uses ``H:`` under the emulator runs on a real machine.

The disk is an ordinary DOS 2 disk, or MyDOS when it is larger (``a8 atr check``
is clean before, during and after a run; a real DOS lists and copies its files):

=================  ========================================================
``RECORDER.SYS``   the boot code past the three boot sectors, with the tables
                   below; read by the boot sectors along its chain
``RECSTATE.DAT``   two sectors: the state of the run, written in turn
the programs       their SAVE files, under their own names
the served files   under their H: name, or NAME1.EXT, NAME2.EXT ... when
                   programs are served different bytes under one name
``RECORDS.TXT``    every other sector of the disk: what the programs write,
                   filled at build time with lines of blanks (so that DOS
                   copies it as text before and after the run)
=================  ========================================================

The Atari rewrites only the data bytes of RECORDS.TXT and RECSTATE.DAT, never a
link, the directory or the VTOC. How a record is laid out, how the state commits
it and how a run resumes after a power cut: ``recording.s``'s header, and
:mod:`a8.disk.recorded`, which reads a disk back.

Formats: single density (DOS 2.0S, 720 sectors of 128 bytes: every drive), then
enhanced (DOS 2.5, 1040 x 128: a 1050 or better, and what DOS 2.5 itself formats),
then double (DOS 2.0D, 720 x 256: SIO2PC, FujiNet, SDrive and upgraded drives, not
a stock 1050, and not DOS 2.5), then larger MyDOS disks of 256-byte sectors, from
1440 sectors (360 KB) up to 65,535 (16 MB), which SIO2PC, FujiNet and SDrive serve
and MyDOS reads, DOS 2.5 not; :func:`build_recording_disk` takes the first that
holds everything, unless told which.

On a MyDOS disk of more than 1023 sectors the links hold a 16-bit next sector and
no file number. The Atari writes RECORDS.TXT's links itself, so there its file
number is given as 0 (``RECFILE``): the link's first byte is then the next
sector's high byte, as MyDOS has it. The boot code reads the files it serves with
10-bit links, which such a link is for a sector below 1024: the builder checks that
the programs and every file served lie there. They go on the disk first, from the
lowest sectors up, so about 250 KB of them fit; the records, which the boot code
finds through its table of runs of sectors, take any sector up to the last.

The programs' tables are written as assembly source (``params.s``, ``tables.s``)
and assembled with the code, rather than patched into fixed-size slots: each
table is as long as the disk needs and no longer, which keeps MEMLO, where BASIC's
memory starts, as low as the disk allows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Final

from a8.asm import Assembly, AssemblyError, assemble
from a8.disk.dos2 import GEOMETRIES, Density, DirectoryEntry, Dos2Disk, Dos2Error, Geometry
from a8.disk.dos2.geometry import HIGHEST_LINKABLE, mydos_geometry
from a8.disk.names import FileName, FileNameError
from a8.errors import A8Error

#: The files the disk's own machinery uses (on every recording disk).
SYSTEM_NAME: Final = "RECORDER.SYS"
STATE_NAME: Final = "RECSTATE.DAT"
RECORDS_NAME: Final = "RECORDS.TXT"
RESERVED_NAMES: Final = frozenset({SYSTEM_NAME, STATE_NAME, RECORDS_NAME})

LOAD_ADDRESS: Final = 0x0700
#: Boot sectors 1-3: the first bytes of the image; RECORDER.SYS holds the rest.
BOOT_BYTES: Final = 3 * 128
#: Where RECORDER.SYS's bytes go: right after the boot sectors.
SYSTEM_ADDRESS: Final = LOAD_ADDRESS + BOOT_BYTES

EOL: Final = 0x9B
#: A record sector as built: blanks, then an end of line (DOS copies it as text).
FILLER_BYTE: Final = 0x20
#: The bytes a record's trailer takes at the end of its last sector (recording.s).
TRAILER_SIZE: Final = 32
#: The name trailers give machine records: no H: name can be spelled this way.
MACHINE_NAME: Final = "(MACHINE)"

MAX_PROGRAMS: Final = 9
#: Files served to one program besides the program itself.
MAX_SERVED: Final = 8
#: Resumable files per program (the state's position slots).
MAX_RESUMABLE: Final = 8
#: Runs of consecutive sectors RECORDS.TXT may have (the VTOC, the directory and
#: DOS 2.5's sector 720 split the disk in at most three; MyDOS's VTOC sectors from
#: 360 down and its directory in 361-368 in at most two).
MAX_RUNS: Final = 4
#: The longest machine record the boot code writes (its text; see machine_record).
MACHINE_RECORD_MAX: Final = 371

DENSITIES: Final = (Density.SINGLE, Density.ENHANCED, Density.DOUBLE)
DENSITY_NAMES: Final = {
    Density.SINGLE: "single density (DOS 2.0S, 720 sectors of 128 bytes)",
    Density.ENHANCED: "enhanced density (DOS 2.5, 1040 sectors of 128 bytes)",
    Density.DOUBLE: "double density (DOS 2.0D, 720 sectors of 256 bytes)",
}
#: The MyDOS disks tried after the DOS 2 densities, 256-byte sectors: each twice the
#: one before from 360 KB (1440 sectors), up to the most SIO's sector numbers reach.
LARGE_SECTOR_COUNTS: Final = (1440, 2880, 5760, 11520, 23040, 46080, 65535)
LARGE_SECTOR_SIZE: Final = 256
#: Every format the builder tries, smallest first.
FORMATS: Final = tuple(GEOMETRIES[density] for density in DENSITIES) + tuple(
    mydos_geometry(count, LARGE_SECTOR_SIZE) for count in LARGE_SECTOR_COUNTS
)


def format_name(geometry: Geometry) -> str:
    """A disk format in words: ``double density (DOS 2.0D, 720 sectors of 256 bytes)``,
    ``MyDOS, 2880 sectors of 256 bytes (720 KB)``."""
    for density, known in GEOMETRIES.items():
        if known == geometry:
            return DENSITY_NAMES[density]
    size = geometry.sector_count * geometry.sector_size // 1024  # as drives name it
    return (
        f"{geometry.dos_name}, {geometry.sector_count} sectors of {geometry.sector_size} "
        f"bytes ({size} KB)"
    )


class RecordingError(A8Error):
    """A recording disk that cannot be built, or a disk that is not one (or is damaged)."""


# --- what the caller gives ------------------------------------------------------------


@dataclass(frozen=True)
class ServedFile:
    """A file the H: device serves to a program for reading.

    ``resumable``: after a boot that resumes the run, the file is served from its
    first line, then from the position its reader had reached when the program's
    last record was committed (a configuration listing the work still to do).
    """

    name: str
    data: bytes
    resumable: bool = False


@dataclass(frozen=True)
class RecordingProgram:
    """A BASIC program the disk runs (its SAVE file), and the files served to it."""

    name: str
    program: bytes
    served: tuple[ServedFile, ...] = ()


@dataclass(frozen=True)
class RecordSpace:
    """What the programs will write at most: a disk that cannot hold it is refused.

    ``boots``: how many boots to leave room for (each writes a machine record).
    """

    records: int
    data_bytes: int
    boots: int = 10

    def sectors(self, sector_data: int) -> int:
        """Sectors of RECORDS.TXT this takes at most, with ``sector_data`` bytes a sector.

        A record of L bytes takes ceil((L + 32) / sector_data) sectors (its trailer
        and the rest of its last sector), so ``records`` records of ``data_bytes``
        in all take at most ceil((data_bytes + 32 records) / sector_data) +
        records - 1.
        """
        if self.records < 0 or self.data_bytes < 0 or self.boots < 0:
            raise RecordingError("record space: counts cannot be negative")
        programs = 0
        if self.records:
            total = self.data_bytes + TRAILER_SIZE * self.records
            programs = -(-total // sector_data) + self.records - 1
        machine = -(-(MACHINE_RECORD_MAX + TRAILER_SIZE) // sector_data)
        return programs + self.boots * machine


@dataclass(frozen=True)
class RecordingDisk:
    """A recording disk, built: the ATR image's bytes and what it is."""

    atr: bytes
    #: The disk's format: a DOS 2 density's, or a larger MyDOS disk's.
    geometry: Geometry
    #: Where BASIC's memory starts on this disk (MEMLO, $02E7).
    memlo: int
    #: Sectors of RECORDS.TXT, and the sectors the space asked for needs at most.
    record_sectors: int
    needed_sectors: int
    #: Where each program's served files are stored: (program name, H: name) -> the
    #: name on the disk.
    stored_as: Mapping[tuple[str, str], str] = field(default_factory=dict)

    @property
    def record_bytes(self) -> int:
        """RECORDS.TXT's data bytes."""
        return self.record_sectors * self.geometry.data_bytes

    @property
    def density(self) -> Density | None:
        """The DOS 2 density of the disk (None: a larger MyDOS disk)."""
        return next((d for d, g in GEOMETRIES.items() if g == self.geometry), None)

    @property
    def format_name(self) -> str:
        return format_name(self.geometry)


# --- the state sector (shared with the reader, a8.disk.recorded) ----------------------

STATE_MAGIC: Final = b"A8RS"
STATE_FORMAT: Final = 1
STATE_SIZE: Final = 40
#: Byte offsets in the state (recording.s's "st" block).
_MAGIC, _FORMAT, _PROGRAMS, _SEQUENCE, _RECORDS, _NEXT, _PROGRAM, _BOOTS, _POSITIONS, _CHECK = (
    0,
    4,
    5,
    6,
    8,
    10,
    12,
    13,
    14,
    38,
)


def state_check(data: bytes) -> int:
    """Fletcher's check of the state's first 38 bytes, as recording.s computes it: low
    byte the sum of the bytes, high byte the sum of those sums, both mod 256."""
    low = high = 0
    for byte in data[:_CHECK]:
        low = (low + byte) & 0xFF
        high = (high + low) & 0xFF
    return high << 8 | low


@dataclass(frozen=True)
class RunState:
    """The state of a run, as a state sector holds it."""

    programs: int
    #: Commits so far (of the two state sectors, the higher number is the state).
    sequence: int
    #: Records committed, machine records included.
    records: int
    #: The next record's first sector in RECORDS.TXT (0: the file is full).
    next_sector: int
    #: The program running, from 0 (``programs``: every program has run).
    program: int
    boots: int
    #: Per resume slot: (sector, offset) the reader had reached ((0, 0): none).
    positions: tuple[tuple[int, int], ...] = ((0, 0),) * MAX_RESUMABLE

    @property
    def finished(self) -> bool:
        return self.program >= self.programs

    def pack(self) -> bytes:
        raw = bytearray(STATE_SIZE)
        raw[_MAGIC:_FORMAT] = STATE_MAGIC
        raw[_FORMAT] = STATE_FORMAT
        raw[_PROGRAMS] = self.programs
        raw[_SEQUENCE : _SEQUENCE + 2] = self.sequence.to_bytes(2, "little")
        raw[_RECORDS : _RECORDS + 2] = self.records.to_bytes(2, "little")
        raw[_NEXT : _NEXT + 2] = self.next_sector.to_bytes(2, "little")
        raw[_PROGRAM] = self.program
        raw[_BOOTS] = self.boots
        for slot, (sector, offset) in enumerate(self.positions):
            at = _POSITIONS + 3 * slot
            raw[at : at + 3] = bytes([sector & 0xFF, sector >> 8, offset])
        raw[_CHECK : _CHECK + 2] = state_check(bytes(raw)).to_bytes(2, "little")
        return bytes(raw)

    @classmethod
    def unpack(cls, raw: bytes) -> RunState | None:
        """The state in a state sector's first bytes, or None if they are not a sound
        one (another magic or format, or a check that fails: a write cut short)."""
        if len(raw) < STATE_SIZE or raw[_MAGIC:_FORMAT] != STATE_MAGIC:
            return None
        if raw[_FORMAT] != STATE_FORMAT:
            return None
        if int.from_bytes(raw[_CHECK : _CHECK + 2], "little") != state_check(raw):
            return None
        positions = tuple(
            (raw[at] | raw[at + 1] << 8, raw[at + 2])
            for at in range(_POSITIONS, _POSITIONS + 3 * MAX_RESUMABLE, 3)
        )
        return cls(
            programs=raw[_PROGRAMS],
            sequence=int.from_bytes(raw[_SEQUENCE : _SEQUENCE + 2], "little"),
            records=int.from_bytes(raw[_RECORDS : _RECORDS + 2], "little"),
            next_sector=int.from_bytes(raw[_NEXT : _NEXT + 2], "little"),
            program=raw[_PROGRAM],
            boots=raw[_BOOTS],
            positions=positions,
        )


# --- planning: names, what goes where -------------------------------------------------


@dataclass(frozen=True)
class _Served:
    """A served file as one program's table holds it."""

    name: FileName
    stored: FileName
    resume_slot: int | None


@dataclass(frozen=True)
class _Plan:
    programs: tuple[RecordingProgram, ...]
    names: tuple[FileName, ...]
    tables: tuple[tuple[_Served, ...], ...]
    #: What each stored file holds, in the order they go on the disk.
    stored: Mapping[FileName, bytes]


def _name(text: str, what: str, source: str) -> FileName:
    try:
        name = FileName.parse(text)
    except FileNameError as error:
        raise RecordingError(f"{source}: {what}: {error}") from None
    if str(name) in RESERVED_NAMES:
        raise RecordingError(f"{source}: {what}: {name} is the recording disk's own file")
    return name


def _plan(programs: Sequence[RecordingProgram], source: str) -> _Plan:
    """Check the programs and decide the name each file is stored under."""
    if not 1 <= len(programs) <= MAX_PROGRAMS:
        raise RecordingError(f"{source}: a recording disk runs 1 to {MAX_PROGRAMS} programs")
    names = tuple(
        _name(program.name, f"program {number}", source)
        for number, program in enumerate(programs, start=1)
    )
    if len(set(names)) != len(names):
        raise RecordingError(f"{source}: two programs are both named {_first_twice(names)}")
    served_names: list[list[FileName]] = []
    for number, program in enumerate(programs, start=1):
        where = f"program {number} ({names[number - 1]})"
        if len(program.served) > MAX_SERVED:
            raise RecordingError(f"{source}: {where}: at most {MAX_SERVED} served files")
        own = [_name(f.name, f"{where}, served file", source) for f in program.served]
        if len(set(own)) != len(own) or names[number - 1] in own:
            twice = _first_twice([names[number - 1], *own])
            raise RecordingError(f"{source}: {where}: {twice} is served twice")
        if sum(f.resumable for f in program.served) > MAX_RESUMABLE:
            raise RecordingError(f"{source}: {where}: at most {MAX_RESUMABLE} resumable files")
        served_names.append(own)
    # one copy of a name when every program serving it gets the same bytes
    contents: dict[FileName, set[bytes]] = {}
    for program, own in zip(programs, served_names, strict=True):
        for name, served in zip(own, program.served, strict=True):
            contents.setdefault(name, set()).add(served.data)
    stored: dict[FileName, bytes] = {}
    owner: dict[FileName, str] = {name: f"program {name}" for name in names}
    owner.update({FileName.parse(name): "the disk's own file" for name in RESERVED_NAMES})
    tables = []
    for number, (program, own) in enumerate(zip(programs, served_names, strict=True), start=1):
        table = []
        slot = 0
        for name, served in zip(own, program.served, strict=True):
            kept_as = name
            if len(contents[name]) > 1:
                kept_as = numbered_name(name, number)
            if kept_as in owner and owner[kept_as] != f"the served file {name}":
                raise RecordingError(
                    f"{source}: program {number}'s served file {name} would be stored as "
                    f"{kept_as}, the name of {owner[kept_as]}: rename one"
                )
            owner[kept_as] = f"the served file {name}"
            stored[kept_as] = served.data
            table.append(_Served(name, kept_as, slot if served.resumable else None))
            slot += served.resumable
        tables.append(tuple(table))
    return _Plan(tuple(programs), names, tuple(tables), stored)


def numbered_name(name: FileName, program: int) -> FileName:
    """The name program ``program``'s served file ``name`` is stored under when the
    programs are served different bytes under that name (``NAME1.EXT``): a reader of
    the disk finds each program's own copy by it."""
    return FileName(name.name[:7] + str(program).encode("ascii"), name.ext)


def _first_twice(names: Sequence[FileName]) -> FileName:
    seen: set[FileName] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    raise AssertionError("no name is there twice")


# --- assembling ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Layout:
    """Where the files of one disk are, as the boot code needs it."""

    sector_size: int
    system_start: int
    state_sectors: tuple[int, int]
    state_links: bytes
    records_file: int
    runs: tuple[tuple[int, int], ...]
    #: Per program: its own first sector, then each served file's.
    starts: tuple[tuple[int, tuple[int, ...]], ...]


def source_text() -> str:
    return resources.files("a8.disk").joinpath("recording.s").read_text(encoding="ascii")


def _params(plan: _Plan, layout: _Layout) -> str:
    values = {
        "SECSIZE": layout.sector_size,
        "NPROGRAMS": len(plan.programs),
        "NRUNS": len(layout.runs),
        "SYSSTART": layout.system_start,
        "STATEA": layout.state_sectors[0],
        "STATEB": layout.state_sectors[1],
        "RECFILE": layout.records_file,
    }
    lines = [f".alias {name} {value}" for name, value in values.items()]
    lines.append(f".alias sysload ${SYSTEM_ADDRESS:04X}")
    return "\n".join(lines) + "\n"


def _bytes(data: bytes) -> str:
    return ", ".join(f"${byte:02X}" for byte in data)


def _tables(plan: _Plan, layout: _Layout) -> str:
    count = len(plan.programs)
    numbers = range(1, count + 1)
    lines = [
        "proglo: .byte " + ", ".join(f"<prog{n}" for n in numbers),
        "proghi: .byte " + ", ".join(f">prog{n}" for n in numbers),
        "runlo: .byte " + ", ".join(f"<run{n}" for n in numbers),
        "runhi: .byte " + ", ".join(f">run{n}" for n in numbers),
    ]
    for number, (name, table, (start, starts)) in enumerate(
        zip(plan.names, plan.tables, layout.starts, strict=True), start=1
    ):
        lines.append(f"prog{number}: .byte {1 + len(table)}")
        entries = [(name, start, 1, 0)]
        for served, served_start in zip(table, starts, strict=True):
            slot = 0 if served.resume_slot is None else 3 * served.resume_slot + 3
            entries.append((served.name, served_start, 0, slot))
        for entry_name, entry_start, bar, slot in entries:
            raw = b"".join(entry_name.raw())
            lines.append(f"  .byte {_bytes(raw)}")
            lines.append(f"  .word {entry_start}")
            lines.append(f"  .byte {bar}, {slot}, 0")
        run = b'RUN "H:' + str(name).encode("ascii") + b'"' + bytes([EOL])
        lines.append(f"run{number}: .byte {_bytes(run)}")
    runs = [sector for run in layout.runs for sector in run]
    runs += [0] * (2 * MAX_RUNS - len(runs))
    lines.append("runs: .word " + ", ".join(str(sector) for sector in runs))
    lines.append("stsec: .word STATEA, STATEB")
    lines.append(f"stlink: .byte {_bytes(layout.state_links)}")
    return "\n".join(lines) + "\n"


def assemble_recorder(plan: _Plan, layout: _Layout) -> Assembly:
    """The boot code for one disk: the image from $0700 and its labels."""
    includes = {"params.s": _params(plan, layout), "tables.s": _tables(plan, layout)}
    try:
        return assemble(source_text(), "recording.s", includes)
    except AssemblyError as error:
        raise RecordingError(str(error)) from None


def _probe_layout(plan: _Plan, sector_size: int) -> _Layout:
    """A layout with stand-in sector numbers: the code's size does not depend on them."""
    starts = tuple((1, tuple(1 for _ in table)) for table in plan.tables)
    return _Layout(sector_size, 1, (1, 2), bytes(6), 1, ((1, 1),), starts)


# --- building ----------------------------------------------------------------------


class _TooSmall(Exception):
    """This density cannot hold the programs, or leaves too little for the records."""

    def __init__(self, record_sectors: int, detail: str = "") -> None:
        super().__init__(detail)
        self.record_sectors = record_sectors
        self.detail = detail


def build_recording_disk(
    programs: Sequence[RecordingProgram],
    space: RecordSpace,
    *,
    density: Density | Geometry | None = None,
    source: str = "recording disk",
) -> RecordingDisk:
    """A recording disk running ``programs`` in order, with room for ``space``.

    The format is the first of :data:`FORMATS` (single, enhanced and double
    density, then MyDOS disks of 1440 sectors and more) that holds the programs and
    the records asked for, or ``density`` (a DOS 2 density, or a disk's rules such
    as ``mydos_geometry(2880, 256)``). A disk too small is a
    :class:`RecordingError` that gives, for each format tried, the sectors the
    records would have and the sectors they need.
    """
    plan = _plan(programs, source)
    if density is None:
        candidates: Sequence[Geometry] = FORMATS
    else:
        candidates = [GEOMETRIES[density] if isinstance(density, Density) else density]
    probes: dict[int, Assembly] = {}
    tried = []
    for candidate in candidates:
        sector_data = candidate.data_bytes
        needed = space.sectors(sector_data)
        size = candidate.sector_size
        if size not in probes:
            probes[size] = assemble_recorder(plan, _probe_layout(plan, size))
        try:
            built = _build(plan, candidate, needed, probes[size], source)
        except _TooSmall as small:
            detail = small.detail or (
                f"{small.record_sectors} sectors for records ({small.record_sectors * sector_data} "
                f"bytes), {needed} needed"
            )
            tried.append(f"{format_name(candidate)}: {detail}")
            continue
        return built
    asked = (
        f"{space.records} records of {space.data_bytes} bytes in all and {space.boots} "
        "boots' machine records"
    )
    raise RecordingError(f"{source}: the disk is too small for {asked}: {'; '.join(tried)}")


def _build(
    plan: _Plan, geometry: Geometry, needed: int, probe: Assembly, source: str
) -> RecordingDisk:
    size = geometry.sector_size
    data = geometry.data_bytes
    system_bytes = len(probe.code) - BOOT_BYTES
    lengths = [system_bytes, 2 * data, *(len(p.program) for p in plan.programs)]
    lengths += [len(content) for content in plan.stored.values()]
    # The files take whole sectors of the disk's capacity, the records the rest: a
    # format that cannot hold the records is passed over before it is built.
    left = geometry.capacity - sum(max(1, -(-length // data)) for length in lengths)
    if 0 <= left < needed:
        raise _TooSmall(left)
    disk = Dos2Disk.new(geometry, source)
    try:
        system = disk.add_file(SYSTEM_NAME, bytes(system_bytes))
        state = disk.add_file(STATE_NAME, bytes(2 * data))
        own = [
            disk.add_file(name, program.program)
            for name, program in zip(plan.names, plan.programs, strict=True)
        ]
        stored = {name: disk.add_file(name, content) for name, content in plan.stored.items()}
    except Dos2Error as error:
        raise _TooSmall(0, f"the programs and their files do not fit ({error})") from None
    served = [system, *own, *stored.values()]
    highest = max(sector for entry in served for sector, _ in disk.chain(entry))
    if highest > HIGHEST_LINKABLE:
        raise _TooSmall(
            0,
            f"the programs and the files they are served reach sector {highest}; the "
            f"boot code reads them up to sector {HIGHEST_LINKABLE}",
        )
    free = len(disk.available_sectors())
    if free < needed or free == 0:
        raise _TooSmall(free)
    filler = bytes([FILLER_BYTE] * (data - 1) + [EOL])
    records = disk.add_file(RECORDS_NAME, filler * free)
    record_sectors = [sector for sector, _ in disk.chain(records)]
    runs = _runs(record_sectors)
    if len(runs) > MAX_RUNS:
        raise RecordingError(
            f"{source}: {RECORDS_NAME} is in {len(runs)} pieces, at most {MAX_RUNS}"
        )
    state_chain = disk.chain(state)
    layout = _Layout(
        sector_size=size,
        system_start=system.start,
        state_sectors=(state_chain[0][0], state_chain[1][0]),
        state_links=b"".join(link.pack() for _, link in state_chain),
        # 16-bit links have no file number: the first byte is the sector's high byte
        records_file=0 if geometry.long_links else records.number,
        runs=runs,
        starts=tuple(
            (entry.start, tuple(stored[served.stored].start for served in table))
            for entry, table in zip(own, plan.tables, strict=True)
        ),
    )
    _check_links(disk, records, record_sectors, layout.records_file)
    assembly = assemble_recorder(plan, layout)
    if len(assembly.code) != len(probe.code):
        raise RecordingError("recording.s: the code's size depends on the disk's sector numbers")
    _check_memory(assembly)
    disk.write_boot(assembly.code[:BOOT_BYTES])
    _rewrite(disk, system, assembly.code[BOOT_BYTES:])
    first = RunState(len(plan.programs), 1, 0, record_sectors[0], 0, 0)
    second = RunState(len(plan.programs), 0, 0, record_sectors[0], 0, 0)
    _rewrite(disk, state, first.pack().ljust(data, b"\0") + second.pack().ljust(data, b"\0"))
    stored_as = {
        (str(name), str(served.name)): str(served.stored)
        for name, table in zip(plan.names, plan.tables, strict=True)
        for served in table
    }
    return RecordingDisk(
        atr=disk.image.to_bytes(),
        geometry=geometry,
        memlo=assembly.labels["resident_end"],
        record_sectors=len(record_sectors),
        needed_sectors=needed,
        stored_as=stored_as,
    )


def _runs(sectors: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Consecutive sectors grouped: (first, last) of each run, in the chain's order."""
    runs: list[list[int]] = []
    for sector in sectors:
        if runs and sector == runs[-1][1] + 1:
            runs[-1][1] = sector
        else:
            runs.append([sector, sector])
    return tuple((first, last) for first, last in runs)


def _check_links(disk: Dos2Disk, entry: DirectoryEntry, sectors: list[int], number: int) -> None:
    """RECORDS.TXT's links are what the boot code writes back: ``number`` << 2 | the
    next sector's high byte (a short link: the file number and the top two bits; a
    16-bit one: 0 and the whole byte), the next sector's low byte, every sector full."""
    data = disk.geometry.data_bytes
    following = [*sectors[1:], 0]
    for sector, after in zip(sectors, following, strict=True):
        packed = bytes([number << 2 | after >> 8, after & 0xFF, data])
        if disk.image.read_sector(sector)[data:] != packed:
            raise RecordingError(f"{RECORDS_NAME}: sector {sector}'s link is not the boot code's")


def _check_memory(assembly: Assembly) -> None:
    labels = assembly.labels
    if labels["resident_end"] > labels["init"] or labels["init_end"] > 0x4000:
        raise RecordingError("recording.s: the boot-time code must follow MEMLO, below $4000")


def _rewrite(disk: Dos2Disk, entry: DirectoryEntry, data: bytes) -> None:
    """Put ``data`` in the file's sectors, links untouched (the same length as before)."""
    chain = disk.chain(entry)
    if sum(link.bytes_used for _, link in chain) != len(data):
        raise RecordingError(f"{entry.name}: {len(data)} bytes do not fill its sectors")
    at = 0
    for sector, link in chain:
        raw = bytearray(disk.image.read_sector(sector))
        raw[: link.bytes_used] = data[at : at + link.bytes_used]
        disk.image.write_sector(sector, bytes(raw))
        at += link.bytes_used
