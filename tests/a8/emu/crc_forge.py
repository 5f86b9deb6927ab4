"""Test helper: change 4 bytes of a file so that its CRC32 becomes a chosen value.

CRC32 is linear over GF(2) in the data bits (after the fixed initial and final
XORs, which cancel in differences), so the effect of flipping each of 32 bits in a
4-byte window is a fixed 32-bit vector; solving a 32 x 32 system picks the bits
that turn the current CRC into the target. Used to make an image that atari800
takes for a ROM it knows (the genuine XL OS rev. 2, BASIC rev. C) out of the
built-in Altirra ROMs, without any genuine ROM code.
"""

from __future__ import annotations

import zlib


def forge_crc32(data: bytes, position: int, target: int) -> bytes:
    """``data`` with bytes ``position..position+3`` chosen so that its CRC32 is ``target``."""
    base = bytearray(data)
    base[position : position + 4] = bytes(4)
    start = zlib.crc32(base)
    effects = []
    for bit in range(32):
        flipped = bytearray(base)
        flipped[position + bit // 8] ^= 1 << (bit % 8)
        effects.append(zlib.crc32(flipped) ^ start)
    # Gaussian elimination: basis[b] = (vector with top bit b, the bits that make it)
    basis: dict[int, tuple[int, int]] = {}
    for bit, vector in enumerate(effects):
        combination = 1 << bit
        for top in range(31, -1, -1):
            if not vector >> top & 1:
                continue
            if top not in basis:
                basis[top] = (vector, combination)
                break
            vector ^= basis[top][0]
            combination ^= basis[top][1]
    wanted, chosen = target ^ start, 0
    for top in range(31, -1, -1):
        if wanted >> top & 1:
            wanted ^= basis[top][0]
            chosen ^= basis[top][1]
    if wanted:
        raise ValueError("these 4 bytes cannot reach that CRC32")
    for bit in range(32):
        if chosen >> bit & 1:
            base[position + bit // 8] ^= 1 << (bit % 8)
    return bytes(base)
