"""The options every ``machfsol`` command spells alike, with one meaning each.

``--variant`` is the game: 1 or 2, and ``both`` for the commands that go over many
deals (``verify``, ``odds``, which default to both); the commands that play one deal
(``play``, ``autoplay``, ``solve``) default to 1. ``--seed``, ``--deck`` and
``--order`` choose one deal, ``--seeds`` a list of deals (``1-100``, ``5,7,10-12``:
:mod:`machfsol.engine.seed_list`) wherever it appears. Each part's ``cli`` adds them
through these functions, so their help and their checks cannot drift apart.

The values are read here too (:func:`chosen_deal`, :func:`seed_option`,
:func:`seeds_option`, :func:`deck_option`). The engine refuses a bad seed, deck or card
with its own errors, which know nothing of a command line; read from an option, the
same refusal is the user's typing, a :class:`~machfsol.errors.UsageError` (exit status
2, like argparse's own).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

from machfsol.engine.cards import Card, CardError, Deck
from machfsol.engine.deal import MAX_SEED, MIN_SEED, deal, parse_order, parse_seed
from machfsol.engine.seed_list import SeedListError, parse_seed_list
from machfsol.errors import UsageError

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
    """``--seed``, ``--deck`` and ``--order``: which one deal (:func:`chosen_deal` reads
    them, the engine's ``parse_seed``, ``parse_order`` and :class:`Deck` check them)."""
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


@contextmanager
def _typed_by_the_user() -> Iterator[None]:
    """The engine's refusal of a value, as the usage error it is when the value came
    from the command line."""
    try:
        yield
    except (CardError, SeedListError) as error:
        raise UsageError(str(error)) from None


def chosen_deal(
    args: argparse.Namespace, *, random_seed: Callable[[], int] | None = None
) -> tuple[tuple[Card, ...], int | None]:
    """The deal :func:`add_deal`'s options name, and its seed (None for ``--order``).

    Exactly one of ``--seed`` and ``--order``; with ``random_seed``, at most one, and
    a seed it draws when neither is given.
    """
    given = (args.seed is not None) + (args.order is not None)
    if random_seed is None and given != 1:
        raise UsageError("give exactly one of --seed and --order")
    if given > 1:
        raise UsageError("give at most one of --seed and --order")
    if args.order is not None:
        with _typed_by_the_user():
            return parse_order(args.order, args.deck), None
    size = deck_option(52 if args.deck is None else args.deck)
    seed = seed_option(args.seed) if random_seed is None or args.seed is not None else random_seed()
    return deal(seed, size), seed


def seed_option(text: str) -> int:
    """A seed typed as an option's value (``--seed``, ``--first-seed``)."""
    with _typed_by_the_user():
        return parse_seed(text)


def seeds_option(text: str) -> tuple[int, ...]:
    """The seeds of a ``--seeds`` list, in the order written, each once."""
    with _typed_by_the_user():
        return parse_seed_list(text)


def deck_option(size: int) -> int:
    """A deck size given as an option's value (``--deck``)."""
    with _typed_by_the_user():
        return Deck(size).size
