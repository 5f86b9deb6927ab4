"""Running the Atari games' test mode in the emulator and collecting what they write.

MACHFSOL.1 and MACHFSOL.2 look for ``H1:MFTEST.CFG`` when they start. On a real
machine there is no H: device, the OPEN fails, TRAP catches it and the game starts.
In the emulator the harness maps H1: to a folder holding that file; the program then
plays the deals it lists through the keys it lists (the test mode's player,
:mod:`machfsol.atari.test_player`), records a checksum of the screen after each step,
and writes one transcript per deal (``T1.TXT``, ``T2.TXT`` ...) in the
docs/TRANSCRIPT.md format, the checksums in its SCREEN lines, then ``MFDONE.TXT``
(``DONE <deals> FRE <bytes> MEMLO <address>`` or ``ERROR <code> AT <line>``). FRE
is the program's own: FRE(0) before the overlay comes in, with every array and
string dimensioned, what a player has free.

Configuration format (ATASCII lines, :func:`config_text`)::

    MFTEST 5            the magic line (format version 5)
    S 40 S L 003 040    before each deal: its table and case (40 cards, Spanish,
                        lower case): the overlay types CAPS, O, D ..., S, RETURN as
                        far as the table differs (so a deal plays the same after a
                        boot as after the deals before it); and which deal of how
                        many it is, shown on the screen's last line from then on
    D SON<              a step that deals: its keys (N 1 2 RETURN), each its
                        keyboard code plus 48
    K Oo                a step: its keys (1, then A)
    X                   a step: an error in the game (ERROR 3), which its handler
                        shows before it goes on (no key)
    B Q                 a deal's first step when the deal is on the table already
                        (deal 1 after the boot, the same deal after the options):
                        its time starts there, and it has no JIFFIES DEAL
    ...
    T                   write the transcript of the deal in play (after each deal,
                        and after a random deal, whose number it names)
    C 01792 00265       write the map of the lines run (--coverage): 265 bytes at 1792
    END

The overlay records the screen when the game first asks for a key (the first table)
and after each step, when the game asks for the next key; a step's time is the game's
own, from its last key typed to that moment.

The test mode's own code (the transcript, the replay, the timing) is not in the
program the disk carries: the program ENTERs it from ``H1:MFTEST.LST`` once it has
found the configuration (:func:`machfsol.atari.basic_game.overlay_listing`, the ``#T``
lines of the one source), and the harness puts that listing in the folder too.

By default the program is loaded by typing ``ENTER "H1:MACHFSOL.LST"`` into the
emulator's BASIC, so that BASIC's own tokenizer reads the listing; the copy put in the
folder ends with an immediate ``RUN`` line, which BASIC executes as soon as ENTER
reaches it. With ``tokenized=True`` the listing goes through ``a8.basic.tokenize``
instead (the program as the game disk carries it) and is started with
``RUN "H1:MACHFSOL.BAS"``.

With ``memlo`` the harness first raises MEMLO (743-744) to that address and types
``NEW``, which is when BASIC takes its LOMEM from MEMLO: the program then loads and runs
above a reserved low memory exactly as it would above a resident DOS of that size. This
is how the free memory with DOS 2.5 is measured without Atari's DOS itself (the H:
device of atari800 lives in the emulator, not in Atari RAM; docs/GAME.md).
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from a8.basic import tokenize
from a8.emu.emulator import EmulatorOptions, run
from a8.emu.keys import named_keystroke
from a8.emu.script import Script
from machfsol.atari import basic_game
from machfsol.atari.record_book import not_saved
from machfsol.atari.test_player import Deal, Step, expected_steps, transcript_parts
from machfsol.errors import MachfsolError

CONFIG_NAME = "MFTEST.CFG"
DONE_NAME = "MFDONE.TXT"
LISTING_NAME = "MACHFSOL.LST"
#: The test mode's overlay, which the program ENTERs (see the module docstring).
OVERLAY_NAME = "MFTEST.LST"
PROGRAM_NAME = "MACHFSOL.BAS"
MAGIC = "MFTEST 5"
#: Deals one configuration may hold: the S line's count has three digits.
MAX_DEALS = 999
#: The screens the overlay keeps for one transcript (its array SS).
MAX_SCREENS = 450
EOL = b"\x9b"

#: Frames to let the machine boot before typing (BASIC's prompt is up well before).
BOOT_FRAMES = 120
#: Emulated frames allowed per deal (a 52-card game takes well under 30 s).
FRAMES_PER_DEAL = 60 * 60
#: Frames allowed for loading and setting up (ENTER of the listing takes about 2,400).
START_FRAMES = 2 * 60 * 60
#: Frames for ``POKE 743,..:POKE 744,..:NEW`` to finish before the load command is typed.
RESERVE_FRAMES = 60
#: Lowest and highest MEMLO a reservation may ask for: the OS's own $0700 (no DOS) up to
#: well below the program's need (any higher and the program cannot load at all).
MEMLO_RANGE = range(0x0700, 0x8000)
#: MEMLO with DOS 2.5 loaded (its default three drive and three file buffers): where
#: its resident part ends on a real machine, $1C6C, as measured there. The free memory
#: a player has under DOS 2.5 is measured with this much reserved.
DOS25_MEMLO = 0x1C6C


class AtariTestModeError(MachfsolError):
    """The Atari program did not finish its test run, or reported an error."""


@dataclass(frozen=True)
class TestModeRun:
    """What one emulator run of the test mode produced."""

    #: Each deal's transcript, in order (raw ATASCII bytes; not a random deal's).
    transcripts: tuple[bytes, ...]
    #: FRE(0) with the program and its arrays, before the overlay came in: the bytes
    #: free to a player.
    free_bytes: int
    #: MEMLO (743-744) in that run: where BASIC's memory starts ($0700 with no DOS, or
    #: the address reserved with ``memlo=``).
    memlo: int
    #: Emulated frames the run took.
    frames: int


def key_character(name: str) -> str:
    """A key as the configuration spells it: its keyboard code (CH's: 0-63, SHIFT adds
    64) plus 48, one character (the overlay types ASC(c)-48 into the keyboard queue)."""
    code = named_keystroke(name).code
    if not 0 <= code < 128:
        raise MachfsolError(f"key {name}: the test mode types no key with CONTROL")
    return chr(48 + code)


def config_text(
    deals: Sequence[Deal],
    steps_of: Sequence[Sequence[Step]],
    coverage_map: tuple[int, int] | None = None,
) -> bytes:
    """The MFTEST.CFG file for these deals and their steps (ATASCII line ends): an
    ``S`` line with each deal's table and case and its number of how many (and the
    score won and played to set, if the deal has one), then a
    ``K`` line with each step's keys (``D`` for the step that deals, whose time is the
    deal's; ``B`` for the first step of a deal played on the table as it is; the keys
    the ``S`` line makes the overlay type left out), a ``T`` line after each deal's
    last step (its transcript is written then) and after a step that
    :attr:`~machfsol.atari.test_player.Step.records` (a random deal's); with
    ``coverage_map`` (address, bytes), a ``C`` line last: write that map of the lines
    run (:mod:`machfsol.atari.coverage`)."""
    lines = [MAGIC]
    if len(deals) > MAX_DEALS:
        raise AtariTestModeError(f"{len(deals)} deals in one configuration: at most {MAX_DEALS}")
    before = (52, False)  # the boot's table
    for number, (deal, steps) in enumerate(zip(deals, steps_of, strict=True), start=1):
        # The table the overlay makes before the deal's steps: the deal's, unless a
        # step types the options itself (then the one before, which it changes).
        deck, spanish = (deal.deck_size, deal.spanish)
        if any(step.options for step in steps):
            deck, spanish = before
        before = (deal.deck_size, deal.spanish)
        style = "S" if spanish else "F"
        case = "L" if "L" in deal.extras else "U"
        table = f"S {deck:02d} {style} {case} {number:03d} {len(deals):03d}"
        if deal.score is not None:
            table += " {:05d} {:05d}".format(*deal.score)
        lines.append(table)
        if len(steps) > MAX_SCREENS:
            raise AtariTestModeError(
                f"{steps[-1].what}: {len(steps)} steps in one deal; the test mode "
                f"records at most {MAX_SCREENS} screens a deal (SS in basic_src/machfsol.bas)"
            )
        for step in steps:
            typed = step.keys[step.from_state :]
            if step.error:
                lines.append("X")
            elif typed:
                tag = "D" if step.starts_deal else "B" if step.begins else "K"
                lines.append(f"{tag} " + "".join(key_character(key) for key in typed))
            if step.records:
                lines.append("T")
        lines.append("T")
    if coverage_map is not None:
        address, count = coverage_map
        lines.append(f"C {address:05d} {count:05d}")
    lines.append("END")
    return EOL.join(line.encode("latin-1") for line in lines) + EOL


def run_deals(
    variant: int,
    deals: Sequence[Deal],
    *,
    listing: str | None = None,
    overlay: str | None = None,
    tokenized: bool = False,
    folder: Path | None = None,
    options: EmulatorOptions | None = None,
    memlo: int | None = None,
) -> TestModeRun:
    """Run MACHFSOL.<variant> in atari800 on these deals; return what it wrote.

    ``listing`` defaults to the program the game disk carries, ``overlay`` to the test
    mode's overlay of the one source (:func:`~machfsol.atari.basic_game.overlay_listing`);
    ``tokenized`` loads the program as the SAVE file a8.basic makes rather than through
    ENTER; ``folder`` (the H1: folder) defaults
    to a temporary one; ``memlo`` reserves low memory up to that address first, as a
    resident DOS would. Raises AtariTestModeError when the program reports an error or
    does not finish in time.
    """
    if memlo is not None and memlo not in MEMLO_RANGE:
        raise AtariTestModeError(
            f"MEMLO ${memlo:04X} is outside ${MEMLO_RANGE.start:04X}-${MEMLO_RANGE.stop - 1:04X}"
        )
    seeds = [item.seed for item in deals]
    program = listing if listing is not None else basic_game.program_listing(variant)
    with tempfile.TemporaryDirectory(prefix="mftest-") as scratch:
        hdir = folder if folder is not None else Path(scratch)
        hdir.mkdir(parents=True, exist_ok=True)
        for stale in [*hdir.glob("T*.TXT"), hdir / DONE_NAME]:
            stale.unlink(missing_ok=True)
        if tokenized:
            (hdir / PROGRAM_NAME).write_bytes(tokenize(program))
            command = f'RUN "H1:{PROGRAM_NAME}"\n'
        else:
            (hdir / LISTING_NAME).write_bytes(basic_game.to_atascii(program) + b"RUN" + EOL)
            command = f'ENTER "H1:{LISTING_NAME}"\n'
        # run from H: with no disk in drive 1: the record is not saved, and it says so
        steps = list(expected_steps(variant, deals, notice=not_saved(2, variant)))
        (hdir / CONFIG_NAME).write_bytes(config_text(deals, steps))
        test_code = overlay if overlay is not None else basic_game.overlay_listing()
        (hdir / OVERLAY_NAME).write_bytes(basic_game.to_atascii(test_code))
        budget = START_FRAMES + FRAMES_PER_DEAL * len(seeds)
        base = options if options is not None else EmulatorOptions()
        emulator = replace(
            base, basic=True, hdir=hdir, timeout_s=max(base.timeout_s, 60.0 + budget / 600)
        )
        script = Script().wait(BOOT_FRAMES)
        if memlo is not None:
            script = script.type(f"POKE 743,{memlo % 256}:POKE 744,{memlo // 256}:NEW\n")
            script = script.wait(RESERVE_FRAMES)
        script = script.type(command).wait_for_file(DONE_NAME, budget)
        result = run(emulator, script)
        done = hdir / DONE_NAME
        if not done.exists():
            raise AtariTestModeError(
                f"MACHFSOL.{variant} wrote no {DONE_NAME} in {budget} frames "
                f"(emulator: {result.reason})"
            )
        report = done.read_bytes().replace(EOL, b"\n").decode("latin-1").split()
        if report[:1] != ["DONE"] or len(report) != 6:
            raise AtariTestModeError(f"MACHFSOL.{variant} reported: {' '.join(report)}")
        transcripts = []
        number = 0
        for deal_steps in steps:  # each deal's own transcript: its last
            number += len(transcript_parts(deal_steps))
            path = hdir / f"T{number}.TXT"
            if not path.exists():
                raise AtariTestModeError(f"MACHFSOL.{variant} wrote no {path.name}")
            transcripts.append(path.read_bytes())
        reported_memlo = int(report[5])
        if memlo is not None and reported_memlo != memlo:
            raise AtariTestModeError(
                f"MACHFSOL.{variant} ran with MEMLO {reported_memlo}, not the {memlo} reserved"
            )
        return TestModeRun(
            transcripts=tuple(transcripts),
            free_bytes=int(report[3]),
            memlo=reported_memlo,
            frames=result.frames,
        )
