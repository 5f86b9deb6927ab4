"""Atari BASIC listings and tokenized programs.

``tokenize(text) -> bytes`` turns a listing into the SAVE file Atari BASIC rev C
writes after ENTER; ``list_program(bytes) -> text`` prints a SAVE file the way LIST
does. Errors are :class:`BasicSyntaxError` (:class:`RejectedLines` for a listing,
with every line BASIC rejects), :class:`NotAListingError` and
:class:`CorruptProgramError`, all :class:`~a8.errors.A8Error` subclasses with a
one-line message.
"""

from a8.basic.atascii import Encoding
from a8.basic.convert import list_program, tokenize
from a8.basic.errors import (
    BasicSyntaxError,
    CorruptProgramError,
    EncodingError,
    NotAListingError,
    NumberError,
    RejectedLines,
)

__all__ = [
    "BasicSyntaxError",
    "CorruptProgramError",
    "Encoding",
    "EncodingError",
    "NotAListingError",
    "NumberError",
    "RejectedLines",
    "list_program",
    "tokenize",
]
