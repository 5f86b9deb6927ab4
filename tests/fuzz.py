"""Fuzzing the parsers: damaged inputs must give a result or a one-line error, never a traceback.

Test tooling, not part of the shipped package: the fuzz tests and ``benchmarks/fuzz.py``
import it from here (``tests`` is a package).

A parser's contract (docs/ATR.md, docs/BASIC.md, docs/TRANSCRIPT.md) is that bad
input is refused with an :class:`~a8.errors.A8Error` (``machfsol``'s errors are
ValueErrors of their own) naming the file and place. :func:`fuzz` feeds a target
thousands of inputs made from real ones (:class:`Mutator`: bit flips, bytes set to
edge values, runs overwritten, truncation, duplication and splicing, and for disk
images the same aimed at the sectors a file system lives in) and counts what
happened: accepted, refused, or a **traceback** (any other exception), of which
the first few are kept with the seed and round that reproduce them.

The same seed gives the same inputs, so CI runs a fixed-seed sample of every
parser (tests/a8/test_fuzz.py) and ``benchmarks/fuzz.py`` a longer run.

The command lines are fuzzed too (:func:`fuzz_command_lines`): real command lines
with words replaced by, or followed by, the values careful users and mistakes give
(a name longer than the system allows, ``/dev/zero``, ``./-``, control characters,
the input itself as the output, numbers out of range). A command must end with exit
status 0, 1 or 2, or argparse's usage error; anything else is a traceback.
"""

from __future__ import annotations

import contextlib
import io
import random
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from a8.basic.atascii import Encoding
from a8.basic.convert import list_program, tokenize
from a8.basic.errors import RejectedLines
from a8.disk.atr import AtrImage
from a8.disk.boot import MenuEntry, install_boot_menu
from a8.disk.check import check_file_system
from a8.disk.detect import open_disk
from a8.disk.dos2 import Dos2Disk
from a8.disk.filesystem import WritableFileSystem
from a8.emu.script import Script
from a8.errors import A8Error

#: Byte values that tend to matter: zeros, sign bits, ATASCII end of line, all ones.
EDGE_BYTES = (0x00, 0x01, 0x02, 0x03, 0x7F, 0x80, 0x9B, 0xFE, 0xFF)


@dataclass(frozen=True)
class Crash:
    """An input that raised something other than the expected errors.

    ``seed`` and ``round`` reproduce it (for a byte scan: the position and the value).
    """

    target: str
    seed: int
    round: int
    error: str
    where: str
    data: bytes


@dataclass
class FuzzReport:
    """What one target did with ``tried`` inputs."""

    target: str
    tried: int = 0
    accepted: int = 0
    refused: int = 0
    tracebacks: int = 0
    crashes: list[Crash] = field(default_factory=list)

    def attempt(
        self,
        target: Callable[[bytes], object],
        data: bytes,
        expected: tuple[type[BaseException], ...],
        reproduce: tuple[int, int],
        keep: int,
    ) -> None:
        """Run ``target`` on one input and count the outcome (``reproduce``: seed, round)."""
        self.tried += 1
        try:
            target(data)
        except expected:
            self.refused += 1
        except Exception as error:  # the whole point: anything else is a finding
            self.tracebacks += 1
            if len(self.crashes) < keep:
                frame = traceback.extract_tb(error.__traceback__)[-1]
                where = f"{frame.filename}:{frame.lineno}"
                seed, round_ = reproduce
                message = f"{type(error).__name__}: {error}"
                self.crashes.append(Crash(self.target, seed, round_, message, where, data))
        else:
            self.accepted += 1

    def line(self) -> str:
        return (
            f"{self.target}: {self.tried} inputs tried, {self.accepted} accepted, "
            f"{self.refused} refused with a one-line error, tracebacks found: {self.tracebacks}"
        )


