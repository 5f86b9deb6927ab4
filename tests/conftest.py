"""Shared test fixtures.

Tests that need the real atari800 emulator use the ``atari800`` fixture. When the
emulator is missing they FAIL with the command that installs it; they are skipped
only when the user asks for it explicitly with A8_SKIP_EMULATOR=1 (never in CI).
"""

from __future__ import annotations

import os

import pytest

from a8.emu.emulator import EmulatorMissingError, find_atari800


@pytest.fixture(scope="session")
def atari800() -> str:
    try:
        return str(find_atari800())  # honours $A8_ATARI800, else PATH
    except EmulatorMissingError as error:
        if os.environ.get("A8_SKIP_EMULATOR") == "1" and not os.environ.get("CI"):
            pytest.skip(f"A8_SKIP_EMULATOR=1: {error}")
        pytest.fail(f"{error}; `a8 emu doctor` checks the rest of the set-up", pytrace=False)
