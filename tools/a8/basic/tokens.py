"""The token values of Atari BASIC revision C, and its two name tables, as data.

A tokenized line is a byte string: statement tokens (0x00-0x37) open each statement,
operator tokens (0x10-0x3C) and function tokens (0x3D-0x54) fill expressions, 0x0E
and 0x0F introduce numeric and string constants, and bytes 0x80-0xFF name variables
(0x80 + index in the variable name table).

BASIC keeps two name tables, searched in order by ENTER (the first entry that matches
wins) and printed from by LIST:

* the statement name table, one entry per statement token; ENTER accepts ``.`` in
  place of the rest of a name (``L.`` is LIST because LIST comes before LET);
* the operator name table, one entry per token from 0x10 up, operators and functions
  alike; several tokens share a spelling (``=`` assigns or compares, ``(`` opens an
  expression, a subscript or a function's argument): ENTER's search finds the first,
  and the syntax tables change it to the token the context needs.

ENTER compares only the low seven bits of what was typed, so inverse-video letters and
signs match too. The table entries below are those seven bits; entry 0x16, the end of
a line, is stored by BASIC as 0x9B, which is how LIST prints it.
"""

from __future__ import annotations

from typing import Final

#: Statement keywords in token order (token = index). ``GO TO`` really contains a blank.
STATEMENTS: Final[tuple[str, ...]] = (
    "REM", "DATA", "INPUT", "COLOR", "LIST", "ENTER", "LET", "IF", "FOR", "NEXT",
    "GOTO", "GO TO", "GOSUB", "TRAP", "BYE", "CONT", "COM", "CLOSE", "CLR", "DEG",
    "DIM", "END", "NEW", "OPEN", "LOAD", "SAVE", "STATUS", "NOTE", "POINT", "XIO",
    "ON", "POKE", "PRINT", "RAD", "READ", "RESTORE", "RETURN", "RUN", "STOP", "POP",
    "?", "GET", "PUT", "GRAPHICS", "PLOT", "POSITION", "DOS", "DRAWTO", "SETCOLOR",
    "LOCATE", "SOUND", "LPRINT", "CSAVE", "CLOAD",
)  # fmt: skip

#: Token of a statement keyword.
STATEMENT_TOKEN: Final[dict[str, int]] = {name: token for token, name in enumerate(STATEMENTS)}

TOK_REM: Final = 0x00
TOK_DATA: Final = 0x01
TOK_IF: Final = 0x07
#: The statement token of an assignment written without LET (LIST prints nothing).
TOK_IMPLIED_LET: Final = 0x36
#: The statement token of a line BASIC could not read: its text follows, as typed.
TOK_SYNTAX_ERROR: Final = 0x37
#: How LIST names the two statement tokens that have no keyword. The table entry of
#: the error token is "ERROR-" and two blanks; LIST adds a third after every name.
IMPLIED_LET_NAME: Final = ""
SYNTAX_ERROR_NAME: Final = "ERROR-  "

FIRST_OPERATOR: Final = 0x10

#: The operator name table from token 0x10 on (seven-bit characters, see above).
#: 0x10 and 0x11 are internal markers that only bytes 0x02/0x82 and 0x00/0x80 match;
#: 0x38 and 0x39 (the "(" of an array and of DIM) are unprintable, so LIST shows
#: nothing for them.
OPERATOR_NAMES: Final[tuple[bytes, ...]] = (
    b"\x02", b"\x00", b",", b"$", b":", b";", b"\x1b", b"GOTO", b"GOSUB", b"TO",
    b"STEP", b"THEN", b"#", b"<=", b"<>", b">=", b"<", b">", b"=", b"^", b"*", b"+",
    b"-", b"/", b"NOT", b"OR", b"AND", b"(", b")", b"=", b"=", b"<=", b"<>", b">=",
    b"<", b">", b"=", b"+", b"-", b"(", b"\x00", b"\x00", b"(", b"(", b",",
    b"STR$", b"CHR$", b"USR", b"ASC", b"VAL", b"LEN", b"ADR", b"ATN", b"COS", b"PEEK",
    b"SIN", b"RND", b"FRE", b"EXP", b"LOG", b"CLOG", b"SQR", b"SGN", b"ABS", b"INT",
    b"PADDLE", b"STICK", b"PTRIG", b"STRIG",
)  # fmt: skip
LAST_TOKEN: Final = FIRST_OPERATOR + len(OPERATOR_NAMES) - 1

