"""Shared test fixtures.

Tests that need the real atari800 emulator use the ``atari800`` fixture. When the
emulator is missing they FAIL with the command that installs it; they are skipped
only when the user asks for it explicitly with A8_SKIP_EMULATOR=1 (never in CI).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from a8.emu.emulator import EmulatorMissingError, find_atari800

#: Variables that change which machine and ROMs every run uses: the tests set them
#: themselves where they need them, so a developer's own settings cannot change results.
#: Own ROMs for the tests that take them (typing on the genuine OS): A8_TEST_OS_ROM and
#: A8_TEST_BASIC_ROM, read by those tests only.
MACHINE_VARIABLES = ("A8_OS_ROM", "A8_800_OS_ROM", "A8_BASIC_ROM", "A8_MACHINE", "A8_TV")


@pytest.fixture(autouse=True, scope="session")
def _no_machine_settings_from_outside() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:  # session-wide: before session fixtures too
        for variable in MACHINE_VARIABLES:
            patch.delenv(variable, raising=False)
        yield


@pytest.fixture(autouse=True, scope="session")
def _temporary_files_inside_pytests_own_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    """Some commands keep what they made in a temporary folder on purpose: `machfsol
    verify` keeps its work folder when a deal fails (tests make deals fail), `a8 emu run`
    keeps the emulator's log. Under the tests those land in pytest's own base folder
    (in this process and in the commands the tests start), which pytest prunes, instead
    of piling up in the system's /tmp."""
    folder = tmp_path_factory.mktemp("tmp")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(folder))
        patch.setattr(tempfile, "tempdir", str(folder))
        yield


@pytest.fixture(autouse=True, scope="session")
def _state_folder_inside_pytests_own_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    """``machfsol play`` keeps statistics and the game in progress in
    ``$XDG_STATE_HOME/machfsol``: under the tests that is a folder of pytest's, never the
    player's own (the terminal game's tests give each test a folder of its own)."""
    folder = tmp_path_factory.mktemp("state")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(folder))
        yield


#: The checkout the tests run in (and, for the commands they start, the current folder).
CHECKOUT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="session")
def _nothing_left_in_the_checkout() -> Iterator[None]:
    """A test that saves a file in the current folder (a random "s NAME" line typed into
    the game saves a transcript there) must do it in a folder of its own: what a run
    leaves in the checkout's top folder is an error. Tools' caches (dot names) are not."""

    def entries() -> set[str]:
        return {path.name for path in CHECKOUT.iterdir() if not path.name.startswith(".")}

    before = entries()
    yield
    left = sorted(entries() - before)
    if left:
        pytest.fail(f"the tests left {', '.join(left)} in {CHECKOUT}", pytrace=False)


@pytest.fixture(scope="session")
def atari800() -> str:
    try:
        return str(find_atari800())  # honours $A8_ATARI800, else PATH
    except EmulatorMissingError as error:
        if os.environ.get("A8_SKIP_EMULATOR") == "1" and not os.environ.get("CI"):
            pytest.skip(f"A8_SKIP_EMULATOR=1: {error}")
        pytest.fail(f"{error}; `a8 emu doctor` checks the rest of the set-up", pytrace=False)
