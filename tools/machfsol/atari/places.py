"""Where the Atari side reads the game's BASIC source and writes the game disk.

The one source of both games is ``basic_src/machfsol.bas`` in the repository: the file
people edit. It ships inside the package as ``machfsol/atari/machfsol.bas``, package
data read through :mod:`importlib.resources`, so the commands work the same from an
installed wheel, from an editable install and from any folder. In the repository that
package file is a symbolic link to ``basic_src/machfsol.bas``: an editable install reads
the very file people edit, and a wheel or sdist built from the checkout holds a copy of
it (setuptools follows the link), so there is still one source.

Commands write where the user says (``-o``, ``--keep``), or else in the current folder,
never into the installed package. One exception keeps the repository's workflow: run in
the top folder of a checkout of this project, the commands work on that checkout. They
read its ``basic_src/machfsol.bas`` (even when the installed package is not the
checkout's) and ``machfsol build`` updates its ``atr/MACHFSOL.ATR``, the disk the tests
compare with the sources. A checkout is recognised by its top folder alone: a
``pyproject.toml`` whose project is named ``machfsol``, beside ``basic_src/machfsol.bas``.
Sub-folders of a checkout are ordinary folders.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

#: The project name a checkout's pyproject.toml gives.
PROJECT_NAME: Final = "machfsol"
#: The package resource holding the one source (in ``machfsol.atari``).
SOURCE_RESOURCE: Final = "machfsol.bas"
#: The one source, relative to a checkout's top folder.
CHECKOUT_SOURCE: Final = Path("basic_src") / "machfsol.bas"
#: The committed game disk, relative to a checkout's top folder.
CHECKOUT_DISK: Final = Path("atr") / "MACHFSOL.ATR"
#: The game disk's file name anywhere else (in the current folder).
DISK_NAME: Final = "MACHFSOL.ATR"


def is_checkout(folder: Path) -> bool:
    """True if ``folder`` is the top folder of a checkout of this project."""
    try:
        with (folder / "pyproject.toml").open("rb") as handle:
            project = tomllib.load(handle).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return False
    return (
        isinstance(project, dict)
        and project.get("name") == PROJECT_NAME
        and (folder / CHECKOUT_SOURCE).is_file()
    )


def packaged_source() -> Traversable:
    """The copy of the one source inside the installed package."""
    return resources.files("machfsol.atari").joinpath(SOURCE_RESOURCE)


def default_source() -> Traversable:
    """The source the commands read unless told: the checkout's, or the package's."""
    return CHECKOUT_SOURCE if is_checkout(Path.cwd()) else packaged_source()


def default_disk() -> Path:
    """Where ``machfsol build`` writes unless told: the checkout's disk, or the current
    folder's ``MACHFSOL.ATR``. Relative, so messages show it as the user would type it."""
    return CHECKOUT_DISK if is_checkout(Path.cwd()) else Path(DISK_NAME)
