"""A PNG chart of win rate against deck size (pillow only, no plotting library).

One line per variant and player (autoplay, solver, one redeal); the solver line is
drawn through the middle of its interval (unknowns split the difference) with the
interval as a bar. Drawn with pillow's built-in bitmap font, so the same rows always
give the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from machfsol.odds.study import OddsRow

WIDTH, HEIGHT = 760, 480
LEFT, RIGHT, TOP, BOTTOM = 60, 190, 40, 50

#: (label, variant, colour, dash) per series.
SERIES: tuple[tuple[str, str, tuple[int, int, int]], ...] = (
    ("autoplay", "autoplay", (200, 60, 40)),
    ("solver", "solver", (40, 90, 200)),
    ("one redeal", "redeal", (40, 150, 60)),
)


def _rate(row: OddsRow, what: str) -> float | None:
    t = row.tally
    if what == "autoplay":
        return t.autoplay_wins / t.deals
    if what == "redeal":
        return t.redeal_wins / t.deals
    if not t.solver_deals:
        return None
    return (t.solver_wins + t.solver_unknown / 2) / t.solver_deals


def draw_chart(rows: Sequence[OddsRow]) -> bytes:
    """The PNG bytes of the chart for ``rows`` (any variants and deck sizes)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    pen = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    decks = sorted({row.deck for row in rows})
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x_of(deck: int) -> float:
        if len(decks) == 1:
            return LEFT + plot_w / 2
        return LEFT + plot_w * (deck - decks[0]) / (decks[-1] - decks[0])

    def y_of(rate: float) -> float:
        return TOP + plot_h * (1 - rate)

    pen.text((LEFT, 12), "MAChFsol: share of deals won, by deck size", fill="black", font=font)
    for tenth in range(11):
        y = y_of(tenth / 10)
        pen.line([(LEFT, y), (LEFT + plot_w, y)], fill=(225, 225, 225))
        pen.text((LEFT - 38, y - 6), f"{10 * tenth:3d}%", fill="black", font=font)
    for deck in decks:
        x = x_of(deck)
        pen.line([(x, TOP + plot_h), (x, TOP + plot_h + 4)], fill="black")
        pen.text((x - 7, TOP + plot_h + 8), str(deck), fill="black", font=font)
    pen.text((LEFT + plot_w / 2 - 40, HEIGHT - 22), "cards in the deck", fill="black", font=font)
    pen.rectangle([LEFT, TOP, LEFT + plot_w, TOP + plot_h], outline="black")

    legend_y = TOP
    for game in sorted({row.variant for row in rows}):
        mine = sorted((row for row in rows if row.variant == game), key=lambda r: r.deck)
        for label, what, colour in SERIES:
            points = [(x_of(r.deck), _rate(r, what), r) for r in mine]
            drawn = [(x, y_of(rate)) for x, rate, _ in points if rate is not None]
            width = 3 if game == 1 else 1
            if len(drawn) > 1:
                pen.line(drawn, fill=colour, width=width)
            for x, y in drawn:
                if game == 1:
                    pen.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
                else:
                    pen.rectangle([x - 3, y - 3, x + 3, y + 3], outline=colour)
            if what == "solver":
                for x, rate, r in points:
                    if rate is not None:
                        low, high = r.solver_interval()
                        pen.line([(x, y_of(low)), (x, y_of(high))], fill=colour)
            lx = LEFT + plot_w + 15
            pen.line([(lx, legend_y + 6), (lx + 25, legend_y + 6)], fill=colour, width=width)
            pen.text((lx + 32, legend_y), f"MAChFsol {game} {label}", fill="black", font=font)
            legend_y += 18
        legend_y += 8
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
