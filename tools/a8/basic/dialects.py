"""Programs for the extended BASICs of the Atari 8-bit, recognised by their tokens.

Turbo-BASIC XL and OSS BASIC XL/XE save programs in Atari BASIC's format, with the
same tokens for what Atari BASIC has and more tokens after them: statement tokens
from 0x38 on, operator and function tokens from 0x55 on. Genuine Atari BASIC LOADs
such a file and prints nonsense for the new tokens; ``a8 list`` says what the file is
instead. Turbo-BASIC XL's token names (facts from its documentation) let the message
name the statement or function met first.
"""

from __future__ import annotations

from typing import Final

#: Turbo-BASIC XL's statements from token 0x38 on.
TURBO_BASIC_STATEMENTS: Final[tuple[str, ...]] = (
    "DPOKE", "MOVE", "-MOVE", "*F", "REPEAT", "UNTIL", "WHILE", "WEND", "ELSE", "ENDIF",
    "BPUT", "BGET", "FILLTO", "DO", "LOOP", "EXIT", "DIR", "LOCK", "UNLOCK", "RENAME",
    "DELETE", "PAUSE", "TIME$=", "PROC", "EXEC", "ENDPROC", "FCOLOR", "*L", "--", "RENUM",
    "DEL", "DUMP", "TRACE", "TEXT", "BLOAD", "BRUN", "GO#", "#", "*B", "PAINT", "CLS",
    "DSOUND", "CIRCLE", "%PUT", "%GET",
)  # fmt: skip
FIRST_EXTRA_STATEMENT: Final = 0x38

#: Turbo-BASIC XL's operators and functions from token 0x55 on.
TURBO_BASIC_OPERATORS: Final[tuple[str, ...]] = (
    "DPEEK", "&", "!", "INSTR", "INKEY$", "EXOR", "HEX$", "DEC", "DIV", "FRAC", "TIME$",
    "TIME", "MOD", "EXEC", "RND", "RAND", "TRUNC", "%0", "%1", "%2", "%3", "GO#",
    "UINSTR", "ERR", "ERL",
)  # fmt: skip
FIRST_EXTRA_OPERATOR: Final = 0x55


def foreign_token(token: int, *, statement: bool) -> str:
    """What to say about a token Atari BASIC does not have (a statement token, or one
    inside an expression): one sentence naming the likely dialect."""
    names, first = (
        (TURBO_BASIC_STATEMENTS, FIRST_EXTRA_STATEMENT)
        if statement
        else (TURBO_BASIC_OPERATORS, FIRST_EXTRA_OPERATOR)
    )
    kind = "statement" if statement else "operator or function"
    if first <= token < first + len(names):
        return (
            f"{kind} token ${token:02X} is not Atari BASIC's: this is a Turbo-BASIC XL "
            f"program ({names[token - first]}) or one for BASIC XL/XE, which Atari BASIC "
            "cannot list"
        )
    return f"{kind} token ${token:02X} is neither Atari BASIC's nor Turbo-BASIC XL's"
