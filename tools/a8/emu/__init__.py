"""Running programs and disks headless in an emulator (atari800).

The interface, which everything outside the backends uses:

* :mod:`a8.emu.emulator` -- :func:`~a8.emu.emulator.run`, the options and result of a
  run, the backend protocol and the registry of backends;
* :mod:`a8.emu.script` -- input scripts (type, keys, waits, screenshots) and their text format;
* :mod:`a8.emu.runner` -- a script played into a running machine (the same for every backend);
* :mod:`a8.emu.keys` -- characters and key names as keyboard codes, the input of a frame;
* :mod:`a8.emu.keywait` -- the program's wait for a key, found in its memory;
* :mod:`a8.emu.screen`, :mod:`a8.emu.palette` -- the screen drawn from memory and registers;
* :mod:`a8.emu.roms` -- the user's ROM files, and the proof of which ROMs the machine ran;
* :mod:`a8.emu.launch` -- starting a .BAS, .LST or .ATR the way a user would;
* :mod:`a8.emu.doctor`, :mod:`a8.emu.cli` -- ``a8 emu doctor`` and ``a8 emu run``.

The backend: :mod:`a8.emu.atari800` (its command line and configuration, the
playback pipe, the monitor and its breakpoint).

See docs/EMULATOR.md.
"""
