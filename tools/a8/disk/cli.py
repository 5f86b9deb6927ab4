"""``a8 atr ...``: list, read, check, fill and make bootable the disks people really have.

Every command opens the image once through the registry (:mod:`a8.disk.detect`)
and speaks to the file system it gets through one interface
(:mod:`a8.disk.filesystem`): it names itself, lists, reads and checks its files
(DOS 2.0S, 2.5, 2.0D, MyDOS, SpartaDOS, DOS 3), and the formats a8 writes (the DOS
2 family) add and remove them, only when :mod:`a8.disk.check` finds nothing that a
write could make worse and the disk's VTOC is sound. Damage a reader works around
is said on standard error, one line. Every command
that changes a disk reads the whole image, changes it in memory and writes it
back atomically (:mod:`a8.files`) only when everything has succeeded: on any
error, or on a disk it does not write, the image is byte for byte as it was. The
image is locked from the read to the write, so two commands changing one disk at
once take turns instead of one silently undoing the other.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from a8.commandline import docs, warn
from a8.disk.atr import AtrImage
from a8.disk.boot import MenuEntry, install_boot_menu
from a8.disk.check import Report, check_file_system, check_image
from a8.disk.detect import open_disk, written_formats
from a8.disk.dos2 import Density, Dos2Disk, Dos2Error
from a8.disk.filesystem import DirectoryTree, FileSystem, FileSystemError, WritableFileSystem
from a8.disk.names import FileNameError
from a8.disk.packed import pack_program
from a8.errors import A8Error, UsageError
from a8.files import (
    Output,
    is_stdout,
    output_argument,
    output_exists,
    refuse_input_as_output,
    updating,
    write_atomically,
)
from a8.reading import read_input

#: Help of every DISK argument.
DISK_HELP = "the ATR disk image"
#: ``a8 atr new --sectors``'s sector size unless told: double density, what the
#: large images SDrive, FujiNet and SIO2PC serve have.
MYDOS_SECTOR_SIZE = 256


class DiskCommandError(A8Error):
    """A disk command refused (wrong file system, write protection, damage...)."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``a8 atr`` and its sub-commands."""
    atr = subparsers.add_parser(
        "atr",
        help="ATR disk images: DOS 2.x, MyDOS, SpartaDOS, DOS 3 (read); DOS 2.x, MyDOS (write)",
        description="Disk images as SIO2PC, FujiNet, SDrive and the emulators use them: "
        "name their file system, list, read and check them; make DOS 2 disks, copy files "
        "onto them and off them, and write a boot menu. A disk is changed only when "
        f"nothing could go wrong, else left byte for byte as it was. See {docs('ATR.md')}.",
    )
    commands = atr.add_subparsers(dest="atr_command", metavar="ACTION", required=True)

    new = commands.add_parser(
        "new",
        help="create an empty DOS 2 or MyDOS disk image",
        description="Write an empty, formatted DOS 2 disk image (DOS 2.0S, 2.5 or 2.0D), "
        "or a MyDOS one of any size from 720 to 65535 sectors (--sectors): SDrive, FujiNet "
        "and SIO2PC serve those, DOS 2.5 does not read the larger ones.",
    )
    new.add_argument("disk", type=output_argument, help="the image to write (- for stdout)")
    size = new.add_mutually_exclusive_group()
    size.add_argument(
        "--density",
        choices=[d.value for d in Density],
        help="single: 90K DOS 2.0S (default); enhanced: 130K DOS 2.5; double: 180K DOS 2.0D",
    )
    size.add_argument(
        "--sectors",
        type=int,
        metavar="N",
        help="a MyDOS disk of N sectors (720-65535; e.g. 1440 x 256 bytes: 360K)",
    )
    new.add_argument(
        "--sector-size",
        type=int,
        metavar="BYTES",
        help="with --sectors: 128 or 256 bytes a sector (default 256)",
    )
    new.add_argument("--force", action="store_true", help="replace an existing file")
    new.set_defaults(handler=cmd_new)

    ls = commands.add_parser(
        "ls",
        help="name the file system and list the files",
        description="Name the disk's file system, then list its files as the DOS does "
        "(DOS 2.x, MyDOS, SpartaDOS, DOS 3), with the free space.",
    )
    ls.add_argument("disk", type=Path, help=DISK_HELP)
    ls.add_argument("directory", nargs="?", help="a subdirectory (MyDOS, SpartaDOS): A>B or A/B")
    ls.set_defaults(handler=cmd_ls)

    add = commands.add_parser(
        "add",
        help="copy a file onto the disk (DOS 2.x, MyDOS)",
        description="Copy a file onto a DOS 2.x or MyDOS disk, replacing an unlocked file "
        "of the same name, as DOS's COPY does.",
    )
    add.add_argument("disk", type=Path, help=DISK_HELP)
    add.add_argument("file", type=Path, help="the file to copy onto it")
    add.add_argument(
        "--name", help="name on the disk (default: the file's name); DIR>NAME on MyDOS"
    )
    add.add_argument(
        "--packed",
        action="store_true",
        help="store a tokenized BASIC program packed: a third fewer sectors to load from "
        "the boot menu (`a8 atr boot`), which alone runs it; keep the program itself for DOS",
    )
    add.add_argument(
        "--force", action="store_true", help="write even if the image is write-protected"
    )
    add.set_defaults(handler=cmd_add)

    get = commands.add_parser(
        "get",
        help="copy a file off the disk",
        description="Copy a file off a DOS 2.x, MyDOS, SpartaDOS or DOS 3 disk, byte for byte.",
    )
    get.add_argument("disk", type=Path, help=DISK_HELP)
    get.add_argument("name", help="NAME.EXT, or DIR>NAME.EXT in a subdirectory")
    get.add_argument(
        "-o", "--output", type=output_argument, help="output file, - for stdout (default: NAME.EXT)"
    )
    get.set_defaults(handler=cmd_get)

    rm = commands.add_parser(
        "rm",
        help="delete a file (DOS 2.x, MyDOS)",
        description="Delete a file from a DOS 2.x or MyDOS disk and free its sectors.",
    )
    rm.add_argument("disk", type=Path, help=DISK_HELP)
    rm.add_argument("name", help="NAME.EXT, or DIR>NAME.EXT in a subdirectory")
    rm.add_argument(
        "--force", action="store_true", help="write even if the image is write-protected"
    )
    rm.set_defaults(handler=cmd_rm)

    check = commands.add_parser(
        "check",
        help="check the file system (exit 1 on problems)",
        description="Check the image and its file system: every problem on a line of its "
        "own, then the verdict; exit status 1 if there is any problem.",
    )
    check.add_argument("disk", type=Path, help=DISK_HELP)
    check.set_defaults(handler=cmd_check)

    boot = commands.add_parser(
        "boot",
        help="write a boot menu that runs tokenized BASIC programs without DOS",
        description="Make a DOS 2 disk boot into a menu of its tokenized BASIC programs: "
        "a key runs one, with no DOS loaded (BASIC must be enabled).",
    )
    boot.add_argument("disk", type=Path, help=DISK_HELP)
    boot.add_argument(
        "--menu",
        action="append",
        required=True,
        metavar="NAME.EXT[=TITLE]",
        help="a program on the disk and its title (repeat for each entry, up to 9)",
    )
    boot.add_argument("--title", default="BOOT MENU", help="the line above the menu")
    boot.add_argument(
        "--force", action="store_true", help="write even if the image is write-protected"
    )
    boot.set_defaults(handler=cmd_boot)


