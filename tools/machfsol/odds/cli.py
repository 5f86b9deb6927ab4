"""The ``machfsol odds`` and ``machfsol solve`` sub-commands.

``odds`` prints how often each game is won by the autoplay policy, by the solver and
under the "one redeal" house rule (machfsol.odds.study); ``solve`` answers one deal and can
write the winning line as a transcript that ``machfsol check`` accepts.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from a8.commandline import docs
from a8.files import check_output, output_argument, write_atomically
from machfsol.engine.cards import DECK_SIZES
from machfsol.engine.deal import MAX_SEED
from machfsol.engine.options import add_deal, add_variant, chosen_deal, seed_option, variants_of
from machfsol.errors import MachfsolError, UsageError
from machfsol.odds.chart import draw_chart
from machfsol.odds.cluster import check_address, check_tls, plain_traffic_warning
from machfsol.odds.solver import (
    COMPILED,
    COMPILED_OUT_OF_DATE,
    DEFAULT_NODE_LIMITS,
    Verdict,
    search,
    solve,
    transcript,
)
from machfsol.odds.study import compute, format_table, stderr_is_terminal

#: ``solve --plain``'s default node limit: the plain search needs many more states.
PLAIN_NODE_LIMIT = 5_000_000


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    odds = subparsers.add_parser(
        "odds",
        help="win rates of autoplay, the solver and one redeal, with 95%% intervals",
        description=(
            "For each variant and deck size, play deals FIRST-SEED..FIRST-SEED+DEALS-1 "
            "with the autoplay policy and with one redeal, and solve the first "
            "SOLVER-DEALS of them with the perfect-information solver; print each rate "
            f"with its 95% interval. See {docs('ODDS.md')}."
        ),
    )
    add_variant(odds, many_deals=True)
    odds.add_argument("--deck", default="all", help="deck size or 'all' (default all)")
    odds.add_argument("--deals", default="1000", help="deals per row (default 1000)")
    odds.add_argument("--first-seed", default="1", help="first deal number (default 1)")
    odds.add_argument(
        "--solver-deals",
        default=None,
        help="how many of the deals the solver answers (default: all of them)",
    )
    odds.add_argument(
        "--node-limit",
        default=None,
        help=(
            "solver states per deal before UNKNOWN (default "
            f"{DEFAULT_NODE_LIMITS[1]} in variant 1, {DEFAULT_NODE_LIMITS[2]} in variant 2)"
        ),
    )
    odds.add_argument("--jobs", default="1", help="worker processes (default 1)")
    odds.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help=(
            "run the chunks on a Dask distributed scheduler (tls://HOST:PORT, or "
            "tcp://HOST:PORT unencrypted), or on a local Dask cluster of --jobs workers "
            "listening on 127.0.0.1 only ('local')"
        ),
    )
    odds.add_argument(
        "--tls-ca-file",
        metavar="PEM",
        help="with --cluster tls://: the CA certificate(s) of the cluster's certificates",
    )
    odds.add_argument(
        "--tls-cert",
        metavar="PEM",
        help="with --cluster tls://: this client's certificate, signed by that CA",
    )
    odds.add_argument(
        "--tls-key",
        metavar="PEM",
        help="with --cluster tls://: this client's private key (default: in --tls-cert)",
    )
    odds.add_argument("--json", action="store_true", help="print the counts as JSON")
    odds.add_argument("--chart", metavar="PNG", help="also draw the win rates to this file")
    odds.set_defaults(handler=run_odds)

    solve_parser = subparsers.add_parser(
        "solve",
        help="can this deal be won? (perfect information: the solver knows the stock)",
        description="Decide whether one deal can be won by a player who knew the order of "
        "the stock: WON (with a winning line, which --transcript writes), LOST (every line "
        f"tried) or UNKNOWN (the node limit came first). See {docs('ODDS.md')}.",
    )
    add_variant(solve_parser, many_deals=False)
    add_deal(solve_parser)
    solve_parser.add_argument(
        "--node-limit", default=None, help="solver states before UNKNOWN (default as odds)"
    )
    solve_parser.add_argument(
        "--transcript", metavar="FILE", help="write the winning line as a transcript"
    )
    solve_parser.add_argument(
        "--plain",
        action="store_true",
        help=(
            "search with no reduction at all, node limit 5000000 unless given (slow: an "
            "independent check of a verdict)"
        ),
    )
    solve_parser.set_defaults(handler=run_solve)


def _int(text: str, option: str, low: int, high: int) -> int:
    if not text.strip().isdigit() or not low <= int(text) <= high:
        raise UsageError(f"{option} {text!r} is not a whole number in {low}..{high}")
    return int(text)


def _decks(text: str) -> list[int]:
    if text == "all":
        return list(DECK_SIZES)
    if text.isdigit() and int(text) in DECK_SIZES:
        return [int(text)]
    raise UsageError(f"--deck {text!r} is not one of {', '.join(map(str, DECK_SIZES))} or all")


def _note_without_compiled_search() -> None:
    if not COMPILED:
        state = (
            "is out of date (rebuild it: in a checkout, bash .ci/setup)"
            if COMPILED_OUT_OF_DATE
            else "is not built"
        )
        print(
            f"machfsol: note: the compiled search {state}; the Python search gives "
            "the same answers, about 60 times slower",
            file=sys.stderr,
        )


def run_odds(args: argparse.Namespace) -> int:
    if args.chart:
        check_output(output_argument(args.chart))  # now, not after the study
    configs = [(v, d) for v in variants_of(args.variant) for d in _decks(args.deck)]
    deals = _int(args.deals, "--deals", 1, 10**9)
    first_seed = seed_option(args.first_seed)
    if first_seed + deals - 1 > MAX_SEED:
        raise UsageError(f"--first-seed {first_seed} + --deals {deals} passes seed {MAX_SEED}")
    solver_deals = (
        deals if args.solver_deals is None else _int(args.solver_deals, "--solver-deals", 0, deals)
    )
    node_limit = (
        None if args.node_limit is None else _int(args.node_limit, "--node-limit", 1, 10**9)
    )
    jobs = _int(args.jobs, "--jobs", 1, 256)
    cluster = None if args.cluster is None else check_address(args.cluster)
    tls = check_tls(cluster, args.tls_ca_file, args.tls_cert, args.tls_key)
    warning = None if cluster is None else plain_traffic_warning(cluster)
    if warning is not None:
        print(f"machfsol: warning: {warning}", file=sys.stderr)
    _note_without_compiled_search()
    bar: Any = None
    if stderr_is_terminal():
        from tqdm import tqdm

        bar = tqdm(total=deals * len(configs), unit="deal", file=sys.stderr)
    try:
        rows = compute(
            configs,
            deals,
            first_seed,
            solver_deals,
            node_limit,
            jobs,
            progress=None if bar is None else bar.update,
            cluster=cluster,
            tls=tls,
        )
    finally:
        if bar is not None:
            bar.close()
    if args.chart:
        write_atomically(output_argument(args.chart), draw_chart(rows))
    if args.json:
        print(json.dumps({"rows": [row.as_json() for row in rows]}, indent=1))
    else:
        print(format_table(rows))
    return 0


def run_solve(args: argparse.Namespace) -> int:
    if args.transcript:
        check_output(output_argument(args.transcript))
    game = int(args.variant)
    node_limit = (
        None if args.node_limit is None else _int(args.node_limit, "--node-limit", 1, 10**9)
    )
    order, seed = chosen_deal(args)
    _note_without_compiled_search()
    if args.plain:
        solution = search(order, game, node_limit or PLAIN_NODE_LIMIT, plain=True)
        searcher = "the plain search"
    else:
        solution = solve(order, game, node_limit)
        searcher = "the reduced search"
    if solution.by_policy:
        how = "autoplay's own line"
    elif solution.verdict is Verdict.LOST:
        # The certificate: the search is deterministic, so the count is reproducible.
        how = f"proved: {solution.nodes} states searched by {searcher}, none wins"
    else:
        how = f"{solution.nodes} states searched by {searcher}"
    print(f"{solution.verdict.value.upper()} ({how})")
    if args.transcript:
        if not solution.won:
            raise MachfsolError(f"{args.transcript}: no winning line to write")
        text = transcript(order, game, solution, seed)
        write_atomically(output_argument(args.transcript), text.encode("ascii"))
    return 0
