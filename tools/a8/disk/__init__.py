"""ATR disk images, the DOS 2 file system and the boot loader."""
