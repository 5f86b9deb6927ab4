"""a8: a cross-toolchain for Atari 8-bit BASIC.

Sub-packages, one per stage of the path a program takes to the machine:

* ``a8.basic`` -- listings <-> tokenized SAVE files (tokenizer, lister, BCD, ATASCII);
* ``a8.disk``  -- ATR images, their file systems (DOS 2, MyDOS, SpartaDOS, DOS 3), a boot loader;
* ``a8.emu``   -- running programs and disks headless in the atari800 emulator.

Nothing here knows about any particular game; ``machfsol`` builds on it.
"""

__version__ = "0.1.0"
