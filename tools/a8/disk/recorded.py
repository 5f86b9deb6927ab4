"""Reading a recording disk after a run: the records, the machine records, the state.

The state (RECSTATE.DAT: of its two sectors, the sound one with the higher
sequence number) says how many records are committed and where the next one
would start in RECORDS.TXT. Every record ends with a trailer in the last 32 data
bytes of its last sector::

    EOL "REC " nnnn " " p " " NAMEEXTENSI " " llllll " " EOL

(record number and length in hex, ``p`` the program's digit, the name in 8 + 3
columns), and takes ceil((length + 32) / data bytes) sectors. So the records are
read from the next free sector backwards, trailer by trailer, down to the file's
first sector: anything after the committed records (a record cut short by a power
cut, the blank filler) is not looked at. A trailer that is not where the state
says, a record that would start before the file, or records that do not start at
its first sector make the disk damaged: a one-line :class:`RecordingError` naming
the file, the sector and what is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from a8.disk.atr import AtrImage
from a8.disk.dos2 import Dos2Disk, Dos2Error
from a8.disk.machine_record import MachineRecord, MachineRecordError
from a8.disk.recording import (
    MACHINE_NAME,
    RECORDS_NAME,
    STATE_NAME,
    TRAILER_SIZE,
    RecordingError,
    RunState,
)

_TRAILER = re.compile(rb"\x9bREC ([0-9A-F]{4}) ([1-9]) (.{11}) ([0-9A-F]{6}) \x9b", re.DOTALL)


@dataclass(frozen=True)
class Record:
    """What a program wrote between an OPEN of H: for writing and its CLOSE."""

    #: Its place among all the disk's records (machine records included), from 1.
    number: int
    #: The program that wrote it, from 1.
    program: int
    #: The name it was opened with (``T1.TXT``): a label, not a file.
    name: str
    data: bytes


@dataclass(frozen=True)
class MachineBoot:
    """A boot of the disk: its machine record and where in the records it began."""

    number: int
    #: Program records committed before this boot: the boot's first record is
    #: ``records[first_record]`` (if it wrote any).
    first_record: int
    machine: MachineRecord


@dataclass(frozen=True)
class Recording:
    """What a recording disk holds after a run."""

    source: str
    state: RunState
    #: The programs' records, in the order they were committed.
    records: tuple[Record, ...]
    #: One per boot, in order.
    boots: tuple[MachineBoot, ...]
    #: Sectors of RECORDS.TXT, and how many the committed records take.
    record_sectors: int
    used_sectors: int

    @property
    def finished(self) -> bool:
        """Every program has run to its end (the state moved past the last)."""
        return self.state.finished


def read_recording_file(path: str | Path) -> Recording:
    """The recording on the ATR image at ``path`` (see :func:`read_recording`)."""
    return read_recording(AtrImage.read(path))


def read_recording(image: AtrImage) -> Recording:
    """The records, boots and state of a recording disk (RecordingError if it is not one)."""
    source = image.source
    disk = Dos2Disk.recognise(image)
    if disk is None:
        raise RecordingError(f"{source}: not a recording disk: no DOS 2 file system")
    try:
        state_entry = disk.find(STATE_NAME)
        records_entry = disk.find(RECORDS_NAME)
    except Dos2Error:
        raise RecordingError(
            f"{source}: not a recording disk: it has no {STATE_NAME} and {RECORDS_NAME}"
        ) from None
    try:
        state_chain = [sector for sector, _ in disk.chain(state_entry)]
        chain = [sector for sector, _ in disk.chain(records_entry)]
    except Dos2Error as error:
        raise RecordingError(str(error)) from None
    data_bytes = disk.geometry.data_bytes
    state = _state(disk, state_chain, source)
    if state.next_sector == 0:
        end = len(chain)
    elif state.next_sector in chain:
        end = chain.index(state.next_sector)
    else:
        raise RecordingError(
            f"{source}: {STATE_NAME}: the next record's sector {state.next_sector} is not "
            f"in {RECORDS_NAME}"
        )
    found: list[tuple[int, int, str, bytes]] = []
    last = end - 1
    for number in range(state.records, 0, -1):
        where = f"{source}: {RECORDS_NAME}"
        if last < 0:
            raise RecordingError(f"{where}: record {number} would start before the file")
        sector = chain[last]
        raw = disk.image.read_sector(sector)[:data_bytes]
        match = _TRAILER.fullmatch(raw[data_bytes - TRAILER_SIZE :])
        if match is None or int(match.group(1), 16) != number:
            raise RecordingError(
                f"{where}: sector {sector} does not end with record {number}'s trailer"
            )
        length = int(match.group(4), 16)
        taken = -(-(length + TRAILER_SIZE) // data_bytes)
        first = last - taken + 1
        if first < 0:
            raise RecordingError(
                f"{where}: record {number} ({length} bytes, ending in sector {sector}) "
                "would start before the file"
            )
        body = b"".join(disk.image.read_sector(s)[:data_bytes] for s in chain[first : last + 1])
        found.append((number, int(match.group(2)), _name(match.group(3)), body[:length]))
        last = first - 1
    if last != -1:
        raise RecordingError(
            f"{source}: {RECORDS_NAME}: the {state.records} records committed start at "
            f"sector {chain[last + 1]}, not at the file's first sector {chain[0]}"
        )
    found.reverse()
    records: list[Record] = []
    boots: list[MachineBoot] = []
    for number, program, name, data in found:
        if name == MACHINE_NAME:
            where = f"{source}: {RECORDS_NAME}: record {number}"
            try:
                machine = MachineRecord.parse(data, where)
            except MachineRecordError as error:
                raise RecordingError(str(error)) from None
            boots.append(MachineBoot(number, len(records), machine))
        else:
            records.append(Record(number, program, name, data))
    return Recording(source, state, tuple(records), tuple(boots), len(chain), end)


def _state(disk: Dos2Disk, sectors: list[int], source: str) -> RunState:
    """The sound state sector with the higher sequence number."""
    if len(sectors) != 2:
        raise RecordingError(
            f"{source}: {STATE_NAME} has {len(sectors)} sectors, a recording disk's has 2"
        )
    states = [RunState.unpack(disk.image.read_sector(sector)) for sector in sectors]
    sound = [state for state in states if state is not None]
    if not sound:
        raise RecordingError(
            f"{source}: {STATE_NAME}: neither state sector ({sectors[0]}, {sectors[1]}) "
            "holds a sound state"
        )
    return max(sound, key=lambda state: state.sequence)


def _name(raw: bytes) -> str:
    """A trailer's 8 + 3 columns as a name: ``T1      TXT`` is ``T1.TXT``."""
    text = raw.decode("latin-1")
    base, ext = text[:8].rstrip(), text[8:].rstrip()
    if text.startswith(MACHINE_NAME):
        return MACHINE_NAME
    return f"{base}.{ext}" if ext else base
