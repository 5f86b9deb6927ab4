"""Finding the OS keyboard wait in memory, and the watcher's events, without an emulator.

The machine code below is assembled from hex by hand: two shapes of wait loop
(the branch back to the CH read, as in the XL OS and AltirraOS, and a forward exit
with a jump back) and routines that do not wait on CH at all.
"""

from __future__ import annotations

import pytest

from a8.emu.keywait import (
    CH,
    HATABS,
    KeyboardWait,
    KeyWaitError,
    KeyWatcher,
    decode,
    find_keyboard_wait,
    frames_between,
    keyboard_handler,
)
from a8.emu.screen import ScreenSnapshot

TABLE = 0xE420
ROUTINE = 0xFE6C


def machine(code: bytes, routine: int = ROUTINE, ch: int = 0xFF, jiffy: int = 0) -> bytearray:
    memory = bytearray(0x10000)
    memory[HATABS : HATABS + 6] = b"E" + bytes([0x00, 0xE4]) + b"K" + bytes([0x20, 0xE4])
    vector = routine - 1
    memory[TABLE + 4 : TABLE + 6] = bytes([vector & 0xFF, vector >> 8])
    memory[routine : routine + len(code)] = code
    memory[CH] = ch
    memory[0x12:0x15] = jiffy.to_bytes(3, "big")
    return memory


# LDX #$FF; loop: LDA $11; BEQ +$57; LDA CH; CMP #$FF; BEQ loop; STX CH (AltirraOS's shape)
BACKWARD = bytes.fromhex("a2ff a511 f057 adfc02 c9ff f0f5 8efc02")
# loop: LDA CH; CMP #$FF; BNE got; JMP loop; got: STA $7C
FORWARD = bytes.fromhex("adfc02 c9ff d003 4c6cfe 857c")


def test_decode_reads_ophis_tables() -> None:
    memory = machine(BACKWARD)
    lda = decode(bytes(memory), ROUTINE + 6)
    assert (lda.mnemonic, lda.mode, lda.length, lda.operand) == ("lda", "Absolute", 3, CH)
    beq = decode(bytes(memory), ROUTINE + 11)
    assert beq.conditional_branch and beq.branch_target == ROUTINE + 2


def test_the_wait_of_a_branch_back_loop() -> None:
    wait = find_keyboard_wait(bytes(machine(BACKWARD)))
    assert wait == KeyboardWait(ROUTINE, ROUTINE + 2, ROUTINE + 6, ROUTINE + 13)
    assert wait.waiting(ROUTINE + 4) and not wait.waiting(ROUTINE + 13)


def test_the_wait_of_a_forward_exit_and_jump_back() -> None:
    wait = find_keyboard_wait(bytes(machine(FORWARD)))
    assert wait == KeyboardWait(ROUTINE, ROUTINE, ROUTINE, ROUTINE + 10)


def test_jumps_are_followed() -> None:
    code = bytes.fromhex("4c0060")  # JMP $6000, where the routine goes on (a RAM handler)
    memory = machine(code)
    memory[0x6000 : 0x6000 + len(BACKWARD)] = BACKWARD
    assert find_keyboard_wait(bytes(memory)).wait_at == 0x6006


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (bytes.fromhex("a9 41 60"), "does not wait on CH"),  # LDA #'A'; RTS: no wait
        (bytes.fromhex("adfc02 c9ff f003 60"), "has no loop back"),  # a forward branch only
        (bytes.fromhex("02"), "02 is not a 6502 instruction"),
    ],
)
def test_routines_without_a_recognisable_wait(code: bytes, message: str) -> None:
    with pytest.raises(KeyWaitError, match=message):
        find_keyboard_wait(bytes(machine(code)))


def test_no_keyboard_device() -> None:
    with pytest.raises(KeyWaitError, match="no K: device"):
        keyboard_handler(bytes(0x10000))


REGISTERS = {
    name: 0
    for name in ("DMACTL", "CHACTL", "DLISTL", "DLISTH", "CHBASE", "COLPF0", "COLPF1")
    + ("COLPF2", "COLPF3", "COLBK", "PRIOR")
}


def snapshot(memory: bytearray) -> ScreenSnapshot:
    return ScreenSnapshot(bytes(memory), REGISTERS)


def test_the_watcher_moves_its_breakpoint_between_wait_and_take() -> None:
    watcher = KeyWatcher()
    busy = snapshot(machine(BACKWARD, jiffy=100))
    assert watcher.look(busy, pc=0x1234) == ROUTINE + 6  # busy: watch the request
    assert watcher.hit(snapshot(machine(BACKWARD, jiffy=130)), ROUTINE + 6, 0xFF) == ROUTINE + 13
    assert watcher.hit(snapshot(machine(BACKWARD, jiffy=131)), ROUTINE + 13, 0x21) == ROUTINE + 6
    pending = snapshot(machine(BACKWARD, ch=0x21, jiffy=140))
    assert watcher.hit(pending, ROUTINE + 6, 0xFF) == ROUTINE + 13
    kinds = [(event.kind, event.jiffy, event.key) for event in watcher.events]
    assert kinds == [("ready", 130, 0xFF), ("take", 131, 0x21), ("pending", 140, 0xFF)]
    assert frames_between(watcher.events[1], watcher.events[2]) == 9
    assert all(event.screen is not None for event in watcher.events)


def test_a_wait_already_going_on_when_the_watch_starts() -> None:
    watcher = KeyWatcher()
    assert watcher.look(snapshot(machine(BACKWARD, jiffy=7)), pc=ROUTINE + 8) == ROUTINE + 13
    assert [(event.kind, event.at_start) for event in watcher.events] == [("ready", True)]


def test_a_watcher_that_cannot_find_the_wait_says_why() -> None:
    watcher = KeyWatcher()
    assert watcher.look(snapshot(machine(bytes.fromhex("60"))), pc=0) is None
    assert not watcher.watching
    assert watcher.error is not None and "does not wait on CH" in str(watcher.error)


def test_jiffies_wrap_at_24_bits() -> None:
    watcher = KeyWatcher()
    watcher.look(snapshot(machine(BACKWARD)), pc=0)
    watcher.hit(snapshot(machine(BACKWARD, jiffy=0xFFFFFE)), ROUTINE + 6, 0)
    watcher.hit(snapshot(machine(BACKWARD, jiffy=3)), ROUTINE + 13, 0)
    assert frames_between(*watcher.events) == 5
