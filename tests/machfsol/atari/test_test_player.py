"""The test mode's player on the engine's side: the keys of each step and the screen it
must leave (the emulator tests of tests/machfsol/atari/test_verify.py hold the Atari to
them; these check the steps themselves)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from machfsol.atari.screen_model import END_KEYS, KING_KEYS, hint_text, question_text, top_card
from machfsol.atari.test_player import (
    HELP_KEYS,
    LARGEST_DEAL,
    NO_COMMAND,
    NO_REDO,
    NO_STOCK,
    NO_UNDO,
    SELDOM_REFUSALS,
    Deal,
    Step,
    expected_steps,
    keys_for,
    prompt_screens,
    source_key,
    transcript_parts,
)
from machfsol.atari.verify import DEFAULT_PAL_PLAN, DEFAULT_PLAN, Plan
from machfsol.engine.autoplay import play
from machfsol.engine.rules import Move, Place, Position, variant


def _steps(game: int, *deals: Deal) -> list[list[Step]]:
    return list(expected_steps(game, deals))


def _typed(steps: list[Step]) -> list[Step]:
    """The steps that type keys (and a boot's first table): without the screens that
    a step's keys pass on their way (a prompt, a help page, the options page)."""
    return [step for step in steps if step.keys or step.what.startswith("the first table")]


def _sum(step: Step) -> int:
    assert step.screen is not None
    return step.screen.checksum()


def _moves(game: int, seed: int, deck: int = 52) -> list[Move]:
    return list(play(Position.from_seed(seed, variant(game), deck)).move_stack)


def _keys(game: int, seed: int, deck: int = 52) -> list[tuple[str, ...]]:
    """The keys of the policy's moves, each in its position."""
    position = Position.from_seed(seed, variant(game), deck)
    keys = []
    for move in _moves(game, seed, deck):
        keys.append(keys_for(position, move))
        position.push(move)
    return keys


def test_a_plain_deal_is_its_number_then_the_policys_moves() -> None:
    (every,) = _steps(1, Deal(52, 7))
    # the prompt before 7 and before RETURN, on the first table
    assert [(s.keys, s.screen and s.screen.prompt) for s in every[1:3]] == [((), ""), ((), "7")]
    steps = _typed(every)
    assert steps[0].keys == () and steps[0].what == "the first table (deal 1)"
    assert steps[1].keys == ("N", "7", "RETURN") and steps[1].starts_deal
    assert [step.keys for step in steps[2:]] == _keys(1, 7)
    last = steps[-1].screen
    assert last is not None and last.end_keys and last.played == 1
    # the time it took: a second a step typed in test mode, from the deal's step
    assert last.time == len(steps) - 2
    assert last.message.startswith(b"NO MORE MOVES") or last.message.startswith(b"YOU WON")


def test_the_deal_on_the_table_is_played_as_it_is() -> None:
    first, second = _steps(1, Deal(52, 1), Deal(40, 1))
    assert first[1].keys == _keys(1, 1)[0] and first[1].begins
    assert not any(step.starts_deal for step in first)
    # as a player changes the deck: the number first (on the table's 52 cards), then
    # the options page before each key (O, then D three times), which lay the same
    # deal out again in 40 cards: a new game's table, played as it is
    deal, pages, (options, move) = second[2], second[3:7], second[7:9]
    assert deal.keys == ("N", "1", "RETURN") and deal.starts_deal
    assert deal.screen is not None and deal.screen.position.deck.size == 52
    assert [page.what for page in pages] == [
        f"the options: {size} cards, French" for size in (52, 48, 44, 40)
    ]
    assert all(page.keys == () and page.screen and page.screen.options_page for page in pages)
    assert options.keys == ("O", "D", "D", "D", "RETURN")
    assert options.options and options.from_state == 0  # typed from its own line
    # its number's step dealt it (the deal's time is that step's): no "begins" then
    assert not move.begins and move.keys == _keys(1, 1, 40)[0]
    (fresh,) = _steps(1, Deal(48, 1))  # the boot's table, deal 1: the options alone
    options, move = _typed(fresh)[1:3]
    assert options.options and move.begins
    (typed,) = _steps(1, Deal(52, 2, "N"))  # the long way types it all the same
    assert _typed(typed)[3].starts_deal


def test_a_test_disks_options_come_from_the_s_line_before_the_number() -> None:
    """A test disk's deal must play the same from any boot: its table is made from
    its S line (the options typed by the overlay), then its number is typed."""
    _, second = expected_steps(1, [Deal(52, 1), Deal(40, 1)], as_is=False)
    pages, options, deal = second[:4], second[4], second[7]
    assert [page.what for page in pages][0] == "the options: 52 cards, French"
    assert options.keys == ("O", "D", "D", "D", "RETURN") and not options.options
    assert options.from_state == len(options.keys)
    assert deal.keys == ("N", "1", "RETURN") and deal.starts_deal


def test_a_card_with_one_place_goes_there_at_its_key() -> None:
    position = Position.from_seed(1, variant(1))
    assert keys_for(position, Move(Place.S, Place.W)) == ("SPACE",)
    for move in position.legal_moves():
        if move.is_draw:
            continue
        places = {m.destination for m in position.legal_moves() if m.source == move.source}
        keys = keys_for(position, move)
        assert len(keys) == (1 if len(places) == 1 else 2), move


@pytest.mark.parametrize("game", [1, 2])
def test_the_question_for_a_card_with_two_places_is_a_step_of_its_own(game: int) -> None:
    """The game asks where a card with two places goes and waits for the answer: the
    pick is a step whose screen shows the question over the table as it was, and the
    answer (a place, or SPACE to drop the pick) is the next step."""
    asked = 0
    for seed in range(1, 6):
        (steps,) = _steps(game, Deal(52, seed, "HE"))
        for before, pick, answer in zip(steps, steps[1:], steps[2:], strict=False):
            if pick.screen is None or not pick.screen.message.startswith(b"PICKED "):
                continue
            asked += 1
            assert before.screen is not None and pick.what.endswith(": the question")
            position = pick.screen.position
            assert position.key() == before.screen.position.key()
            (key,) = pick.keys
            source = next(
                place
                for place in position.legal_moves()
                if not place.is_draw and source_key(place.source) == key
            ).source
            card = top_card(position, source)
            assert card is not None
            assert pick.screen.message == question_text(card, pick.screen.spanish)
            assert len(answer.keys) == 1 and answer.keys[0] in ("A", *KING_KEYS, "SPACE")
    assert asked >= 3


def test_the_score_counts_deals_played_and_won_across_a_boot() -> None:
    won = next(seed for seed in range(1, 50) if play(Position.from_seed(seed, variant(2))).is_won())
    lost = next(
        seed for seed in range(1, 50) if not play(Position.from_seed(seed, variant(2))).is_won()
    )
    first, second = _steps(2, Deal(52, won), Deal(52, lost))
    assert first[-1].screen is not None and (first[-1].screen.won, first[-1].screen.played) == (
        1,
        1,
    )
    assert first[-1].screen.transfer  # a won game shows its final transfer
    new_deal = second[0].screen
    assert new_deal is not None and (new_deal.won, new_deal.played) == (1, 1)
    assert second[-1].screen is not None and (second[-1].screen.won, second[-1].screen.played) == (
        1,
        2,
    )


def test_another_deck_and_style_go_through_the_options() -> None:
    first, second = _steps(1, Deal(52, 3), Deal(40, 3, spanish=True))
    *pages, options = second[3:9]  # the options page before O, each D and S
    assert [page.what for page in pages] == [
        *(f"the options: {size} cards, French" for size in (52, 48, 44, 40)),
        "the options: 40 cards, Spanish",
    ]
    assert options.keys == ("O", "D", "D", "D", "S", "RETURN")
    assert options.screen is not None and options.screen.spanish
    assert options.screen.position.deck.size == 40
    assert options.screen.deal == "3"  # the options deal the same deal again
    third = _steps(1, Deal(20, 1), Deal(52, 1))[1][5]
    assert third.keys == ("O", "D", "RETURN")  # 20 -> 52: D goes round


def test_hints_undos_and_play_all() -> None:
    (hinted,) = _steps(1, Deal(52, 7, "HU"))
    hints = [step for step in hinted if step.keys == ("H",)]
    moves = _moves(1, 7)
    undos = [step for step in hinted if step.keys == ("U",)]
    redos = [step for step in hinted if step.keys == ("Y",)]
    assert len(redos) == (len(moves) // 7 + 1) // 2  # every other undo is redone
    assert len(undos) == len(moves) // 7
    # a hint before every move, before every move typed again, and at the end
    assert len(hints) == len(moves) + len(undos) + 1
    assert hints[-1].screen is not None and hints[-1].screen.message == b"NO MOVE LEFT"
    played = _typed(_steps(1, Deal(52, 7, "P"))[0])
    assert [step.keys for step in played[2:12]] == _keys(1, 7)[:10]
    assert played[12].keys == ("P",) and len(played) == 13
    # undone back to the deal after play-all: nothing to undo, N and ESC leave the
    # message shown (nothing played: N asks no question), play-all again
    undone = _typed(_steps(1, Deal(52, 7, "UP"))[0])
    nothing, back, again = undone[-3:]
    assert (nothing.keys, back.keys, again.keys) == (("U",), ("N", "ESC"), ("P",))
    assert back.screen is not None and back.screen.message == NO_UNDO
    assert not back.screen.position.move_stack


def test_hints_from_the_first_king_pile_top_that_goes_up() -> None:
    """K: the program's first hint (where it counts the King-pile tops its Ace piles
    take, line 610) comes where there is one; before it, no hint."""
    moves = _moves(2, 5)
    up = [i for i, m in enumerate(moves) if m.source.is_king_pile and m.destination.is_ace_pile]
    first = up[0]
    assert first > 0
    (steps,) = _steps(2, Deal(52, 5, "HK"))
    hints = [step for step in steps if step.keys == ("H",)]
    assert len(hints) == len(moves) - first + 1  # from that move on, and at the end
    assert hints[0].what == f"hint before move {first + 1}"
    position = Position.from_seed(5, variant(2))
    for move in moves[:first]:
        position.push(move)
    card = position.card_to_move(moves[first])
    assert hints[0].screen is not None
    assert hints[0].screen.message == hint_text(moves[first], card, spanish=False)
    (never,) = _steps(1, Deal(52, 2, "HK"))  # no King-pile top goes up: hints throughout
    assert len([s for s in never if s.keys == ("H",)]) == len(_moves(1, 2)) + 1


def test_the_long_way_to_a_deal_number() -> None:
    (every,) = _steps(1, Deal(52, 65538, "N"))  # an even number: a random deal first
    steps = _typed(every)
    escape, random_deal, deal = steps[1:4]
    assert escape.keys == ("N", "ESC") and escape.screen is not None
    assert steps[0].screen is not None  # the same table; the boot's comes before "deal 1 of 1"
    assert escape.screen.checksum() == replace(steps[0].screen, progress=(1, 1)).checksum()
    # the random deal: its transcript is written then (it names the number drawn),
    # and its table is foreseen for that number
    assert random_deal.keys == ("N", "RETURN") and random_deal.screen is None
    assert random_deal.records and random_deal.screen_of is not None
    drawn = random_deal.screen_for(1234567890)
    assert drawn is not None and drawn.deal == "1234567890" and drawn.prompt is None
    fresh = Position.from_seed(1234567890, variant(1), 52)
    assert drawn.position.key() == fresh.key()
    assert random_deal.screen_for(None) is None
    assert [len(part) for part in transcript_parts(every)] == [
        every.index(random_deal) + 1,
        len(every) - every.index(random_deal) - 1,
    ]
    too_large = tuple(str(LARGEST_DEAL + 1))
    assert deal.keys == (
        "N", *too_large, "RETURN", "0", "RETURN",
        *"000006553", "9", "DELETE", "/", ":", "8", "9", "RETURN",
    )  # fmt: skip
    assert deal.starts_deal and deal.screen is not None and deal.screen.deal == "65538"
    # the prompt before each key after N, on the random deal's table: foreseen for
    # the number drawn
    end = every.index(deal)
    passed = every[end - len(deal.keys) + 1 : end]
    assert [s.keys for s in passed] == [()] * (len(deal.keys) - 1)
    assert all(s.screen is None and s.screen_of is not None for s in passed)
    shown = [s.screen_for(1234567890) for s in passed]
    assert all(s is not None and s.position.key() == fresh.key() for s in shown)
    assert [s.prompt for s in shown if s][:3] == ["", "2", "21"]
    # a test disk records one transcript a deal: there the random deal is not foreseen
    (on_disk,) = list(expected_steps(1, [Deal(52, 65538, "N")], as_is=False))
    assert not any(step.records or step.screen_of for step in on_disk)
    assert len(transcript_parts(on_disk)) == 1
    # the digits it shows, and the cursor once a key was echoed or refused; a refused
    # number shows the prompt afresh (the table under it is any, here the first)
    base = steps[0].screen
    prompts = [(digits, s and s.prompt_cursor) for digits, s in prompt_screens(base, deal.keys[1:])]
    assert prompts[:3] == [("", False), ("2", True), ("21", True)]
    assert prompts[10:13] == [("2147483647", True), ("", False), ("0", True)]
    assert prompts[13:] == [
        ("", False), *((("000006553"[:n]), True) for n in range(1, 10)),
        ("0000065539", True), ("000006553", True), ("000006553", True),
        ("000006553", True), ("0000065538", True), ("0000065538", True),
    ]  # fmt: skip
    # an odd number: no random deal, so the prompt's every look is on a known table
    # (the one before), DELETE's and the buzzes' included
    (odd,) = _steps(1, Deal(52, 65537, "N"))
    escape, deal = _typed(odd)[1:3]
    assert escape.keys == ("N", "ESC") and deal.keys[0] == "N" and deal.starts_deal
    end = odd.index(deal)
    passed = odd[end - len(deal.keys) + 1 : end]
    assert all(s.screen is not None and s.screen.prompt is not None for s in passed)
    assert [s.screen.prompt for s in passed if s.screen][-6:] == [
        "0000065539",
        "000006553",
        "000006553",
        "000006553",
        "0000065537",
        "0000065537",
    ]  # fmt: skip (9 typed, DELETE, / and : refused, 7, an eleventh digit ignored)
    # with play-all, at once on the deal just typed: it counts as played
    played = _typed(_steps(1, Deal(52, 65538, "NP"))[0])
    assert played[4].keys == ("P",) and played[4].screen is not None
    assert played[4].screen.played == 1 and len(played) == 5


def test_lower_case_deals_start_and_end_with_caps() -> None:
    first, second, third = map(_typed, _steps(1, Deal(52, 1, "L"), Deal(52, 2, "L"), Deal(52, 3)))
    assert first[1].keys[0] == "CAPS"  # caps lock off
    assert second[0].keys[0] == "N"  # still off
    assert third[0].keys[0] == "CAPS"  # back on


def test_mistakes_leave_the_table_and_say_why() -> None:
    (every,) = _steps(2, Deal(52, 3, "E"))
    steps = _typed(every)
    assert steps[2].keys == ("U",) and steps[3].keys == ("Y",)  # nothing to undo, redo
    messages = {step.screen.message for step in steps if step.screen is not None}
    assert {NO_UNDO, NO_REDO, NO_COMMAND, NO_STOCK} <= messages
    kinds = " ".join(step.what for step in steps)
    for what in ("no command", "not the policy's move", "the help", "the deal again"):
        assert what in kinds, what
    asked = [step for step in steps if step.keys in (("N", "N"), ("O", "N"), ("T", "N"))]
    assert len(asked) == 3  # refused at the question: the table as it was
    restarts = [i for i, step in enumerate(steps) if step.keys in (("T", "Y"), ("T",))]
    assert [steps[i].keys for i in restarts] == [("T", "Y"), ("T",)]  # no question then
    again, once_more = (steps[i].screen for i in restarts)
    assert again is not None and once_more is not None
    assert once_more.checksum() == again.checksum()
    assert any(step.keys == HELP_KEYS for step in steps)
    # at the end: SPACE, H, P, the help (its two pages on the way), the last move
    # undone and redone, and the record (I)
    assert [step.keys for step in steps[-7:]] == [
        ("SPACE",), ("H",), ("P",), HELP_KEYS, ("U",), ("Y",), ("I",)
    ]  # fmt: skip
    assert [step.screen.help_page for step in every[-6:-3] if step.screen] == [1, 2, 0]
    end, again = steps[-5].screen, steps[-2].screen  # the end again, as after P ...
    assert end is not None and again is not None and end.message == again.message
    assert end.time is not None and again.time is not None and again.time > end.time  # ... later
    record = steps[-1].screen  # I: the record on the message line, the end's time kept
    assert record is not None and record.message.startswith(b"RECORD WON ")
    assert record.time == again.time
    first = steps[4]  # and at the start, after U and Y: no game counted yet
    assert first.keys == ("I",) and first.screen is not None
    assert first.screen.message == b"RECORD WON 0/0 STREAK 0/0"


@pytest.mark.parametrize("game", [1, 2])
def test_a_mistake_is_never_a_move(game: int) -> None:
    """The steps that are mistakes leave the engine's table as it was: the table after
    them is the one before."""
    for seed in range(1, 6):
        (steps,) = _steps(game, Deal(44, seed, "E"))
        for before, step in zip(steps, steps[1:], strict=False):
            if step.screen is None or before.screen is None:
                continue
            if step.screen.message in (NO_STOCK, NO_COMMAND):
                assert step.screen.position.key() == before.screen.position.key()


@pytest.mark.parametrize("game", [1, 2])
def test_the_default_plan_makes_each_seldom_refusal(game: int) -> None:
    """Each refusal the rotation of mistakes seldom meets comes in the default plan's
    deals of either program (the last King pile's name is the end of the program's
    list of places: a text one too long is an error there)."""
    deals = Plan((), DEFAULT_PLAN, DEFAULT_PAL_PLAN).deal_list()
    messages = [
        step.screen.message
        for steps in expected_steps(game, deals)
        for step in steps
        if step.screen is not None
    ]
    seldom = SELDOM_REFUSALS if game == 2 else SELDOM_REFUSALS[1:]  # ": IT NEEDS": .2 only
    for kind in seldom:
        assert any(kind in message for message in messages), kind


def test_the_end_keys_are_what_the_game_prints() -> None:
    assert END_KEYS == "N NEW  T RESTART  U UNDO  O OPTIONS"
