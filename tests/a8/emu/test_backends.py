"""The backend registry of a8.emu.emulator: which backend runs a script, and who says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from a8.emu.emulator import (
    DEFAULT_BACKEND,
    EmulatorError,
    EmulatorMissingError,
    EmulatorOptions,
    backend_named,
    register_backend,
    require_emulator,
    run,
    using_backend,
)
from a8.emu.script import Script
from tests.a8.emu.fake_machine import FakeMachine


def test_runs_go_to_atari800_unless_told_otherwise() -> None:
    assert DEFAULT_BACKEND == "atari800"
    assert backend_named().name == "atari800"
    assert backend_named("atari800") is backend_named()


def test_the_options_name_the_backend_and_none_means_the_default() -> None:
    one, two = FakeMachine(name="one"), FakeMachine(name="two")
    with using_backend(one), using_backend(two):
        assert run(EmulatorOptions(backend="one"), Script().wait(5)).command == ("one",)
        assert run(EmulatorOptions(), Script().wait(7)).command == ("two",)
    assert (len(one.fed), len(two.fed)) == (5, 7)


def test_using_backend_is_undone_at_the_end_of_its_block() -> None:
    with using_backend(FakeMachine()):
        assert backend_named().name == "fake"
    assert backend_named().name == "atari800"
    with pytest.raises(
        EmulatorError, match=r"^unknown emulator backend 'fake' \(known: atari800\)$"
    ):
        run(EmulatorOptions(backend="fake"), Script())


def test_a_built_in_backend_cannot_be_replaced() -> None:
    with pytest.raises(EmulatorError, match="'atari800' is built in"):
        register_backend(FakeMachine(name="atari800"))
    assert backend_named().name == "atari800"


def test_require_asks_the_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("A8_ATARI800", str(tmp_path / "no-atari800"))
    with pytest.raises(EmulatorMissingError, match="A8_ATARI800=.*: not an executable file"):
        require_emulator()
    with using_backend(FakeMachine()):
        require_emulator()  # the stand-in is always there
        with pytest.raises(EmulatorMissingError):
            require_emulator("atari800")


def test_a_backend_refuses_options_that_cannot_work(tmp_path: Path) -> None:
    """The interface's promise, kept by the stand-in as by atari800: a missing disk."""
    with using_backend(FakeMachine()), pytest.raises(EmulatorError, match="disk image not found"):
        run(EmulatorOptions(disk=tmp_path / "none.atr"), Script())
