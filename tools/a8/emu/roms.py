"""The machine's ROMs: the user's own image files, how atari800 is told to use them,
and how a run proves which ROMs the machine really ran.

Three kinds of image: the XL/XE operating system (16 KB), the 400/800 operating
system (10 KB) and the BASIC cartridge (8 KB). Without a file atari800's built-in
AltirraOS and Altirra BASIC are used.

atari800 is given the images through its configuration file, never on its command
line (:mod:`a8.emu.atari800.command` says why).

Proof: the runner reads the machine's memory through the monitor
(:mod:`a8.emu.atari800.monitor`) and compares what the CPU sees with the file: the OS in
C000-CFFF and D800-FFFF (the XL's self-test part, 1000-17FF of the image, is seen
at 5000-57FF only while the program maps it in), BASIC in A000-BFFF. An image
that is in view and differs from the file is an error, never a silent fallback.
Images are named from their CRC32 (the list atari800 knows, from its sysrom.c)
or from the text Altirra's ROMs carry.

atari800 itself changes a few bytes of the OS it loads (src/esc.c, devices.c):
its SIO patch and device patches put an escape sequence (the unused opcode F2 and
a code byte, often followed by RTS, or D2, escape-and-return, and a code byte)
where the OS's routine starts, and on an XL it turns the checksum test that would
flag a modified ROM into two NOPs. Those bytes
are counted apart; every other byte must be the file's.
"""

from __future__ import annotations

import enum
import os
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from a8.errors import UsageError
from a8.reading import read_at_most

Machine = Literal["xl", "800"]


class RomError(UsageError):
    """A ROM file that cannot be used (missing, unreadable, the wrong size): a set-up
    problem, exit status 2."""


class RomKind(enum.Enum):
    """The kinds of ROM image, with their size and atari800's configuration keys."""

    XL_OS = ("an XL/XE OS", 0x4000, "ROM_XL/XE_CUSTOM", "OS_XL/XE_VERSION")
    OS_800 = ("a 400/800 OS", 0x2800, "ROM_400/800_CUSTOM", "OS_400/800_VERSION")
    BASIC = ("a BASIC", 0x2000, "ROM_BASIC_CUSTOM", "BASIC_VERSION")

    def __init__(self, spelled: str, size: int, file_key: str, version_key: str) -> None:
        self.article, self.title = spelled.split(" ", 1)
        self.size = size
        self.file_key = file_key
        self.version_key = version_key

    @property
    def role(self) -> str:
        """What the image is in the machine: ``OS`` or ``BASIC``."""
        return "BASIC" if self is RomKind.BASIC else "OS"


#: Environment variables naming the user's own ROM files (used when no path is given).
OS_ROM_ENV: Final = "A8_OS_ROM"  # XL/XE operating system (16 KB)
OS_800_ROM_ENV: Final = "A8_800_OS_ROM"  # 400/800 operating system (10 KB)
BASIC_ROM_ENV: Final = "A8_BASIC_ROM"  # BASIC cartridge (8 KB)
ENVIRONMENT: Final[Mapping[RomKind, str]] = {
    RomKind.XL_OS: OS_ROM_ENV,
    RomKind.OS_800: OS_800_ROM_ENV,
    RomKind.BASIC: BASIC_ROM_ENV,
}

#: Images atari800 5.0.0 knows by CRC32 (its src/sysrom.c), with the names we print
#: after "OS: " or "BASIC: " (Atari BASIC's revisions are plain "rev. C").
KNOWN_IMAGES: Final[Mapping[int, str]] = {
    0xC1B3BB02: "400/800 rev. A (NTSC)",
    0x72B3FED4: "400/800 rev. A (PAL)",
    0x0E86D61D: "400/800 rev. B (NTSC)",
    0xC5C11546: "1200XL rev. 10",
    0x1A1D7B1B: "1200XL rev. 11",
    0x643BCC98: "XL/XE rev. 1",
    0x1F9CD270: "XL/XE rev. 2",
    0x0D477AA1: "XL/XE rev. 3A",
    0xD425A9CF: "XL/XE rev. 3B",
    0x0E000B99: "XL/XE rev. 5",
    0x29F133F7: "XL/XE rev. 3",
    0x1EAF4002: "XL/XE rev. 4 (XEGS)",
    0x45F47988: "XL/XE rev. 59",
    0xF0A236D3: "XL/XE rev. 59A",
    0x4BEC4DE2: "rev. A",
    0xF0202FB3: "rev. B",
    0x7D684184: "rev. C",
}

