"""The atari800 backend: atari800 run headless, fed through a pipe, driven by its monitor.

One module per part: :mod:`~a8.emu.atari800.backend` (a run from start to end, the
log and exit status), :mod:`~a8.emu.atari800.executable` (finding atari800, how to
install it, the headless environment), :mod:`~a8.emu.atari800.command` (its command
line and configuration file), :mod:`~a8.emu.atari800.playback` (the ``-playback``
stream cut into blocks), :mod:`~a8.emu.atari800.session` (the pipe, block by block,
and the pauses and breakpoints) and :mod:`~a8.emu.atari800.monitor` (the monitor's
commands and answers).

Nothing outside :mod:`a8.emu` imports this package: runs go through
:func:`a8.emu.emulator.run`, whose registry hands out :data:`BACKEND`.
"""

from a8.emu.atari800.backend import BACKEND, Atari800

__all__ = ["BACKEND", "Atari800"]
