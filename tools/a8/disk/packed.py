"""Packed programs: BASIC programs that load faster from the boot menu.

A serial drive brings some 2.2 KB a second: the sectors of a long program are most
of the wait between the menu key and the program's start. A packed program is one
DOS 2 file, a small BASIC program (the stub) followed by the program packed with
:mod:`a8.disk.lz`, some two thirds of its size. Chosen in the boot menu
(:mod:`a8.disk.boot`), the stub loads like any program; its 6502 code (``packed.s``)
reads the rest of the file on through the boot loader, unpacks it under the top of
free memory, and has BASIC LOAD and RUN it from there. The program that runs is
byte for byte the one packed.

The stub needs the boot menu's loader: LOADed from DOS it says so and stops. So a
disk keeps its programs as they are too, for DOS, and adds packed copies for its menu
(``a8 atr add --packed``, ``machfsol build``).
"""

from __future__ import annotations

import functools
from importlib import resources

from a8.asm import AssemblyError, assemble
from a8.basic.convert import tokenize
from a8.basic.program import Program
from a8.disk import lz
from a8.disk.boot import assemble_loader
from a8.errors import A8Error

#: The loader's names packed.s uses, as ``L_NAME``.
LOADER_NAMES = (
    "readsec", "setedit", "ok", "hooktab", "buffer", "bufpos", "bufused", "count",
    "tries", "nextlo", "nexthi", "lastlen",
)  # fmt: skip
#: How many bytes of the loader's sector reader the stub checks before it calls it.
SIGNATURE_LENGTH = 8
#: Bytes a string constant in a listing line cannot hold: the quote ends it, EOL the line.
FORBIDDEN = frozenset({0x22, 0x9B})
#: What the stub says for each value the unpacker returns (else: the SIO status).
MESSAGES = {
    1: "LOAD IT FROM ITS DISK'S BOOT MENU",
    2: "PACKED PROGRAM DAMAGED",
    3: "TOO LARGE FOR THE MEMORY LEFT",
}


class PackedProgramError(A8Error):
    """A program that cannot be packed (not a BASIC program, too large...)."""


#: Where GET BYTE must lie (page 6: BASIC reads a line into $0580-$05FF as it runs
#: RUN "E:") and where the code must end.
PAGE_6 = 0x0600
CODE_END = 0x0700
#: The longest string constant a stub line carries.
MAX_STRING = 240


@functools.cache
def unpacker() -> tuple[bytes, bytes]:
    """The stub's 6502 code (mover and unpacker), assembled against the loader, in the
    two strings that carry it."""
    loader = assemble_loader()
    labels = loader.labels
    aliases = "".join(f".alias L_{name.upper()} ${labels[name]:04X}\n" for name in LOADER_NAMES)
    at = labels["readsec"] - labels["header"]
    signature = loader.code[at : at + SIGNATURE_LENGTH]
    data = ".byte " + ", ".join(f"${byte:02X}" for byte in signature) + "\n"
    source = resources.files("a8.disk").joinpath("packed.s").read_text(encoding="ascii")
    try:
        assembly = assemble(source, "packed.s", {"loader.inc": aliases, "signature.inc": data})
    except AssemblyError as error:
        raise PackedProgramError(str(error)) from None
    code, own = assembly.code, assembly.labels
    problems = []
    if own["get"] < PAGE_6 or own["codeend"] > CODE_END:
        problems.append(f"GET BYTE must lie in page 6 and the code end by ${CODE_END:04X}")
    split = own["moverend"] - own["mover"] + own["first"]
    first, second = code[:split], code[split:]
    if max(len(first), len(second)) > MAX_STRING:
        problems.append(f"its strings take {len(first)} and {len(second)} bytes (FIRST)")
    bad = sorted(FORBIDDEN & set(code))
    if bad:
        problems.append(f"byte ${bad[0]:02X} at offset {code.index(bad[0])}")
    if problems:
        raise PackedProgramError("packed.s: " + "; ".join(problems))
    return first, second


@functools.cache
def stub() -> bytes:
    """The stub's SAVE bytes: lines 0-2 unpack and run, the others say what went wrong."""
    first, second = unpacker()
    lines = [
        b'0 A=ADR("' + first + b'")',
        b'1 B=ADR("' + second + b'")',
        b'2 E=USR(A,A,B):IF E=0 THEN RUN "E:"',
    ]
    for value, text in MESSAGES.items():
        lines.append(f'{len(lines)} IF E={value} THEN ?"{text}":END'.encode("ascii"))
    lines.append(f'{len(lines)} ?"DISK ERROR ";E'.encode("ascii"))
    listing = b"".join(line + b"\x9b" for line in lines)
    return tokenize(listing, file="<packed program stub>", save_command="RUN")


def pack_program(program: bytes, *, file: str = "<program>") -> bytes:
    """The packed file of the SAVE file ``program``."""
    Program.from_bytes(program, file=file)  # a CorruptProgramError names what is wrong
    if len(program) > lz.MAX_SIZE:
        raise PackedProgramError(f"{file}: {len(program)} bytes, more than a packed program holds")
    return stub() + _packed(program)


@functools.lru_cache(maxsize=8)
def _packed(program: bytes) -> bytes:
    return lz.pack(program)


def unpack_program(data: bytes, *, file: str = "<packed program>") -> bytes | None:
    """The program a packed file holds, or None if ``data`` does not start with the stub."""
    head = stub()
    if not data.startswith(head):
        return None
    try:
        return lz.unpack(data[len(head) :])
    except lz.PackError as error:
        raise PackedProgramError(f"{file}: packed program damaged: {error}") from None
