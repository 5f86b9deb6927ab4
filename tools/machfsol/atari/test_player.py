"""The test mode's player: every key it types into the Atari game, and the screen each
step must leave there.

In test mode (docs/GAME.md, "Test mode") the games are played through the keys a
player types, by the lines a player's keys run: the harness writes every step's keys
into the configuration, the overlay types them into the game's keyboard queue when
the main loop asks for a key, and records a checksum of the whole screen before it
types the next step's. This module makes those steps from the engine: the policy's
moves (:func:`machfsol.engine.autoplay.choose_move`) and, as each deal's extras ask,
the other things a player does, with the screen the engine's table makes after each
(:mod:`machfsol.atari.screen_model`). ``machfsol verify`` holds the Atari's checksums to
them step by step and names the first step whose screen differs.

A deal (:class:`Deal`) is played as:

* its number: N, the digits, RETURN (a deal already on a fresh table is played as it
  is);
* the options (O, D until the deck size, S for the other style, RETURN) when its deck
  size or style is not the table's, after the number, as a player changes them: the
  same deal laid out again, a new game's first table, played as it is (a test disk's
  deals, or one typed the long way: the options first, typed from the deal's ``S``
  line, then the number);
* the policy's moves, each by its keys (SPACE; a source key, and when the card could
  go to two places or more, A or Q W E R), until no move is left; a card with two
  places picked, the game asks where it goes and waits for the answer: the question
  is a step of its own, its screen checked as any other;

and, as its extras (letters of :data:`EXTRAS`) ask:

* ``H`` a hint before every move, and at the end;
* ``K`` with ``H``: the hints start at the first move that takes a King pile's top to
  its Ace pile (from the first move in a deal without one): the program counts those
  tops afresh at its first hint after a deal (line 610), which is then not 0, as it
  is in a player's game that asks for its first hint late;
* ``U`` every 7th move undone and made again, typed or redone (Y) in turn; with ``P``,
  after play-all, every move undone back to the deal with a hint after each undo, one
  undo more, N and ESC (back to the table, its message kept), then play-all again;
* ``P`` play-all after the 10th move (the program's own policy plays the rest); with
  ``N``, at once on the deal just typed (play-all then counts it as played);
* ``N`` the number typed the long way: N then ESC (back to the table); for an even
  deal number, N and RETURN alone (a random deal: the test mode writes its transcript,
  which names the number drawn, and its table and the prompt typed over it are
  checked for that number; on a test disk, which records one transcript a deal, not
  checked); then N, a
  number too large and 0 (both refused), the number with zeros in front to ten digits,
  its last digit typed after a 9 that DELETE takes back and the two keys either side
  of the digits, / and : (refused with a buzz), and one digit more (ignored: ten at
  most);
* ``L`` every key in lower case (the CAPS key before the deal and after it);
* ``X`` with ``E``: after U and Y, an error made in the game (the test mode's ``X``
  line: ERROR 3), which the game's handler must show and go on from, then a hint (the
  handler leaves autoplay off: the hint shows its move, it does not make it);
* ``E`` a player's mistakes and second thoughts: U and Y with nothing to undo or redo,
  then a legal move the policy would not make, undone, redone and undone again (so each
  "move not the policy's" below); after the 3rd move the help (?,
  two keys), N, O and T refused at the question, then T (restart) confirmed, and T
  again with nothing played (no question); before every
  5th move one of: a card sent where it cannot go, a key that is no command, a card
  picked and the pick dropped, an empty place picked, a card picked that goes nowhere,
  a move not the policy's (undone), a draw from an empty stock; whenever the discard
  pile is empty and the stock is not, a tableau card moved (its space filled from the
  stock: a forced step only a player's move brings) and undone; at the end SPACE, H,
  P, the help, then U and Y.

The screen is recorded after each step: the list a deal's transcript carries is the
steps since the transcript before (a boot's first table comes first). The status line
counts the deals played (from a deal's first move) and won; the line under the stock
the moves made and, at a game's end, the time it took: in test mode the game's clock
counts the steps typed, a second each, from the step that laid the deal out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from machfsol.atari.record_book import AtariRecord
from machfsol.atari.screen_model import (
    KING_KEYS,
    Screen,
    end_text,
    hint_text,
    nowhere_text,
    question_text,
    refusal_text,
    top_card,
)
from machfsol.engine.autoplay import choose_move
from machfsol.engine.cards import Deck
from machfsol.engine.deal import validate_seed
from machfsol.engine.rules import Move, Place, Position, variant
from machfsol.errors import MachfsolError

#: What the player may do besides the policy's moves (see the module docstring).
EXTRAS: Final = "HKUPNLEX"
#: Moves between undos, when a deal asks for them.
UNDO_EVERY: Final = 7
#: Moves before play-all, when a deal asks for it.
PLAY_ALL_AFTER: Final = 10
#: Moves between mistakes, when a deal asks for them.
MISTAKE_EVERY: Final = 5
#: The deal numbers the game takes (its prompt says so).
LARGEST_DEAL: Final = 2147483646
#: The largest number of deals played a configuration's score may set (the status
#: line holds up to 9,999 deals played in one sitting).
MAX_SCORE: Final = 9999

NO_COMMAND: Final = b"PRESS A KEY OF THE HELP BELOW"
NO_MOVE: Final = b"NO MOVE LEFT"
NO_UNDO: Final = b"NOTHING TO UNDO"
NO_REDO: Final = b"NOTHING TO REDO"
NO_STOCK: Final = b"THE STOCK IS EMPTY"
#: The game's handler shows an error's code and goes on (the test mode's error: a value
#: out of range, ERROR 3).
ERROR_SHOWN: Final = b"ERROR 3"
#: The keys that read the help's two pages and come back: ? (SHIFT-/), then any two.
HELP_KEYS: Final = ("?", "SPACE", "SPACE")
#: What the refusals the rotation of mistakes seldom meets say (program lines 232, 236
#: and 247): an Ace pile that needs another card, a King pile's top that takes two, the
#: last King pile empty (its name is the end of the game's list of places).
SELDOM_REFUSALS: Final = (b": IT NEEDS ", b" OR ", b"KD HAS NO KING YET")


@dataclass(frozen=True)
class Deal:
    """One deal for the test mode's player: a deck size, a seed, the style of the cards,
    and the extras it does besides the policy's moves (letters of :data:`EXTRAS`).
    ``score``: the sitting's score (won, played) the test mode sets before the deal,
    as after that many deals (the status line's longest forms, without playing them)."""

    deck_size: int
    seed: int
    extras: str = ""
    spanish: bool = False
    score: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        Deck(self.deck_size)
        validate_seed(self.seed)
        if not set(self.extras) <= set(EXTRAS):
            raise MachfsolError(f"deal extras {self.extras!r}: only {', '.join(EXTRAS)}")
        if self.score is not None and not 0 <= self.score[0] <= self.score[1] <= MAX_SCORE:
            raise MachfsolError(f"deal score {self.score}: won <= played <= {MAX_SCORE}")


@dataclass(frozen=True)
class Step:
    """One step of the test mode's player: the keys it types (key names of
    :mod:`a8.emu.keys`; none for the first table, which is there at the start), and
    the screen they must leave (None: not foreseen, a random deal's, unless
    ``screen_of`` gives it for the number drawn). ``starts_deal``:
    the step that deals (its time is the deal's); ``begins``: the first step of a deal
    played on the table as it is (the deal's time starts there)."""

    what: str
    keys: tuple[str, ...]
    screen: Screen | None
    starts_deal: bool = False
    begins: bool = False
    #: The first keys, which the overlay types itself from the deal's ``S`` line (its
    #: table and case: the options, CAPS), not the configuration's step line.
    from_state: int = 0
    #: No key: the overlay makes an error in the game (ERROR 3), which the game's
    #: handler shows on the message line before it goes on (program line 9010).
    error: bool = False
    #: The step goes through the options (O ... RETURN), typed from its step line:
    #: the deal's ``S`` line then names the table as it was before them.
    options: bool = False
    #: The test mode writes a transcript after this step (a ``T`` line): the table then
    #: is a random deal's, whose number and order the harness learns from it. A deal's
    #: steps go to its transcripts in turn, each part ending at such a step.
    records: bool = False
    #: The screen a random deal makes the step leave, for the number it drew (the
    #: transcript of :attr:`records` names it); None: ``screen`` says it.
    screen_of: Callable[[int], Screen] | None = field(default=None, compare=False)

    def screen_for(self, drawn: int | None) -> Screen | None:
        """The screen the step must leave when the deal's random deal drew ``drawn``
        (None: none was drawn, or its number is unknown)."""
        if self.screen_of is None:
            return self.screen
        return None if drawn is None else self.screen_of(drawn)


@dataclass
class Session:
    """One boot of a program in test mode: the table, the score and the keyboard's case."""

    game: int
    deck: int = 52
    spanish: bool = False
    deal: str = "1"
    seed: int = 1
    won: int = 0
    played: int = 0
    #: The first table's screen is recorded before the first deal's steps.
    started: bool = False
    #: Caps lock off: letters type in lower case.
    lower: bool = False
    #: The table in play (None before the first table).
    position: Position | None = None
    #: The table is as the boot or the options laid it out: no key played on it yet.
    fresh: bool = False
    #: A deal already on a fresh table is played as it is (not dealt again by number).
    #: Off for a configuration that must play the same from any boot (the test disk).
    as_is: bool = True
    #: The next step is the first of a deal played on the table as it is.
    _begins: bool = False
    #: In the deal being played: it counts as played (a move was made), it was won.
    _counted: bool = False
    _won: bool = False
    #: The steps typed so far (the test mode's clock: a second each), and how many
    #: there were when the table in play was laid out.
    typed: int = 0
    deal_start: int = 0
    #: The game's end is shown (EN=1 in the program) with the time it took.
    ended: bool = False
    end_time: int = 0
    #: The deal in play was restarted (T) already.
    _restarted: bool = False
    #: Which deal of how many is in play, as the test mode shows it (its ``S`` line).
    progress: tuple[int, int] | None = None
    #: Where the deal in play's play starts in ``_steps``.
    _first_step: int = 0
    #: The screen the last step left (None: not foreseen, a random deal's).
    _showing: Screen | None = None
    #: A random deal's table for the number it drew, while it is on the screen.
    _drawn: Callable[[int], Screen] | None = None
    _steps: list[Step] = field(default_factory=list)
    #: The player's record this boot, by deck size (machfsol.atari.record_book; a boot
    #: plays on a disk of its own, or keeps the record in memory only), and the first
    #: table's message when it is not saved (record_book.not_saved).
    records: dict[int, AtariRecord] = field(default_factory=dict)
    notice: bytes = b""
    #: The game in play counted in the record: 0 not yet, 1 lost (left), 2 won; and
    #: the record as it was before the loss (ESC from the deal number takes it back).
    _recorded: int = 0
    _kept: AtariRecord | None = None

    def screen(self, position: Position, **message: object) -> Screen:
        return Screen(
            self.game,
            position.copy(),
            spanish=self.spanish,
            deal=self.deal,
            won=self.won,
            played=self.played,
            time=self.end_time if self.ended else None,
            progress=self.progress,
            **message,  # type: ignore[arg-type]
        )

    def _turn(self) -> int:
        """The steps played in the deal so far: what mistakes take turns by."""
        return len(self._steps) - self._first_step

    def _now(self) -> int:
        """The test mode's clock while the step being made runs: its keys are typed."""
        return self.typed + 1

    def _laid_out(self) -> None:
        """A table laid out in the step being made: a new game starts there."""
        self.deal_start = self._now()
        self.ended = False

    def _step(
        self,
        what: str,
        keys: Sequence[str],
        screen: Screen | None,
        starts: bool = False,
        from_state: int = 0,
        options: bool = False,
    ) -> None:
        step = Step(what, tuple(keys), screen, starts, self._begins, from_state, options=options)
        self._steps.append(step)
        self._begins = False
        self._showing = screen
        self._drawn = None
        if keys:
            self.typed += 1

    def _first_table(self) -> Screen:
        """The table of the deal in play laid out afresh (at the boot: no step typed):
        a new game, nothing played (PF=0, WF=0: line 6010)."""
        self._counted = self._won = False
        self._recorded = 0
        self.position = Position.from_seed(self.seed, variant(self.game), self.deck)
        self.fresh = True
        self.deal_start = self._now() if self.started else 0
        self.ended = False
        return self.screen(self.position)

    def steps(self, deal: Deal, progress: tuple[int, int] | None = None) -> list[Step]:
        """The steps of ``deal``, with the screen each must leave: the list its
        transcript's SCREEN lines must match. ``progress``: which deal of how many
        it is, which the test mode shows from the deal's ``S`` line on."""
        self._steps = []
        if not self.started:
            first = self._first_table()
            if self.notice:
                first = replace(first, message=self.notice)
            self._step("the first table (deal 1)", (), first)
            self.started = True
        self.progress = progress
        if deal.score is not None:  # set, and the status line drawn, with the S line
            self.won, self.played = deal.score
            if self._showing is not None:
                self._showing = replace(self._showing, won=self.won, played=self.played)
        case: list[str] = []
        if ("L" in deal.extras) != self.lower:
            self.lower = not self.lower
            case = ["CAPS"]
        dealt = False  # its number typed: that step's time is the deal's
        if deal.deck_size != self.deck or deal.spanish != self.spanish:
            if self.as_is and "N" not in deal.extras:
                # As a player changes the style: the deal's number first, then the
                # options, which lay the same deal out again: a new game's table,
                # played as it is (a test disk's deals, which any boot may start,
                # have their options typed from the S line, before the number).
                if not (self.fresh and deal.seed == self.seed):
                    self._new_deal(deal, case)
                    case, dealt = [], True
                self._options(deal, case, typed=True)
            else:
                self._options(deal, case)
            case = []
        as_it_is = self.as_is and self.fresh and deal.seed == self.seed
        if as_it_is and "N" not in deal.extras and not case:
            # The deal is on the table already (after the boot, deal 1; after the
            # options, the same deal again): played as it is, as a player does.
            self._counted = self._won = False
            self._begins = not dealt
        else:
            self._new_deal(deal, case)
        self.fresh = False
        self._play(deal)
        return self._steps

    # ------------------------------------------------------------------ options, new deal

    def _options(self, deal: Deal, case: list[str], typed: bool = False) -> None:
        """O, D until the deck size, S for the other style, RETURN: the options page
        recorded as it stands before each key (the test mode types them all at once,
        from the deal's S line, or with ``typed`` from the step's own line)."""
        keys = [*case, "O"]
        size, spanish = self.deck, self.spanish
        self._leave()

        def options_page() -> None:
            page = Screen(self.game, _any_table(size), spanish, self.deal, options_page=True)
            self._passing(f"the options: {size} cards, {'Spanish' if spanish else 'French'}", page)

        options_page()
        while size != deal.deck_size:
            size = size - 4 if size > 20 else 52
            keys.append("D")
            options_page()
        if deal.spanish != self.spanish:
            keys.append("S")
            spanish = not spanish
            options_page()
        self.deck, self.spanish = deal.deck_size, deal.spanish
        style = "Spanish" if self.spanish else "French"
        keys.append("RETURN")
        what = f"options: {self.deck} cards, {style}"
        from_state = len(case) if typed else len(keys)
        self._step(what, keys, self._first_table(), False, from_state, options=typed)

    def _new_deal(self, deal: Deal, case: list[str]) -> None:
        """N, the deal's number, RETURN; the prompt recorded as it stands before each
        key after N (the test mode types them all at once). The long way (N in the
        deal's extras): ESC first; for an even deal number a random deal (RETURN
        alone: its table, and the prompt over it, not foreseen; for an odd one the
        prompt's every look, DELETE's and the buzzes' included, is checked on the table
        before); then the number typed with mistakes (too large, 0, leading zeros,
        DELETE, / and :, an eleventh digit), the step that deals."""
        keys = [*case, "N"]
        typed = [*str(deal.seed), "RETURN"]
        self._leave()
        if "N" in deal.extras:
            assert self.position is not None
            # ESC: back to the table, where a game over shows its end again; else the
            # message line as N found it (ESC clears only the prompt's two lines, 8030),
            # unless N cleared it (206: after the end or the record, M8)
            before = self._showing
            self._back()
            self._prompt(["ESC"])
            back = self._shown(self.position)
            if (
                before is not None
                and not (before.end_keys or before.cleared_at_next_key)
                and choose_move(self.position) is not None
            ):
                back = replace(back, message=before.message)
            self._step("N, then ESC", [*keys, "ESC"], back, False, len(case))
            if deal.seed % 2 == 0:  # by the deal, not the session: a test disk's boot
                self._leave()
                self._prompt(["RETURN"])  # may start at any deal
                self._laid_out()
                self._random_deal()
            too_large = list(str(LARGEST_DEAL + 1))
            padded = list(str(deal.seed).rjust(10, "0"))
            # DELETE takes back one digit of two: the number's last, typed after a 9
            refused = [*too_large, "RETURN", "0", "RETURN"]
            # / and : are the keys either side of the digits (ATASCII 47, 58): refused
            typed = [*refused, *padded[:-1], "9", "DELETE", "/", ":", padded[-1], "9", "RETURN"]
            keys, case = ["N"], []
            self._leave()  # N again: the game in play left
        self._prompt(typed)
        screen = self.screen(self._lay_out(deal))
        self._step(f"new deal {deal.seed}", [*keys, *typed], screen, True, len(case))

    def _random_deal(self) -> None:
        """N, RETURN: a random deal, then (as_is) its transcript, which names the
        number drawn: its table, and the prompt typed over it next, are checked for
        that number. A test disk records none (its boots resume by the transcripts
        counted, one a deal), so there the random deal is not foreseen."""
        what = "N, RETURN: a random deal"
        if not self.as_is:
            self._step(what, ["N", "RETURN"], None)
            return
        game, deck = self.game, self.deck
        shown = self.screen(_any_table(deck))

        def table(seed: int) -> Screen:
            position = Position.from_seed(seed, variant(game), deck)
            return replace(shown, position=position, deal=str(seed))

        step = Step(what, ("N", "RETURN"), None, records=True, screen_of=table)
        self._steps.append(step)
        self.typed += 1
        self._begins = False
        self._showing, self._drawn = None, table

    def _lay_out(self, deal: Deal) -> Position:
        """The deal typed laid out: a new game, not played yet."""
        self.deal, self.seed = str(deal.seed), deal.seed
        self._counted = self._won = False
        self._recorded = 0
        # on the table's deck: the deal's, or, its number typed before the options
        # that change it, the one before
        self.position = Position.from_seed(deal.seed, variant(self.game), self.deck)
        self._laid_out()
        return self.position

    def _prompt(self, typed: Sequence[str]) -> None:
        """The deal number's prompt before each of the keys ``typed`` after N, on the
        screen the last step left (a game over's end keys cleared, a message kept)."""
        drawn = self._drawn
        for index, (digits, screen) in enumerate(prompt_screens(self._showing, typed)):
            what = f"the deal number's prompt, {digits or 'no digit'} typed"
            if drawn is None:
                self._passing(what, screen)
                continue

            def prompt(seed: int, index: int = index) -> Screen:
                assert drawn is not None
                screen = prompt_screens(drawn(seed), typed)[index][1]
                assert screen is not None  # the prompt over a table foreseen
                return screen

            self._steps.append(Step(what, (), None, screen_of=prompt))

    # ------------------------------------------------------------------ play

    def _play(self, deal: Deal) -> None:
        position = self.position
        assert position is not None
        # Mistakes take turns by the steps played from here: the table's own steps
        # before (a boot's first table, the options, the deal typed) vary with the
        # deals before it, and a deal must play the same after a boot as after them.
        self._first_step = len(self._steps)
        extras = deal.extras
        moves = 0
        rare: set[bytes] = set()  # the seldom refusals made in this deal (_seldom_refusal)
        hints_from = _first_king_to_ace(position) if "K" in extras else 0
        if "E" in extras:
            self._step("U with nothing to undo", ["U"], self.screen(position, message=NO_UNDO))
            self._step("Y with nothing to redo", ["Y"], self.screen(position, message=NO_REDO))
            shown = self.screen(position, message=self._record_line(), cleared_at_next_key=True)
            self._step("I: the record", ["I"], shown)
            if "X" in extras:
                error = self.screen(position, message=ERROR_SHOWN)
                self._steps.append(Step("an error in the game, shown", (), error, error=True))
                self._showing = error
                if (first := choose_move(position)) is not None:
                    # A hint next: the handler must leave autoplay off (AP, line
                    # 9010), or the hint would make its move. Not one of the deal's
                    # turns: its mistakes take turns as they would without it.
                    self._hint(position, first, 1)
                    self._first_step += 1
            self._other_move(position, choose_move(position))
        while (move := choose_move(position)) is not None:
            if "E" in extras and moves == 3 and not self._restarted:
                position = self._leave_and_restart(position)
                continue
            if "E" in extras and moves % MISTAKE_EVERY == 0 and moves:
                self._mistake(position, move, moves // MISTAKE_EVERY)
            if "E" in extras and len(rare) < len(SELDOM_REFUSALS):
                self._seldom_refusal(position, rare)
            if "E" in extras and moves and not position.discard() and position.stock_count():
                self._other_move(position, move)  # a space emptied, filled from the stock
            if "H" in extras and position.move_count >= hints_from:
                self._hint(position, move, moves + 1)
            if "P" in extras and moves == (0 if "N" in extras else PLAY_ALL_AFTER):
                while (rest := choose_move(position)) is not None:
                    position.push(rest)
                self._after_play(position, f"play-all after move {moves}", ["P"])
                if "U" in extras:
                    self._undo_all(position)
                break
            moves += 1
            keys = self._asked(position, move, f"move {moves} ({move})")
            position.push(move)
            self._after_play(position, f"move {moves} ({move})", keys)
            if "U" in extras and moves % UNDO_EVERY == 0:
                position.pop()
                self.ended = False
                self._step(f"undo of move {moves}", ["U"], self.screen(position))
                if "H" in extras and position.move_count >= hints_from:
                    self._hint(position, move, moves)
                what = f"move {moves} again"
                again = ["Y"] if (moves // UNDO_EVERY) % 2 else self._asked(position, move, what)
                position.push(move)
                self._after_play(position, f"{what} ({''.join(again)})", again)
        self._restarted = False
        if "H" in extras:
            self._step("H at the end", ["H"], self._over(position, NO_MOVE))
        if "E" in extras:
            self._at_the_end(position)

    def _leave_and_restart(self, position: Position) -> Position:
        """A game in progress: the help read; N, O and T refused at the question (the
        table as it was); then T, confirmed: the same deal laid out again; T once more,
        nothing played: laid out again at once."""
        self._help(position)
        for key in ("N", "O", "T"):
            self._step(f"{key}, then N at the question", [key, "N"], self.screen(position))
        fresh = Position.from_seed(self.seed, variant(self.game), position.deck.size)
        self._leave()
        self._counted = self._won = False
        self._recorded = 0
        self._laid_out()
        self._step("T, then Y: the deal again", ["T", "Y"], self.screen(fresh))
        # Nothing played on it yet: T restarts at once, without the question.
        self._laid_out()
        self._step("T on the deal laid out again", ["T"], self.screen(fresh))
        self.position = fresh
        self._restarted = True
        return fresh

    def _help(self, position: Position) -> None:
        """The help's two pages, each a screen the game waits on with the step's next
        key already typed, then the table as it was (a game over shows its end)."""
        shown = self._shown(position)
        for page, what in ((1, "its keys"), (2, "the rules")):
            help_page = replace(shown, message=b"", end_keys=False, help_page=page)
            self._passing(f"the help, page {page} ({what})", help_page)
        self._step("the help, both pages", HELP_KEYS, shown)

    def _passing(self, what: str, screen: Screen | None) -> None:
        """A screen the next step's keys pass on their way: the game waits for a key
        there (a help page) with the step's next key already typed. The test mode
        records it as it comes (7200) and types nothing: a step of no key, listed
        before the step whose keys pass it."""
        self._steps.append(Step(what, (), screen))

    def _undo_all(self, position: Position) -> None:
        """After play-all: every move undone back to the deal, a hint after each undo,
        one undo more (nothing left), then play-all again from the start."""
        while position.move_count:
            undone = position.pop()
            depth = position.move_count
            self.ended = False
            self._step(f"undo back to move {depth} ({undone})", ["U"], self.screen(position))
            hint = choose_move(position)
            card = None if hint is None or hint.is_draw else position.card_to_move(hint)
            message = hint_text(hint, card, self.spanish)
            self._step(f"hint at move {depth}", ["H"], self.screen(position, message=message))
        nothing = self.screen(position, message=NO_UNDO)
        self._step("U with nothing left to undo", ["U"], nothing)
        # Nothing played: N leaves at once (no question); ESC comes back to the table,
        # the message still shown (the game counted lost at N, then not).
        self._leave()
        self._back()
        self._prompt(["ESC"])
        self._step("N, then ESC, nothing played", ["N", "ESC"], nothing)
        while (rest := choose_move(position)) is not None:
            position.push(rest)
        self._after_play(position, "play-all from the deal", ["P"])

    def _hint(self, position: Position, move: Move, number: int) -> None:
        card = None if move.is_draw else position.card_to_move(move)
        message = hint_text(move, card, self.spanish)
        self._step(f"hint before move {number}", ["H"], self.screen(position, message=message))

    def _after_play(self, position: Position, what: str, keys: Sequence[str]) -> None:
        """The screen after a move, a redo or play-all: the deal now counts as played; at
        the game's end the end message and keys, the time, a won game's final transfer,
        and the score (a deal won counts once)."""
        if not self._counted:
            self.played += 1
            self._counted = True
        if position.is_won() and not self._won:
            self.won += 1
            self._won = True
        self._step(what, keys, self._shown(position))

    def _shown(self, position: Position) -> Screen:
        """The table as the main loop leaves it: a game over shows its end (the time
        it took, measured the first time the end is shown)."""
        if choose_move(position) is not None:
            return self.screen(position)
        deck = position.deck.size
        record = self.records.get(deck, AtariRecord())
        if not self.ended:
            self.ended = True
            self.end_time = self._now() - self.deal_start
            if position.is_won() and not self._recorded:
                record = self.records[deck] = record.after_win(self.end_time)
                self._recorded = 2
        shown = record if self._recorded else record.after_loss()
        return self.screen(
            position,
            message=end_text(position),
            end_keys=True,
            transfer=position.is_won(),
            record=shown.line(),
        )

    def _leave(self) -> None:
        """N, T or O leaves the game in play: a game with a move made and not counted
        yet is counted lost (the record before it kept for ESC)."""
        if not self._counted or self._recorded or self.position is None:
            return
        deck = self.position.deck.size
        self._kept = self.records.get(deck, AtariRecord())
        self.records[deck] = self._kept.after_loss()
        self._recorded = 1

    def _back(self) -> None:
        """ESC from the deal number: back to the game, not left after all."""
        if self._recorded == 1 and self.position is not None and self._kept is not None:
            self.records[self.position.deck.size] = self._kept
            self._recorded = 0

    def _over(self, position: Position, message: bytes) -> Screen:
        """A game over, after a key that clears the end's keys and shows ``message``
        (the table is not drawn again: a won game's transfer stays)."""
        return self.screen(position, message=message, transfer=position.is_won())

    # ------------------------------------------------------------------ a player's mistakes

    def _mistake(self, position: Position, move: Move, turn: int) -> None:
        """Before every 5th move, one mistake in turn; each leaves the table as it was."""
        if position.stock_count() == 0 and turn % 7 == 6:
            screen = self.screen(position, message=NO_STOCK)
            self._step("a draw from the empty stock", ["SPACE"], screen)
            return
        kinds = (
            self._wrong_place,
            self._no_command,
            self._dropped_pick,
            self._empty_place,
            self._nowhere,
            self._other_move,
        )
        kinds[turn % len(kinds)](position, move)

    def _choices(self, position: Position, source: Place) -> list[Place]:
        return [m.destination for m in position.legal_moves() if m.source == source]

    def _question(self, position: Position, source: Place, what: str) -> list[str]:
        """The card of ``source`` picked: when it could go to two places or more the
        game asks where (program line 222) and waits for the answer, a step of its own
        whose screen shows the question; else the pick is the step's first key (which
        is returned: the keys the answering step starts with)."""
        key = source_key(source)
        card = top_card(position, source)
        if card is None or len(self._choices(position, source)) < 2:
            return [key]
        question = question_text(card, self.spanish)
        self._step(f"{what}: the question", [key], self.screen(position, message=question))
        return []

    def _asked(self, position: Position, move: Move, what: str) -> list[str]:
        """The keys that make ``move`` (:func:`keys_for`), the question before the
        answer a step of its own: the keys left for the step that makes the move."""
        keys = keys_for(position, move)
        if move.is_draw:
            return list(keys)
        return self._question(position, move.source, what) + list(keys[1:])

    def _picked(
        self, position: Position, wanted: Callable[[int], bool], backwards: bool = False
    ) -> Place | None:
        """The first place (key order, or from the last key back) whose card has a
        number of places ``wanted``."""
        sources = _sources(position)
        for place in reversed(sources) if backwards else sources:
            if top_card(position, place) is not None and wanted(
                len(self._choices(position, place))
            ):
                return place
        return None

    def _wrong_place(self, position: Position, move: Move) -> None:
        """A card that could go to two places sent to a third."""
        refusal = next(self._refusals(position), None)
        if refusal is None:
            self._nowhere(position, move)
            return
        self._refused(position, *refusal)

    def _seldom_refusal(self, position: Position, made: set[bytes]) -> None:
        """A refusal the mistakes' rotation seldom meets, once a deal, as soon as the
        table allows it (:data:`SELDOM_REFUSALS`): a card with two places sent to its
        Ace pile, which needs another card (two King piles take it: MACHFSOL.2 only),
        sent to a King pile whose top takes two other cards, and to the last King pile
        while it is empty."""
        for refusal in self._refusals(position):
            kind = next((k for k in SELDOM_REFUSALS if k in refusal[2]), None)
            if kind is not None and kind not in made:
                made.add(kind)
                self._refused(position, *refusal)
                return

    def _refusals(self, position: Position) -> Iterator[tuple[Move, list[str], bytes]]:
        """Each card with two places or more (in key order) sent where it cannot go (A,
        then Q W E R): the move, its keys and the refusal the game shows."""
        for source in _sources(position):
            card = top_card(position, source)
            if card is None or len(self._choices(position, source)) < 2:
                continue
            kings = [(key, Place(Place.KS + i)) for i, key in enumerate(KING_KEYS)]
            for key, place in [("A", Place(Place.AS + card.suit)), *kings]:
                wrong = Move(source, place)
                if not position.is_legal(wrong):
                    message = refusal_text(position, wrong, self.spanish)
                    yield wrong, [source_key(source), key], message

    def _refused(self, position: Position, wrong: Move, keys: list[str], message: bytes) -> None:
        what = f"{wrong}, not legal"
        answer = self._question(position, wrong.source, what)
        self._step(what, answer + keys[1:], self.screen(position, message=message))

    def _nowhere(self, position: Position, move: Move) -> None:
        """A card picked that no place takes: in turn the first such card in key order
        and the last (a King pile's top, often its King alone: the deck's last card is
        the King of the last pile)."""
        backwards = self._turn() % 2 == 1
        source = self._picked(position, lambda count: count == 0, backwards)
        if source is None:
            self._no_command(position, move)
            return
        card = top_card(position, source)
        assert card is not None
        message = nowhere_text(position, card, self.spanish)
        self._step(
            f"{source.name} picked, nowhere to go",
            [source_key(source)],
            self.screen(position, message=message),
        )

    def _no_command(self, position: Position, move: Move) -> None:
        tableau = position.deck.tableau_size
        key = ("A", "Z", str(tableau + 1) if tableau < 8 else "9")[self._turn() % 3]
        self._step(f"{key}, no command", [key], self.screen(position, message=NO_COMMAND))

    def _dropped_pick(self, position: Position, move: Move) -> None:
        """A card that could go to two places picked, and SPACE instead of a place."""
        source = self._picked(position, lambda count: count > 1)
        if source is None:
            self._no_command(position, move)
            return
        what = f"{source.name} picked, then SPACE"
        keys = [*self._question(position, source, what), "SPACE"]
        self._step(what, keys, self.screen(position))

    def _empty_place(self, position: Position, move: Move) -> None:
        empty = [place for place in _sources(position) if top_card(position, place) is None]
        if not empty:
            self._no_command(position, move)
            return
        keys = [source_key(empty[0])]
        what = f"{empty[0].name} picked, empty"
        self._step(what, keys, self.screen(position, message=NO_COMMAND))

    def _other_move(self, position: Position, move: Move | None) -> None:
        """A legal move the policy would not make (a tableau card first, as one that
        empties a space before the first draw, which only a player does: the space is
        filled from the stock, a forced step the policy's games never have), then
        undone, redone (Y) and undone again."""
        others = [m for m in position.legal_moves() if not m.is_draw and m != move]
        if not others:
            return
        # In turn the lowest destination and the highest (a King pile late in the keys,
        # E or R, which the policy's own moves seldom answer the question with).
        last = self._turn() % 2 == 1
        other = min(
            others,
            key=lambda m: (
                not m.source.is_tableau,
                m.source,
                -m.destination if last else m.destination,
            ),
        )
        keys = self._asked(position, other, f"{other}, not the policy's move")
        position.push(other)
        self._after_play(position, f"{other}, not the policy's move", keys)
        position.pop()
        self.ended = False
        self._step(f"undo of {other}", ["U"], self.screen(position))
        position.push(other)
        self._after_play(position, f"{other} redone", ["Y"])
        position.pop()
        self.ended = False
        self._step(f"undo of {other} again", ["U"], self.screen(position))

    def _at_the_end(self, position: Position) -> None:
        """A game over: SPACE (no stock left), H, P (nothing left to play), the help,
        then the last move undone and redone."""
        self._step("SPACE at the end", ["SPACE"], self._over(position, NO_STOCK))
        self._step("H at the end", ["H"], self._over(position, NO_MOVE))
        self._step("P at the end", ["P"], self._shown(position))
        self._help(position)
        last = position.pop()
        self.ended = False
        self._step("undo of the last move", ["U"], self.screen(position))
        position.push(last)
        self._after_play(position, f"the last move redone ({last})", ["Y"])
        shown = replace(self._over(position, self._record_line()), cleared_at_next_key=True)
        self._step("I at the end: the record", ["I"], shown)

    def _record_line(self) -> bytes:
        """The record of the deck in play as key I shows it: the game in play counted
        only once it is (won, or left)."""
        assert self.position is not None
        return self.records.get(self.position.deck.size, AtariRecord()).line()


def prompt_screens(base: Screen | None, typed: Sequence[str]) -> list[tuple[str, Screen | None]]:
    """The digits shown and the screen at each GET of the deal number's prompt (program
    lines 8010-8050), before each key of ``typed`` (the keys after N; the last one
    leaves the prompt): a digit is echoed (ten at most), DELETE takes one back, any
    other key but RETURN and ESC is refused with a buzz, RETURN on a number out of
    1-2147483646 shows the prompt afresh. The cursor shows once a key has been echoed
    or refused. ``base``: the screen under the prompt (None: not foreseen)."""
    if base is not None and (base.end_keys or base.cleared_at_next_key):
        # the key clears the end's lines, or the record I showed (206)
        base = replace(base, message=b"", end_keys=False, record=b"", cleared_at_next_key=False)
    shown: list[tuple[str, Screen | None]] = []
    digits, cursor = "", False
    for index, key in enumerate(typed):
        prompt = None if base is None else replace(base, prompt=digits, prompt_cursor=cursor)
        shown.append((digits, prompt))
        if key == "ESC" or (key == "RETURN" and (not digits or 1 <= int(digits) <= LARGEST_DEAL)):
            if index != len(typed) - 1:
                raise ValueError(f"the prompt is left at key {index + 1} of {len(typed)}")
            return shown
        if key == "RETURN":  # refused: the prompt again
            digits, cursor = "", False
        elif key.isdigit() and len(digits) < 10:
            digits, cursor = digits + key, True
        elif key == "DELETE" and digits:
            digits, cursor = digits[:-1], True
        else:
            cursor = True  # a buzz
    raise ValueError("the prompt is never left: the keys end before RETURN or ESC")


def _first_king_to_ace(position: Position) -> int:
    """How many moves the policy makes from ``position`` before its first that takes a
    King pile's top to its Ace pile (0 if it never does)."""
    ahead = position.copy(history=False)
    made = 0
    while (move := choose_move(ahead)) is not None:
        if move.source.is_king_pile and move.destination.is_ace_pile:
            return position.move_count + made
        ahead.push(move)
        made += 1
    return 0


def _any_table(deck: int) -> Position:
    """A table of ``deck`` cards: the options page shows only its size."""
    return Position.from_seed(1, variant(1), deck)


def _sources(position: Position) -> list[Place]:
    """The places a player may pick a card from, in key order: the tableau's spaces,
    the discard pile, the King piles."""
    spaces = [Place(Place.T1 + i) for i in range(position.deck.tableau_size)]
    return [*spaces, Place.W, *(Place(Place.KS + i) for i in range(4))]


def source_key(place: Place) -> str:
    """The key that picks the card of ``place``."""
    if place.is_tableau:
        return str(place - Place.T1 + 1)
    if place == Place.W:
        return "0"
    if place.is_king_pile:
        return KING_KEYS[place - Place.KS]
    raise ValueError(f"no key picks a card from {place.name}")


def destination_key(place: Place) -> str:
    """The key that sends a picked card to ``place``: A (its Ace pile) or Q W E R."""
    if place.is_ace_pile:
        return "A"
    return KING_KEYS[place - Place.KS]


def keys_for(position: Position, move: Move) -> tuple[str, ...]:
    """The keys that make ``move`` in ``position``: SPACE to draw; the source's key,
    then, when its card could go to two places or more, the destination's."""
    if move.is_draw:
        return ("SPACE",)
    places = {m.destination for m in position.legal_moves() if m.source == move.source}
    if len(places) == 1:
        return (source_key(move.source),)
    return (source_key(move.source), destination_key(move.destination))


def transcript_parts(steps: Sequence[Step]) -> list[list[Step]]:
    """A deal's steps by the transcripts that record their screens, in order: a part
    ends at each step that :attr:`~Step.records` (a random deal's), the last is the
    deal's own transcript."""
    parts: list[list[Step]] = [[]]
    for step in steps:
        parts[-1].append(step)
        if step.records:
            parts.append([])
    return parts


def expected_records(game: int, deals: Sequence[Deal]) -> dict[int, AtariRecord]:
    """The record a boot of ``deals`` leaves on its disk (the last game, not left, is
    not counted unless won), by deck size."""
    session = Session(game)
    for number, deal in enumerate(deals, start=1):
        session.steps(deal, (number, len(deals)))
    return session.records


def expected_steps(
    game: int,
    deals: Sequence[Deal],
    *,
    as_is: bool = True,
    first: int = 1,
    total: int | None = None,
    notice: bytes = b"",
) -> Iterator[list[Step]]:
    """For each deal of one boot, in order, the steps its transcript records
    (``as_is``: see :attr:`Session.as_is`). The deals are numbers ``first``... of
    ``total`` (default: these deals) in the configuration the test mode shows them of.
    ``notice``: why the boot's record is not saved, its first table's message
    (:func:`machfsol.atari.record_book.not_saved`; none on a disk with the record's
    file)."""
    session = Session(game, as_is=as_is, notice=notice)
    count = len(deals) if total is None else total
    for number, deal in enumerate(deals, start=first):
        yield session.steps(deal, (number, count))
