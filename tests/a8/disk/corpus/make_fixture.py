"""Turn a real disk image into a corpus fixture: DOS files and unused sectors zeroed, gzipped.

    python tests/a8/disk/corpus/make_fixture.py SOURCE.ATR NAME

writes tests/a8/disk/corpus/NAME.atr.gz and prints the line to add to corpus.json
(the file system a8 names and the problems ``check`` finds, to be verified by
hand before they are recorded).

What is kept: the ATR header, the boot sectors, the VTOC/bitmap, every directory,
every link and sector map, and the data of the ordinary files. What is zeroed:

- the data bytes of the DOSes themselves (DOS*.SYS, DUP*.SYS and *.DOS files, live
  or deleted): Atari's DOS.SYS and DUP.SYS, and the other DOSes' files, are not
  ours to commit. Their link bytes stay, so the chains read the same.
- every sector no file, directory or system structure uses (leftovers of deleted
  files, which may hold anything).

The output is deterministic (gzip with mtime 0), so re-running it gives the same
bytes.
"""

from __future__ import annotations

import fnmatch
import gzip
import json
import sys
from pathlib import Path

from a8.disk.atr import AtrImage
from a8.disk.check import check_image
from a8.disk.detect import open_disk
from a8.disk.dos2 import DIRECTORY_LENGTH, Dos2Disk, system_sectors
from a8.disk.sparta import SpartaDisk

HERE = Path(__file__).parent
DOS_FILES = ("DOS*.SYS", "DUP*.SYS", "*.DOS")


def is_dos_file(name: str) -> bool:
    return any(fnmatch.fnmatch(name.upper(), pattern) for pattern in DOS_FILES)


def zero_dos2(image: AtrImage) -> None:
    disk = Dos2Disk(image)
    keep = set(system_sectors(disk.geometry))
    for directory in disk.directory_sectors():
        keep.update(range(directory, directory + DIRECTORY_LENGTH))
        for entry in disk.entries(directory):
            if entry.is_end:
                break
            walked = disk.walk_chain(entry).sectors
            if is_dos_file(str(entry.name)):
                for sector, _ in walked:
                    raw = bytearray(image.read_sector(sector))
                    raw[: disk.geometry.data_bytes] = bytes(disk.geometry.data_bytes)
                    image.write_sector(sector, bytes(raw))
            if not entry.deleted:
                keep.update(sector for sector, _ in walked)
    _zero_others(image, keep)


def zero_sparta(image: AtrImage) -> None:
    disk = SpartaDisk(image)
    block = disk.superblock
    keep = {1, 2, 3, *range(block.first_bitmap, block.first_bitmap + block.bitmap_count)}
    pending = [(block.root_map, None, False)]
    while pending:
        first_map, size, is_dos = pending.pop()
        walked = disk.walk_map(first_map, size)
        keep.update(walked.map_sectors)
        for sector in walked.data_sectors:
            if sector and is_dos:
                image.write_sector(sector, bytes(image.sector_size))
            elif sector:
                keep.add(sector)
        if size is None:
            for entry in disk.listed(first_map):
                dos = is_dos_file(str(entry.name))
                pending.append((entry.map_sector, None if entry.is_directory else entry.size, dos))
    _zero_others(image, keep)


def _zero_others(image: AtrImage, keep: set[int]) -> None:
    for sector in range(4, image.sector_count + 1):
        if sector not in keep:
            image.write_sector(sector, bytes(image.size_of(sector)))


def main(source: str, name: str) -> None:
    image = AtrImage.read(source)
    disk = open_disk(image)
    if isinstance(disk, Dos2Disk):
        zero_dos2(image)
    elif isinstance(disk, SpartaDisk):
        zero_sparta(image)
    data = image.to_bytes()
    target = HERE / f"{name}.atr.gz"
    target.write_bytes(gzip.compress(data, mtime=0))
    report = check_image(AtrImage.from_bytes(data, name))
    print(
        json.dumps(
            {
                "file": target.name,
                "file_system": report.identity.name,
                "problems": sorted({p.kind.value for p in report.problems}),
            }
        )
    )


if __name__ == "__main__":
    main(*sys.argv[1:3])