# -- opening ----------------------------------------------------------------------------


@contextlib.contextmanager
def changing(path: Path, force: bool) -> Iterator[WritableFileSystem[Any]]:
    """The disk at ``path``, to change in the block and written back when it ends
    without an error. The image stays locked from the read to the write
    (:func:`a8.files.updating`): two commands changing one disk at once take turns,
    and the second starts from the first one's result."""
    with updating(path) as update:
        disk = for_writing(AtrImage.read_from(update.handle, str(path)), path, force)
        yield disk
        update.write(disk.to_bytes())


def for_writing(image: AtrImage, path: Path, force: bool) -> WritableFileSystem[Any]:
    """The file system in ``image``, identified and built once, if a8 may change it
    (else a one-line refusal)."""
    disk = open_disk(image)
    if not isinstance(disk, WritableFileSystem):
        reads = "a8 reads its files but" if isinstance(disk, DirectoryTree) else "a8"
        raise DiskCommandError(
            f"{path}: {disk.identity}: {reads} writes only {written_formats()}; "
            "the image is unchanged"
        )
    image.check_writable(force)
    refusal = disk.refusal()
    if refusal is not None:
        raise DiskCommandError(f"{refusal}; the image is unchanged")
    blocking = check_file_system(disk).blocking()
    if blocking:
        raise DiskCommandError(
            f"{path}: {len(blocking)} problem(s) a write could make worse, the first: "
            f"{str(blocking[0]).removeprefix(f'{path}: ')}; see `a8 atr check`, image unchanged"
        )
    return disk