class Mutator:
    """Damaged copies of real inputs, reproducible from a seed."""

    def __init__(self, seed: int, regions: Callable[[bytes], Sequence[range]] | None = None):
        self.random = random.Random(seed)
        #: Parts of an input worth aiming at (a disk's boot, VTOC and directory sectors).
        self.regions = regions

    def mutate(self, data: bytes, others: Sequence[bytes] = ()) -> bytes:
        """``data`` with one to four damages."""
        out = bytearray(data)
        for _ in range(self.random.randint(1, 4)):
            out = self._one(out, others)
        return bytes(out)

    def _where(self, out: bytearray) -> int:
        if self.regions is not None and out and self.random.random() < 0.7:
            spans = [r for r in self.regions(bytes(out)) if r.start < len(out)]
            if spans:
                span = self.random.choice(spans)
                return self.random.randrange(span.start, min(span.stop, len(out)))
        return self.random.randrange(len(out)) if out else 0

    def _one(self, out: bytearray, others: Sequence[bytes]) -> bytearray:
        pick = self.random.random()
        if not out:
            return bytearray(self.random.randbytes(self.random.randint(1, 64)))
        at = self._where(out)
        if pick < 0.30:
            out[at] ^= 1 << self.random.randrange(8)
        elif pick < 0.55:
            out[at] = self.random.choice(EDGE_BYTES)
        elif pick < 0.65:
            length = self.random.randint(2, 16)
            out[at : at + length] = self.random.randbytes(min(length, len(out) - at))
        elif pick < 0.72:
            out[at : at + 2] = self.random.choice((b"\xff\xff", b"\x00\x00", b"\x68\x01"))[
                : len(out) - at
            ]
        elif pick < 0.80:
            del out[self.random.randrange(len(out)) :]
        elif pick < 0.87:
            start = self.random.randrange(len(out))
            chunk = out[start : start + self.random.randint(1, 256)]
            out[at:at] = chunk
        elif pick < 0.94 and others:
            other = self.random.choice(others)
            if other:
                cut = self.random.randrange(len(other))
                out[at:] = other[cut : cut + len(out) - at]
        else:
            del out[at : at + self.random.randint(1, 64)]
        return out


def fuzz(
    name: str,
    target: Callable[[bytes], object],
    seeds: Sequence[bytes],
    rounds: int,
    *,
    seed: int = 0,
    expected: tuple[type[BaseException], ...],
    regions: Callable[[bytes], Sequence[range]] | None = None,
    keep: int = 5,
) -> FuzzReport:
    """Run ``target`` on ``rounds`` damaged copies of ``seeds`` (and on the seeds themselves).

    ``expected`` are the errors a refusal may raise; anything else is a traceback.
    """
    report = FuzzReport(name)
    mutator = Mutator(seed, regions)
    for number in range(rounds + len(seeds)):
        if number < len(seeds):
            data = seeds[number]
        else:
            data = mutator.mutate(mutator.random.choice(seeds), seeds)
        report.attempt(target, data, expected, (seed, number), keep)
    return report


def scan(
    name: str,
    target: Callable[[bytes], object],
    data: bytes,
    positions: Sequence[int],
    *,
    expected: tuple[type[BaseException], ...],
    values: Sequence[int] = EDGE_BYTES,
    keep: int = 5,
) -> FuzzReport:
    """Set each byte at ``positions`` of ``data`` to each of ``values`` in turn (no randomness)."""
    report = FuzzReport(name)
    for position in positions:
        if position >= len(data):
            continue
        for value in values:
            if data[position] == value:
                continue
            damaged = bytearray(data)
            damaged[position] = value
            report.attempt(target, bytes(damaged), expected, (position, value), keep)
    return report


# -- the toolchain's parsers -------------------------------------------------------------


def _attempt(action: Callable[[], object]) -> None:
    """Run one operation of a target; a refusal (A8Error) is a fine outcome."""
    with contextlib.suppress(A8Error):
        action()


def atr_target(data: bytes) -> None:
    """What ``a8 atr`` does with an image: read it as a file is read (within the bounds
    its header and the largest disk allow), name, list, check, read every file, write.
    Every file system goes through the one interface the commands use."""
    image = AtrImage.read_from(io.BytesIO(data), "FUZZ.ATR")
    disk = open_disk(image)
    str(disk.identity)
    for warning in disk.warnings():
        _one_line(warning)
    report = check_file_system(disk)
    for problem in report.problems:
        if "\n" in str(problem):
            raise AssertionError(f"a problem on two lines: {problem!r}")
    for directory in [None, *disk.directories()]:
        _attempt(partial(disk.listing, directory))
    names = []
    for path in disk.paths():
        names.append(path)
        _attempt(partial(disk.read_file, path))
    if isinstance(disk, WritableFileSystem) and not report.blocking() and names:
        copy = open_disk(AtrImage.from_bytes(image.to_bytes(), "FUZZ.ATR"))
        assert isinstance(copy, WritableFileSystem)
        _attempt(lambda: copy.add(copy.new_file("FUZZ.DAT"), data[:700]))
        _attempt(lambda: copy.remove(names[0]))
        if isinstance(copy, Dos2Disk):
            _attempt(lambda: install_boot_menu(copy, [MenuEntry.parse(names[-1])], "FUZZ"))
        _attempt(lambda: check_file_system(copy))


