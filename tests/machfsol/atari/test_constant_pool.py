"""Pooling the program's most used numbers into variables (the disk's form)."""

from __future__ import annotations

import pytest

from a8.basic import tokenize
from a8.basic.atascii import from_text
from a8.basic.program import Program
from machfsol.atari import basic_game
from machfsol.atari.constant_pool import MAX_LINE_LENGTH, ConstantPoolError, pool_constants


def test_numbers_used_often_become_variables_set_on_the_first_line() -> None:
    listing = (
        "0 GOTO 10\n"
        "10 A=1:B=1+2:C(1)=2*2:PRINT #1;1\n"
        "20 IF A=1 THEN 2\n"
        "30 FOR I=1 TO 2:NEXT I:ON A GOTO 10,20\n"
    )
    assert pool_constants(listing) == (
        "0 Z1=1:Z2=2:GOTO 10\n"
        "10 A=Z1:B=Z1+Z2:C(Z1)=Z2*Z2:PRINT #Z1;Z1\n"
        "20 IF A=Z1 THEN 2\n"
        "30 FOR I=Z1 TO Z2:NEXT I:ON A GOTO 10,20\n"
    )


def test_line_numbers_strings_data_decimals_and_names_stay() -> None:
    listing = (
        '0 X=5:X=5:X=5:X=5:GOSUB 5:TRAP 5:RESTORE 5:PRINT "5 5 5";X5;0.5;5E3\n'
        "5 DATA 5,5,5:REM 5\n"
        "6 IF X THEN 5\n"
    )
    assert pool_constants(listing) == (
        '0 Z5=5:X=Z5:X=Z5:X=Z5:X=Z5:GOSUB 5:TRAP 5:RESTORE 5:PRINT "5 5 5";X5;0.5;5E3\n'
        "5 DATA 5,5,5:REM 5\n"
        "6 IF X THEN 5\n"
    )


def test_a_number_used_fewer_than_four_times_stays() -> None:
    listing = "0 X=7:Y=7:Z=7\n"
    assert pool_constants(listing) == listing


def test_lines_stay_short_enough_for_the_editor() -> None:
    body = "\n".join(f"{n} A{n}={n}:A{n}={n}:A{n}={n}:A{n}={n}:B={n}" for n in range(10, 30))
    long = "30 " + ":".join(["B=10"] * 16) + ':PRINT "' + "X" * 20 + '"'  # 111, pooled 127
    pooled = pool_constants(f"0 GOTO 1\n{body}\n{long}\n").splitlines()
    assert len(pooled[0]) <= MAX_LINE_LENGTH
    assert pooled[0].endswith(":GOTO 1") and pooled[0].count("=") == 12
    assert pooled[-1] == long


def test_the_pool_leaves_variables_free() -> None:
    names = [f"V{n}" for n in range(122)]
    lines = [
        f"{i + 1} " + ":".join(f"{name}=1" for name in names[i * 8 : i * 8 + 8]) for i in range(16)
    ]
    lines.append("17 A=2+2+2+2")
    pooled = pool_constants("0 GOTO 1\n" + "\n".join(lines) + "\n")
    assert pooled.startswith("0 Z1=1:GOTO 1\n")  # 123 variables and Z1: 4 of 128 left
    assert len(Program.from_bytes(tokenize(pooled)).names) == 124


def test_a_pool_name_that_is_already_a_variable_is_refused() -> None:
    with pytest.raises(ConstantPoolError, match="Z1 is a variable of the program"):
        pool_constants("0 Z1=3:A=1:A=1:A=1:A=1\n")


@pytest.mark.parametrize("variant", basic_game.VARIANTS)
def test_the_games_lose_about_3000_bytes_and_keep_their_lines(variant: int) -> None:
    plain = basic_game.generate(variant, strip_remarks=True, part="program")
    pooled = basic_game.program_listing(variant)
    assert len(tokenize(plain)) - len(tokenize(pooled)) > 2400
    assert [line.split()[0] for line in plain.splitlines()] == [
        line.split()[0] for line in pooled.splitlines()
    ]
    # (the machine code's strings, spelled {$XX}, are read from a file: they cannot be
    # typed; the length is the Atari's characters, {DELLINE} is one)
    assert all(
        len(from_text(line)) <= MAX_LINE_LENGTH or "{$" in line for line in pooled.splitlines()
    )
