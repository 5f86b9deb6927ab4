"""A real DOS in atari800 reads what ``a8 atr`` wrote, and ``a8 atr`` reads what that DOS wrote.

Needs a bootable DOS disk of your own (Atari DOS 2.5, MyDOS 4.5, DOS 2.0S ...;
none ships with this project: Atari's DOS files are Atari's, and even a freely
distributable MyDOS would be code we did not write), named in an environment
variable, several separated by ``:``::

    A8_DOS_DISKS=~/atari/dos25.atr:~/atari/mydos450.atr .venv/bin/python -m pytest \\
        tests/a8/disk/test_dos_interop.py

Without the variable the test is reported as SKIPPED with that command (never as
passed), in CI too, which has no DOS disk. For each disk (a copy; yours is not
touched) it:

1. adds with ``a8 atr add`` a BASIC program A8TEST.BAS (tokenized by ``a8
   tokenize``) and a data file with all 256 byte values to the DOS disk in D1:,
   and makes a second disk with ``a8 atr new`` in D2: (enhanced density for DOS
   2.5, so that its 95,000-byte BIG.DAT runs past sector 720 and is flagged $03;
   single density for the others) holding a big file;
2. boots the DOS disk in atari800 with BASIC and types ``RUN "D1:A8TEST.BAS"``:
   the program lists both directories through DOS (``OPEN #1,6,0,"D1:*.*"``) to
   H:, copies both files byte by byte through DOS to H:, and writes a 1000-byte
   file FROMDOS.DAT on each disk through DOS;
3. checks that DOS listed the names, sector counts and free counts ``a8 atr ls``
   shows, that the copies are the bytes added, and that ``a8 atr get`` reads back
   exactly the bytes DOS wrote, with ``a8 atr check`` still clean on both disks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from a8.disk.atr import AtrImage
from a8.disk.check import check_image
from a8.disk.detect import open_disk
from a8.disk.dos2 import Dos2Disk
from a8.emu.emulator import EmulatorOptions, run
from a8.emu.script import Script

VARIABLE = "A8_DOS_DISKS"
A8 = [sys.executable, "-c", "import sys; from a8.cli import main; sys.exit(main())"]

PROGRAM = """\
5 DIM L$(40),F$(20),G$(20):TRAP 900
20 OPEN #1,6,0,"D1:*.*":OPEN #2,8,0,"H1:DIR1.TXT":TRAP 40
30 INPUT #1,L$:PRINT #2;L$:GOTO 30
40 CLOSE #1:CLOSE #2:TRAP 900
50 OPEN #1,6,0,"D2:*.*":OPEN #2,8,0,"H1:DIR2.TXT":TRAP 70
60 INPUT #1,L$:PRINT #2;L$:GOTO 60
70 CLOSE #1:CLOSE #2:TRAP 900
80 F$="D1:A8DATA.DAT":G$="H1:COPY1.DAT":GOSUB 200
90 F$="D2:BIG.DAT":G$="H1:COPY2.DAT":GOSUB 200
100 F$="D1:FROMDOS.DAT":GOSUB 300
110 F$="D2:FROMDOS.DAT":GOSUB 300
120 OPEN #3,8,0,"H1:DONE.TXT":PRINT #3;"DONE":CLOSE #3:END
200 OPEN #1,4,0,F$:OPEN #2,8,0,G$:TRAP 230
210 GET #1,B:PUT #2,B:GOTO 210
230 CLOSE #1:CLOSE #2:TRAP 900:RETURN
300 OPEN #1,8,0,F$:FOR I=0 TO 999:PUT #1,I-INT(I/251)*251:NEXT I:CLOSE #1:RETURN
900 CLOSE #1:CLOSE #2:OPEN #3,8,0,"H1:DONE.TXT"
910 PRINT #3;"ERROR ";PEEK(195);" AT LINE ";PEEK(186)+256*PEEK(187):CLOSE #3:END
"""
DATA = bytes(range(256)) * 3 + bytes(range(255, -1, -1))  # 1024 bytes, every value
FROM_DOS = bytes(i % 251 for i in range(1000))


def dos_disks() -> list[object]:
    given = [Path(p).expanduser() for p in os.environ.get(VARIABLE, "").split(os.pathsep) if p]
    if given:
        return given
    reason = (
        f"NOT RUN: no DOS disk given; set {VARIABLE}=dos25.atr:mydos.atr (your own bootable "
        "DOS 2.5 / MyDOS disks) to prove that a real DOS reads a8's files and a8 reads DOS's"
    )
    return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id="no-dos-disk")]


def a8(*args: str) -> subprocess.CompletedProcess[bytes]:
    result = subprocess.run([*A8, *args], capture_output=True, check=False)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result


def listing_of(lines: list[str]) -> tuple[list[tuple[str, str, int]], int]:
    """Files (name, extension, sectors) and the free count from DOS's or a8's listing."""
    files = []
    free = -1
    for line in lines:
        words = line.replace("*", " ").replace("<", " ").replace(":", " ").split()
        if line.strip().endswith("FREE SECTORS"):
            free = int(words[0])
        elif words and words[-1].isdigit():
            name, ext = words[0], words[1] if len(words) == 3 else ""
            files.append((name, ext, int(words[-1])))
    return sorted(files), free


@pytest.mark.emulator
@pytest.mark.slow
@pytest.mark.parametrize("dos_disk", dos_disks(), ids=lambda p: getattr(p, "name", str(p)))
def test_a_real_dos_and_a8_read_each_others_files(
    atari800: str, tmp_path: Path, dos_disk: Path
) -> None:
    assert dos_disk.is_file(), f"{VARIABLE}: {dos_disk} is not a file"
    d1, d2 = tmp_path / "D1.ATR", tmp_path / "D2.ATR"
    shutil.copyfile(dos_disk, d1)
    opened = open_disk(AtrImage.read(d1))
    identity = opened.identity
    assert isinstance(opened, Dos2Disk), f"{dos_disk}: {identity}: give a DOS 2.x or MyDOS disk"
    assert not check_image(AtrImage.read(d1)).blocking(), f"{dos_disk}: `a8 atr check` it"
    enhanced = identity.name == "DOS 2.5"
    big = bytes((i * 7 + i // 251) % 256 for i in range(95000 if enhanced else 20000))

    (tmp_path / "A8TEST.LST").write_text(PROGRAM, encoding="ascii")
    (tmp_path / "A8DATA.DAT").write_bytes(DATA)
    (tmp_path / "BIG.DAT").write_bytes(big)
    a8("tokenize", str(tmp_path / "A8TEST.LST"), "-o", str(tmp_path / "A8TEST.BAS"))
    a8("atr", "add", str(d1), str(tmp_path / "A8TEST.BAS"))
    a8("atr", "add", str(d1), str(tmp_path / "A8DATA.DAT"))
    a8("atr", "new", str(d2), "--density", "enhanced" if enhanced else "single")
    a8("atr", "add", str(d2), str(tmp_path / "BIG.DAT"))
    listings = {
        disk: listing_of(a8("atr", "ls", str(disk)).stdout.decode().splitlines()[1:])
        for disk in (d1, d2)
    }

    hdir = tmp_path / "h"
    hdir.mkdir()
    script = (
        Script()
        .wait_for_input(3000)
        .type('RUN "D1:A8TEST.BAS"\n')
        .wait_for_file("DONE.TXT", 60 * 60 * 20)
    )
    options = EmulatorOptions(hdir=hdir, extra_args=(str(d1), str(d2)), timeout_s=600)
    result = run(options, script)
    assert result.reason == "script-end", result.log
    done = (hdir / "DONE.TXT").read_bytes()
    assert done == b"DONE\x9b", done.decode("latin-1")

    for disk, name in ((d1, "DIR1.TXT"), (d2, "DIR2.TXT")):
        lines = (hdir / name).read_bytes().decode("latin-1").split("\x9b")
        assert listing_of(lines) == listings[disk], lines
    assert (hdir / "COPY1.DAT").read_bytes() == DATA
    assert (hdir / "COPY2.DAT").read_bytes() == big
    for disk in (d1, d2):
        got = a8("atr", "get", str(disk), "FROMDOS.DAT", "-o", "-").stdout
        assert got == FROM_DOS
        report = check_image(AtrImage.read(disk))
        assert report.problems == [], [str(p) for p in report.problems]
    if enhanced:
        status = a8("atr", "ls", str(d2)).stdout.decode()
        assert " <BIG     DAT" in status  # the big file runs past sector 720 ($03)
