"""The token values of Atari BASIC revision C, as data.

A tokenized line is a byte string: statement tokens (0x00-0x37) open each statement,
operator tokens (0x0E-0x3C) and function tokens (0x3D-0x54) fill expressions, and
bytes 0x80-0xFF name variables (0x80 + index in the variable name table). The tables
below are in token order, because BASIC's keyword search walks them in that order:
the first entry that matches wins (``L.`` is LIST, not LET, because LIST comes first).
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
#: The statement token of a line BASIC could not parse (its raw text follows).
TOK_SYNTAX_ERROR: Final = 0x37

#: Operator tokens and how LIST spells them. Several tokens share a spelling: the
#: context (assignment or comparison, number or string, array or function) picks the
#: token when tokenizing; the spelling is the same when listing.
OPERATORS: Final[dict[int, str]] = {
    0x12: ",", 0x13: "$", 0x14: ":", 0x15: ";", 0x16: "",
    0x17: "GOTO", 0x18: "GOSUB", 0x19: "TO", 0x1A: "STEP", 0x1B: "THEN", 0x1C: "#",
    0x1D: "<=", 0x1E: "<>", 0x1F: ">=", 0x20: "<", 0x21: ">", 0x22: "=",
    0x23: "^", 0x24: "*", 0x25: "+", 0x26: "-", 0x27: "/",
    0x28: "NOT", 0x29: "OR", 0x2A: "AND", 0x2B: "(", 0x2C: ")",
    0x2D: "=", 0x2E: "=",
    0x2F: "<=", 0x30: "<>", 0x31: ">=", 0x32: "<", 0x33: ">", 0x34: "=",
    0x35: "+", 0x36: "-",
    0x37: "(", 0x38: "", 0x39: "", 0x3A: "(", 0x3B: "(", 0x3C: ",",
}  # fmt: skip

TOK_NUMBER: Final = 0x0E
TOK_STRING: Final = 0x0F
TOK_COMMA: Final = 0x12
TOK_COLON: Final = 0x14
TOK_SEMICOLON: Final = 0x15
TOK_EOL: Final = 0x16
TOK_ON_GOTO: Final = 0x17
TOK_ON_GOSUB: Final = 0x18
TOK_TO: Final = 0x19
TOK_STEP: Final = 0x1A
TOK_THEN: Final = 0x1B
TOK_HASH: Final = 0x1C
TOK_ASSIGN_NUMBER: Final = 0x2D
TOK_ASSIGN_STRING: Final = 0x2E
TOK_OPEN_PAREN: Final = 0x2B
TOK_CLOSE_PAREN: Final = 0x2C
TOK_UNARY_PLUS: Final = 0x35
TOK_UNARY_MINUS: Final = 0x36
TOK_NOT: Final = 0x28
TOK_STRING_PAREN: Final = 0x37
TOK_ARRAY_PAREN: Final = 0x38
TOK_DIM_ARRAY_PAREN: Final = 0x39
TOK_FUNCTION_PAREN: Final = 0x3A
TOK_DIM_STRING_PAREN: Final = 0x3B
TOK_ARRAY_COMMA: Final = 0x3C

#: Binary operators on numbers, by spelling: 0x1D-0x2A except NOT (0x28), a unary one.
NUMERIC_OPERATORS: Final[dict[str, int]] = {
    OPERATORS[token]: token for token in range(0x1D, 0x2B) if token != TOK_NOT
}

#: Comparisons of two strings, by spelling (the result is a number): 0x2F-0x34.
STRING_COMPARISONS: Final[dict[str, int]] = {OPERATORS[token]: token for token in range(0x2F, 0x35)}

#: Functions in token order, starting at FIRST_FUNCTION_TOKEN.
FUNCTIONS: Final[tuple[str, ...]] = (
    "STR$", "CHR$", "USR", "ASC", "VAL", "LEN", "ADR", "ATN", "COS", "PEEK", "SIN",
    "RND", "FRE", "EXP", "LOG", "CLOG", "SQR", "SGN", "ABS", "INT", "PADDLE", "STICK",
    "PTRIG", "STRIG",
)  # fmt: skip
FIRST_FUNCTION_TOKEN: Final = 0x3D
FUNCTION_TOKEN: Final[dict[str, int]] = {
    name: FIRST_FUNCTION_TOKEN + index for index, name in enumerate(FUNCTIONS)
}
#: Functions that return a string; all others return a number.
STRING_FUNCTIONS: Final[frozenset[str]] = frozenset({"STR$", "CHR$"})
#: Functions whose argument is a string; USR takes one or more numbers.
STRING_ARGUMENT_FUNCTIONS: Final[frozenset[str]] = frozenset({"ASC", "VAL", "LEN", "ADR"})

#: Operator tokens LIST surrounds with blanks (words, so they stay separate words).
WORD_OPERATORS: Final[frozenset[int]] = frozenset(
    {TOK_ON_GOTO, TOK_ON_GOSUB, TOK_TO, TOK_STEP, TOK_THEN, TOK_NOT, 0x29, 0x2A}
)

#: Variable tokens are 0x80 + index, so a program has at most 128 variables.
FIRST_VARIABLE_TOKEN: Final = 0x80
MAX_VARIABLES: Final = 128


def token_spelling(token: int) -> str:
    """How LIST spells an operator or function token (not a statement token)."""
    if token >= FIRST_FUNCTION_TOKEN:
        return FUNCTIONS[token - FIRST_FUNCTION_TOKEN]
    return OPERATORS[token]
