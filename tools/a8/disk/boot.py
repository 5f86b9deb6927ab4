"""The boot menu: a DOS-less loader in boot sectors 1-3 that runs BASIC programs.

The 6502 source is ``boot.s`` next to this module (how it works is told there and in
docs/notes/boot-loader.md). It is assembled here, in-process, with Ophis
(:mod:`a8.asm`); then this module fills in what depends on the disk: the sector size
and the places of the buffer's contents in the loader, and in sector 720 the menu line
and for each entry its key and the first sector of its file (from the DOS 2
directory). The files stay ordinary DOS 2 files; only sectors 1-3 and 720, which DOS
2.0 and 2.5 never give to a file, change (MyDOS, which does, must have it free: it
is then marked in use).

The menu is BASIC's first input line, served by the loader: ``?"<clear>TITLE":?"1
FIRST":...``. BASIC prints it once the OS has finished starting (the XL OS polls the
serial bus for peripheral handlers after a disk boot, about 2 seconds when no device
answers), then asks for its next line: the loader waits for the digit, serves ``RUN
"E:"`` and loads the chosen file at once. An empty title prints no title line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from a8.asm import AssemblyError, assemble
from a8.disk.names import FileName
from a8.errors import A8Error

if TYPE_CHECKING:  # the boot menu writes DOS 2 disks; dos2's check reads menus
    from a8.disk.dos2 import Dos2Disk

LOAD_ADDRESS = 0x0700
BOOT_SIZE = 3 * 128
#: BASIC's second input line, served by the hooked E: handler once a digit is pressed.
#: It follows the menu line (the PRINTs) in the menu's sector.
RUN_COMMAND = b'RUN "E:"\x9b'
#: ATASCII clear screen, printed before the title.
CLEAR = b"\x7d"
#: The loader's copy of the editor's vector table, after its variables.
HOOK_TABLE = 0x09F0
#: The sector buffer, right after the boot sectors: up to 256 bytes (double density).
BUFFER = LOAD_ADDRESS + BOOT_SIZE
MAX_SECTOR_SIZE = 256
#: The sector that holds the menu: DOS 2.0 and 2.5 never give it to a file.
MENU_SECTOR = 720
EOL = 0x9B
MAX_ENTRIES = 9
#: Keyboard codes (as the OS stores them in CH, $02FC) of the digit keys 1-9.
DIGIT_KEY_CODES = (0x1F, 0x1E, 0x1A, 0x18, 0x1D, 0x1B, 0x33, 0x35, 0x30)
#: Characters allowed in titles: they print as themselves in ATASCII, and a BASIC
#: string constant holds them (no quote).
TITLE_CHARACTERS = re.compile(r"[ !#-z]*")


class BootError(A8Error):
    """A boot menu that cannot be built (too long, bad title, unknown file...)."""


@dataclass(frozen=True)
class Loader:
    """The assembled loader: its bytes (from LOAD_ADDRESS) and its labels.

    The bytes are the first stage, for boot sectors 1-3, then the second stage,
    which the first copies from the end of the menu's sector to its own address.
    """

    code: bytes
    labels: Mapping[str, int]

    def end(self) -> int:
        """Where the first stage ends."""
        return self.labels["code_end"]

    @property
    def first_stage(self) -> bytes:
        return self.code[: self.end() - LOAD_ADDRESS]

    @property
    def second_stage(self) -> bytes:
        return self.code[self.end() - LOAD_ADDRESS :]


@dataclass(frozen=True)
class MenuEntry:
    """One line of the menu: the file to run and the title shown for it."""

    file_name: FileName
    title: str

    @classmethod
    def parse(cls, spec: str) -> MenuEntry:
        """``NAME.EXT`` or ``NAME.EXT=TITLE`` (the title defaults to the name)."""
        name, equals, title = spec.partition("=")
        file_name = FileName.parse(name)
        return cls(file_name, title if equals else str(file_name))


def source_text() -> str:
    return resources.files("a8.disk").joinpath("boot.s").read_text(encoding="ascii")


@functools.cache
def assemble_loader() -> Loader:
    """Assemble boot.s with Ophis (in-process, :mod:`a8.asm`) and keep its label map."""
    try:
        assembly = assemble(source_text(), "boot.s")
    except AssemblyError as error:
        raise BootError(str(error)) from None
    return Loader(assembly.code, assembly.labels)


@dataclass(frozen=True)
class BootMenu:
    """What ``a8 atr boot`` writes: the loader for sectors 1-3 and the menu's sector."""

    boot_sectors: bytes
    menu_sector: bytes


