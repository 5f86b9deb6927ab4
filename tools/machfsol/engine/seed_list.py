"""Lists of deal numbers as people type them: ``1-100``, ``5,7,10-12``.

``machfsol verify --seeds`` takes such a list. Items are single seeds or inclusive
ranges ``LOW-HIGH``, separated by commas; blanks around items are ignored. A seed
listed twice is verified once, in the place of its first mention, so the order of
the results follows the order the user wrote. Every mistake is a one-line error that
quotes the faulty item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from machfsol.engine.deal import MAX_SEED, MIN_SEED, SeedError, parse_seed
from machfsol.errors import MachfsolError

#: More deals than this in one list is almost surely a typo (``1-1000000`` for ``1-100``).
MAX_SEEDS: Final = 100_000


class SeedListError(MachfsolError):
    """A seed list that cannot be read."""


def parse_seed_list(text: str) -> tuple[int, ...]:
    """The seeds of ``text`` in the order written, each once."""
    if not text.strip():
        raise SeedListError("--seeds: give seeds like 1-100 or 5,7,10-12")
    seeds: dict[int, None] = {}
    for item in text.split(","):
        low, high = _item_bounds(item.strip())
        if high - low >= MAX_SEEDS:  # checked before the range is spelled out
            raise SeedListError(f"--seeds {text!r}: more than {MAX_SEEDS} deals")
        for seed in range(low, high + 1):
            seeds.setdefault(seed, None)
        if len(seeds) > MAX_SEEDS:
            raise SeedListError(f"--seeds {text!r}: more than {MAX_SEEDS} deals")
    return tuple(seeds)


def _item_bounds(item: str) -> tuple[int, int]:
    """``(low, high)`` of one item, a seed or a range."""
    low_text, dash, high_text = item.partition("-")
    low = _seed(low_text, item)
    high = _seed(high_text, item) if dash else low
    if high < low:
        raise SeedListError(f"--seeds: range {item!r} runs backwards")
    return low, high


def _seed(text: str, item: str) -> int:
    """One seed of ``item``, read as every command reads seeds (:func:`parse_seed`)."""
    try:
        return parse_seed(text)
    except SeedError:
        shown = item if len(item) <= 24 else item[:21] + "..."
        raise SeedListError(
            f"--seeds: {shown!r} is not a seed or a range of seeds in {MIN_SEED}..{MAX_SEED}"
        ) from None


def format_seed_list(seeds: Sequence[int]) -> str:
    """The shortest text :func:`parse_seed_list` reads back as ``seeds`` (runs as ranges)."""
    parts: list[str] = []
    index = 0
    while index < len(seeds):
        end = index
        while end + 1 < len(seeds) and seeds[end + 1] == seeds[end] + 1:
            end += 1
        if end == index:
            parts.append(str(seeds[index]))
        elif end == index + 1:
            parts += [str(seeds[index]), str(seeds[end])]
        else:
            parts.append(f"{seeds[index]}-{seeds[end]}")
        index = end + 1
    return ",".join(parts)
