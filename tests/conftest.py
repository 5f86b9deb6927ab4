"""Shared test fixtures.

Tests that need the real atari800 emulator use the ``atari800`` fixture. When the
emulator is missing they FAIL with the command that installs it; they are skipped
only when the user asks for it explicitly with A8_SKIP_EMULATOR=1 (never in CI).
"""

from __future__ import annotations

import os
import shutil

import pytest


@pytest.fixture(scope="session")
def atari800() -> str:
    path = shutil.which("atari800")
    if path is None:
        if os.environ.get("A8_SKIP_EMULATOR") == "1" and not os.environ.get("CI"):
            pytest.skip("atari800 missing and A8_SKIP_EMULATOR=1")
        pytest.fail(
            "atari800 is not installed: run `bash .ci/setup` (it adds Debian contrib and "
            "runs `apt-get install atari800`), or `a8 emu doctor` for details",
            pytrace=False,
        )
    return path
