"""The keyboard queue's 6502 code in a simulator (py65), with the OS's side played.

The OS is played here as the XL OS rev. 2 source describes it, in the few places the
queue meets it: the IRQ dispatcher pushes A and jumps through VKEYBD; the keyboard
routine saves X and Y, stores the key in CH *over whatever is there* (or, for HELP,
flags HELPFG; or, for a bounce, stores nothing), restores X, Y, then PLA and RTI;
the NMI handler pushes A, X, Y and jumps through VVBLKI, whose OS routine (SYSVBV)
pulls them back and returns; SETVBV sets the immediate VBI vector from Y and X; the
K: handler's GET waits for CH, takes it and empties it, and after a key it acts on
itself (CAPS, the inverse key) empties it once more some 60 cycles later.

A "program" reads keys with that GET, with a busy loop of random length between keys
(the game working out a move), while key presses (IRQs) and vertical blanks (NMIs)
come at random instructions, an NMI also inside the keyboard interrupt, as on the
machine. Whatever the schedule, the program must read every key typed, once, in the
order typed; a key beyond the queue's room is refused with a tone, and the keys before
it are kept.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from py65.devices.mpu6502 import MPU

from a8.asm import assemble
from machfsol.atari import key_queue
from machfsol.atari.basic_game import generate
from machfsol.atari.shuffle import FORBIDDEN
from tests.ram6502 import Ram, RecordingRam

CH = 0x02FC
VKEYBD = 0x0208
VVBLKI = 0x0222
KRPDEL = 0x02D9
HELPFG = 0x02DC
AUDF1 = 0xD200
AUDC1 = 0xD201
FR0 = 0xD4
SYSVBV = 0xE45F
NO_KEY = 0xFF
HELP_AS = 0x66  # SHIFT-/

QUEUE = 0x3456  # the queue string: anywhere, across a page boundary
INSTALLER = 0x2100
RESIDENT_STRING = 0x2300
LOG = 0x6000  # the program writes each key it reads from here on
SENTINEL = 0xFFF0

#: The OS's side and the program, at fixed addresses (see the module docstring).
OS_SOURCE = """
.alias CH $02FC
.alias HELPFG $02DC
.alias event $F0F0       ; what the next keyboard interrupt does: 0 key, 1 HELP, 2 bounce
.alias code $F0F1        ; the key's code
.alias frames $F0F2      ; vertical blanks so far
.alias delay $F0F3       ; the program's busy loop after each key
.alias counter $F0F4     ; its count
.alias broken $F0F5      ; registers the interrupts did not give back as they were
.alias log $E0           ; 2 bytes: where the program writes the next key it reads
.org $E45C
         jmp setvbv
         jmp sysvbv
.org $F000
kir:     txa
         pha
         tya
         pha
         lda event
         beq store
         cmp #1
         bne exit
         lda #$11
         sta HELPFG
         bne exit
store:   lda code
         sta CH
exit:    pla
         tay
         pla
         tax
         pla
         rti
dispatch:
         cld
         pha
         jmp ($0208)
nmi:     cld
         pha
         txa
         pha
         tya
         pha
         jmp ($0222)
sysvbv:  inc frames
         pla
         tay
         pla
         tax
         pla
         rti
setvbv:  sty $0222
         stx $0223
         rts
program:
next:    jsr get
         ldy #0
         sta (log),y            ; the key to the log, which moves on
         inc log
         bne +
         inc log+1
*        lda delay              ; the busy loop, with A, X and Y holding values
         sta counter            ; that any interrupt must leave as they were
         lda #$3C
         ldx #$5A
         ldy #$A5
*        dec counter
         bne -
         cmp #$3C
         bne bad
         cpx #$5A
         bne bad
         cpy #$A5
         beq next
bad:     inc broken
         jmp next
get:     lda CH
         cmp #$FF
         beq get
         ldx #$FF
         stx CH
         cmp #$3C               ; CAPS and the inverse key: the OS acts on them
         beq ignored            ; itself, and reads the next key
         cmp #$27
         beq ignored
         rts
ignored: ldx #11                ; its work on them, some 60 cycles
*        dex
         bne -
         lda #$FF               ; then it empties CH once more
         sta CH
         jmp get
