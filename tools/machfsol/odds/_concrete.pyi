"""Types of the compiled concrete search (_concrete.c); machfsol.odds.solver.compiled calls it."""

#: The reduction bits this build knows (Reductions.flags with every reduction on).
REDUCTIONS: int
#: 1 when search() takes a game in progress to start from (``start``).
STARTS: int

#: A game in progress: stock position, discard pile (bottom first), tableau mask,
#: Ace-pile heights, foundations mask, the King piles (King first).
Start = tuple[int, bytes, int, int, int, tuple[bytes, bytes, bytes, bytes]]

def search(
    order: bytes,
    ranks: int,
    slots: int,
    same_suit: bool,
    flags: int,
    limit: int,
    first_round: int,
    places: tuple[int, int, int],
    stock_order_after: int,
    start: Start | None = None,
    /,
) -> tuple[int, int, list[tuple[int, int]]]: ...
