"""The options every ``machfsol`` command spells alike, with one meaning each.

``--variant`` is the game: 1 or 2, and ``both`` for the commands that go over many
deals (``verify``, ``odds``, which default to both); the commands that play one deal
(``play``, ``autoplay``, ``solve``) default to 1. ``--seed``, ``--deck`` and
``--order`` choose one deal, ``--seeds`` a list of deals (``1-100``, ``5,7,10-12``:
:mod:`machfsol.engine.seed_list`) wherever it appears. Each part's ``cli`` adds them
through these functions, so their help and their checks cannot drift apart.
"""

from __future__ import annotations

import argparse
from typing import Final

from machfsol.engine.deal import MAX_SEED, MIN_SEED

#: The variants, as the command line names them.
VARIANTS: Final = ("1", "2")
#: ``--variant`` of the commands over many deals: both games.
BOTH: Final = "both"


def add_variant(parser: argparse.ArgumentParser, *, many_deals: bool) -> None:
    """``--variant``: 1 or 2 (default 1) for a command that plays one deal; 1, 2 or
    both (default both) for one that goes over many. The value is a string."""
    if many_deals:
        parser.add_argument(
            "--variant",
            choices=(*VARIANTS, BOTH),
            default=BOTH,
            help="the game: 1 (MAChFsol 1), 2 (MAChFsol 2) or both (default: both)",
        )
    else:
        parser.add_argument(
            "--variant",
            choices=VARIANTS,
            default="1",
            help="the game: 1 (MAChFsol 1) or 2 (MAChFsol 2) (default: 1)",
        )


def variants_of(text: str) -> tuple[int, ...]:
    """The variant numbers ``--variant`` names."""
    return (1, 2) if text == BOTH else (int(text),)


def add_deal(parser: argparse.ArgumentParser, *, random_seed: bool = False) -> None:
    """``--seed``, ``--deck`` and ``--order``: which one deal. Checked by the engine
    (:func:`machfsol.engine.deal.parse_seed`, ``parse_order``, :class:`Deck`)."""
    default = "random, shown" if random_seed else "give it or --order"
    parser.add_argument(
        "--seed", help=f"the deal's number, {MIN_SEED}..{MAX_SEED} (default: {default})"
    )
    parser.add_argument(
        "--deck", type=int, help="deck size: 52 (default), 48, 44, 40, 36, 32, 28, 24 or 20"
    )
    parser.add_argument(
        "--order", help='the dealing order instead of a seed, e.g. "AS 7H ..." (all the cards)'
    )


def add_seeds(parser: argparse.ArgumentParser, default: str) -> None:
    """``--seeds``: a list of deal numbers (the string; parse_seed_list reads it)."""
    parser.add_argument(
        "--seeds",
        default=default,
        metavar="LIST",
        help=f"deal numbers: a range or list, e.g. 1-100 or 5,7,10-12 (default {default})",
    )
