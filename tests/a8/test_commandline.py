"""The shared command-line plumbing: failures are one line, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