def reading(path: Path) -> FileSystem:
    """The file system of the disk at ``path``, its damage said on standard error."""
    disk = open_disk(AtrImage.read(path))
    for warning in disk.warnings():
        warn(warning)
    return disk


# -- new ----------------------------------------------------------------------------------


def cmd_new(args: argparse.Namespace) -> int:
    path: Output = args.disk
    if not is_stdout(path) and output_exists(path) and not args.force:
        raise DiskCommandError(f"{path}: already exists; give --force to replace it")
    if args.sectors is not None:
        size = MYDOS_SECTOR_SIZE if args.sector_size is None else args.sector_size
        try:
            disk = Dos2Disk.new_mydos(args.sectors, size, str(path))
        except Dos2Error as error:  # a size no disk has: a bad argument
            raise UsageError(str(error)) from None
    elif args.sector_size is not None:
        raise UsageError(f"{path}: --sector-size is for a MyDOS disk: give its size with --sectors")
    else:
        disk = Dos2Disk.new(Density(args.density or Density.SINGLE.value), str(path))
    write_atomically(path, disk.to_bytes())
    return 0


# -- ls, get ----------------------------------------------------------------------------

#: What ls adds to its warning about an image shorter than its header.
PAST_THE_END: Final = "a file on the sectors past them does not read"


def cmd_ls(args: argparse.Namespace) -> int:
    disk = reading(args.disk)
    truncation = disk.image.truncation()
    if truncation is not None:  # get says so when a file it reads is past the end
        warn(f"{args.disk}: warning: {truncation}; {PAST_THE_END}")
    print("\n".join([disk.heading(), *disk.listing(args.directory)]))
    return 0


def cmd_get(args: argparse.Namespace) -> int:
    disk = reading(args.disk)
    name = str(disk.file_name(args.name))
    data = disk.read_file(args.name)
    output = args.output
    if output is None:
        if "/" in name or name in (".", ".."):
            raise DiskCommandError(f"{args.disk}: {name}: not a usable file name here; give -o")
        output = Path(name)
    refuse_input_as_output(output, args.disk)
    write_atomically(output, data)
    return 0


# -- add, rm --------------------------------------------------------------------------------


def cmd_add(args: argparse.Namespace) -> int:
    with changing(args.disk, args.force) as disk:
        add_file(disk, args)
    return 0


def add_file(disk: WritableFileSystem[Any], args: argparse.Namespace) -> None:
    given = args.name is not None
    text = args.name if given else args.file.name
    try:
        new = disk.new_file(text, nested=given)
    except FileSystemError as error:
        if given:
            raise
        raise DiskCommandError(f"{error} (give the name on the disk with --name)") from None
    # No file is larger than the disk it goes on: read no more than the image holds.
    data = read_input(args.file, len(disk.to_bytes()), f"the disk {args.disk}")
    if getattr(args, "packed", False):
        data = pack_program(data, file=str(args.file))
    disk.add(new, data)


def cmd_rm(args: argparse.Namespace) -> int:
    with changing(args.disk, args.force) as disk:
        disk.remove(args.name)
    return 0


# -- check ------------------------------------------------------------------------------------


def report_lines(path: Path, report: Report) -> list[str]:
    """The problems, then one line naming the file system and the verdict."""
    lines = [str(problem) for problem in report.problems]
    count = len(report.problems)
    if not report.checked:
        verdict = "nothing to check inside (a8 reads no files on it)"
        if count:
            verdict += f"; {count} problem(s) with the image"
    else:
        verdict = "no problems" if not count else f"{count} problem(s)"
    lines.append(f"{path}: {report.identity}: {verdict}")
    return lines


def cmd_check(args: argparse.Namespace) -> int:
    report = check_image(AtrImage.read(args.disk))
    print("\n".join(report_lines(args.disk, report)))
    return 1 if report.problems else 0


# -- boot -------------------------------------------------------------------------------------


def cmd_boot(args: argparse.Namespace) -> int:
    entries = [menu_entry(args.disk, spec) for spec in args.menu]
    with changing(args.disk, args.force) as disk:
        if not isinstance(disk, Dos2Disk):  # the loader follows DOS 2 sector links
            raise DiskCommandError(
                f"{args.disk}: {disk.identity}: the boot menu is written on DOS 2 family "
                "disks only; the image is unchanged"
            )
        install_boot_menu(disk, entries, args.title)
    return 0


def menu_entry(path: Path, spec: str) -> MenuEntry:
    """``--menu``'s entry, a name no DOS takes refused naming the disk and the option."""
    try:
        return MenuEntry.parse(spec)
    except FileNameError as error:
        raise DiskCommandError(f"{path}: --menu {spec!r}: {error}") from None