TOK_NUMBER: Final = 0x0E
TOK_STRING: Final = 0x0F
TOK_COMMA: Final = 0x12
TOK_COLON: Final = 0x14
TOK_SEMICOLON: Final = 0x15
#: The end of a line in an expression statement; LIST prints it as 0x9B.
TOK_EOL: Final = 0x16
TOK_ON_GOTO: Final = 0x17
TOK_ON_GOSUB: Final = 0x18
TOK_TO: Final = 0x19
TOK_STEP: Final = 0x1A
TOK_THEN: Final = 0x1B
TOK_HASH: Final = 0x1C
TOK_LE: Final = 0x1D
TOK_NE: Final = 0x1E
TOK_GE: Final = 0x1F
TOK_LT: Final = 0x20
TOK_GT: Final = 0x21
TOK_EQ: Final = 0x22
TOK_CARET: Final = 0x23
TOK_STAR: Final = 0x24
TOK_PLUS: Final = 0x25
TOK_MINUS: Final = 0x26
TOK_SLASH: Final = 0x27
TOK_NOT: Final = 0x28
TOK_OR: Final = 0x29
TOK_AND: Final = 0x2A
TOK_OPEN_PAREN: Final = 0x2B
TOK_CLOSE_PAREN: Final = 0x2C
TOK_ASSIGN_NUMBER: Final = 0x2D
TOK_ASSIGN_STRING: Final = 0x2E
TOK_STRING_LE: Final = 0x2F
TOK_STRING_NE: Final = 0x30
TOK_STRING_GE: Final = 0x31
TOK_STRING_LT: Final = 0x32
TOK_STRING_GT: Final = 0x33
TOK_STRING_EQ: Final = 0x34
TOK_UNARY_PLUS: Final = 0x35
TOK_UNARY_MINUS: Final = 0x36
TOK_STRING_PAREN: Final = 0x37
TOK_ARRAY_PAREN: Final = 0x38
TOK_DIM_ARRAY_PAREN: Final = 0x39
TOK_FUNCTION_PAREN: Final = 0x3A
TOK_DIM_STRING_PAREN: Final = 0x3B
TOK_ARRAY_COMMA: Final = 0x3C

FIRST_FUNCTION_TOKEN: Final = 0x3D
#: Functions in token order, from FIRST_FUNCTION_TOKEN.
FUNCTIONS: Final[tuple[str, ...]] = tuple(
    name.decode("ascii") for name in OPERATOR_NAMES[FIRST_FUNCTION_TOKEN - FIRST_OPERATOR :]
)
FUNCTION_TOKEN: Final[dict[str, int]] = {
    name: FIRST_FUNCTION_TOKEN + index for index, name in enumerate(FUNCTIONS)
}
#: From here on the functions take and return numbers (ATN ... STRIG); the syntax
#: tables accept any of them where they ask for this one.
FIRST_NUMERIC_FUNCTION: Final = FUNCTION_TOKEN["ATN"]

#: Variable tokens are 0x80 + index, so a program has at most 128 variables.
FIRST_VARIABLE_TOKEN: Final = 0x80
MAX_VARIABLES: Final = 128


def operator_name(token: int) -> bytes:
    """The operator name table's entry of a token 0x10..0x54 (seven-bit characters)."""
    return OPERATOR_NAMES[token - FIRST_OPERATOR]


def listed_name(name: bytes) -> bytes:
    """How LIST prints a table entry: the end-of-line entry as 0x9B, other characters
    with bit 7 cleared, and characters that are then zero not at all."""
    if name == b"\x1b":
        return b"\x9b"
    return name.replace(b"\x00", b"")