#: Where the CPU sees each part of an image: (offset in the image, address, length).
#: The XL OS's self-test part (offset 1000) is at 5000 only while PORTB bit 7 is 0.
LAYOUT: Final[Mapping[RomKind, tuple[tuple[int, int, int], ...]]] = {
    RomKind.XL_OS: ((0x0000, 0xC000, 0x1000), (0x1800, 0xD800, 0x2800)),
    RomKind.OS_800: ((0x0000, 0xD800, 0x2800),),
    RomKind.BASIC: ((0x0000, 0xA000, 0x2000),),
}
XL_SELF_TEST: Final = (0x1000, 0x5000, 0x0800)

#: atari800's escape opcodes (illegal 6502 opcodes it traps: escape, escape-and-return)
#: and where it puts two NOPs in an XL OS to keep a modified ROM's checksum from counting.
ESCAPE_OPCODE: Final = 0xF2
ESCAPE_RTS_OPCODE: Final = 0xD2
RTS_OPCODE: Final = 0x60
NOP_OPCODE: Final = 0xEA
CHECKSUM_TEST_PATCHES: Final = frozenset({0xC3D2, 0xC346, 0xC32B, 0xC31D, 0xC32C, 0xC2E0})

#: PORTB bits of the XL (active low except the OS ROM bit).
PORTB_OS_ROM: Final = 0x01
PORTB_BASIC_OFF: Final = 0x02
PORTB_SELF_TEST_OFF: Final = 0x80


def os_kind(machine: Machine) -> RomKind:
    return RomKind.XL_OS if machine == "xl" else RomKind.OS_800


@dataclass(frozen=True)
class RomImage:
    """A ROM file's bytes, checked for size, and where they came from."""

    kind: RomKind
    data: bytes
    #: The file as the user named it, and how (``--os-rom`` or an environment variable).
    path: Path
    source: str

    @property
    def crc32(self) -> int:
        return zlib.crc32(self.data)

    @property
    def name(self) -> str:
        """What the image is: a known name by CRC32, Altirra's own text, or "unknown"."""
        return image_name(self.kind, self.data)

    def describe(self) -> str:
        return f"{self.name} (CRC32 {self.crc32:08X})"


def load_rom(path: Path, kind: RomKind, source: str = "") -> RomImage:
    """Read and check a ROM file; every problem is a one-line :class:`RomError`."""
    where = f"{path}{f' (from {source})' if source else ''}"
    largest = max(other.size for other in RomKind)
    try:
        data = read_at_most(path, largest)  # /dev/zero or a disk image is not read whole
    except FileNotFoundError:
        raise RomError(f"{where}: ROM file not found") from None
    except IsADirectoryError:
        raise RomError(f"{where}: is a folder, not a ROM file") from None
    except OSError as error:
        raise RomError(f"{where}: cannot read the ROM file: {error.strerror}") from None
    if len(data) > largest:
        raise RomError(f"{where}: more than {largest} bytes, {_size_hint(kind, len(data))}")
    if len(data) != kind.size:
        raise RomError(f"{where}: {len(data)} bytes, {_size_hint(kind, len(data))}")
    return RomImage(kind, data, path, source)


def _size_hint(kind: RomKind, size: int) -> str:
    text = f"{kind.article} {kind.title} ROM has {kind.size}"
    others = [other for other in RomKind if other.size == size and other is not kind]
    if others:
        text += f" (that is the size of {others[0].article} {others[0].title} ROM)"
    return text


def resolve_rom(given: Path | None, kind: RomKind, flag: str) -> RomImage | None:
    """The image named by ``given`` or by the kind's environment variable, if any."""
    if given is not None:
        return load_rom(given, kind, flag)
    variable = ENVIRONMENT[kind]
    value = os.environ.get(variable)
    return load_rom(Path(value), kind, f"${variable}") if value else None


# --- naming images ------------------------------------------------------------------

_ALTIRRA_OS = re.compile(rb"AltirraOS(?: for [A-Z/]+)? (\d+\.\d+)")
_ALTIRRA_BASIC = re.compile(rb"Altirra 8K BASIC (\d+\.\d+)")


def image_name(kind: RomKind, data: bytes) -> str:
    """A name for a whole image: by CRC32, else Altirra's own text, else unknown."""
    known = KNOWN_IMAGES.get(zlib.crc32(data))
    if known is not None:
        return known
    if kind is RomKind.BASIC:
        match = _ALTIRRA_BASIC.search(data)
        return f"Altirra BASIC {match.group(1).decode()}" if match else "unknown BASIC"
    match = _ALTIRRA_OS.search(data) or _ALTIRRA_OS.search(internal_to_atascii(data))
    if match:
        return f"AltirraOS {match.group(1).decode()}"
    return f"unknown {kind.title}"


