"""What the solver answers for one deal: a verdict, and for a win the line that wins.

A LOST is a proof (every line was tried); an UNKNOWN says only that the node limit came
first. A win's line is the engine's own moves, replayed on the engine before it is
returned: a line that does not win there is a :class:`SolverBug`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from machfsol.engine.rules import Move


class Verdict(enum.Enum):
    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Solution:
    """What the solver found for one deal.

    ``moves`` is the winning line (the player's moves, as the engine's :class:`Move`
    values) when ``verdict`` is WON, else empty. ``by_policy`` says the autoplay
    policy's own game was the win; ``nodes`` counts searched states.
    """

    verdict: Verdict
    moves: tuple[Move, ...]
    nodes: int
    by_policy: bool

    @property
    def won(self) -> bool:
        return self.verdict is Verdict.WON


class SolverBug(RuntimeError):
    """A winning line that does not win on the engine: a bug in the solver or the engine.

    Not a user-facing error (it does not derive from MachfsolError): the command line
    lets it through with its traceback, to be reported, instead of printing it as one
    line about the user's input.
    """


class LimitReached(Exception):
    """Raised inside a search when its node limit (or its round's bound) is hit."""
