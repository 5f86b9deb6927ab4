"""Tokenize and list a generated 5,000-line Atari BASIC listing; print lines per second.

    .venv/bin/python benchmarks/basic_speed.py

Target (issue 3): both directions under one second for 5,000 lines on the project
machine. Wall-clock time depends on what else the machine runs, so the CPU time of
this process is printed too. The listing mixes the statement kinds of a typical program. A SAVE file
addresses its tables with 16-bit words, so 5,000 lines do not fit in one program: the
listing is cut into five programs of 1,000 lines, and the times are for all five.
"""

from __future__ import annotations

import time

from a8.basic import list_program, tokenize

LINES = 5000
PROGRAMS = 5
_TEMPLATES = (
    "PRINT S;M",
    "IF A>B THEN {n}",
    "FOR I=1 TO 9",
    "X=X*7-INT(X/3)",
    "POKE 710,{n}",
    "DATA 1,2,HI",
    "REM LINE {n}",
    "ON K GOTO 1,2",
    'A$="CARDS"',
    "NEXT I:GOSUB {n}",
)


def listings() -> list[str]:
    per_program = LINES // PROGRAMS
    texts = []
    for part in range(PROGRAMS):
        rows = []
        for index in range(part * per_program, (part + 1) * per_program):
            template = _TEMPLATES[index % len(_TEMPLATES)]
            rows.append(f"{index + 1} " + template.format(n=index % 32000))
        texts.append("\n".join(rows) + "\n")
    return texts


def main() -> None:
    texts = listings()
    start, cpu = time.perf_counter(), time.process_time()
    programs = [tokenize(text) for text in texts]
    tokenize_seconds = time.perf_counter() - start
    tokenize_cpu = time.process_time() - cpu
    start, cpu = time.perf_counter(), time.process_time()
    listed = [list_program(program) for program in programs]
    list_seconds = time.perf_counter() - start
    list_cpu = time.process_time() - cpu
    assert sum(str(text).count("\n") for text in listed) == LINES
    for name, seconds, cpu_seconds in (
        ("tokenize", tokenize_seconds, tokenize_cpu),
        ("list", list_seconds, list_cpu),
    ):
        print(
            f"{name:8}: {LINES} lines in {seconds:.3f} s = {LINES / seconds:,.0f} lines/s"
            f" (CPU time {cpu_seconds:.3f} s)"
        )
    print(f"program sizes: {', '.join(str(len(p)) for p in programs)} bytes")


if __name__ == "__main__":
    main()
