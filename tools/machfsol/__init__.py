"""MAChFsol 1 and 2: the reference engine and the tools around the Atari games.

The engine (cards, deal, rules, autoplay, transcript) is the reference that the
Atari BASIC programs must match move for move. The rest builds the programs with
the general ``a8`` toolchain, verifies them in the emulator and computes the odds.
"""

__version__ = "0.1.0"
