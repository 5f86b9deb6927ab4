"""The packed programs' compression (a8/disk/lz.py): round trips and damaged streams."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a8.disk import lz

#: Bytes with the repeats that make packing worth it: runs, and pieces that come back.
repetitive = st.lists(
    st.one_of(
        st.binary(min_size=1, max_size=20),
        st.tuples(st.integers(0, 255), st.integers(1, 300)).map(lambda t: bytes([t[0]]) * t[1]),
    ),
    max_size=40,
).flatmap(lambda parts: st.permutations(parts + parts).map(b"".join))


@settings(deadline=None, max_examples=40)
@given(st.binary(max_size=1500))
def test_any_bytes_round_trip(data: bytes) -> None:
    assert lz.unpack(lz.pack(data)) == data


@settings(deadline=None, max_examples=40)
@given(repetitive)
def test_repeats_round_trip_and_pack_smaller(data: bytes) -> None:
    packed = lz.pack(data)
    assert lz.unpack(packed) == data
    assert len(packed) <= 2 + len(data) + (len(data) + lz.MAX_LITERALS - 1) // lz.MAX_LITERALS


def test_each_kind_of_token() -> None:
    data = b"ABCDEFGH" + b"ABCDEFGH"[:5] + bytes(300) + b"ABCDEFGH"
    packed = lz.pack(data)
    tokens = packed[2:]
    assert tokens[0] == 7 and tokens[1:9] == b"ABCDEFGH"  # 8 bytes as they are
    assert tokens[9:11] == bytes([0x80 | (5 - 2), 8 - 1])  # 5 bytes from 8 back: near
    assert any(t >= 0xC0 for t in tokens)  # the last 8 bytes from 313 back: far
    assert lz.unpack(packed) == data


def test_the_same_input_packs_to_the_same_bytes() -> None:
    data = bytes(i * 7 % 13 for i in range(5000))
    assert lz.pack(data) == lz.pack(bytes(data))


@pytest.mark.parametrize(
    ("stream", "reason"),
    [
        (b"\x05", "starts with its length"),
        (b"\x05\x00\x04AB", "inside a token"),
        (b"\x02\x00\x80\x00", "before the start"),
        (b"\x02\x00\x02ABC", "runs past"),
    ],
)
def test_damaged_streams_say_why(stream: bytes, reason: str) -> None:
    with pytest.raises(lz.PackError, match=reason):
        lz.unpack(stream)


def test_too_large() -> None:
    with pytest.raises(lz.PackError, match="at most 65535"):
        lz.pack(bytes(70000))
