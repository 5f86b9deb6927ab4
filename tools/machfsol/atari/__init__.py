"""The Atari side: the BASIC programs generated from ``basic_src/``, the game disk, the
programs' test mode in atari800, the screen reader and ``machfsol verify``.
"""
