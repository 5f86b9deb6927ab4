"""The machine record: what the Atari that booted a recording disk is, in its own words.

At the start of every boot the recording disk's boot code (``recording.s``) writes
a record of the machine, read on the machine itself, before BASIC starts: the
identification bytes the OS and BASIC carry, a check of each ROM as the CPU sees
it, GTIA's PAL register, MEMLO and MEMTOP, and the devices in the handler table
before its own H: joined them. The text (ATASCII lines)::

    MACHINE 1
    BOOT 01 PROGRAM 1
    TV NTSC D014 0F
    OS FFEE 10 05 83 02 42 42 00 00 01 02 8C 6C
    OS C000 11 92 FCD8 xx
    OS SUM C000-CFFF 1A86F9D0 D800-FFFF 13B9A228
    BASIC A8E2 EA BFFA 00 A0 00 05 F0 BF
    BASIC A000 xx xx ... (32 bytes)
    BASIC SUM A000-BFFF E6D12084
    MEMLO 129A MEMTOP 9C1F
    HATABS PCESK

Naming the ROMs uses only documented identification bytes, never a table of the
genuine ROMs' checks (this repository holds nothing derived from Atari's ROMs):

* OS: $FCD8 = $A2 is the 400/800 OS; otherwise the XL/XE version block at
  $FFEE-$FFF7 (date, option byte, part number, revision): option byte 1 is the
  1200XL, revision N an XL/XE OS rev. N (the 800XL's is rev. 2, dated 10 May
  1983). AltirraOS writes the part number "CX" and revision 0 there (its kernel
  source).
* BASIC: Altirra BASIC's banner ("Altirra 8K BASIC 1.55") near $A000, else
  Atari BASIC's revision byte at $A8E2: $A2 rev. A, $60 rev. B, $EA rev. C.

The checks ("SUM"): s1, the sum of the bytes, and s2, the sum of s1 after each
byte, both mod 65536, written s2 then s1 in hex. :func:`rom_check` computes the
same from a ROM file, so a user can confirm that the ROMs in the machine were
exactly their files (:meth:`MachineRecord.os_matches`). An emulator that patches
its OS in memory shows other checks: atari800 puts escape codes where it takes
over SIO (unless ``-nopatch``) and the H: and P: devices (unless they are
disabled), and on an XL OS turns the checksum test into NOPs whenever it patches
anything; with none of these the machine's check is the file's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from a8.errors import A8Error

#: The checks' ranges: the XL OS outside the I/O area ($D000-$D7FF), BASIC's 8 KB.
OS_LOW: Final = (0xC000, 0xD000)
OS_HIGH: Final = (0xD800, 0x10000)
BASIC_RANGE: Final = (0xA000, 0xC000)

#: Atari BASIC's revision byte at $A8E2 (the platform facts: rev. C measured 234).
BASIC_REVISIONS: Final = {
    0xA2: "Atari BASIC rev. A",
    0x60: "Atari BASIC rev. B",
    0xEA: "Atari BASIC rev. C",
}
#: The 400/800 OS has $A2 at $FCD8 (cc65's get_ostype, from Freddy Offenga's rominfo).
OS_800_MARK: Final = 0xA2
_ALTIRRA_BASIC = re.compile(rb"Altirra 8K BASIC (\d+\.\d+)")

_HEX2 = r"([0-9A-F]{2})"
_HEX8 = r"([0-9A-F]{8})"
_LINES: Final = (
    re.compile(r"MACHINE 1"),
    re.compile(rf"BOOT {_HEX2} PROGRAM ([1-9])"),
    re.compile(rf"TV (NTSC|PAL) D014 {_HEX2}"),
    re.compile(r"OS FFEE((?: [0-9A-F]{2}){12})"),
    re.compile(rf"OS C000((?: [0-9A-F]{{2}}){{2}}) FCD8 {_HEX2}"),
    re.compile(rf"OS SUM C000-CFFF {_HEX8} D800-FFFF {_HEX8}"),
    re.compile(rf"BASIC A8E2 {_HEX2} BFFA((?: [0-9A-F]{{2}}){{6}})"),
    re.compile(r"BASIC A000((?: [0-9A-F]{2}){32})"),
    re.compile(rf"BASIC SUM A000-BFFF {_HEX8}"),
    re.compile(r"MEMLO ([0-9A-F]{4}) MEMTOP ([0-9A-F]{4})"),
    re.compile(r"HATABS ([!-~]{0,12})"),
)


class MachineRecordError(A8Error):
    """A machine record that does not read as one."""


def rom_check(data: bytes) -> int:
    """The boot code's check of a ROM's bytes: s2 << 16 | s1 (see the module docstring)."""
    low = high = 0
    for byte in data:
        low = (low + byte) & 0xFFFF
        high = (high + low) & 0xFFFF
    return high << 16 | low


@dataclass(frozen=True)
class MachineRecord:
    """One boot's machine record, as read from the disk."""

    #: The boot it was written at (1 for the first).
    boot: int
    #: The program that boot started, from 1.
    program: int
    tv: str
    pal_register: int
    #: $FFEE-$FFF9: the XL/XE version block and the second checksum word.
    os_id: bytes
    #: $C000-$C001: the XL OS's first checksum word.
    os_c000: bytes
    os_fcd8: int
    #: The checks of $C000-$CFFF and $D800-$FFFF.
    os_checks: tuple[int, int]
    basic_a8e2: int
    #: $BFFA-$BFFF: the cartridge's start address, flags and init address.
    basic_bffa: bytes
    #: $A000-$A01F (where Altirra BASIC keeps its banner).
    basic_a000: bytes
    basic_check: int
    memlo: int
    memtop: int
    #: The devices in the handler table at boot, before the disk's H: (``PCESK``
    #: on a machine with no other handler).
    devices: str

    @classmethod
    def parse(cls, text: bytes, where: str) -> MachineRecord:
        """The record's ATASCII text; a :class:`MachineRecordError` naming ``where``
        and the line when it is not one the boot code writes."""
        lines = text.split(b"\x9b")
        if lines and lines[-1] == b"":
            lines.pop()
        if len(lines) != len(_LINES):
            raise MachineRecordError(
                f"{where}: a machine record has {len(_LINES)} lines, this one {len(lines)}"
            )
        found = []
        for number, (line, pattern) in enumerate(zip(lines, _LINES, strict=True), start=1):
            match = pattern.fullmatch(line.decode("latin-1"))
            if match is None:
                raise MachineRecordError(f"{where}: line {number} is not a machine record's")
            found.append(match.groups())
        (
            _,
            (boot, program),
            (tv, pal),
            (os_id,),
            (os_c000, fcd8),
            (low, high),
            (a8e2, bffa),
            (a000,),
            (basic,),
            (memlo, memtop),
            (devices,),
        ) = found
        return cls(
            boot=int(boot, 16),
            program=int(program),
            tv=tv,
            pal_register=int(pal, 16),
            os_id=bytes.fromhex(os_id),
            os_c000=bytes.fromhex(os_c000),
            os_fcd8=int(fcd8, 16),
            os_checks=(int(low, 16), int(high, 16)),
            basic_a8e2=int(a8e2, 16),
            basic_bffa=bytes.fromhex(bffa),
            basic_a000=bytes.fromhex(a000),
            basic_check=int(basic, 16),
            memlo=int(memlo, 16),
            memtop=int(memtop, 16),
            devices=devices,
        )

    # -- naming ----------------------------------------------------------------------

    @property
    def os_name(self) -> str:
        """The OS, from its identification bytes (see the module docstring)."""
        if self.os_fcd8 == OS_800_MARK:
            return "Atari 400/800 OS"
        date, option, part, revision = (
            self.os_id[0:3],
            self.os_id[3],
            self.os_id[4:9],
            self.os_id[9],
        )
        if part[:2] == b"CX" and revision == 0:
            return "AltirraOS"
        dated = f"dated {date[0]:02X}/{date[1]:02X}/{date[2]:02X}"
        if option == 1:
            return f"1200XL OS rev. {revision} ({dated})"
        if part[:2] == b"BB" and 1 <= revision <= 9:
            return f"XL/XE OS rev. {revision} ({dated})"
        return f"an OS I do not know (FFEE-FFF7: {self.os_id[:10].hex(' ').upper()})"

    @property
    def basic_name(self) -> str:
        """BASIC, from its banner or revision byte (see the module docstring)."""
        match = _ALTIRRA_BASIC.search(self.basic_a000)
        if match:
            return f"Altirra BASIC {match.group(1).decode('ascii')}"
        known = BASIC_REVISIONS.get(self.basic_a8e2)
        if known is not None:
            return known
        return f"a BASIC I do not know (A8E2: {self.basic_a8e2:02X})"

    # -- confirming ROM files --------------------------------------------------------

    def os_matches(self, image: bytes) -> bool:
        """Whether an OS ROM file (16 KB XL/XE, or 10 KB 400/800) has the machine's checks."""
        if len(image) == 0x4000:
            low = rom_check(image[0x0000:0x1000])
            high = rom_check(image[0x1800:0x4000])
            return (low, high) == self.os_checks
        if len(image) == 0x2800:
            return rom_check(image) == self.os_checks[1]
        raise MachineRecordError(f"an OS ROM file has 16384 or 10240 bytes, not {len(image)}")

    def basic_matches(self, image: bytes) -> bool:
        """Whether a BASIC ROM file (8 KB) has the machine's check."""
        if len(image) != 0x2000:
            raise MachineRecordError(f"a BASIC ROM file has 8192 bytes, not {len(image)}")
        return rom_check(image) == self.basic_check

    def describe(self) -> list[str]:
        """The record for people: what the machine was, one fact a line."""
        low, high = self.os_checks
        return [
            f"boot {self.boot}, starting program {self.program}",
            f"OS: {self.os_name} (checks C000-CFFF {low:08X}, D800-FFFF {high:08X})",
            f"BASIC: {self.basic_name} (check A000-BFFF {self.basic_check:08X})",
            f"TV: {self.tv} (PAL register {self.pal_register:02X})",
            f"MEMLO ${self.memlo:04X} ({self.memlo}), MEMTOP ${self.memtop:04X}",
            f"devices before the disk's H: {self.devices or 'none'}",
        ]
