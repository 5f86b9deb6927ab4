"""How the terminal game shows the table, the cards and what happened, as text.

The layout copies the physical table of the blog: the Ace piles on the left (spades,
hearts, clubs, diamonds from top to bottom), the tableau in two columns in the middle,
the King piles on the right, and the stock and the discard top below. Each pile is
labelled with the name a player types to use it (``KS``, ``3``), so the screen doubles
as the key map.

Cards are shown in one of two styles, which only change the *display*, never the codes:

- French: rank and suit symbol (``10♥``, ``Q♠``); hearts and diamonds in red when the
  terminal takes ANSI colour; suit letters (``10H``) where the symbols cannot be shown.
- Spanish: rank and suit words, as :meth:`machfsol.engine.cards.Card.name` spells them
  (``caballo cups``, ``7 swords``). A Spanish deck has no colours, so no colour is used.

Rendering is pure (position in, text out) so that tests can read exactly what a person
sees.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

from machfsol.engine.cards import Card, Deck, Suit
from machfsol.engine.rules import KingBuild, Move, Place, Position, Step

EMPTY = "--"

_SUIT_SYMBOLS: dict[Suit, str] = {Suit.S: "♠", Suit.H: "♥", Suit.C: "♣", Suit.D: "♦"}
_FRENCH_RANKS: dict[str, str] = {"T": "10"}  # every other rank letter is shown as is

_RED = "\x1b[31m"
_RESET = "\x1b[0m"


class Style(enum.Enum):
    """How cards are shown: French (symbols) or Spanish (words)."""

    FRENCH = "french"
    SPANISH = "spanish"


def is_ansi_terminal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """A terminal that understands ANSI escape codes: a tty whose TERM is not "dumb".
    Pipes, files and logs get plain text."""
    env = os.environ if environ is None else environ
    if env.get("TERM", "") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def wants_colour(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Colour on an ANSI terminal, unless NO_COLOR is set (https://no-color.org: any
    non-empty value)."""
    env = os.environ if environ is None else environ
    return not env.get("NO_COLOR") and is_ansi_terminal(stream, env)


def can_show_symbols(stream: TextIO) -> bool:
    """Whether ``stream``'s encoding has the suit symbols (a Latin-1 or ASCII terminal
    would otherwise stop the game with an encoding error)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "".join(_SUIT_SYMBOLS.values()).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


#: Moves the cursor home and clears the screen, so that the table stays in place.
CLEAR_SCREEN = "\x1b[H\x1b[2J"


@dataclass(frozen=True)
class CardFace:
    """The style and colour choice, applied to cards and places."""

    style: Style = Style.FRENCH
    colour: bool = False
    symbols: bool = True  # False: suit letters (10H, QS) for terminals without ♠♥♣♦

    # ------------------------------------------------------------------ cards

    def plain_label(self, card: Card) -> str:
        """The short form used on the table, without colour codes."""
        if self.style is Style.SPANISH:
            return card.name("spanish").replace(" of ", " ")
        rank = _FRENCH_RANKS.get(card.rank_letter, card.rank_letter)
        return rank + (_SUIT_SYMBOLS[card.suit] if self.symbols else card.suit.letter)

    def label(self, card: Card | None, width: int = 0) -> str:
        """The short form padded to ``width`` visible characters (``--`` for no card)."""
        if card is None:
            return EMPTY.ljust(width)
        text = self.plain_label(card)
        padding = " " * max(0, width - len(text))
        if self.colour and self.style is Style.FRENCH and card.is_red:
            return f"{_RED}{text}{_RESET}{padding}"
        return text + padding

    def label_width(self, deck: Deck) -> int:
        """The widest label of the deck, so that the table's columns line up."""
        return max(len(EMPTY), *(len(self.plain_label(card)) for card in deck.cards()))

    def name(self, card: Card) -> str:
        """The card in words for messages: ``queen of hearts``, ``sota of coins``."""
        return card.name(self.style.value)

    def suit_name(self, suit: Suit) -> str:
        return suit.spanish_name if self.style is Style.SPANISH else suit.french_name

    # ----------------------------------------------------------------- places

    def place_name(self, place: Place) -> str:
        """A place in words: ``space 3``, ``the Ace pile of hearts``."""
        if place is Place.S:
            return "the stock"
        if place is Place.W:
            return "the discard pile"
        if place.is_tableau:
            return f"space {tableau_number(place)}"
        kind = "Ace" if place.is_ace_pile else "King"
        return f"the {kind} pile of {self.suit_name(pile_suit(place))}"


