"""When is the program ready for the next key? The OS keyboard wait, watched exactly.

An Atari program that reads a key (Atari BASIC's ``GET #n`` from ``K:``, ``INPUT``,
any CIO read of ``K:`` or ``E:``) ends up in the OS's keyboard GET-BYTE routine,
which loops on CH (location 764, the last key code; $FF = none) until a key is
there, then clears CH and goes on. Two instructions of that loop tell everything:

* the instruction that reads CH (``wait_at``): reached each time the program asks
  for a key, and again on every turn of the loop while it waits;
* the first instruction after the loop (``take_at``): reached once per key taken.

They are found in the running machine, not in a table of known ROMs: the K: entry
of the handler table HATABS leads to the handler's vector table, whose GET-BYTE
vector (plus one) is the routine; the routine is decoded from memory until the
instruction that reads CH and the conditional branch after it, whose backward
target closes the loop. This holds for the genuine XL OS, the 400/800 OS and
AltirraOS alike, and for any handler a program installs in RAM with that shape.

atari800's monitor offers one PC breakpoint. :class:`KeyWatcher` moves it between
the two places so that each fires once per event:

* at ``wait_at`` while the program is busy: the hit is the moment it asks for a
  key; with CH empty that is *ready* (it waits), with a key already in CH (typed
  while it was busy) it is *pending* (it takes it at once);
* at ``take_at`` while it waits: the hit is the moment it takes a key.

Each event carries the OS's jiffy clock (RTCLOK, locations 18-20, one tick per
frame), read at the breakpoint, so the time between taking a key and being ready
again is exact to the frame (a backend sets the breakpoints: :mod:`a8.emu.atari800.session`).
A program that never calls the OS to read keys (one that PEEKs 764 in a loop, or
a handler that keeps its own buffer) cannot be watched this way: finding the
wait then fails with a one-line :class:`KeyWaitError`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from Ophis import Opcodes  # type: ignore[import-untyped]

from a8.emu.screen import ScreenSnapshot
from a8.errors import A8Error

#: OS locations (the same on every Atari OS).
HATABS: Final = 0x031A
HATABS_ENTRIES: Final = 12
CH: Final = 0x02FC
RTCLOK: Final = 0x0012
#: Offset of the GET-BYTE vector (address - 1) in a handler's vector table.
GET_VECTOR: Final = 4
NO_KEY: Final = 0xFF

#: How far the routine is followed, in instructions, before giving up.
SEARCH_LIMIT: Final = 48


class KeyWaitError(A8Error):
    """The machine's keyboard GET-BYTE routine has no key wait this module recognises."""


@dataclass(frozen=True)
class Instruction:
    """One decoded 6502 instruction."""

    address: int
    opcode: int
    mnemonic: str
    mode: str
    length: int
    operand: int

    @property
    def next(self) -> int:
        return (self.address + self.length) & 0xFFFF

    @property
    def branch_target(self) -> int:
        """Where a relative branch goes when taken."""
        offset = self.operand - 0x100 if self.operand >= 0x80 else self.operand
        return (self.next + offset) & 0xFFFF

    @property
    def conditional_branch(self) -> bool:
        return self.mode == "Relative" and self.mnemonic != "bra"

    def reads(self, address: int) -> bool:
        """Whether it reads ``address`` directly (absolute or zero-page operand)."""
        return (
            self.mode in ("Absolute", "Zero Page")
            and self.operand == address
            and (self.mnemonic in _READERS)
        )


_READERS: Final = frozenset({"lda", "ldx", "ldy", "cmp", "cpx", "cpy", "bit", "and", "ora", "eor"})


def _opcode_table() -> Mapping[int, tuple[str, str, int]]:
    """Opcode -> (mnemonic, addressing mode, length) for the NMOS 6502 (Ophis's tables)."""
    table: dict[int, tuple[str, str, int]] = {}
    for mnemonic, codes in Opcodes.opcodes.items():
        for mode, code in enumerate(codes):
            if code is not None and code not in table:
                table[code] = (mnemonic, Opcodes.modes[mode], Opcodes.lengths[mode] + 1)
    return table


OPCODES: Final = _opcode_table()


def decode(memory: bytes, address: int) -> Instruction:
    """The instruction at ``address`` (an unknown opcode is a :class:`KeyWaitError`)."""
    opcode = memory[address]
    try:
        mnemonic, mode, length = OPCODES[opcode]
    except KeyError:
        raise KeyWaitError(f"{address:04X}: {opcode:02X} is not a 6502 instruction") from None
    operand = 0
    for index in range(1, length):
        operand |= memory[(address + index) & 0xFFFF] << (8 * (index - 1))
    return Instruction(address, opcode, mnemonic, mode, length, operand)


@dataclass(frozen=True)
class KeyboardWait:
    """Where the keyboard GET-BYTE routine waits for a key, and where it takes one."""

    routine: int
    #: The loop's first instruction (the backward branch's target).
    loop_start: int
    wait_at: int
    take_at: int

    def waiting(self, pc: int) -> bool:
        """Whether a CPU at ``pc`` is inside the wait loop."""
        return self.loop_start <= pc < self.take_at


def keyboard_handler(memory: bytes) -> int:
    """The address of the K: handler's GET-BYTE routine, from HATABS."""
    for entry in range(HATABS_ENTRIES):
        at = HATABS + 3 * entry
        if memory[at] == ord("K"):
            table = memory[at + 1] | memory[at + 2] << 8
            vector = table + GET_VECTOR
            return ((memory[vector] | memory[vector + 1] << 8) + 1) & 0xFFFF
    raise KeyWaitError("no K: device in the handler table (HATABS at 031A)")


