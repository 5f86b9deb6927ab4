"""The shared command-line plumbing: failures are one line, never a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from a8.commandline import EXIT_STATUS_HELP, printable
from a8.disk.dos2 import Dos2Disk

#: The ``machfsol`` command, run by this interpreter (no reliance on the PATH).
MACHFSOL = [sys.executable, "-c", "import sys; from machfsol.cli import main; sys.exit(main())"]


def _run(args: list[str], stdout_path: str) -> subprocess.CompletedProcess[str]:
    with open(stdout_path, "w") as out:
        return subprocess.run(
            MACHFSOL + args,
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_full_output_device_is_one_line_and_exit_1() -> None:
    result = _run(["autoplay", "--variant", "1", "--seed", "3"], "/dev/full")
    assert result.returncode == 1
    assert result.stderr == "machfsol: cannot write the output: No space left on device\n"


def test_closed_pipe_is_quiet() -> None:
    process = subprocess.Popen(
        MACHFSOL + ["autoplay", "--variant", "2", "--seed", "5", "--deck", "52"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(10)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    process.wait()
    assert "Traceback" not in stderr


#: The ``a8`` command, run by this interpreter.
A8 = [sys.executable, "-c", "import sys; from a8.cli import main; sys.exit(main())"]


@pytest.fixture
def program(tmp_path: Path) -> Path:
    listing = tmp_path / "PROG.LST"
    listing.write_text('10 PRINT "HELLO"\n20 GOTO 10\n', encoding="utf-8")
    bas = tmp_path / "PROG.BAS"
    subprocess.run([*A8, "tokenize", str(listing), "-o", str(bas)], check=True)
    return bas


def test_a8_list_with_stdout_closed_is_one_line(program: Path) -> None:
    """Was a traceback: `a8 list PROG.BAS >&-` (Python starts with sys.stdout = None)."""
    result = subprocess.run(
        ["bash", "-c", '"$@" >&-', "a8", *A8, "list", str(program)],
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == "cannot write the output: standard output is closed\n"


@pytest.mark.parametrize("command", ["list", "tokenize", "get"])
def test_outputs_go_to_stdout_dev_null_and_through_links(
    command: str, program: Path, tmp_path: Path
) -> None:
    listing = tmp_path / "PROG.LST"
    disk = tmp_path / "D.ATR"
    subprocess.run([*A8, "atr", "new", str(disk)], check=True)
    subprocess.run([*A8, "atr", "add", str(disk), str(program)], check=True)
    args = {
        "list": ["list", str(program)],
        "tokenize": ["tokenize", str(listing), "--save-command", 'SAVE "D:P"'],
        "get": ["atr", "get", str(disk), "PROG.BAS"],
    }[command]
    first = subprocess.run([*A8, *args, "-o", "-"], capture_output=True, check=True).stdout
    assert first
    assert subprocess.run([*A8, *args, "-o", "/dev/null"], capture_output=True).returncode == 0
    assert Path("/dev/null").is_char_device()
    real = tmp_path / "real.out"
    real.write_bytes(b"old")
    link = tmp_path / "link.out"
    link.symlink_to(real)
    subprocess.run([*A8, *args, "-o", str(link)], check=True)
    assert link.is_symlink() and real.read_bytes() == first
    real.chmod(0o444)
    result = subprocess.run([*A8, *args, "-o", str(real)], capture_output=True, text=True)
    assert result.returncode == 1 and "read-only" in result.stderr
    assert result.stderr.count("\n") == 1 and real.read_bytes() == first


@pytest.mark.parametrize(
    "args",
    [["autoplay", "--variant", "1", "--seed", "3"], ["listing", "1"]],
    ids=lambda a: a[0],
)
def test_machfsol_with_stdout_closed_is_one_line(args: list[str]) -> None:
    result = subprocess.run(
        ["bash", "-c", '"$@" >&-', "machfsol", *MACHFSOL, *args],
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == "machfsol: cannot write the output: standard output is closed\n"


def test_machfsol_outputs_follow_the_same_rules(tmp_path: Path) -> None:
    real = tmp_path / "real.lst"
    real.write_bytes(b"old")
    link = tmp_path / "link.lst"
    link.symlink_to(real)
    subprocess.run([*MACHFSOL, "listing", "1", "-o", str(link)], check=True)
    assert link.is_symlink() and real.read_bytes().startswith(b"0 ")
    assert subprocess.run([*MACHFSOL, "listing", "1", "-o", "/dev/null"]).returncode == 0
    assert Path("/dev/null").is_char_device()
    real.chmod(0o444)
    result = subprocess.run(
        [*MACHFSOL, "listing", "1", "-o", str(real)], capture_output=True, text=True
    )
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "read-only" in result.stderr


#: A name longer than the system allows (255 bytes).
TOO_LONG = "X" * 300


@pytest.mark.parametrize(
    "args",
    [
        ["list", "{bas}", "-o", TOO_LONG],
        ["tokenize", "{lst}", "-o", TOO_LONG],
        ["atr", "get", "{atr}", "PROG.BAS", "-o", TOO_LONG],
        ["atr", "new", TOO_LONG],
        ["emu", "run", "--frames", "1", "--log", TOO_LONG],
        ["emu", "run", "--frames", "1", "--screenshot", TOO_LONG + ".png"],
    ],
    ids=lambda args: " ".join(word for word in args[:3] if word != TOO_LONG),
)
def test_an_output_name_too_long_is_one_line(
    args: list[str], program: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was an OSError traceback from a8/files.py (Errno 36)."""
    monkeypatch.chdir(tmp_path)
    disk = tmp_path / "D.ATR"
    subprocess.run([*A8, "atr", "new", str(disk)], check=True)
    subprocess.run([*A8, "atr", "add", str(disk), str(program)], check=True)
    names = {"bas": str(program), "lst": str(program.with_suffix(".LST")), "atr": str(disk)}
    command = [word.format(**names) if word.startswith("{") else word for word in args]
    result = subprocess.run([*A8, *command], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    assert result.stderr.endswith(": cannot write: File name too long\n")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_machfsol_solve_transcript_too_long_is_one_line_before_the_search(
    tmp_path: Path,
) -> None:
    result = subprocess.run(
        [*MACHFSOL, "solve", "--seed", "1", "--transcript", str(tmp_path / TOO_LONG)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.endswith(": cannot write: File name too long\n")


def test_only_the_bare_dash_is_standard_output(program: Path, tmp_path: Path) -> None:
    """Was: ``-o ./-`` wrote to standard output (argparse's type=Path made it ``-``)."""
    result = subprocess.run(
        [*A8, "list", str(program), "-o", "./-"], cwd=tmp_path, capture_output=True, check=True
    )
    assert result.stdout == b""
    assert (tmp_path / "-").read_bytes() == b'10 PRINT "HELLO"\n20 GOTO 10\n'


@pytest.mark.parametrize("command", ["tokenize", "list"])
def test_the_input_is_not_replaced_by_the_output(command: str, program: Path) -> None:
    """Was: ``a8 tokenize same.lst -o same.lst`` replaced the listing, exit 0."""
    source = program.with_suffix(".LST") if command == "tokenize" else program
    before = source.read_bytes()
    output = source.parent / "." / source.name
    result = subprocess.run(
        [*A8, command, str(source), "-o", str(output)], capture_output=True, text=True
    )
    assert result.returncode == 1
    assert result.stderr == (
        f"{output}: is also the input {source}; writing it would replace what is read: "
        "give another output name\n"
    )
    assert source.read_bytes() == before


def test_machfsol_listing_over_its_source_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "my.bas"
    subprocess.run([*MACHFSOL, "listing", "1", "--remarks", "-o", str(source)], check=True)
    before = source.read_bytes()
    result = subprocess.run(
        [*MACHFSOL, "listing", "1", "--source", str(source), "-o", str(source)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1 and "is also the input" in result.stderr
    assert source.read_bytes() == before


def test_play_refuses_standard_output_as_its_transcript() -> None:
    """The game is on standard output: ``--transcript -`` would be written into it."""
    result = subprocess.run(
        [*MACHFSOL, "play", "--plain", "--seed", "1", "--transcript", "-"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "--transcript -: the game itself" in result.stderr


def test_output_the_encoding_cannot_show_is_escaped(tmp_path: Path) -> None:
    """Was a UnicodeEncodeError: ``PYTHONIOENCODING=ascii a8 atr ls`` of a disk with
    ATASCII graphics in a name (shown with their UTF-8 spelling: ◣♥)."""
    disk = Dos2Disk.new()
    disk.add_file("TWO.DAT", b"two")
    raw = bytearray(disk.image.read_sector(361))
    raw[5:13] = b"T\x0aO\x00    "
    disk.image.write_sector(361, bytes(raw))
    path = tmp_path / "D.ATR"
    path.write_bytes(disk.to_bytes())
    result = subprocess.run(
        [*A8, "atr", "ls", str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert result.returncode == 0, result.stderr
    assert "  T\\u25e3O\\u2665    DAT 001" in result.stdout.splitlines()


def test_control_characters_in_messages_are_shown_escaped(tmp_path: Path) -> None:
    """Was: an emulator script's line (or a file name) holding ESC [2J cleared the
    user's screen when the error quoted it."""
    script = tmp_path / "\x1b[2J.txt"
    result = subprocess.run([*A8, "emu", "run", "--script", str(script)], capture_output=True)
    assert result.returncode == 1
    assert result.stderr == (
        f"{tmp_path}/\\x1b[2J.txt: cannot read script: No such file or directory\n".encode()
    )
    missing = tmp_path / "\x1b[2J.bas"
    result = subprocess.run([*A8, "list", str(missing)], capture_output=True)
    assert (
        result.stderr
        == f"{tmp_path}/\\x1b[2J.bas: cannot read: No such file or directory\n".encode()
    )
    assert printable("a\tb\x9bc\x7f") == "a\\x09b\\x9bc\\x7f"


# -- exit status: one rule for every command ----------------------------------------------


def test_both_helps_end_with_the_exit_status_rule() -> None:
    for command in (A8, MACHFSOL):
        out = subprocess.run([*command, "--help"], capture_output=True, text=True).stdout
        assert " ".join(out.split()).endswith(" ".join(EXIT_STATUS_HELP.split()))


def _without_atari800() -> dict[str, str]:
    return {**os.environ, "A8_ATARI800": "/nonexistent/atari800"}


@pytest.mark.parametrize(
    "args",
    [
        [*MACHFSOL, "verify", "--seeds", "1"],
        [*MACHFSOL, "main", "--deals", "1", "--seeds", "1"],
        [*A8, "emu", "run", "--frames", "1"],
    ],
    ids=["machfsol verify", "machfsol main", "a8 emu run"],
)
def test_a_missing_emulator_is_a_set_up_problem(args: list[str]) -> None:
    """Was: ``machfsol verify`` without atari800 exited 1, which VERIFY.md gives to "a
    deal differs"; now 2, before anything is built or played."""
    result = subprocess.run(args, capture_output=True, text=True, env=_without_atari800())
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.endswith("A8_ATARI800=/nonexistent/atari800: not an executable file\n")


def test_verify_refuses_a_disk_that_is_no_atr(tmp_path: Path) -> None:
    """Was: ``machfsol verify --disk text.txt`` booted it and reported two hung deals
    after 120 emulated seconds each."""
    text = tmp_path / "text.txt"
    text.write_text("some notes, not a disk\n")
    result = subprocess.run(
        [*MACHFSOL, "verify", "--disk", str(text), "--seeds", "1"], capture_output=True, text=True
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"machfsol: --disk: {text}: not an ATR image (bytes 0-1 are 73 6F, expected 96 02)\n"
    )


def test_a_rom_file_that_cannot_be_used_is_a_set_up_problem() -> None:
    result = subprocess.run(
        [*A8, "emu", "run", "--os-rom", "/dev/zero"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr == (
        "/dev/zero (from --os-rom): more than 16384 bytes, an XL/XE OS ROM has 16384\n"
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_interrupted_study_stops_with_130(jobs: str) -> None:
    """Was: with --jobs 2, Ctrl-C left the process pool running every chunk submitted."""
    process = subprocess.Popen(
        [*MACHFSOL, "odds", "--deck", "52", "--deals", "200000", "--jobs", jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3)
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C does: to the whole group
    try:
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
