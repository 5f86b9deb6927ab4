"""How often MAChFsol can be won: autoplay, the solver, and the "one redeal" house rule.

For a variant and deck size, deals ``first_seed .. first_seed + deals - 1`` are played by
the autoplay policy; each loss is then played on under the house rule "one redeal" (the
discard pile turned over once to become the stock again, still played by the policy),
and, for the first ``solver_deals`` deals, searched by the perfect-information solver
(whose unknowns, deals where its node limit was hit, are counted apart). Every rate
comes with a 95% Wilson score interval; for the solver the interval's low end counts the
unknowns as losses and its high end as wins.

Deals are independent, so they are split into chunks that worker processes play (a
local process pool with ``jobs``, or a Dask cluster with ``cluster``:
machfsol.odds.cluster); the counts are sums, so the result does not depend on the
number of workers nor on where they run.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from machfsol.engine.autoplay import play, policy_move
from machfsol.engine.deal import deal
from machfsol.engine.rules import Position, variant
from machfsol.odds.solver import Verdict, search

if TYPE_CHECKING:
    from machfsol.odds.cluster import TlsFiles

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Deals per work unit handed to a worker process.
CHUNK = 250


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (better than p +- z*se near
    0 and 1, where solitaire win rates live). (0, 1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # At 0 and n successes the exact ends are 0 and 1; rounding would miss them.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def play_with_redeal(position: Position) -> tuple[bool, bool]:
    """Play the policy to the end, then once more after one redeal: (won, won_redeal)."""
    play(position, policy_move)
    if position.is_won():
        return True, True
    position.turn_over_discard()
    play(position, policy_move)
    return False, position.is_won()


@dataclass(frozen=True)
class Tally:
    """Counts over a range of deals (sums of chunks)."""

    deals: int = 0
    autoplay_wins: int = 0
    redeal_wins: int = 0
    solver_deals: int = 0
    solver_wins: int = 0
    solver_unknown: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.deals + other.deals,
            self.autoplay_wins + other.autoplay_wins,
            self.redeal_wins + other.redeal_wins,
            self.solver_deals + other.solver_deals,
            self.solver_wins + other.solver_wins,
            self.solver_unknown + other.solver_unknown,
        )


@dataclass(frozen=True)
class Job:
    """One chunk of work: deals ``first .. first + count - 1``; the solver runs on those
    below ``solver_end``."""

    game: int
    deck: int
    first: int
    count: int
    solver_end: int
    node_limit: int | None  # None: the solver's default for the variant


def run_job(job: Job) -> Tally:
    """Play one chunk of deals (in a worker process)."""
    game = variant(job.game)
    wins = redeal = solver_deals = solver_wins = unknown = 0
    for seed in range(job.first, job.first + job.count):
        order = deal(seed, job.deck)
        won, won_redeal = play_with_redeal(Position(order, game))
        wins += won
        redeal += won_redeal
        if seed < job.solver_end:
            solver_deals += 1
            if won:
                solver_wins += 1  # the policy's own line is a winning line
            else:
                verdict = search(order, game, job.node_limit).verdict
                solver_wins += verdict is Verdict.WON
                unknown += verdict is Verdict.UNKNOWN
    return Tally(job.count, wins, redeal, solver_deals, solver_wins, unknown)


@dataclass(frozen=True)
class OddsRow:
    """The result for one variant and deck size."""

    variant: int
    deck: int
    first_seed: int
    tally: Tally

    def as_json(self) -> dict[str, int]:
        t = self.tally
        return {
            "variant": self.variant,
            "deck": self.deck,
            "deals": t.deals,
            "first_seed": self.first_seed,
            "autoplay_wins": t.autoplay_wins,
            "solver_wins": t.solver_wins,
            "solver_unknown": t.solver_unknown,
            "redeal_wins": t.redeal_wins,
            "solver_deals": t.solver_deals,
        }

    def autoplay_interval(self) -> tuple[float, float]:
        return wilson_interval(self.tally.autoplay_wins, self.tally.deals)

    def redeal_interval(self) -> tuple[float, float]:
        return wilson_interval(self.tally.redeal_wins, self.tally.deals)

    def solver_interval(self) -> tuple[float, float]:
        """Low end: unknowns as losses; high end: unknowns as wins."""
        t = self.tally
        low, _ = wilson_interval(t.solver_wins, t.solver_deals)
        _, high = wilson_interval(t.solver_wins + t.solver_unknown, t.solver_deals)
        return low, high


def jobs_for(
    game: int, deck: int, deals: int, first_seed: int, solver_deals: int, node_limit: int | None
) -> list[Job]:
    solver_end = first_seed + min(solver_deals, deals)
    return [
        Job(game, deck, first, min(CHUNK, first_seed + deals - first), solver_end, node_limit)
        for first in range(first_seed, first_seed + deals, CHUNK)
    ]


Progress = Callable[[int], None]


def compute(
    configs: Sequence[tuple[int, int]],
    deals: int,
    first_seed: int = 1,
    solver_deals: int | None = None,
    node_limit: int | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    cluster: str | None = None,
    tls: TlsFiles | None = None,
) -> list[OddsRow]:
    """One row per (variant, deck) in ``configs``; ``progress(n)`` after n more deals.

    ``node_limit`` None uses the solver's default for each variant
    (:func:`machfsol.odds.solver.default_node_limit`). ``cluster`` (a Dask scheduler
    address, or ``local`` for a cluster of ``jobs`` local workers) runs the chunks
    there instead of in this machine's process pool; ``tls`` gives the certificates
    for a ``tls://`` address.
    """
    wanted = deals if solver_deals is None else solver_deals
    work = [
        (index, job)
        for index, (game, deck) in enumerate(configs)
        for job in jobs_for(game, deck, deals, first_seed, wanted, node_limit)
    ]
    # Solver-heavy chunks first, so that workers do not end on one long chunk.
    work.sort(key=lambda item: item[1].first >= item[1].solver_end)
    totals = [Tally() for _ in configs]
    for index, tally in _run(work, jobs, cluster, tls):
        totals[index] = totals[index] + tally
        if progress is not None:
            progress(tally.deals)
    return [
        OddsRow(game, deck, first_seed, totals[index]) for index, (game, deck) in enumerate(configs)
    ]


def _run(
    work: list[tuple[int, Job]], jobs: int, cluster: str | None, tls: TlsFiles | None
) -> Iterator[tuple[int, Tally]]:
    if cluster is not None:
        from machfsol.odds.cluster import run_on_cluster

        chunks = [job for _index, job in work]
        for position, tally in run_on_cluster(chunks, run_job, cluster, jobs, tls):
            yield work[position][0], tally
        return
    if jobs <= 1:
        for index, job in work:
            yield index, run_job(job)
        return
    # A process pool whose workers are ended when the block is left early (Ctrl-C, an
    # error): concurrent.futures' pool would first run every chunk already submitted,
    # so an interrupted study went on for as long as it had left. The workers leave
    # Ctrl-C to this process, which stops them.
    context = multiprocessing.get_context()
    with context.Pool(processes=jobs, initializer=_leave_interrupts_to_the_parent) as pool:
        tallies = pool.imap(run_job, [job for _index, job in work])
        for (index, _job), tally in zip(work, tallies, strict=True):
            yield index, tally


def _leave_interrupts_to_the_parent() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _percent(value: float) -> str:
    return f"{100 * value:5.1f}%"


def format_table(rows: Sequence[OddsRow]) -> str:
    """The human-readable table: rates with their 95% Wilson intervals."""
    head = (
        "var deck   deals  autoplay                 one redeal               "
        "solver (deals, unknown)"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        t = row.tally
        a_lo, a_hi = row.autoplay_interval()
        r_lo, r_hi = row.redeal_interval()
        s_lo, s_hi = row.solver_interval()
        solver_rate = t.solver_wins / t.solver_deals if t.solver_deals else 0.0
        lines.append(
            f"{row.variant:>3} {row.deck:>4} {t.deals:>7}  "
            f"{_percent(t.autoplay_wins / t.deals)} [{_percent(a_lo)},{_percent(a_hi)}]  "
            f"{_percent(t.redeal_wins / t.deals)} [{_percent(r_lo)},{_percent(r_hi)}]  "
            f"{_percent(solver_rate)} [{_percent(s_lo)},{_percent(s_hi)}] "
            f"({t.solver_deals}, {t.solver_unknown})"
        )
    return "\n".join(lines)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()
