"""The keyboard queue: keys typed ahead kept in order, a 6502 routine in a string constant.

The Atari OS keeps one key (CH, location 764); a key pressed before the program has
read the one before replaces it. ``key_queue.s`` next to this module makes CH the
head of a queue of 255 keys: the keyboard interrupt puts each new key at its end, the
vertical blank hands the next one to the OS when CH is empty, and the program reads
keys as always, with ``GET`` from ``K:`` (its header tells how, and what happens to
HELP, key repeat and a full queue). This module assembles it with Ophis
(:mod:`a8.asm`) and makes its string: the installer, which runs in the string, then
the resident part, XORed with the first one-byte key under which no byte of the
string is one its constant cannot show or hold (:data:`machfsol.atari.shuffle.FORBIDDEN`);
the installer undoes the XOR as it copies the part to its home, the cassette buffer.

The source's ``"{CODE key_queue.s}"`` becomes these bytes, spelled ``{$XX}`` each, when
:mod:`machfsol.atari.basic_game` generates the listing.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Final

from a8.asm import Assembly, AssemblyError, assemble
from machfsol.atari.shuffle import FORBIDDEN, spelling
from machfsol.errors import MachfsolError

SOURCE_NAME: Final = "key_queue.s"
#: Where the resident part lives: the cassette buffer, which only the cassette
#: handler and the OS's boot use.
RESIDENT_ADDRESS: Final = 0x03FD
RESIDENT_END: Final = 0x0480
#: Where the installer is assembled: it uses no address of its own, so this is the
#: string's address only for the tests' simulator.
INSTALLER_ADDRESS: Final = 0x0500
#: Keys the queue holds (one slot of its 256 tells full from empty).
CAPACITY: Final = 255
#: The page-zero bytes of its state (the OS and BASIC leave $CB-$D1 to the user).
STATE: Final = range(0xCB, 0xD2)

#: The calls, ``X=USR(I,MODE[,VALUE[,R]])`` (the source's header).
REMOVE: Final = 0
INSTALL: Final = 1
PUSH: Final = 2


class KeyQueueCodeError(MachfsolError):
    """The key queue does not assemble or fit, or holds a byte its string cannot."""


@dataclass(frozen=True)
class KeyQueueRoutine:
    """The assembled code and the two strings that carry it."""

    #: The installer's string (it runs there, as it is).
    installer: bytes
    #: The resident part's string: its code XORed with ``key``.
    string: bytes
    #: The resident part as it runs (from :data:`RESIDENT_ADDRESS`).
    resident: bytes
    key: int
    labels: Mapping[str, int]


def source_text() -> str:
    return resources.files("machfsol.atari").joinpath(SOURCE_NAME).read_text(encoding="ascii")


@functools.cache
def routine() -> KeyQueueRoutine:
    """Assemble key_queue.s and make its two strings (the smallest XOR key that works)."""
    assembly = _assembled(source_text())
    labels = assembly.labels
    installer_size = labels["installerend"] - labels["installer"]
    resident_size = labels["residentend"] - labels["resident"]
    if labels["installer"] != INSTALLER_ADDRESS or labels["resident"] != RESIDENT_ADDRESS:
        raise KeyQueueCodeError(
            f"{SOURCE_NAME}: the installer from ${INSTALLER_ADDRESS:04X}, then the "
            f"resident part from ${RESIDENT_ADDRESS:04X}"
        )
    if labels["residentend"] > RESIDENT_END:
        raise KeyQueueCodeError(
            f"{SOURCE_NAME}: the resident part ends at ${labels['residentend'] - 1:04X}, "
            f"past the cassette buffer by {labels['residentend'] - RESIDENT_END} bytes"
        )
    if installer_size + resident_size != len(assembly.code):
        raise KeyQueueCodeError(f"{SOURCE_NAME}: the installer, then the resident part")
    moved = _assembled(source_text().replace(".org $0500", ".org $0600", 1))
    if moved.code[:installer_size] != assembly.code[:installer_size]:
        at = next(i for i in range(installer_size) if moved.code[i] != assembly.code[i])
        raise KeyQueueCodeError(
            f"{SOURCE_NAME}: the installer names an address of its own (byte {at}: an "
            "absolute jump or operand, or a branch the assembler made one), so it cannot "
            "run in its string wherever BASIC keeps it"
        )
    installer = bytearray(assembly.code[:installer_size])
    resident = assembly.code[installer_size:]
    key_at = labels["p_key"] + 1 - labels["installer"]  # the operand of its EOR
    for key in range(256):
        installer[key_at] = key
        bad = sorted(FORBIDDEN & set(installer))
        if bad and bad != [key]:
            raise KeyQueueCodeError(
                f"{SOURCE_NAME}: the installer holds byte ${bad[0]:02X} at offset "
                f"{installer.index(bad[0])}, which its string constant cannot show or hold"
            )
        string = bytes(byte ^ key for byte in resident)
        if not bad and not FORBIDDEN & set(string):
            return KeyQueueRoutine(bytes(installer), string, resident, key, labels)
    raise KeyQueueCodeError(
        f"{SOURCE_NAME}: no XOR key keeps quotes, end-of-line and editor-control bytes "
        "out of the resident part's string"
    )


def _assembled(text: str) -> Assembly:
    try:
        return assemble(text, SOURCE_NAME)
    except AssemblyError as error:
        raise KeyQueueCodeError(str(error)) from None


def installer_spelling() -> str:
    return spelling(routine().installer)


def resident_spelling() -> str:
    return spelling(routine().string)
