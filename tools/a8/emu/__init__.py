"""Running programs and disks headless in the atari800 emulator."""