def boot_image(disk: Dos2Disk, entries: list[MenuEntry], title: str) -> BootMenu:
    """Sectors 1-3 (the loader) and sector 720 (the menu) for ``entries`` on ``disk``."""
    source = disk.image.source
    if not 1 <= len(entries) <= MAX_ENTRIES:
        raise BootError(f"{source}: the boot menu needs 1 to {MAX_ENTRIES} entries")
    for text in [title, *(entry.title for entry in entries)]:
        if not TITLE_CHARACTERS.fullmatch(text):
            raise BootError(
                f"{source}: title {text!r}: use letters, digits, spaces and punctuation only"
            )
    loader = assemble_loader()
    labels = loader.labels
    image = bytearray(loader.first_stage)
    stage2 = loader.second_stage
    geometry = disk.geometry

    table = bytearray()
    prints = [title] if title else []
    for number, entry in enumerate(entries, start=1):
        start = loadable_start(disk, entry.file_name)
        table += bytes([DIGIT_KEY_CODES[number - 1], start & 0xFF, start >> 8])
        prints.append(f"{number} {entry.title}")
    menu = ":".join(f'?"{text}"' for text in prints).encode("ascii")
    menu = menu[:2] + CLEAR + menu[2:] + bytes([EOL])  # the first PRINT clears the screen
    line = menu + RUN_COMMAND
    room = geometry.data_bytes - len(stage2)
    if len(line) + len(table) > room:
        raise BootError(
            f"{source}: boot menu {len(line) + len(table) - room} bytes too long for "
            f"sector {MENU_SECTOR} (shorten the titles or use fewer entries)"
        )
    check_layout(loader)
    image = image.ljust(BOOT_SIZE, b"\0")

    def patch(label: str, value: int) -> None:
        image[labels[label] + 1 - LOAD_ADDRESS] = value

    def patch_word(at: int, value: int) -> None:
        image[at - LOAD_ADDRESS : at - LOAD_ADDRESS + 2] = value.to_bytes(2, "little")

    patch_word(labels["p_secsz"], geometry.sector_size)
    for label, offset in TABLE_OPERANDS.items():
        patch_word(labels[label] + 1, BUFFER + len(line) + offset)
    patch_word(labels["p_stage"] + 1, BUFFER + room)
    patch("p_all", len(line))
    patch("p_entry3", len(table))
    patch("p_link", geometry.data_bytes)
    # the menu's sector reads as a file's last sector: no next one, the menu line's length
    link = bytes([0, 0, len(menu)])
    menu_sector = (line + table).ljust(room, b"\0") + stage2 + link
    return BootMenu(bytes(image), menu_sector)


def check_layout(loader: Loader) -> None:
    """The memory plan boot.s and this module share (a BootError if boot.s broke it)."""
    labels = loader.labels
    problems = []
    if len(loader.first_stage) > BOOT_SIZE:
        problems.append(f"the first stage takes {len(loader.first_stage)} bytes of {BOOT_SIZE}")
    if loader.end() > BUFFER:
        problems.append("the first stage runs into the sector buffer")
    at = labels["dcbbuf"] - LOAD_ADDRESS
    if int.from_bytes(loader.code[at : at + 2], "little") != BUFFER:
        problems.append(f"the sector buffer must be at ${BUFFER:04X}")
    if labels["stage2"] < BUFFER + MAX_SECTOR_SIZE or labels["stage2end"] > labels["lastlen"]:
        problems.append("the second stage must lie between the buffer and the variables")
    if labels["hooktab"] != HOOK_TABLE:
        problems.append(f"the hook table must be at ${HOOK_TABLE:04X}")
    if problems:
        raise BootError("boot.s: " + "; ".join(problems))


