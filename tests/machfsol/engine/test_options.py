"""The options every machfsol command spells alike (machfsol.engine.options)."""

from __future__ import annotations

import argparse

import pytest

from machfsol.cli import build_parser
from machfsol.engine.options import variants_of
from machfsol.engine.seed_list import parse_seed_list

#: The commands that go over many deals; every other one plays one deal.
MANY_DEALS = {"verify", "odds"}


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
    assert sorted(seen) == ["autoplay", "odds", "play", "solve", "verify"]
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
