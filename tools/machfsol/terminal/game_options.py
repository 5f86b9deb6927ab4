"""The full-screen game's options screen (``O``): what it changes, and the key for each.

As on the Atari, ``D`` steps through the deck sizes and ``S`` switches the card style;
here ``V`` also switches the variant, ``P`` the pace of "play all" and ``H`` where hints
come from. The screen edits a copy (:class:`Options`) and RETURN applies it, so ESC
leaves the game exactly as it was; what applying means (a new deck or variant deals
anew) is the game's (:mod:`machfsol.terminal.full_screen`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from machfsol.engine.cards import DECK_SIZES
from machfsol.terminal.table_view import Style


class Pace(enum.Enum):
    """How fast "play all" shows the policy's moves: moves a second."""

    SLOW = 2
    NORMAL = 4
    FAST = 10
    FASTEST = 50

    @property
    def seconds(self) -> float:
        """The pause after each move."""
        return 1.0 / self.value

    def next(self) -> Pace:
        members = list(Pace)
        return members[(members.index(self) + 1) % len(members)]


class Hints(enum.Enum):
    """Where ``H`` takes its hint from."""

    POLICY = "the autoplay policy"  # the same game as machfsol autoplay
    SOLVER = "the solver"  # a winning line, when there is one


@dataclass(frozen=True)
class Options:
    """What the options screen changes."""

    deck_size: int
    style: Style
    variant: int
    pace: Pace
    hints: Hints

    def changed(self, key: str) -> Options | None:
        """The options after ``key`` (D S V P H), or None for a key that changes none."""
        if key == "D":
            sizes = sorted(DECK_SIZES, reverse=True)  # 52, 48 ... 20, then 52 again
            return replace(self, deck_size=sizes[(sizes.index(self.deck_size) + 1) % len(sizes)])
        if key == "S":
            style = Style.SPANISH if self.style is Style.FRENCH else Style.FRENCH
            return replace(self, style=style)
        if key == "V":
            return replace(self, variant=3 - self.variant)
        if key == "P":
            return replace(self, pace=self.pace.next())
        if key == "H":
            hints = Hints.SOLVER if self.hints is Hints.POLICY else Hints.POLICY
            return replace(self, hints=hints)
        return None
