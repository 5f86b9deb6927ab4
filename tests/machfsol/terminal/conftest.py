"""The terminal game's tests keep their statistics and kept games to themselves."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _state_folder_of_the_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$XDG_STATE_HOME`` in the test's own folder: the game's statistics and the game
    kept between runs go there, never into the player's home, and no test sees what
    another one left (a kept game would be offered at its start)."""
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder
