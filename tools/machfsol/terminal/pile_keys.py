"""Which key, and which cell of the cursor's grid, names which pile in the full-screen game.

The keys are the Atari's where a terminal allows, so that a player moves between the two
without thinking: ``1``-``8`` the tableau spaces, ``0`` the discard pile, ``A`` a card's
Ace pile, and the King piles ``Z X C V`` (the Atari's ``Q W E R``, one row down twice:
``Q`` quits here). The arrow keys move a cursor over the same piles laid out as the
screen shows them, so that a player who has not learnt the keys can still play. The
screen (:mod:`machfsol.terminal.screen_layout`) labels the piles from here too, so the
keys it shows are the keys that work.
"""

from __future__ import annotations

from machfsol.engine.rules import Place

#: The King piles' keys, spades hearts clubs diamonds.
KING_KEYS = "ZXCV"
#: The cursor's keys.
ARROWS = ("UP", "DOWN", "LEFT", "RIGHT")

#: The cursor's grid: (row, column) -> place. Rows 0-3 are the suits, row 4 the stock and
#: the discard pile; columns: Ace piles, the tableau's two columns, King piles.
Grid = dict[tuple[int, int], Place]


def source_key(place: Place) -> str:
    """The key that picks the card of ``place`` (a tableau space, the discard pile or a
    King pile)."""
    if place.is_tableau:
        return str(place - Place.T1 + 1)
    if place is Place.W:
        return "0"
    return KING_KEYS[place - Place.KS]


def destination_key(place: Place) -> str:
    """The key that puts a picked card on ``place`` (an Ace or King pile)."""
    return "A" if place.is_ace_pile else KING_KEYS[place - Place.KS]


def source_of(key: str) -> Place | None:
    """The place whose card ``key`` picks (None: ``key`` picks nothing)."""
    if len(key) != 1:
        return None
    if key == "0":
        return Place.W
    if "1" <= key <= "8":
        return Place(Place.T1 + int(key) - 1)
    if key in KING_KEYS:
        return Place(Place.KS + KING_KEYS.index(key))
    return None


def cursor_grid(tableau_size: int) -> Grid:
    """The piles a deal with ``tableau_size`` spaces has, where the screen shows them."""
    grid: Grid = {}
    half = tableau_size // 2
    for row in range(4):
        grid[(row, 0)] = Place(Place.AS + row)
        grid[(row, 3)] = Place(Place.KS + row)
        if row < half:
            grid[(row, 1)] = Place(Place.T1 + row)
            grid[(row, 2)] = Place(Place.T1 + half + row)
    grid[(4, 0)] = Place.S
    grid[(4, 1)] = Place.W
    return grid


def step_cursor(grid: Grid, cursor: Place, direction: str) -> Place:
    """Where an arrow key moves the cursor from ``cursor`` (a place of ``grid``): the next
    pile that way in its row, or in the next row the nearest column; at the edge it stays."""
    row, column = next(cell for cell, place in grid.items() if place is cursor)
    if direction in ("LEFT", "RIGHT"):
        step = -1 if direction == "LEFT" else 1
        columns = sorted(c for (r, c) in grid if r == row and (c - column) * step > 0)
        if not columns:
            return cursor
        return grid[(row, columns[0] if step > 0 else columns[-1])]
    step = -1 if direction == "UP" else 1
    rows = sorted({r for (r, _c) in grid if (r - row) * step > 0})
    if not rows:
        return cursor
    target = rows[0] if step > 0 else rows[-1]
    nearest = min((c for (r, c) in grid if r == target), key=lambda c: (abs(c - column), c))
    return grid[(target, nearest)]
