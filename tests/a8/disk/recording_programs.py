"""The recording disk's test programs, what they must record, and a model of the format.

``jobs.lst`` (program 1) opens its resumable configuration ``JOBS.CFG`` on #4 and
keeps it open, reads a note from ``NOTE.TXT`` on #2, then ENTERs ``WORK.LST`` on #7
(an overlay, as the games ENTER theirs), which writes one record per job line on #1
(``S`` jobs wait 3 seconds before their CLOSE: the place to cut a run) and a
``DONE.TXT`` record at ``END``. ``two.lst`` (program 2) is served another
``NOTE.TXT`` under the same name and writes one record. Together they use every
path of the H: device the games use.

The model (:func:`model_records`) writes records and states into a built disk the
way recording.s's header and :mod:`a8.disk.recorded` describe the format, written
from those descriptions rather than from the reader's code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from a8.basic import tokenize
from a8.basic.atascii import Encoding, detect, join_lines, split_lines
from a8.disk.atr import AtrImage
from a8.disk.dos2 import Dos2Disk
from a8.disk.recording import (
    RECORDS_NAME,
    STATE_NAME,
    RecordingProgram,
    RecordSpace,
    RunState,
    ServedFile,
)

FIXTURES = Path(__file__).parent / "fixtures" / "recording"
EOL = b"\x9b"
#: The jobs of ``jobs.cfg``: (line, lines written after the first).
JOBS = (("A 3", 3), ("B 40", 40), ("S 30", 30), ("C 0", 1))  # FOR I=1 TO 0 runs once


def atascii(name: str) -> bytes:
    """A listing fixture as ATASCII lines (what ENTER reads from H:)."""
    data = (FIXTURES / name).read_bytes()
    return join_lines(split_lines(data, detect(data), where=name), Encoding.ATASCII)


@cache
def program(name: str) -> bytes:
    return tokenize(atascii(name), file=name)


def jobs_programs(config: bytes | None = None, big: bytes = b"") -> list[RecordingProgram]:
    """The two test programs; ``big``: a file served to the first (to fill the disk)."""
    jobs = ServedFile("JOBS.CFG", config or (FIXTURES / "jobs.cfg").read_bytes(), resumable=True)
    served = [
        jobs,
        ServedFile("WORK.LST", atascii("work.lst")),
        ServedFile("NOTE.TXT", b"FOR JOBS\x9b"),
    ]
    if big:
        served.append(ServedFile("BIG.DAT", big))
    return [
        RecordingProgram("JOBS.BAS", program("jobs.lst"), tuple(served)),
        RecordingProgram("TWO.BAS", program("two.lst"), (ServedFile("NOTE.TXT", b"FOR TWO\x9b"),)),
    ]


JOBS_SPACE = RecordSpace(records=6, data_bytes=1200, boots=4)


def job_record(line: str, lines: int) -> bytes:
    head = f"JOB {line} NOTE FOR JOBS".encode("ascii") + EOL
    return head + b"".join(
        f"JOB {line[0]} LINE {i}".encode("ascii") + EOL for i in range(1, lines + 1)
    )


def expected_records() -> list[tuple[int, str, bytes]]:
    """(program, name, bytes) of every record a whole run writes, in order."""
    records = [(1, "OUT.TXT", job_record(line, lines)) for line, lines in JOBS]
    return [*records, (1, "DONE.TXT", b"DONE" + EOL), (2, "OUT.TXT", b"TWO NOTE FOR TWO" + EOL)]


# --- the format's model ---------------------------------------------------------------


@dataclass(frozen=True)
class ModelRecord:
    program: int
    name: str
    data: bytes


def trailer(number: int, program: int, name: str, length: int) -> bytes:
    base, _, ext = name.partition(".")
    columns = name.ljust(11) if name.startswith("(") else base.ljust(8) + ext.ljust(3)
    text = f"REC {number:04X} {program} {columns} {length:06X} "
    return EOL + text.encode("latin-1") + EOL


def model_records(atr: bytes, records: Sequence[ModelRecord], *, finished: bool = False) -> bytes:
    """The disk after these records were committed one by one (the state in the
    sector the last commit wrote, the other holding the commit before)."""
    image = AtrImage.from_bytes(atr, "model")
    disk = Dos2Disk(image)
    data_bytes = disk.geometry.data_bytes
    chain = [sector for sector, _ in disk.chain(disk.find(RECORDS_NAME))]
    state_sectors = [sector for sector, _ in disk.chain(disk.find(STATE_NAME))]
    state = RunState.unpack(image.read_sector(state_sectors[0]))
    assert state is not None
    at = 0
    for number, record in enumerate(records, start=1):
        taken = -(-(len(record.data) + 32) // data_bytes)
        body = bytearray()
        for index in range(taken):
            chunk = record.data[index * data_bytes : (index + 1) * data_bytes]
            body += (
                chunk + b" " * (data_bytes - 1 - len(chunk)) + EOL
                if len(chunk) < data_bytes
                else chunk
            )
        body[-32:] = trailer(number, record.program, record.name, len(record.data))
        for index, sector in enumerate(chain[at : at + taken]):
            raw = bytearray(image.read_sector(sector))
            raw[:data_bytes] = body[index * data_bytes : (index + 1) * data_bytes]
            image.write_sector(sector, bytes(raw))
        at += taken
        next_sector = chain[at] if at < len(chain) else 0
        state = RunState(
            state.programs,
            state.sequence + 1,
            number,
            next_sector,
            state.programs if finished else record.program - 1,
            state.boots,
        )
        sector = state_sectors[(state.sequence - 1) % 2]  # sequence 1 is in the first
        raw = bytearray(image.read_sector(sector))
        raw[: len(state.pack())] = state.pack()
        image.write_sector(sector, bytes(raw))
    return image.to_bytes()
