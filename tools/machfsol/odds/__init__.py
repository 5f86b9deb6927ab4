"""How often the games can be won: the perfect-information solver, the odds study and its
chart (``machfsol odds`` / ``machfsol solve``).
"""