def find_keyboard_wait(memory: bytes) -> KeyboardWait:
    """Follow the K: GET-BYTE routine to its wait loop (see the module docstring)."""
    routine = keyboard_handler(memory)
    address = routine
    wait_at: int | None = None
    for _ in range(SEARCH_LIMIT):
        instruction = decode(memory, address)
        if wait_at is None:
            if instruction.reads(CH):
                wait_at = instruction.address
        elif instruction.conditional_branch:
            return _close_loop(memory, routine, wait_at, instruction)
        if instruction.mnemonic == "jmp" and instruction.mode == "Absolute":
            address = instruction.operand
        elif instruction.mnemonic in ("rts", "rti", "brk", "jmp"):
            break
        else:
            address = instruction.next
    raise KeyWaitError(
        f"the K: GET-BYTE routine at {routine:04X} does not wait on CH (764) in the usual way"
    )


def _close_loop(memory: bytes, routine: int, wait_at: int, branch: Instruction) -> KeyboardWait:
    """The loop is the branch back to the CH read, or the jump back after a forward exit."""
    target = branch.branch_target
    if target <= wait_at:
        return KeyboardWait(routine, target, wait_at, branch.next)
    after = decode(memory, branch.next)
    if after.mnemonic == "jmp" and after.mode == "Absolute" and after.operand <= wait_at:
        return KeyboardWait(routine, after.operand, wait_at, target)
    raise KeyWaitError(f"the key wait at {wait_at:04X} has no loop back to it")


def jiffies(memory: bytes) -> int:
    """The OS's frame clock RTCLOK (18-20, high byte first)."""
    return memory[RTCLOK] << 16 | memory[RTCLOK + 1] << 8 | memory[RTCLOK + 2]


#: RTCLOK is 24 bits: differences are taken modulo this.
JIFFY_WRAP: Final = 1 << 24

EventKind = Literal["ready", "pending", "take"]


@dataclass(frozen=True)
class KeyEvent:
    """One moment of the program's keyboard reading.

    ``ready``: it asks for a key and none is there (it waits); ``pending``: it asks
    and a key typed earlier is already there; ``take``: it takes a key (``key`` is
    the keyboard code, as in CH). ``jiffy`` is RTCLOK at that instruction;
    ``at_start`` marks a wait that was already going on when watching began, whose
    time is that of the first look, not of the request. ``screen`` is the machine
    (memory, chips) at that moment: the screen as the program left it.
    """

    kind: EventKind
    jiffy: int
    key: int = NO_KEY
    at_start: bool = False
    screen: ScreenSnapshot | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class KeyPress:
    """A key the script pressed: its first frame, the key, and the OS clock then.

    ``code`` is atari800's key code (-1: only console keys); ``jiffy`` is RTCLOK
    during that frame (None when the run never paused to read the clock).
    """

    frame: int
    code: int
    console: int
    jiffy: int | None


def frames_between(start: KeyEvent | KeyPress, end: KeyEvent) -> int:
    """Jiffies (frames) from one event (or a key press) to a later event."""
    if start.jiffy is None:
        raise ValueError("the key press has no jiffy: the run never read the clock")
    return (end.jiffy - start.jiffy) % JIFFY_WRAP


class _Watch(enum.Enum):
    OFF = "off"
    ASK = "ask"  # breakpoint on wait_at: the program is busy
    TAKE = "take"  # breakpoint on take_at: the program waits, or has a key pending


class KeyWatcher:
    """Moves the breakpoint between the wait and the take, and records the events."""

    def __init__(self) -> None:
        self.wait: KeyboardWait | None = None
        self.error: KeyWaitError | None = None
        self.events: list[KeyEvent] = []
        self._state = _Watch.OFF

    @property
    def watching(self) -> bool:
        return self._state is not _Watch.OFF

    @property
    def breakpoint(self) -> int | None:
        if self.wait is None or self._state is _Watch.OFF:
            return None
        return self.wait.wait_at if self._state is _Watch.ASK else self.wait.take_at

    def look(self, screen: ScreenSnapshot, pc: int) -> int | None:
        """At a pause between frames: (re)find the wait; the breakpoint to set.

        The routine is looked up again at every pause, so a program that installs
        its own K: handler is followed. A CPU already inside the wait loop is
        recorded as ready (``at_start``) if the watch was off.
        """
        try:
            found = find_keyboard_wait(screen.memory)
        except KeyWaitError as error:
            self.error, self.wait, self._state = error, None, _Watch.OFF
            return None
        self.error = None
        if found != self.wait or self._state is _Watch.OFF:
            self.wait = found
            if found.waiting(pc) and screen.memory[CH] == NO_KEY:
                self._record("ready", screen, at_start=True)
                self._state = _Watch.TAKE
            else:
                self._state = _Watch.ASK
        return self.breakpoint

    def hit(self, screen: ScreenSnapshot, pc: int, a: int) -> int | None:
        """At a breakpoint: record what happened; the breakpoint to set next."""
        if self.wait is None:
            return None
        if pc == self.wait.take_at:
            self._record("take", screen, key=a)
            self._state = _Watch.ASK
        elif pc == self.wait.wait_at:
            pending = screen.memory[CH] != NO_KEY
            self._record("pending" if pending else "ready", screen)
            self._state = _Watch.TAKE
        return self.breakpoint

    def _record(
        self, kind: EventKind, screen: ScreenSnapshot, key: int = NO_KEY, at_start: bool = False
    ) -> None:
        self.events.append(KeyEvent(kind, jiffies(screen.memory), key, at_start, screen))
