"""``a8 atr ...``: create, list, fill, check and make bootable DOS 2 disk images.

Every command that changes a disk reads the whole image, changes it in memory and
writes it back with :func:`a8.files.write_atomically` only when everything has
succeeded: on any error the image on disk is unchanged.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from a8.disk.atr import AtrImage
from a8.disk.boot import MenuEntry, install_boot_menu
from a8.disk.check import check_disk
from a8.disk.dos2 import Density, Dos2Disk, Dos2Error, FileName
from a8.files import write_atomically


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``a8 atr`` and its sub-commands."""
    atr = subparsers.add_parser("atr", help="ATR disk images with a DOS 2 file system")
    commands = atr.add_subparsers(dest="atr_command", metavar="ACTION", required=True)

    new = commands.add_parser("new", help="create an empty DOS 2 disk image")
    new.add_argument("disk", type=Path)
    new.add_argument(
        "--density",
        choices=[d.value for d in Density],
        default=Density.SINGLE.value,
        help="single: 90K DOS 2.0S (default); enhanced: 130K DOS 2.5; double: 180K DOS 2.0D",
    )
    new.set_defaults(handler=cmd_new)

    ls = commands.add_parser("ls", help="list the files, like DOS's directory")
    ls.add_argument("disk", type=Path)
    ls.set_defaults(handler=cmd_ls)

    add = commands.add_parser("add", help="copy a file onto the disk")
    add.add_argument("disk", type=Path)
    add.add_argument("file", type=Path)
    add.add_argument("--name", help="name on the disk (default: the file's name)")
    add.set_defaults(handler=cmd_add)

    get = commands.add_parser("get", help="copy a file off the disk")
    get.add_argument("disk", type=Path)
    get.add_argument("name")
    get.add_argument("-o", "--output", type=Path, help="output file (default: NAME.EXT)")
    get.set_defaults(handler=cmd_get)

    rm = commands.add_parser("rm", help="delete a file")
    rm.add_argument("disk", type=Path)
    rm.add_argument("name")
    rm.set_defaults(handler=cmd_rm)

    check = commands.add_parser("check", help="check the file system (exit 1 on problems)")
    check.add_argument("disk", type=Path)
    check.set_defaults(handler=cmd_check)

    boot = commands.add_parser(
        "boot", help="write a boot menu that runs tokenized BASIC programs without DOS"
    )
    boot.add_argument("disk", type=Path)
    boot.add_argument(
        "--menu",
        action="append",
        required=True,
        metavar="NAME.EXT[=TITLE]",
        help="a program on the disk and its title (repeat for each entry, up to 9)",
    )
    boot.add_argument("--title", default="BOOT MENU", help="the line above the menu")
    boot.set_defaults(handler=cmd_boot)


def open_disk(path: Path) -> Dos2Disk:
    return Dos2Disk(AtrImage.read(path))


def save_disk(disk: Dos2Disk, path: Path) -> None:
    write_atomically(path, disk.to_bytes())


def cmd_new(args: argparse.Namespace) -> int:
    disk = Dos2Disk.new(Density(args.density), str(args.disk))
    save_disk(disk, args.disk)
    return 0


def directory_lines(disk: Dos2Disk) -> list[str]:
    """The listing DOS 2 prints: ``*`` for locked, name, extension, sectors; free count.

    Files that use DOS 2.5's sectors 720 and above (flag 0x03) get a ``<`` in the
    second column, where DOS 2 leaves a blank.
    """
    lines = []
    for entry in disk.files():
        lock = "*" if entry.locked else " "
        high = "<" if entry.uses_high_sectors else " "
        lines.append(
            f"{lock}{high}{entry.name.name:<8}{entry.name.ext:<3} {entry.sector_count:03d}"
        )
    lines.append(f"{disk.free_sectors:03d} FREE SECTORS")
    return lines


def cmd_ls(args: argparse.Namespace) -> int:
    print("\n".join(directory_lines(open_disk(args.disk))))
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    disk = open_disk(args.disk)
    try:
        name = FileName.parse(args.name if args.name else args.file.name)
    except Dos2Error as error:
        if args.name:
            raise
        raise Dos2Error(f"{error} (give the name on the disk with --name)") from None
    try:
        data = args.file.read_bytes()
    except OSError as error:
        raise Dos2Error(f"{args.file}: cannot read: {error.strerror}") from error
    disk.add_file(name, data)
    save_disk(disk, args.disk)
    return 0


def cmd_get(args: argparse.Namespace) -> int:
    disk = open_disk(args.disk)
    name = FileName.parse(args.name)
    data = disk.read_file(name)
    write_atomically(args.output if args.output else Path(str(name)), data)
    return 0


def cmd_rm(args: argparse.Namespace) -> int:
    disk = open_disk(args.disk)
    disk.remove_file(args.name)
    save_disk(disk, args.disk)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    problems = check_disk(open_disk(args.disk))
    for problem in problems:
        print(problem)
    if problems:
        print(f"{args.disk}: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    return 0


def cmd_boot(args: argparse.Namespace) -> int:
    disk = open_disk(args.disk)
    entries = [MenuEntry.parse(spec) for spec in args.menu]
    install_boot_menu(disk, entries, args.title)
    save_disk(disk, args.disk)
    return 0
