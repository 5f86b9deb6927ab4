"""Writing typed line nodes as the bytes of a tokenized line."""

from __future__ import annotations

from typing import Final

from a8.basic import nodes, tokens
from a8.basic.errors import BasicSyntaxError
from a8.basic.syntax import VariableTable

__all__ = ["MAX_TOKENIZED_LINE", "VariableTable", "encode_line"]

#: A tokenized line's length is one byte (the offset of the next line).
MAX_TOKENIZED_LINE: Final = 255


def encode_line(line: nodes.Line, variables: VariableTable) -> bytes:
    """The bytes of a line: its number, its length, then each statement: the offset
    of its end, its token and its elements, exactly as given (the ``:`` or end-of-line
    token that ends an expression statement is one of its elements; the text of REM,
    DATA and ERROR- statements is followed by 0x9B)."""
    body = bytearray()
    for statement in line.statements:
        start = len(body)
        body.append(0)  # end offset, patched below
        body.append(statement.token)
        for element in statement.elements:
            _encode_element(element, variables, body)
        if 3 + len(body) > MAX_TOKENIZED_LINE:
            raise BasicSyntaxError(f"line too long: more than {MAX_TOKENIZED_LINE} bytes tokenized")
        body[start] = 3 + len(body)
    return line.number.to_bytes(2, "little") + bytes([3 + len(body)]) + bytes(body)


def _encode_element(element: nodes.Element, variables: VariableTable, out: bytearray) -> None:
    if isinstance(element, nodes.Operator):
        out.append(element.token)
    elif isinstance(element, nodes.Variable):
        out.append(tokens.FIRST_VARIABLE_TOKEN + variables.index(element.name, element.column))
    elif isinstance(element, nodes.NumberConstant):
        out.append(tokens.TOK_NUMBER)
        out += element.value
    elif isinstance(element, nodes.StringConstant):
        if len(element.data) > 255:
            raise BasicSyntaxError("string constant longer than 255 characters")
        out.append(tokens.TOK_STRING)
        out.append(len(element.data))
        out += element.data
    else:
        out += element.data + b"\x9b"