"""

#: Keys the OS's GET acts on itself and does not return (CAPS, the inverse key): it
#: empties CH a second time after them (OS_SOURCE's get, as the XL OS rev. 2 does).
IGNORED = (0x3C, 0x27)

#: Cycles between vertical blanks in the simulation (a real frame has about 29,900:
#: fewer here for speed; the code does not depend on the length).
FRAME_CYCLES = 1500


@dataclass
class Machine:
    """The memory and CPU, with the OS's side loaded and the queue installed."""

    memory: Ram
    mpu: MPU
    labels: dict[str, int]
    typed: list[int] = field(default_factory=list)

    def peek(self, address: int) -> int:
        return self.memory.peek(address)

    def usr(self, address: int, *arguments: int) -> int:
        """BASIC's USR: the arguments pushed (the first on top, the count last)."""
        memory, mpu = self.memory, self.mpu
        memory[FR0], memory[FR0 + 1] = address & 0xFF, address >> 8
        pushed = [(SENTINEL - 1) >> 8, (SENTINEL - 1) & 0xFF]
        for argument in reversed(arguments):
            pushed += [argument & 0xFF, argument >> 8]
        pushed.append(len(arguments))
        for value in pushed:
            memory[0x0100 + mpu.sp] = value
            mpu.sp -= 1
        mpu.pc = address
        for _ in range(100_000):
            if mpu.pc == SENTINEL:
                return int(memory.peek(FR0) + 256 * memory.peek(FR0 + 1))
            mpu.step()
        raise AssertionError(f"USR({address:#06x}, {arguments}) did not return")

    def install(self, queue: int = QUEUE) -> int:
        return self.usr(INSTALLER, key_queue.INSTALL, queue, RESIDENT_STRING)

    def press(self, code: int, event: int = 0) -> None:
        """The keyboard interrupt for a key (taken now: the CPU has interrupts on).

        What the key is, POKEY's KBCODE here, is set as the CPU takes the interrupt,
        and the next key can come only after the RTI (interrupts are masked until
        then), so a key is never changed under the OS's routine.
        """
        self.memory.poke(0xF0F0, [event, code])
        self.mpu.irq()
        if event == 0:
            self.typed.append(code)
        elif event == 1:
            self.typed.append(HELP_AS)

    def blank(self) -> None:
        """A vertical blank, run to its end (the CPU at an idle loop at $F100)."""
        self.mpu.nmi()
        self.back_to_idle()

    def back_to_idle(self) -> None:
        """Run the interrupt under way until it returns to the idle loop at $F100."""
        for _ in range(500):
            self.mpu.step()
            if self.mpu.pc == 0xF100:
                return
        raise AssertionError("the interrupt did not return")

    def expected(self) -> list[int]:
        """The keys typed that the program's GET returns (not those the OS acts on)."""
        return [key for key in self.typed if key not in IGNORED]

    def read_log(self) -> list[int]:
        count = self.peek(0xE0) + 256 * self.peek(0xE1) - LOG
        return [self.peek(LOG + i) for i in range(count)]

    def clear_log(self) -> None:
        self.memory.poke(0xE0, [LOG & 0xFF, LOG >> 8])


def machine(record: bool = False) -> Machine:
    memory = RecordingRam(0xA5) if record else Ram(0xA5)
    mpu = MPU(memory=memory)
    os_code = assemble(OS_SOURCE, "os.s")
    labels = os_code.labels
    code = os_code.code
    memory.poke(0xE45C, list(code[:6]))
    memory.poke(0xF000, list(code[6:]))
    routine = key_queue.routine()
    memory.poke(INSTALLER, list(routine.installer))
    memory.poke(RESIDENT_STRING, list(routine.string))
    memory.poke(0xFFFA, [labels["nmi"] & 0xFF, labels["nmi"] >> 8])
    memory.poke(0xFFFE, [labels["dispatch"] & 0xFF, labels["dispatch"] >> 8])
    memory.poke(VKEYBD, [labels["kir"] & 0xFF, labels["kir"] >> 8])
    memory.poke(VVBLKI, [SYSVBV & 0xFF, SYSVBV >> 8])
    memory.poke(CH, [NO_KEY])
    memory.poke(HELPFG, [0])
    memory.poke(KRPDEL, [48])
    memory.poke(0xF0F0, [0, 0, 0, 0, 0, 0])
    memory.poke(0xE0, [LOG & 0xFF, LOG >> 8])
    mpu.sp = 0xF0
    return Machine(memory, mpu, labels)