def loadable_start(disk: Dos2Disk, name: FileName) -> int:
    """The first sector of ``name``, if the loader can follow its chain to the end.

    The loader reads ordinary DOS 2 links (a 10-bit next sector); MyDOS files with
    16-bit links, and files whose chain DOS itself could not follow, are refused.
    """
    entry = disk.find(str(name))
    if entry.long_links:
        raise BootError(
            f"{disk.image.source}: {entry.name} has MyDOS 16-bit sector links, which the "
            "boot loader cannot follow"
        )
    disk.chain(entry)
    return entry.start


def install_boot_menu(disk: Dos2Disk, entries: list[MenuEntry], title: str) -> None:
    """Write the loader into boot sectors 1-3 of ``disk`` and its menu into sector 720."""
    menu = boot_image(disk, entries, title)
    if MENU_SECTOR in disk.owned_sectors():
        raise BootError(
            f"{disk.image.source}: sector {MENU_SECTOR}, where the boot menu goes, is part of "
            "a file (MyDOS gives it to files); the image is unchanged"
        )
    disk.write_system_sector(MENU_SECTOR, menu.menu_sector)
    disk.write_boot(menu.boot_sectors)


#: Labels of the bytes boot_image patches: one-byte operands, the instructions that
#: read the menu table in the buffer (their address operand: the table + this offset)
#: or copy the second stage from it, and words.
PATCHED_OPERANDS = ("p_all", "p_entry3", "p_link")
TABLE_OPERANDS = {"p_table0": 0, "p_table1": 1, "p_table2": 2}
STAGE_OPERANDS = ("p_stage",)
PATCHED_WORDS = ("p_secsz",)


def menu_start_sectors(boot_sectors: bytes, menu_sector: bytes) -> list[int] | None:
    """The first sectors the menu loads, or None if ``boot_sectors`` are not our loader.

    The loader is recognised by its code, the patched bytes left out; the files can
    change after ``a8 atr boot`` (DOS rewrites a file elsewhere), so ``check`` uses
    this to find menu entries that no longer start a file. A menu that cannot be
    ours (a damaged entry count or table place) is a :class:`BootError`.
    """
    loader = assemble_loader()
    labels = loader.labels
    skipped = {labels[name] + 1 - LOAD_ADDRESS for name in PATCHED_OPERANDS}
    for name in [*TABLE_OPERANDS, *STAGE_OPERANDS]:
        skipped |= {labels[name] + 1 - LOAD_ADDRESS, labels[name] + 2 - LOAD_ADDRESS}
    for name in PATCHED_WORDS:
        skipped |= {labels[name] - LOAD_ADDRESS, labels[name] + 1 - LOAD_ADDRESS}
    code = loader.first_stage
    if len(boot_sectors) < len(code) or any(
        boot_sectors[i] != code[i] for i in range(len(code)) if i not in skipped
    ):
        return None
    table_bytes = boot_sectors[labels["p_entry3"] + 1 - LOAD_ADDRESS]
    entries = table_bytes // 3
    if table_bytes % 3 or not 1 <= entries <= MAX_ENTRIES:
        raise BootError(f"boot menu: its table holds {table_bytes} bytes, not 3 per entry (1-9)")
    at = labels["p_table0"] + 1 - LOAD_ADDRESS
    offset = int.from_bytes(boot_sectors[at : at + 2], "little") - BUFFER
    table = menu_sector[offset : offset + 3 * entries] if offset >= 0 else b""
    room = len(menu_sector) - 3 - len(loader.second_stage)
    if len(table) < 3 * entries or offset + 3 * entries > room:
        raise BootError(f"boot menu: its {entries} entries run past sector {MENU_SECTOR}'s data")
    return [table[i + 1] | table[i + 2] << 8 for i in range(0, len(table), 3)]
