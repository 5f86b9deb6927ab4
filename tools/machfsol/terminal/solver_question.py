""" "Can this deal still be won?": the solver asked in a child process, with a time limit.

The terminal game does not import the solver (machfsol.odds; docs/ARCHITECTURE.md: the
parts build on the engine, not on one another): the command line hands it a
:data:`Solver`, a function from a deal, a variant and the moves made to an
:class:`Answer`. A search can take minutes on a hard deal, so the game runs it in a
child process and gives up after a number of seconds (:class:`Question`): the child is
then killed, and the answer is "not decided". The screen and the keys stay alive
meanwhile (the full-screen game polls; any key stops the question).

The child keeps away from the terminal: Ctrl-C (which reaches the whole foreground
process group) is ignored there, and a failure comes back as an answer, never as a
traceback on the player's screen; one that is not the game refusing something (a
:class:`~machfsol.odds.solver.SolverBug`, any other exception) says it is a bug and
how to report it, since the command line's traceback cannot show here.
"""

from __future__ import annotations

import enum
import multiprocessing
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from machfsol.engine.cards import Card
from machfsol.engine.rules import Move, Position
from machfsol.errors import MachfsolError

#: How long the game waits for the solver before it says "not decided".
DEFAULT_SECONDS = 10.0
#: Said after a failure that is no refusal of the game's: a bug the player can report.
BUG_NOTE = "a bug in machfsol: save this game to report it"


class Verdict(enum.Enum):
    WINNABLE = "winnable"
    LOST = "lost"  # lost whatever the player does (proved)
    UNDECIDED = "undecided"  # the time (or the solver's node limit) ran out first
    FAILED = "failed"  # the solver could not answer (``detail`` says why)


@dataclass(frozen=True)
class Answer:
    """What the solver said. ``line`` (WINNABLE) is a whole winning game from the
    deal: the moves made, then moves that win."""

    verdict: Verdict
    line: tuple[Move, ...] = ()
    detail: str = ""


#: The solver as the game uses it: (dealing order, variant number, moves made) -> answer.
Solver = Callable[[tuple[Card, ...], int, tuple[Move, ...]], Answer]


class _Sender(Protocol):
    """The child's end of the pipe the answer comes back through (an OS pipe: no
    socket, docs/ARCHITECTURE.md "The network")."""

    def send(self, obj: Any) -> None: ...

    def close(self) -> None: ...


def _ask(
    solver: Solver,
    order: tuple[Card, ...],
    number: int,
    moves: tuple[Move, ...],
    connection: _Sender,
) -> None:
    """The child's work: answer, and send the answer back (never raise)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the game's, not ours
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)  # the game's handlers would raise here
    try:
        answer = solver(order, number, moves)
    except Exception as error:  # noqa: BLE001 - any failure becomes an answer
        detail = f"{type(error).__name__}: {error}"
        if not isinstance(error, MachfsolError):  # not the game refusing: a bug (SolverBug)
            detail += f" ({BUG_NOTE})"
        answer = Answer(Verdict.FAILED, detail=detail)
    try:
        connection.send(answer)
    finally:
        connection.close()


def _context() -> Any:
    """Fork where there is fork (the child starts at once, with the game's modules);
    elsewhere the platform's way (the solver is then imported again in the child)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


class Question:
    """The solver asked about ``position``; answered within ``seconds``."""

    def __init__(
        self,
        solver: Solver,
        position: Position,
        seconds: float = DEFAULT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds = seconds
        self.clock = clock
        self.deadline = clock() + seconds
        self.moves = position.move_stack
        context = _context()
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_ask,
            args=(solver, position.order, position.variant.number, self.moves, send),
            daemon=True,
        )
        self._process.start()
        send.close()
        self.answer: Answer | None = None

    def poll(self) -> Answer | None:
        """The answer, once there is one (the time is up: UNDECIDED); None meanwhile."""
        if self.answer is not None:
            return self.answer
        try:
            ready = self._receive.poll()
        except (OSError, EOFError):
            ready = True
        if ready:
            try:
                self.answer = self._receive.recv()
            except (OSError, EOFError):  # the child died without a word
                code = self._process.exitcode
                self.answer = Answer(Verdict.FAILED, detail=f"the solver stopped ({code})")
            self._end()
        elif self.clock() >= self.deadline:
            self.answer = Answer(Verdict.UNDECIDED)
            self._end()
        return self.answer

    def wait(self, step: float = 0.05) -> Answer:
        """Wait for the answer (at most until the time is up)."""
        while (answer := self.poll()) is None:
            self._receive.poll(step)
        return answer

    def cancel(self) -> None:
        """Stop asking (the player pressed a key); no answer is given."""
        if self.answer is None:
            self.answer = Answer(Verdict.UNDECIDED, detail="stopped")
        self._end()

    def _end(self) -> None:
        process = self._process
        if process.is_alive():
            process.kill()
        process.join(5)
        self._receive.close()