def run(
    board: Machine,
    keys: list[int],
    *,
    seed: int,
    key_gap: range,
    delay: range,
    program: bool = True,
    tail_frames: int = 2,
) -> None:
    """Type ``keys`` at random gaps (in cycles) while the program reads and works.

    An IRQ waits while the CPU has interrupts masked (POKEY holds it), as on the
    machine; a vertical blank comes every FRAME_CYCLES cycles, whatever the CPU is doing.
    """
    chooser = random.Random(seed)
    mpu = board.mpu
    if program:
        mpu.pc = board.labels["program"]
    else:  # an idle loop: the program is busy elsewhere and reads nothing
        board.memory.poke(0xF100, [0x4C, 0x00, 0xF1])
        mpu.pc = 0xF100
    pending: int | None = None
    next_key = chooser.choice(key_gap)
    next_frame = FRAME_CYCLES
    typed = 0
    cycles = 0
    end = None
    while end is None or cycles < end:
        if typed < len(keys) and cycles >= next_key and pending is None:
            pending = keys[typed]
            typed += 1
            next_key = cycles + chooser.choice(key_gap)
        if pending is not None and not mpu.p & MPU.INTERRUPT:
            board.press(pending & 0xFF, event=pending >> 8)
            pending = None
        if cycles >= next_frame:
            mpu.nmi()
            next_frame += FRAME_CYCLES
        if program and mpu.pc == board.labels["next"]:
            board.memory.poke(0xF0F3, [chooser.choice(delay)])
        before = mpu.processorCycles
        mpu.step()
        cycles += mpu.processorCycles - before
        if end is None and typed == len(keys) and pending is None:
            end = cycles + FRAME_CYCLES * tail_frames
        if cycles > 50_000_000:
            raise AssertionError("the simulation ran away")


def installed(record: bool = False) -> Machine:
    board = machine(record)
    board.install()
    return board


# ------------------------------------------------------------------ in order, none lost


@pytest.mark.parametrize("seed", range(6))
def test_every_key_is_read_once_in_the_order_typed(seed: int) -> None:
    """Keys faster than the program reads them (a backlog of up to about 100),
    vertical blanks anywhere, also inside the keyboard interrupt."""
    board = installed()
    chooser = random.Random(seed)
    keys = [chooser.randrange(0x40) for _ in range(160)]
    run(board, keys, seed=seed, key_gap=range(150, 700), delay=range(1, 256), tail_frames=400)
    assert board.read_log() == board.expected()
    assert board.peek(0xF0F5) == 0, "an interrupt changed the program's registers"


def test_a_key_typed_while_the_program_waits_is_in_ch_when_the_interrupt_returns() -> None:
    """No vertical blank needed: the program, waiting in GET for two vertical blanks
    already, takes it in the same frame."""
    board = installed()
    board.memory.poke(0xF100, [0x4C, 0x00, 0xF1])  # the program, somewhere else
    board.mpu.pc = 0xF100
    board.blank()
    board.blank()
    board.press(0x21)
    for _ in range(200):
        board.mpu.step()
        if board.mpu.pc == 0xF100:
            break
    assert board.mpu.pc == 0xF100 and board.peek(0xF0F2) == 2  # back, no VBI since the two
    assert board.peek(CH) == 0x21


def test_a_key_is_handed_over_two_vertical_blanks_after_the_last_was_taken() -> None:
    """Not at the first: it may come some cycles after the OS took the key before, while
    the OS, on a key it acts on itself, is about to empty CH once more."""
    board = installed()
    board.memory.poke(0xF100, [0x4C, 0x00, 0xF1])
    board.mpu.pc = 0xF100
    board.blank()
    board.blank()
    board.press(0x3C)
    board.back_to_idle()
    board.press(0x23)
    board.back_to_idle()
    assert board.peek(CH) == 0x3C
    board.blank()  # CAPS not read yet: the N stays queued
    assert board.peek(CH) == 0x3C
    board.memory.poke(CH, [NO_KEY])  # the OS's GET takes CAPS
    board.blank()
    assert board.peek(CH) == NO_KEY
    board.blank()
    assert board.peek(CH) == 0x23
    # A key typed now, with the N not read, waits behind it.
    board.press(0x1F)
    board.back_to_idle()
    assert board.peek(CH) == 0x23


