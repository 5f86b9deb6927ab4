"""The emulator as the oracle: ENTER a listing in atari800, SAVE it and LIST it back.

atari800 (built-in AltirraOS and Altirra BASIC) is driven through a8.emu: boot,
type ``ENTER "H1:X.LST"``, ``SAVE "H1:X.BAS"`` and ``LIST "H1:X.LS2"`` with the H:
device mapped to a temporary folder. Used by test_oracle.py (live) and
fixtures/regenerate.py (golden files).

Altirra BASIC is not Atari BASIC rev. C: tests/a8/basic/altirra.py lists where the two
differ, and rewrites Altirra's negative constants the rev. C way (``as_atari_basic``);
the corpus and the generated programs compared here avoid the other differences.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from a8.emu.emulator import EmulatorOptions, run
from a8.emu.script import Script

SAVE_COMMAND = 'SAVE "H1:X.BAS"'

#: Frames to wait for each command at most (ENTER of a long listing takes a while).
COMMAND_TIMEOUT_FRAMES = 30_000


def oracle_script() -> Script:
    """ENTER, SAVE and LIST, each command waiting until BASIC has closed its H: file
    (ENTER too: the emulator holds X.LST open while BASIC reads it)."""
    return (
        Script()
        .wait(200)
        .type('ENTER "H1:X.LST"\n')
        .wait(30)
        .wait_for_file("X.LST", COMMAND_TIMEOUT_FRAMES)
        .wait(30)
        .type(SAVE_COMMAND + "\n")
        .wait_for_file("X.BAS", COMMAND_TIMEOUT_FRAMES)
        .wait(30)
        .type('LIST "H1:X.LS2"\n')
        .wait_for_file("X.LS2", COMMAND_TIMEOUT_FRAMES)
    )


@dataclass(frozen=True)
class OracleResult:
    """What the emulator wrote: the SAVE file and the LIST output (ATASCII)."""

    saved: bytes
    listed: bytes


def enter_save_list(atari800: str, listing: bytes) -> OracleResult:
    """ENTER an ATASCII listing in the emulator, then SAVE and LIST it to H:.

    ``atari800`` is the executable the ``atari800`` fixture found; a8.emu runs it
    (through ``$A8_ATARI800`` when it is not the one on PATH).
    """
    with tempfile.TemporaryDirectory(prefix="a8-oracle-") as folder:
        work = Path(folder)
        (work / "X.LST").write_bytes(listing)
        previous = os.environ.get("A8_ATARI800")
        os.environ["A8_ATARI800"] = atari800
        try:
            result = run(EmulatorOptions(hdir=work), oracle_script())
        finally:
            if previous is None:
                del os.environ["A8_ATARI800"]
            else:
                os.environ["A8_ATARI800"] = previous
        saved, listed = work / "X.BAS", work / "X.LS2"
        if result.reason != "script-end" or not saved.exists() or not listed.exists():
            raise AssertionError(f"the emulator stopped early ({result.reason}):\n{result.log}")
        return OracleResult(saved.read_bytes(), listed.read_bytes())