def tableau_number(place: Place) -> int:
    """``T3`` -> 3: spaces are numbered from 1 on the screen, as in transcripts."""
    return int(place.name[1:])


def pile_suit(place: Place) -> Suit:
    """The suit of an Ace or King pile: ``KH`` -> hearts (the pile the King of hearts
    started, whatever cards lie on it in variant 2)."""
    return Suit[place.name[1]]


def place_key(place: Place) -> str:
    """What a player types to name ``place`` as a move's source or destination."""
    if place.is_tableau:
        return str(tableau_number(place))
    if place is Place.W:
        return "d"
    return place.name.lower()


# ------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class TableTitle:
    """What the title line says about the game being played."""

    variant_title: str
    king_build: KingBuild
    seed: int | None  # None: an explicit order was given
    deck_size: int

    def text(self) -> str:
        deal = "your own order" if self.seed is None else f"deal {self.seed}"
        build = "in suit" if self.king_build is KingBuild.SAME_SUIT else "in alternating colour"
        return f"{self.variant_title}, {deal}, {self.deck_size} cards: King piles go down {build}"


def render_table(position: Position, face: CardFace, title: TableTitle) -> str:
    """The whole table as lines of text, ending with a newline.

    Rows follow the suits (S, H, C, D from the top); the tableau's spaces fill a left
    column T1..T(n/2) and a right column, as the cards are laid out in a real deal.
    """
    width = face.label_width(position.deck)
    tableau = position.tableau()
    rows = len(tableau) // 2
    tableau_width = 2 * (3 + width) + 3 if tableau else len("TABLEAU")
    aces = position.ace_piles()
    kings = position.king_piles()
    lines = [title.text(), ""]
    header = f"  {'ACES'.ljust(3 + width)}   {'TABLEAU'.ljust(tableau_width)}   KINGS"
    lines.append(header.rstrip())
    for suit in Suit:
        ace_top = aces[suit][-1] if aces[suit] else None
        king_top = kings[suit][-1] if kings[suit] else None
        middle = ""
        if suit < rows:
            left, right = tableau[suit], tableau[suit + rows]
            middle = (
                f"{suit + 1:>2} {face.label(left, width)}   "
                f"{suit + rows + 1:>2} {face.label(right, width)}"
            )
        elif suit == 0 and not tableau:
            middle = "(none)"
        middle += " " * (tableau_width - _visible_len(middle))
        lines.append(
            f"  A{suit.name} {face.label(ace_top, width)}   {middle}   "
            f"K{suit.name} {face.label(king_top, 0)}".rstrip()
        )
    discard = position.discard()
    top = face.label(discard[-1]) if discard else EMPTY
    lines.append("")
    lines.append(
        f"  Stock: {count_of(position.stock_count(), 'card')}    "
        f"Discard (d): {top}  ({count_of(len(discard), 'card')})"
    )
    lines.append(
        f"  On the foundations: {position.foundation_count()} of {position.deck.size} cards"
    )
    return "\n".join(lines) + "\n"


def count_of(number: int, noun: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _visible_len(text: str) -> int:
    """Length without the colour codes (which take no room on the screen)."""
    return len(text.replace(_RED, "").replace(_RESET, ""))


# -------------------------------------------------------------------- what happened


def describe_move(move: Move, card: Card, face: CardFace) -> str:
    """A player's move in words, e.g. ``5 of hearts from space 3 to the Ace pile of
    hearts``; a draw is ``draw a card``."""
    if move.is_draw:
        return "draw a card"
    return (
        f"{face.name(card)} from {face.place_name(move.source)} "
        f"to {face.place_name(move.destination)}"
    )


def describe_steps(steps: tuple[Step, ...], face: CardFace) -> str:
    """One line telling what a move did: the player's step, then the forced ones."""
    parts = []
    for step in steps:
        card = face.name(step.card)
        if not step.forced:
            if step.source is Place.S:
                parts.append(f"You draw the {card}")
            else:
                parts.append(
                    f"The {card} goes from {face.place_name(step.source)} "
                    f"to {face.place_name(step.destination)}"
                )
        elif step.destination.is_tableau:
            space = tableau_number(step.destination)
            origin = "stock" if step.source is Place.S else "discard pile"
            parts.append(f"the {card} from the {origin} fills space {space}")
        elif step.destination.is_ace_pile:
            parts.append(f"the {card} goes to its Ace pile")
        else:
            parts.append(f"the {card} starts its King pile")
    return "; ".join(parts) + "."