@pytest.mark.parametrize("seed", range(8))
def test_no_key_is_lost_after_a_key_the_os_acts_on_itself(seed: int) -> None:
    """CAPS or the inverse key, then others, typed ahead: the OS's GET empties CH a
    second time after them, so a key handed over in between would be lost (it was, on
    the genuine XL OS: of CAPS and N typed ahead, the N). Keys come faster than
    the program reads them, but at least some hundreds of cycles apart: on the machine
    the keyboard's debounce keeps them frames apart, so that interrupts cannot stretch
    the OS's few cycles between its two stores over a frame."""
    board = installed()
    chooser = random.Random(100 + seed)
    keys = [chooser.choice([0x3C, 0x27, chooser.randrange(0x40)]) for _ in range(240)]
    run(board, keys, seed=seed, key_gap=range(300, 1200), delay=range(1, 40), tail_frames=600)
    assert board.read_log() == board.expected()


def test_the_same_key_twice_is_two_keys() -> None:
    """Two SPACEs: the second while the first, handed to the OS, is not read yet."""
    board = installed()
    run(board, [0x21] * 40, seed=9, key_gap=range(40, 120), delay=range(200, 256), tail_frames=300)
    assert board.read_log() == [0x21] * 40


def test_a_bounce_stores_nothing_and_queues_nothing() -> None:
    board = installed()
    keys = [0x1F, 0x200, 0x1E, 0x200, 0x200, 0x1A]  # 1, a bounce, 2, two bounces, 3
    run(board, keys, seed=1, key_gap=range(300, 900), delay=range(1, 50), tail_frames=50)
    assert board.read_log() == [0x1F, 0x1E, 0x1A]


def test_help_is_queued_as_a_question_mark() -> None:
    board = installed()
    run(
        board,
        [0x21, 0x100, 0x0B],
        seed=2,
        key_gap=range(300, 900),
        delay=range(1, 9),
        tail_frames=20,
    )
    assert board.read_log() == [0x21, HELP_AS, 0x0B]
    assert board.peek(HELPFG) == 0


# ------------------------------------------------------------------ a full queue


def test_a_full_queue_refuses_a_key_with_a_tone_and_keeps_the_others() -> None:
    board = installed()
    keys = [k % 0x40 for k in range(key_queue.CAPACITY + 3)]
    # The program reads nothing: one key waits in CH, the queue takes 255, two refused.
    run(board, keys, seed=3, key_gap=range(200, 300), delay=range(1, 2), program=False)
    assert board.peek(AUDC1) != 0, "no tone"
    taken = key_queue.CAPACITY + 1
    assert board.peek(CH) == keys[0]
    # The tone ends by itself, some frames later.
    run(board, [], seed=4, key_gap=range(1, 2), delay=range(1, 2), program=False, tail_frames=20)
    assert board.peek(AUDC1) == 0
    # Now the program reads them all: the first 256, in order.
    board.clear_log()
    run(board, [], seed=5, key_gap=range(1, 2), delay=range(1, 4), tail_frames=3 * taken)
    read = [key for key in keys[:taken] if key not in IGNORED]
    assert board.read_log() == read


# ------------------------------------------------------------------ install, remove, push


def test_install_hooks_both_vectors_and_turns_key_repeat_off() -> None:
    board = installed()
    labels = key_queue.routine().labels
    assert board.memory.peek(VKEYBD) | board.memory.peek(VKEYBD + 1) << 8 == labels["keyirq"]
    assert board.memory.peek(VVBLKI) | board.memory.peek(VVBLKI + 1) << 8 == labels["vbi"]
    assert board.peek(KRPDEL) == 0
    resident = key_queue.routine()
    start = key_queue.RESIDENT_ADDRESS
    copied = [board.peek(start + i) for i in range(len(resident.resident))]
    patched = {labels[name] + offset - start for name in ("p_q1", "p_q2") for offset in (1, 2)}
    for offset, byte in enumerate(resident.resident):
        if offset not in patched:
            assert copied[offset] == byte, offset
    assert board.peek(labels["p_q1"] + 1) | board.peek(labels["p_q1"] + 2) << 8 == QUEUE


