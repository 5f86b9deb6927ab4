"""Types of the compiled concrete search (_concrete.c); machfsol.odds.solver.compiled calls it."""

#: The reduction bits this build knows (Reductions.flags with every reduction on).
REDUCTIONS: int

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
    /,
) -> tuple[int, int, list[tuple[int, int]]]: ...