def internal_to_atascii(data: bytes) -> bytes:
    """Screen (internal) codes turned into ATASCII: the XL self test's text is stored so."""
    table = bytearray(256)
    for value in range(256):
        low = value & 0x7F
        spelled = low + 0x20 if low < 0x40 else low - 0x40 if low < 0x60 else low
        table[value] = spelled | (value & 0x80)
    return data.translate(bytes(table))


# --- proving what the machine runs ---------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    """The first byte where the machine's ROM differs from the file given."""

    address: int
    expected: int
    seen: int


@dataclass(frozen=True)
class RomCheck:
    """What the looks at the machine's memory showed about one ROM.

    ``image`` is the file given (None: atari800's built-in image). ``looks`` counts
    the memory snapshots that had the ROM in view; ``seen`` is the whole image as
    read from the machine, once every part of it was in view at one look (the XL
    OS's self-test part rarely is).
    """

    kind: RomKind
    image: RomImage | None
    looks: int = 0
    checked_bytes: int = 0
    #: Bytes that differ only by atari800's own patches (see the module docstring).
    patched_bytes: int = 0
    mismatch: Mismatch | None = None
    seen: bytes | None = None

    @property
    def role(self) -> str:
        return self.kind.role

    @property
    def proven(self) -> bool:
        """The ROM was in view at least once and always equal to the file (if any)."""
        return self.looks > 0 and self.mismatch is None

    @property
    def name(self) -> str:
        """The ROM's name: the file's, or read from the machine for the built-in one."""
        if self.image is not None:
            return self.image.describe()
        if self.seen is not None:
            crc = zlib.crc32(self.seen)
            return f"{image_name(self.kind, self.seen)} (built-in, CRC32 {crc:08X})"
        return "Altirra BASIC (built-in)" if self.kind is RomKind.BASIC else "AltirraOS (built-in)"

    def report(self) -> str:
        """One line: ``OS: XL/XE rev. 2 (CRC32 1F9CD270), from FILE: ...``."""
        head = f"{self.role}: {self.name}"
        if self.image is not None:
            head += f", from {self.image.path}"
        if self.mismatch is not None:
            miss = self.mismatch
            return (
                f"{head}: NOT what the machine runs ({miss.address:04X} holds "
                f"{miss.seen:02X} in the machine, {miss.expected:02X} in the file)"
            )
        if self.looks == 0:
            return f"{head}: never in view (the program had mapped it out at every look)"
        if self.image is None:
            return head
        patched = ""
        if self.patched_bytes:
            patched = f" except {self.patched_bytes} that atari800 patches"
        return f"{head}: in the machine ({self.checked_bytes} bytes in view, all equal{patched})"

    def look(self, memory: bytes, portb: int | None) -> RomCheck:
        """This check updated with one 64 KB snapshot of what the CPU sees."""
        parts = list(LAYOUT[self.kind])
        if self.kind is not RomKind.OS_800 and portb is not None:
            if self.kind is RomKind.XL_OS:
                if not portb & PORTB_OS_ROM:
                    return self
                if not portb & PORTB_SELF_TEST_OFF:
                    parts.append(XL_SELF_TEST)
            elif portb & PORTB_BASIC_OFF:
                return self
        seen = bytearray(self.kind.size)
        covered = checked = patched = 0
        mismatch = self.mismatch
        for offset, address, length in parts:
            view = memory[address : address + length]
            seen[offset : offset + length] = view
            covered += length
            if self.image is None or mismatch is not None:
                continue
            expected = self.image.data[offset : offset + length]
            checked += length
            for at in (i for i in range(length) if view[i] != expected[i]):
                if self.kind.role == "OS" and emulator_patch(memory, address + at):
                    patched += 1
                else:
                    mismatch = Mismatch(address + at, expected[at], view[at])
                    break
        whole = bytes(seen) if covered == self.kind.size else self.seen
        checked = max(self.checked_bytes, checked)
        patched = max(self.patched_bytes, patched)
        return RomCheck(self.kind, self.image, self.looks + 1, checked, patched, mismatch, whole)


def emulator_patch(memory: bytes, address: int) -> bool:
    """Whether the OS byte at ``address`` is one atari800 wrote (see the module docstring)."""
    value = memory[address]
    if address in CHECKSUM_TEST_PATCHES or address - 1 in CHECKSUM_TEST_PATCHES:
        return value == NOP_OPCODE
    before = memory[address - 1]
    two_before = memory[address - 2]
    return (
        value in (ESCAPE_OPCODE, ESCAPE_RTS_OPCODE)
        or before in (ESCAPE_OPCODE, ESCAPE_RTS_OPCODE)
        or (two_before == ESCAPE_OPCODE and value == RTS_OPCODE)
    )
