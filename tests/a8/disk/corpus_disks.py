"""The corpus of real disks (tests/a8/disk/corpus): what corpus.json records, and the images."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from a8.disk.atr import AtrImage
from a8.disk.detect import open_disk

CORPUS = Path(__file__).parent / "corpus"


@dataclass(frozen=True)
class CorpusDisk:
    """One real disk: its fixture file and what ``a8 atr`` must find on it."""

    file: str
    file_system: str
    problems: tuple[str, ...]
    files: int
    binary_load_files: int

    def data(self) -> bytes:
        return gzip.decompress((CORPUS / self.file).read_bytes())

    def image(self) -> AtrImage:
        return AtrImage.from_bytes(self.data(), self.file)

    def write_to(self, folder: Path) -> Path:
        path = folder / self.file.removesuffix(".gz")
        path.write_bytes(self.data())
        return path

    def __str__(self) -> str:
        return self.file.removesuffix(".atr.gz")


def corpus_disks() -> list[CorpusDisk]:
    entries = json.loads((CORPUS / "corpus.json").read_text(encoding="utf-8"))
    return [
        CorpusDisk(
            e["file"],
            e["file_system"],
            tuple(e["problems"]),
            e["files"],
            e["binary_load_files"],
        )
        for e in entries
    ]


def corpus_disk(name: str) -> CorpusDisk:
    return next(disk for disk in corpus_disks() if str(disk) == name)


def read_every_file(image: AtrImage) -> list[tuple[str, bytes]]:
    """Every file on the disk, read by its path, as ``get`` does (none where a8 reads none)."""
    disk = open_disk(image)
    return [(path, disk.read_file(path)) for path in disk.paths()]


def is_binary_load_file(data: bytes) -> bool:
    """An Atari binary load file whose segments account for every byte, exactly.

    $FF $FF, then segments of start and end address (end >= start) and their bytes,
    optionally separated by $FF $FF again. A file read with one sector too many,
    too few or in the wrong order breaks this, which makes it a check of ``get``
    that does not come from our own reader.
    """
    if len(data) < 6 or data[:2] != b"\xff\xff":
        return False
    offset = 0
    while offset < len(data):
        if data[offset : offset + 2] == b"\xff\xff":
            offset += 2
        if offset + 4 > len(data):
            return False
        start = data[offset] | data[offset + 1] << 8
        end = data[offset + 2] | data[offset + 3] << 8
        if end < start:
            return False
        offset += 4 + end - start + 1
    return offset == len(data)
