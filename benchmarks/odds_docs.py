"""Assemble docs/ODDS.md's table and docs/odds.png from saved ``machfsol odds --json`` runs.

Usage: .venv/bin/python benchmarks/odds_docs.py AUTOPLAY_DIR SOLVER_DIR [PNG]

The full table is made by two kinds of runs (see docs/ODDS.md): 100,000 deals per row
for autoplay and one redeal (``--solver-deals 0``), and fewer deals per row for the
solver. Each run's JSON is a file ``auto_V_D.json`` or ``solver*_V_D.json`` (several
solver runs over consecutive seeds are summed); this script takes the autoplay and
redeal counts from the first, the solver counts from the others, prints the Markdown
table and draws the chart (default docs/odds.png).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from a8.files import write_atomically
from machfsol.engine.cards import DECK_SIZES
from machfsol.odds.chart import draw_chart
from machfsol.odds.study import OddsRow, Tally, wilson_interval


def _row(path: Path) -> dict[str, int] | None:
    if not path.exists():
        return None
    rows: list[dict[str, int]] = json.loads(path.read_text())["rows"]
    return rows[0]


def _solver_row(folder: Path, game: int, deck: int) -> dict[str, int] | None:
    """The solver counts of ``solver*_GAME_DECK.json`` runs over consecutive seeds, summed
    (a row may have been extended by a later run starting where the first one ended)."""
    runs = [r for p in folder.glob(f"solver*_{game}_{deck}.json") if (r := _row(p))]
    if not runs:
        return None
    runs.sort(key=lambda r: r["first_seed"])
    total = dict(runs[0])
    for run in runs[1:]:
        if run["first_seed"] != total["first_seed"] + total["deals"]:
            raise SystemExit(f"solver runs for {game}/{deck} do not follow each other")
        for key in ("deals", "solver_deals", "solver_wins", "solver_unknown"):
            total[key] += run[key]
    return total


def _pct(k: int, n: int, digits: int = 1) -> str:
    low, high = wilson_interval(k, n)
    return f"{100 * k / n:.{digits}f}% [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"


def main() -> int:
    auto_dir, solver_dir = Path(sys.argv[1]), Path(sys.argv[2])
    png = Path(sys.argv[3]) if len(sys.argv) > 3 else Path("docs/odds.png")
    rows: list[OddsRow] = []
    print(
        "| game | deck | deals | autoplay | 1 in N | one redeal | solver deals | solver "
        "(unknown as loss .. as win) | unknown |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for game in (1, 2):
        for deck in sorted(DECK_SIZES, reverse=True):
            auto = _row(auto_dir / f"auto_{game}_{deck}.json")
            solver = _solver_row(solver_dir, game, deck)
            if auto is None:
                continue
            tally = Tally(
                auto["deals"],
                auto["autoplay_wins"],
                auto["redeal_wins"],
                solver["solver_deals"] if solver else 0,
                solver["solver_wins"] if solver else 0,
                solver["solver_unknown"] if solver else 0,
            )
            row = OddsRow(game, deck, auto["first_seed"], tally)
            rows.append(row)
            one_in = tally.deals / tally.autoplay_wins if tally.autoplay_wins else float("inf")
            if tally.solver_deals:
                low, high = row.solver_interval()
                won = 100 * tally.solver_wins / tally.solver_deals
                most = 100 * (tally.solver_wins + tally.solver_unknown) / tally.solver_deals
                solver_text = (
                    f"{won:.1f}%" if most == won else f"{won:.1f}% .. {most:.1f}%"
                ) + f" [{100 * low:.1f}, {100 * high:.1f}]"
            else:
                solver_text = "not run"
            print(
                f"| {game} | {deck} | {tally.deals} | "
                f"{_pct(tally.autoplay_wins, tally.deals)} | {one_in:.1f} | "
                f"{_pct(tally.redeal_wins, tally.deals, 2)} "
                f"({tally.deals - tally.redeal_wins} lost) | "
                f"{tally.solver_deals} | "
                f"{solver_text} | {tally.solver_unknown} |"
            )
    write_atomically(png, draw_chart(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
