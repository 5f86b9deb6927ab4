"""The boot menu: a DOS-less loader in boot sectors 1-3 that runs BASIC programs.

The 6502 source is ``boot.s`` next to this module (how it works is told there and in
docs/notes/boot-loader.md). It is assembled here, in-process, with Ophis (:mod:`a8.asm`); then
this module fills in what depends on the disk: the sector size, the menu line, and
for each entry its key and the first sector of its file (from the DOS 2 directory).
The files stay ordinary DOS 2 files; only sectors 1-3 change.

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
#: It follows the menu line (the PRINTs) in the last bytes of the boot image, where
#: the loader's sector buffer starts.
RUN_COMMAND = b'RUN "E:"\x9b'
#: ATASCII clear screen, printed before the title.
CLEAR = b"\x7d"
#: The loader's copy of the editor's vector table: the sector buffer ends before it.
HOOK_TABLE = 0x0977
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
    """The assembled loader: its bytes (from LOAD_ADDRESS) and its labels."""

    code: bytes
    labels: Mapping[str, int]

    def end(self) -> int:
        return LOAD_ADDRESS + len(self.code)


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


def boot_image(disk: Dos2Disk, entries: list[MenuEntry], title: str) -> bytes:
    """The 384 bytes of sectors 1-3 for a menu of ``entries`` on ``disk``."""
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
    image = bytearray(loader.code)

    table = bytearray()
    prints = [title] if title else []
    for number, entry in enumerate(entries, start=1):
        start = loadable_start(disk, entry.file_name)
        table += bytes([DIGIT_KEY_CODES[number - 1], start & 0xFF, start >> 8])
        prints.append(f"{number} {entry.title}")
    menu = ":".join(f'?"{text}"' for text in prints).encode("ascii")
    menu = menu[:2] + CLEAR + menu[2:] + bytes([EOL])  # the first PRINT clears the screen
    line = menu + RUN_COMMAND
    if labels["table"] != loader.end():
        raise BootError("boot.s: the menu table must follow the code")
    image += table
    if len(image) + len(line) > BOOT_SIZE:
        raise BootError(
            f"{source}: boot menu {len(image) + len(line) - BOOT_SIZE} bytes too long for "
            "sectors 1-3 (shorten the titles or use fewer entries)"
        )
    buffer = LOAD_ADDRESS + BOOT_SIZE - len(line)
    if buffer + disk.geometry.sector_size > HOOK_TABLE or labels["hooktab"] != HOOK_TABLE:
        raise BootError("boot.s: the sector buffer must end before the hook table")
    image = image.ljust(BOOT_SIZE - len(line), b"\0") + line

    def patch(label: str, value: int) -> None:
        image[labels[label] + 1 - LOAD_ADDRESS] = value

    def patch_word(at: int, value: int) -> None:
        image[at - LOAD_ADDRESS : at - LOAD_ADDRESS + 2] = value.to_bytes(2, "little")

    patch_word(labels["p_secsz"], disk.geometry.sector_size)
    patch_word(labels["p_buf"], buffer)
    for label, offset in BUFFER_OPERANDS.items():
        patch_word(labels[label] + 1, buffer + offset)
    patch("p_line", len(menu))
    patch("p_all", len(line))
    patch("p_entry3", len(table))
    patch("p_link", disk.geometry.data_bytes)
    return bytes(image)


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
    """Write the loader and its menu into boot sectors 1-3 of ``disk``."""
    disk.write_boot(boot_image(disk, entries, title))


#: Labels of the bytes boot_image patches: one-byte operands, the instructions that
#: read the buffer (their address operand: the buffer + this offset), and words.
PATCHED_OPERANDS = ("p_line", "p_all", "p_entry3", "p_link")
BUFFER_OPERANDS = {"p_buf0": 0, "p_buf1": 0, "p_buf2": 1, "p_buf3": 2}
PATCHED_WORDS = ("p_secsz", "p_buf")


def menu_start_sectors(boot_sectors: bytes) -> list[int] | None:
    """The first sectors the menu in ``boot_sectors`` loads, or None if it is not ours.

    The loader is recognised by its code, the patched bytes left out; the files can
    change after ``a8 atr boot`` (DOS rewrites a file elsewhere), so ``check`` uses
    this to find menu entries that no longer start a file. A menu table that
    cannot be ours (a damaged entry count) is a :class:`BootError`.
    """
    loader = assemble_loader()
    labels = loader.labels
    skipped = {labels[name] + 1 - LOAD_ADDRESS for name in PATCHED_OPERANDS}
    for name in BUFFER_OPERANDS:
        skipped |= {labels[name] + 1 - LOAD_ADDRESS, labels[name] + 2 - LOAD_ADDRESS}
    for name in PATCHED_WORDS:
        skipped |= {labels[name] - LOAD_ADDRESS, labels[name] + 1 - LOAD_ADDRESS}
    code = loader.code
    if len(boot_sectors) < len(code) or any(
        boot_sectors[i] != code[i] for i in range(len(code)) if i not in skipped
    ):
        return None
    table_bytes = boot_sectors[labels["p_entry3"] + 1 - LOAD_ADDRESS]
    entries = table_bytes // 3
    if table_bytes % 3 or not 1 <= entries <= MAX_ENTRIES:
        raise BootError(f"boot menu: its table holds {table_bytes} bytes, not 3 per entry (1-9)")
    table = boot_sectors[len(code) : len(code) + 3 * entries]
    if len(table) < 3 * entries or len(code) + 3 * entries > BOOT_SIZE:
        raise BootError(f"boot menu: its {entries} entries run past the boot sectors")
    return [table[i + 1] | table[i + 2] << 8 for i in range(0, len(table), 3)]
