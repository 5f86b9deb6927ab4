"""Every link between the docs leads to a file of the repository.

The user docs (README.md, CONTRIBUTING.md, docs/*.md) send the reader to docs/notes/ for
history, proofs and dated measurements, and the notes send the reader back. Passages
move between them; a link left pointing at the old place is a dead end for the reader,
and nothing else would notice it. The README's links are addresses on the project's web
page (a package index shows the README away from the repository): they are checked
against the files too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent

#: The start of an address of one of the project's own files on the web.
WEB = re.compile(
    r"https://(?:github\.com/machfsol/machfsol/blob|raw\.githubusercontent\.com/machfsol/machfsol)"
    r"/main/"
)

#: A Markdown link or image, ``[text](target)``: the target ends at a blank or ``)``.
LINK = re.compile(r"\]\(([^)\s]+)\)")


def markdown_files() -> list[Path]:
    """The docs a reader follows links in: the top folder's and everything under docs/."""
    return sorted([*REPOSITORY.glob("*.md"), *(REPOSITORY / "docs").rglob("*.md")])


def linked_files(text: str, folder: Path) -> list[Path]:
    """The files of this repository that a Markdown text in ``folder`` links to.

    Links inside code (between backquotes, in fenced blocks) are text, not links; links
    to other sites are not this test's business; ``#part`` is dropped (a heading may be
    reworded, the file must be there)."""
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    files = []
    for target in LINK.findall(text):
        target = target.split("#", 1)[0]
        if WEB.match(target):
            files.append(REPOSITORY / WEB.sub("", target, count=1))
        elif target and not re.match(r"[a-z]+:", target):
            files.append(folder / target)
    return files


def test_the_docs_are_found() -> None:
    names = {path.relative_to(REPOSITORY).as_posix() for path in markdown_files()}
    assert {"README.md", "CONTRIBUTING.md", "docs/ATR.md", "docs/notes/README.md"} <= names


def test_links_are_read_as_a_reader_follows_them() -> None:
    docs = REPOSITORY / "docs"
    text = (
        "See [a note](notes/gone.md#why), [the rules](https://github.com/machfsol/machfsol/"
        "blob/main/docs/RULES.md), [elsewhere](https://example.org/x.md), `[code](a.md)`."
    )
    assert linked_files(text, docs) == [docs / "notes/gone.md", REPOSITORY / "docs/RULES.md"]


@pytest.mark.parametrize(
    "path", markdown_files(), ids=lambda path: path.relative_to(REPOSITORY).as_posix()
)
def test_every_link_leads_to_a_file(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    dead = [
        target.resolve().relative_to(REPOSITORY).as_posix()
        for target in linked_files(text, path.parent)
        if not target.exists()
    ]
    assert not dead, f"{path.relative_to(REPOSITORY)} links to files that do not exist: {dead}"
