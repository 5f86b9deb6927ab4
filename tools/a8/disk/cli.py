"""``a8 atr ...``: list, read, check, fill and make bootable the disks people really have.

Every command first names the file system (:mod:`a8.disk.detect`). Reading
(``ls``, ``get``, ``check``) works on DOS 2.0S, 2.5, 2.0D, MyDOS and SpartaDOS;
writing (``add``, ``rm``, ``boot``) only on the DOS 2 family, and only when
:mod:`a8.disk.check` finds nothing that a write could make worse. Every command
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
from typing import Any

from a8.commandline import docs
from a8.disk.atr import AtrImage
from a8.disk.boot import MenuEntry, install_boot_menu
from a8.disk.check import Report, check_image
from a8.disk.detect import FileSystemKind, Identity, identify
from a8.disk.dos2 import ROOT_DIRECTORY, Density, DirectoryEntry, Dos2Disk, Dos2Error
from a8.disk.names import FileName, path_parts
from a8.disk.sparta import SpartaDisk, SpartaEntry
from a8.errors import A8Error
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
#: What a8 writes, for messages.
WRITTEN = "DOS 2.0S, DOS 2.5, DOS 2.0D and MyDOS"


class DiskCommandError(A8Error):
    """A disk command refused (wrong file system, write protection, damage...)."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``a8 atr`` and its sub-commands."""
    atr = subparsers.add_parser(
        "atr",
        help="ATR disk images: DOS 2.x, MyDOS, SpartaDOS (read); DOS 2.x, MyDOS (write)",
        description="Disk images as SIO2PC, FujiNet, SDrive and the emulators use them: "
        "name their file system, list, read and check them; make DOS 2 disks, copy files "
        "onto them and off them, and write a boot menu. A disk is changed only when "
        f"nothing could go wrong, else left byte for byte as it was. See {docs('ATR.md')}.",
    )
    commands = atr.add_subparsers(dest="atr_command", metavar="ACTION", required=True)

    new = commands.add_parser(
        "new",
        help="create an empty DOS 2 disk image",
        description="Write an empty, formatted DOS 2 disk image (DOS 2.0S, 2.5 or 2.0D).",
    )
    new.add_argument("disk", type=output_argument, help="the image to write (- for stdout)")
    new.add_argument(
        "--density",
        choices=[d.value for d in Density],
        default=Density.SINGLE.value,
        help="single: 90K DOS 2.0S (default); enhanced: 130K DOS 2.5; double: 180K DOS 2.0D",
    )
    new.add_argument("--force", action="store_true", help="replace an existing file")
    new.set_defaults(handler=cmd_new)

    ls = commands.add_parser(
        "ls",
        help="name the file system and list the files",
        description="Name the disk's file system, then list its files as the DOS does "
        "(DOS 2.x, MyDOS, SpartaDOS), with the free sectors.",
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
        "--force", action="store_true", help="write even if the image is write-protected"
    )
    add.set_defaults(handler=cmd_add)

    get = commands.add_parser(
        "get",
        help="copy a file off the disk",
        description="Copy a file off a DOS 2.x, MyDOS or SpartaDOS disk, byte for byte.",
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
def changing(path: Path, force: bool) -> Iterator[Dos2Disk]:
    """The DOS 2 family disk at ``path``, to change in the block and written back when
    it ends without an error. The image stays locked from the read to the write
    (:func:`a8.files.updating`): two commands changing one disk at once take turns,
    and the second starts from the first one's result."""
    with updating(path) as update:
        disk = dos2_for_writing(AtrImage.read_from(update.handle, str(path)), path, force)
        yield disk
        update.write(disk.to_bytes())


def dos2_for_writing(image: AtrImage, path: Path, force: bool) -> Dos2Disk:
    """The DOS 2 family disk in ``image``, if a8 may change it (else a one-line refusal)."""
    identity = identify(image)
    if not identity.kind.dos2_family:
        raise DiskCommandError(
            f"{path}: {identity}: a8 writes only {WRITTEN}; the image is unchanged"
        )
    image.check_writable(force)
    report = check_image(image)
    blocking = report.blocking()
    if blocking:
        raise DiskCommandError(
            f"{path}: {len(blocking)} problem(s) a write could make worse, the first: "
            f"{str(blocking[0]).removeprefix(f'{path}: ')}; see `a8 atr check`, image unchanged"
        )
    return Dos2Disk(image)


# -- new ----------------------------------------------------------------------------------


def cmd_new(args: argparse.Namespace) -> int:
    path: Output = args.disk
    if not is_stdout(path) and output_exists(path) and not args.force:
        raise DiskCommandError(f"{path}: already exists; give --force to replace it")
    disk = Dos2Disk.new(Density(args.density), str(path))
    write_atomically(path, disk.to_bytes())
    return 0


# -- ls -----------------------------------------------------------------------------------


def identity_line(identity: Identity) -> str:
    return str(identity)


def directory_lines(disk: Dos2Disk, directory: int = ROOT_DIRECTORY) -> list[str]:
    """The listing DOS 2 prints: ``*`` for locked, name, extension, sectors; free count.

    Files that use DOS 2.5's sectors 720 and above (flag 0x03) get a ``<`` in the
    second column, where DOS 2 leaves a blank; MyDOS subdirectories get a ``:``.
    Names are shown with the UTF-8 spelling of ATASCII.
    """
    lines = []
    for entry in disk.listed(directory):
        lines.append(_dos2_line(entry))
    lines.append(f"{disk.free_sectors:03d} FREE SECTORS")
    return lines


def _dos2_line(entry: DirectoryEntry) -> str:
    lock = "*" if entry.locked else " "
    mark = ":" if entry.is_directory else "<" if entry.uses_high_sectors else " "
    return f"{lock}{mark}{_columns(entry.name)} {entry.sector_count:03d}"


def _columns(name: FileName) -> str:
    """Name and extension in DOS's 8 + 3 columns (a longer spelling gets a blank after it)."""
    base, ext = name.name_text, name.ext_text
    return f"{base:<8}{' ' if len(base) > 8 else ''}{ext:<3}"


def sparta_lines(disk: SpartaDisk, directory: str | None) -> list[str]:
    """SpartaDOS's listing: name, extension, size in bytes (or <DIR>), date and time."""
    lines = []
    for entry in disk.listed(disk.directory_map(directory)):
        lines.append(_sparta_line(entry))
    lines.append(f"{disk.superblock.free:03d} FREE SECTORS")
    return lines


def _sparta_line(entry: SpartaEntry) -> str:
    lock = "*" if entry.locked else " "
    size = "<DIR>" if entry.is_directory else str(entry.size)
    day, month, year = entry.date
    hour, minute, _ = entry.time
    return (
        f"{lock} {_columns(entry.name)} {size:>7} "
        f"{day:02d}-{month:02d}-{year:02d} {hour:02d}:{minute:02d}"
    )


def cmd_ls(args: argparse.Namespace) -> int:
    image = AtrImage.read(args.disk)
    identity = identify(image)
    lines = [identity_line(identity)]
    if identity.kind.dos2_family:
        disk = Dos2Disk(image)
        directory = ROOT_DIRECTORY
        if args.directory:
            directory = disk.resolve_directory(path_parts(args.directory))
        lines += directory_lines(disk, directory)
    elif identity.kind is FileSystemKind.SPARTADOS:
        sparta = SpartaDisk(image)
        lines[0] += f", volume {sparta.volume_name.strip() or '(none)'}"
        lines += sparta_lines(sparta, args.directory)
    elif identity.kind is FileSystemKind.DOS_XE:
        lines.append("(a8 names DOS XE disks but does not read their files)")
    print("\n".join(lines))
    return 0


# -- get ----------------------------------------------------------------------------------


def cmd_get(args: argparse.Namespace) -> int:
    image = AtrImage.read(args.disk)
    identity = identify(image)
    if identity.kind.dos2_family:
        disk = Dos2Disk(image)
        entry = disk.find(args.name)
        data = disk.read_file(args.name)
        name = str(entry.name)
    elif identity.kind is FileSystemKind.SPARTADOS:
        sparta = SpartaDisk(image)
        _, found = sparta.resolve(args.name)
        data = sparta.read_file(args.name)
        name = str(found.name) if found else args.name
    else:
        raise DiskCommandError(f"{args.disk}: {identity}: no files a8 can read")
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


def add_file(disk: Dos2Disk, args: argparse.Namespace) -> None:
    given = args.name is not None
    text = args.name if given else args.file.name
    directory, leaf = disk.split_path(text) if given else (ROOT_DIRECTORY, text)
    try:
        name = disk.parse_new_name(leaf)
    except Dos2Error as error:
        if given:
            raise
        raise Dos2Error(f"{error} (give the name on the disk with --name)") from None
    # No file is larger than the disk it goes on: read no more than the image holds.
    data = read_input(args.file, len(disk.image.to_bytes()), f"the disk {args.disk}")
    disk.add_file(name, data, directory)


def cmd_rm(args: argparse.Namespace) -> int:
    with changing(args.disk, args.force) as disk:
        disk.remove_file(args.name)
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
    entries = [MenuEntry.parse(spec) for spec in args.menu]
    with changing(args.disk, args.force) as disk:
        install_boot_menu(disk, entries, args.title)
    return 0
