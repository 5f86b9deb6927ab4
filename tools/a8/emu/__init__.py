"""Running programs and disks headless in the atari800 emulator.

* :mod:`a8.emu.keys` -- characters and key names as atari800 keyboard codes;
* :mod:`a8.emu.script` -- input scripts (type, keys, waits, screenshots) and their text format;
* :mod:`a8.emu.playback` -- atari800's playback stream, cut into blocks it reads whole;
* :mod:`a8.emu.emulator` -- :func:`~a8.emu.emulator.run`: one emulator, driven by a script;
* :mod:`a8.emu.monitor` -- the emulator's monitor as a remote control (memory, registers, quit);
* :mod:`a8.emu.screen`, :mod:`a8.emu.palette` -- the screen drawn from memory and registers;
* :mod:`a8.emu.launch` -- starting a .BAS, .LST or .ATR the way a user would;
* :mod:`a8.emu.doctor`, :mod:`a8.emu.cli` -- ``a8 emu doctor`` and ``a8 emu run``.

See docs/EMULATOR.md.
"""