def test_a_second_install_moves_the_queue_without_hooking_twice() -> None:
    board = installed()
    board.install(0x5000)
    labels = key_queue.routine().labels
    assert board.memory.peek(VKEYBD) | board.memory.peek(VKEYBD + 1) << 8 == labels["keyirq"]
    assert board.peek(0xCF) | board.peek(0xD0) << 8 == board.labels["kir"]  # not itself
    run(board, [0x3F, 0x15], seed=6, key_gap=range(300, 600), delay=range(1, 9), tail_frames=20)
    assert board.read_log() == [0x3F, 0x15]
    assert board.peek(0x5000) == 0x3F


def test_remove_puts_the_os_back() -> None:
    board = installed()
    board.usr(INSTALLER, key_queue.REMOVE)
    assert board.memory.peek(VKEYBD) | board.memory.peek(VKEYBD + 1) << 8 == board.labels["kir"]
    assert board.memory.peek(VVBLKI) | board.memory.peek(VVBLKI + 1) << 8 == SYSVBV
    assert board.peek(KRPDEL) == 48
    board.usr(INSTALLER, key_queue.REMOVE)  # removing twice changes nothing
    assert board.memory.peek(VKEYBD) | board.memory.peek(VKEYBD + 1) << 8 == board.labels["kir"]


def test_push_hands_a_key_over_at_once_and_says_when_the_queue_is_full() -> None:
    board = installed()
    board.memory.poke(0xF100, [0x4C, 0x00, 0xF1])
    board.mpu.pc = 0xF100
    board.blank()
    board.blank()
    assert board.usr(INSTALLER, key_queue.PUSH, 0x21) == 1
    assert board.peek(CH) == 0x21  # CH was empty (two blanks): the key is there at once
    for number in range(key_queue.CAPACITY):
        assert board.usr(INSTALLER, key_queue.PUSH, number % 0x40) == 1, number
    assert board.usr(INSTALLER, key_queue.PUSH, 0x0B) == 0
    board.typed = [0x21] + [n % 0x40 for n in range(key_queue.CAPACITY)]
    run(board, [], seed=7, key_gap=range(1, 2), delay=range(1, 3), tail_frames=600)
    assert board.read_log() == board.expected()


def test_it_writes_only_its_homes_the_os_variables_and_the_queue() -> None:
    board = installed(record=True)
    keys = [k % 0x40 for k in range(30)] + [0x100]
    run(board, keys, seed=8, key_gap=range(100, 400), delay=range(1, 256), tail_frames=100)
    board.usr(INSTALLER, key_queue.REMOVE)
    allowed = {
        *range(key_queue.RESIDENT_ADDRESS, key_queue.RESIDENT_END),
        *key_queue.STATE,
        *range(0xD4, 0xDD),  # USR's scratch: FR0 and after
        *range(QUEUE, QUEUE + 256),
        *range(0x0100, 0x0200),  # the stack
        VKEYBD,
        VKEYBD + 1,
        VVBLKI,
        VVBLKI + 1,
        KRPDEL,
        HELPFG,
        CH,
        AUDF1,
        AUDC1,
        *range(LOG, LOG + 512),  # the test's program: its log
        *range(0xF0F0, 0xF0F6),  # the test's OS and program variables
        0xE0,
        0xE1,
    }
    assert board.memory.writes <= allowed, sorted(hex(a) for a in board.memory.writes - allowed)


# ------------------------------------------------------------------ the strings


def test_the_strings_hold_no_quote_end_of_line_or_editor_control() -> None:
    routine = key_queue.routine()
    assert not FORBIDDEN & set(routine.installer)
    assert not FORBIDDEN & set(routine.string)
    assert bytes(byte ^ routine.key for byte in routine.string) == routine.resident
    assert key_queue.RESIDENT_ADDRESS + len(routine.resident) <= key_queue.RESIDENT_END


def test_the_listing_spells_both_strings_byte_by_byte() -> None:
    listing = generate(1)
    routine = key_queue.routine()
    for data in (routine.installer, routine.string):
        assert '"' + "".join(f"{{${byte:02X}}}" for byte in data) + '"' in listing
