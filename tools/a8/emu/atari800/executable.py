"""The atari800 executable: where it is, how to install it, how to run it headless."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Final

from a8.emu.emulator import EmulatorMissingError

#: Overrides the emulator executable found on PATH.
ATARI800_ENV: Final = "A8_ATARI800"

INSTALL_HINT: Final = (
    "install it: on Debian 12 enable the contrib component (a file in "
    "/etc/apt/sources.list.d with 'Components: contrib' for bookworm) and run "
    "`apt-get update && apt-get install -y atari800`"
)
#: The set-up script of a checkout of this project, which installs atari800 too.
CHECKOUT_SETUP: Final = Path(".ci") / "setup"


def install_hint() -> str:
    """How to install atari800; ``bash .ci/setup`` only where there is one (a checkout's
    top folder): an installed wheel has no such script."""
    hint = INSTALL_HINT
    if CHECKOUT_SETUP.is_file():
        hint += ", or run `bash .ci/setup` (this checkout's set-up)"
    return hint


def find_executable() -> Path:
    """The atari800 executable: ``$A8_ATARI800`` or the one on PATH."""
    override = os.environ.get(ATARI800_ENV)
    if override:
        path = Path(override)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise EmulatorMissingError(f"{ATARI800_ENV}={override}: not an executable file")
        return path
    found = shutil.which("atari800")
    if found is None:
        raise EmulatorMissingError("atari800 is not installed", install_hint())
    return Path(found)


def headless_environment() -> dict[str, str]:
    """The process environment with SDL told to open no window and no sound device."""
    env = dict(os.environ)
    env["SDL_VIDEODRIVER"] = "dummy"
    env["SDL_AUDIODRIVER"] = "dummy"
    return env