def atr_regions(data: bytes) -> list[range]:
    """The bytes of an ATR image a file system lives in: header, boot, VTOC, directory, links."""
    size = data[4] | data[5] << 8 if len(data) > 5 else 128
    size = size if size in (128, 256, 512) else 128

    def sector(number: int) -> range:
        start = 16 + (number - 1) * 128 if number <= 3 or size == 128 else 400 + (number - 4) * size
        return range(start, start + (128 if number <= 3 else size))

    spans = [range(0, 16), *(sector(n) for n in range(1, 13))]
    spans += [sector(n) for n in (359, 360, *range(361, 369), 1024)]
    spans += [sector(n) for n in range(16, 25)]  # DOS 3's directory and block table
    spans += [range(s.stop - 3, s.stop) for s in (sector(n) for n in range(4, 720, 7))]
    return spans


def _one_line(message: str) -> None:
    """A warning or error the commands print: one line, no raw control character."""
    if any(char < " " for char in message):
        raise AssertionError(f"not one clean line: {message!r}")


def listing_target(data: bytes) -> None:
    """``a8 tokenize`` (every rejected line reported, each one line), and ``a8 list``
    of what it made, with its warnings."""
    try:
        program = tokenize(data, file="FUZZ.LST")
    except RejectedLines as rejected:
        for error in rejected.errors:
            _one_line(str(error))
        raise
    list_program(program, file="FUZZ.BAS", warn=_one_line)


def program_target(data: bytes) -> None:
    """``a8 list`` of a tokenized program, in both encodings, with its warnings."""
    list_program(data, file="FUZZ.BAS", warn=_one_line)
    list_program(data, file="FUZZ.BAS", encoding=Encoding.ATASCII)


def script_target(data: bytes) -> None:
    """``a8 emu run --script``: the script read (its input bounded when it is read),
    its frames counted, and written back in the text format that reads the same."""
    script = Script.from_bytes(data, "FUZZ.TXT")
    script.input_frames()
    if Script.parse(script.to_text(), "FUZZ.TXT") != script:
        raise AssertionError("the script's text does not read back the same")


# -- the command lines ----------------------------------------------------------------------

#: Values that careful users type and mistakes give, as whole words of a command line
#: ({folder} is a scratch folder, {input} a file of the command's own).
NASTY_WORDS: tuple[str, ...] = (
    "",
    "-",
    "./-",
    "/dev/zero",
    "/dev/null",
    "/",
    "X" * 300,
    "\x1b[2J\x1b[31mRED",
    "a\nb",
    "0",
    "-1",
    "999999999999",
    "nan",
    "1-",
    "9-1",
    "both",
    "all",
    "--",
    "--help-me",
    "{folder}",
    "{folder}/missing/out",
    "{input}",
)


def command_line_target(main: Callable[[list[str]], int], folder: str) -> Callable[[bytes], object]:
    """A target that runs ``main`` on a command line (its words joined by NUL bytes,
    ``{folder}`` standing for ``folder``): exit status 0, 1 or 2, or argparse's usage
    error (SystemExit 2), are results; anything else is a finding."""

    def run(data: bytes) -> int:
        argv = [word.replace("{folder}", folder) for word in data.decode().split("\0")]
        try:
            status = main(argv)
        except SystemExit as stop:  # argparse: a usage error, or --help
            if stop.code not in (0, 2):
                raise AssertionError(f"SystemExit({stop.code!r})") from None
            return int(stop.code or 0)
        if status not in (0, 1, 2):
            raise AssertionError(f"exit status {status}")
        return status

    return run


def fuzz_command_lines(
    name: str,
    main: Callable[[list[str]], int],
    bases: Sequence[Sequence[str]],
    rounds: int,
    *,
    folder: str,
    inputs: dict[str, str],
    seed: int = 0,
    keep: int = 5,
) -> FuzzReport:
    """Run ``main`` on each base command line, then on ``rounds`` mutated ones: one to
    three words replaced by a :data:`NASTY_WORDS` value, or one added. ``{input}`` is
    replaced by ``inputs[base's first word]`` (a file that command reads)."""
    report = FuzzReport(name)
    chooser = random.Random(seed)
    target = command_line_target(main, folder)
    for number in range(rounds + len(bases)):
        base = list(bases[number % len(bases)])
        words = list(base)
        if number >= len(bases):
            for _ in range(chooser.randint(1, 3)):
                value = chooser.choice(NASTY_WORDS)
                value = value.replace("{input}", inputs.get(base[0], "{folder}"))
                if chooser.random() < 0.2:
                    words.insert(chooser.randrange(len(words) + 1), value)
                else:
                    words[chooser.randrange(1, len(words)) if len(words) > 1 else 0] = value
        data = "\0".join(words).encode()
        report.attempt(target, data, (), (seed, number), keep)
    return report
