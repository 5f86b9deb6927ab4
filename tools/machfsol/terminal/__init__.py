"""The terminal game, ``machfsol play``."""
