"""The transcript verifier: replay a transcript on the engine, line by line.

A transcript passes when its ORDER is the deal of its SEED (or a whole deck when the
seed is NONE), each ``F`` line is exactly the engine's next forced step, each ``M`` line
is a legal move taking the named card (and, for PLAYER AUTO or GREEDY, the very move
that policy chooses), and the RESULT line matches the final table: WON only when every
card is on a foundation, LOST only when no legal move is left, the number of cards on
foundations and the number of moves. The first line that differs is reported with what
the engine expected there, so a bug in an Atari program is found at its source.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from machfsol.engine.autoplay import POLICIES, RawPolicy
from machfsol.engine.deal import deal
from machfsol.engine.rules import Move, Place, Position, Step, variant
from machfsol.engine.transcript import Line, Outcome, Player, Transcript, parse, step_text
from machfsol.errors import MachfsolError


class CheckError(MachfsolError):
    """A transcript that does not replay; the message names file, line and expectation."""


@dataclass(frozen=True)
class CheckReport:
    """What a transcript that passed says, for the one-line summary."""

    name: str
    variant: int
    deck_size: int
    seed: int | None
    player: Player
    outcome: Outcome
    on_foundations: int
    moves: int

    def summary(self) -> str:
        seed = "order" if self.seed is None else f"seed {self.seed}"
        return (
            f"{self.name}: OK variant {self.variant}, {self.deck_size} cards, {seed}, "
            f"{self.player.value}: {self.outcome.value} {self.on_foundations}, "
            f"{self.moves} moves"
        )


def _expect(step: Step) -> str:
    return step_text(step.forced, step.source, step.destination, step.card)


def check_transcript(transcript: Transcript) -> CheckReport:
    """Replay ``transcript``; raise CheckError at the first line that differs."""
    name = transcript.name

    def fail(line: int, message: str) -> CheckError:
        return CheckError(f"{name}:{line}: {message}")

    if transcript.seed is not None:
        dealt = deal(transcript.seed, transcript.deck_size)
        for index, (found, wanted) in enumerate(zip(transcript.order, dealt, strict=True)):
            if found != wanted:
                raise fail(
                    transcript.order_lines[index],
                    f"card {index + 1} of the order is {found.code}, "
                    f"deal {transcript.seed} has {wanted.code}",
                )
    position = Position(transcript.order, variant(transcript.variant))
    policy = POLICIES.get(transcript.player.value.lower())
    pending = list(position.opening_steps())
    for line in transcript.lines:
        _check_line(position, line, pending, policy, fail)
    result = transcript.result
    if pending:
        raise fail(result.number, f"expected {_expect(pending[0])!r} before the RESULT line")
    if position.is_won():
        actual = Outcome.WON
    elif position.is_over():
        actual = Outcome.LOST
    else:
        actual = None
    if result.outcome is Outcome.QUIT:
        if actual is not None:
            raise fail(result.number, f"the game is over ({actual.value}), not QUIT")
    elif actual is None:
        move = position.legal_moves()[0]
        raise fail(
            result.number,
            f"the game is not over: {move} ({position.card_to_move(move).code}) is legal",
        )
    elif actual is not result.outcome:
        raise fail(result.number, f"the game is {actual.value}, not {result.outcome.value}")
    moves = len(position.move_stack)
    if result.moves != moves:
        raise fail(result.number, f"RESULT says {result.moves} moves, there are {moves}")
    if result.on_foundations != position.foundation_count():
        raise fail(
            result.number,
            f"{position.foundation_count()} cards are on foundations, not {result.on_foundations}",
        )
    return CheckReport(
        name=name,
        variant=transcript.variant,
        deck_size=transcript.deck_size,
        seed=transcript.seed,
        player=transcript.player,
        outcome=result.outcome,
        on_foundations=result.on_foundations,
        moves=result.moves,
    )


def _check_line(
    position: Position,
    line: Line,
    pending: list[Step],
    policy: RawPolicy | None,
    fail: Callable[[int, str], CheckError],
) -> None:
    """Check one movement line against the engine, advancing it on a player's move."""
    found = line.text()
    if pending:
        wanted = _expect(pending[0])
        if found != wanted:
            raise fail(line.number, f"expected {wanted!r} (forced), found {found!r}")
        pending.pop(0)
        return
    if line.forced:
        raise fail(line.number, f"nothing is forced here, found {found!r}")
    if position.is_won():
        raise fail(line.number, f"the game is already WON, found {found!r}")
    move = Move(line.source, line.destination)
    if policy is not None:
        chosen = policy(position)
        if chosen is None:
            raise fail(line.number, f"the game is over (no legal move), found {found!r}")
        wanted_move = Move(Place(chosen[0]), Place(chosen[1]))
        if wanted_move != move:
            card = position.card_to_move(wanted_move)
            wanted = step_text(False, wanted_move.source, wanted_move.destination, card)
            raise fail(line.number, f"the policy plays {wanted!r}, found {found!r}")
    if not position.is_legal(move):
        raise fail(line.number, f"move {found!r} is not legal here ({position})")
    card = position.card_to_move(move)
    if card != line.card:
        wanted = step_text(False, move.source, move.destination, card)
        raise fail(line.number, f"that move takes {card.code}: expected {wanted!r}")
    steps = position.push(move)
    pending.extend(steps[1:])


def check_bytes(data: bytes, name: str) -> CheckReport:
    """Parse and replay the transcript ``data`` read from file ``name``."""
    return check_transcript(parse(data, name))
