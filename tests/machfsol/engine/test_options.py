"""The options every machfsol command spells alike (machfsol.engine.options)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

import pytest

from machfsol.cli import build_parser
from machfsol.engine.cards import CardError, Deck
from machfsol.engine.deal import SeedError, deal, parse_order, parse_seed
from machfsol.engine.options import (
    chosen_deal,
    deck_option,
    seed_option,
    seeds_option,
    variants_of,
)
from machfsol.engine.rules import variant
from machfsol.engine.seed_list import SeedListError, parse_seed_list
from machfsol.errors import MachfsolError, UsageError

#: The commands that go over many deals; every other one plays one deal.
MANY_DEALS = {"verify", "odds", "build"}  # build: --test-disk


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def option(parser: argparse.ArgumentParser, flag: str) -> argparse.Action | None:
    return next((a for a in parser._actions if flag in a.option_strings), None)


def test_variant_has_one_meaning_and_one_default_per_kind_of_command() -> None:
    """Was: play defaulted to 1, solve to "1", autoplay required it, odds took any text."""
    seen = []
    for name, parser in commands().items():
        action = option(parser, "--variant")
        if action is None:
            continue
        seen.append(name)
        if name in MANY_DEALS:
            assert (action.default, tuple(action.choices or ())) == ("both", ("1", "2", "both"))
        else:
            assert (action.default, tuple(action.choices or ())) == ("1", ("1", "2"))
        assert not action.required and action.help and action.help.startswith("the game: 1")
    assert sorted(seen) == ["autoplay", "build", "odds", "play", "solve", "verify"]
    assert variants_of("both") == (1, 2) and variants_of("2") == (2,)


def test_seeds_is_a_list_of_deals_everywhere() -> None:
    """Was: ``machfsol main --seeds 1-5`` was refused as "invalid int"."""
    for name in ("main", "verify"):
        parser = commands()[name]
        args = parser.parse_args(["--seeds", "1-5"])
        assert parse_seed_list(args.seeds) == (1, 2, 3, 4, 5), name
        action = option(parser, "--seeds")
        assert action is not None and action.metavar == "LIST"
        if action.default is not None:  # verify's default is a plan, not one list
            parse_seed_list(action.default)


@pytest.mark.parametrize("flag", ["--seed", "--deck", "--order"])
def test_one_deal_is_chosen_alike(flag: str) -> None:
    """The commands over many deals take several decks (``--deck 52,40``, ``all``)."""
    helps = {
        name: action.help
        for name, parser in commands().items()
        if name not in MANY_DEALS and (action := option(parser, flag)) is not None
    }
    assert set(helps) == {"deal", "autoplay", "solve", "play"}
    if flag == "--seed":  # play's default is a random deal; the others need one
        assert {h for n, h in helps.items() if n != "play"} == {helps["deal"]}
    else:
        assert len(set(helps.values())) == 1, helps


@pytest.mark.parametrize(
    ("refusal", "error"),
    [
        (lambda: parse_seed("0"), SeedError),
        (lambda: Deck(33), CardError),
        (lambda: parse_order("AS 2S"), CardError),
        (lambda: parse_seed_list("9-1"), SeedListError),
        (lambda: variant(3), MachfsolError),
    ],
)
def test_the_engine_refuses_a_value_without_an_exit_status(
    refusal: Callable[[], object], error: type[Exception]
) -> None:
    """Exit statuses belong to the command line: the engine's errors carry none."""
    with pytest.raises(error) as caught:
        refusal()
    assert not isinstance(caught.value, UsageError)
    assert not hasattr(caught.value, "exit_status")


def _deal_args(
    seed: str | None = None, order: str | None = None, deck: int | None = None
) -> argparse.Namespace:
    return argparse.Namespace(seed=seed, order=order, deck=deck)


@pytest.mark.parametrize(
    ("read", "message"),
    [
        (lambda: seed_option("0"), "seed 0 is outside"),
        (lambda: seeds_option("9-1"), "range '9-1' runs backwards"),
        (lambda: deck_option(33), "deck size 33"),
        (lambda: chosen_deal(_deal_args(seed="x")), "seed 'x'"),
        (lambda: chosen_deal(_deal_args(seed="1", deck=50)), "deck size 50"),
        (lambda: chosen_deal(_deal_args(order="AS 2S")), "--order has 2 cards"),
        (lambda: chosen_deal(_deal_args()), "give exactly one of --seed and --order"),
        (lambda: chosen_deal(_deal_args("1", "AS")), "give exactly one of --seed and --order"),
        (
            lambda: chosen_deal(_deal_args("1", "AS"), random_seed=lambda: 7),
            "give at most one of --seed and --order",
        ),
    ],
)
def test_a_refused_option_value_is_a_usage_error(read: Callable[[], object], message: str) -> None:
    """The same refusals, read from an option: the user's typing, exit status 2."""
    with pytest.raises(UsageError, match=re.escape(message)) as caught:
        read()
    assert caught.value.exit_status == 2


def test_the_chosen_deal() -> None:
    order = " ".join(card.code for card in deal(8, 40))
    assert chosen_deal(_deal_args(seed="8", deck=40)) == (deal(8, 40), 8)
    assert chosen_deal(_deal_args(order=order)) == (deal(8, 40), None)
    assert chosen_deal(_deal_args(), random_seed=lambda: 7) == (deal(7, 52), 7)
    assert chosen_deal(_deal_args(seed="3"), random_seed=lambda: 7) == (deal(3, 52), 3)
