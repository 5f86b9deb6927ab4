"""Writing typed line nodes as the bytes of a tokenized line."""

from __future__ import annotations

from typing import Final

from a8.basic import nodes, tokens
from a8.basic.errors import BasicSyntaxError

#: A tokenized line's length is one byte (the offset of the next line).
MAX_TOKENIZED_LINE: Final = 255


class VariableTable:
    """Variable names in order of first appearance; a name's index is its token - 0x80."""

    def __init__(self, names: list[str] | None = None) -> None:
        self.names: list[str] = list(names or [])
        self._index = {name: index for index, name in enumerate(self.names)}

    def index(self, name: str, column: int = 0) -> int:
        """The index of ``name``, adding it if new (raises when all 128 are used;
        ``column`` is where the name stands, for the error)."""
        found = self._index.get(name)
        if found is not None:
            return found
        if len(self.names) >= tokens.MAX_VARIABLES:
            raise BasicSyntaxError(
                f"too many variables (at most {tokens.MAX_VARIABLES})", column=column
            )
        self._index[name] = len(self.names)
        self.names.append(name)
        return len(self.names) - 1


def encode_line(line: nodes.Line, variables: VariableTable) -> bytes:
    """The bytes of a line: number, length, then each statement with its end offset."""
    body = bytearray()
    for number, statement in enumerate(line.statements):
        is_last = number == len(line.statements) - 1
        start = len(body)
        body.append(0)  # end offset, patched below
        body.append(statement.token)
        for element in statement.elements:
            _encode_element(element, variables, body)
        if is_last and not _ends_line_itself(statement):
            body.append(tokens.TOK_EOL)
        if 3 + len(body) > MAX_TOKENIZED_LINE:
            raise BasicSyntaxError(f"line too long: more than {MAX_TOKENIZED_LINE} bytes tokenized")
        body[start] = 3 + len(body)
    length = 3 + len(body)
    return line.number.to_bytes(2, "little") + bytes([length]) + bytes(body)


def _ends_line_itself(statement: nodes.Statement) -> bool:
    """REM and DATA text runs to the 0x9B; a bare ``IF ... THEN`` stores no EOL."""
    last = statement.elements[-1] if statement.elements else None
    return isinstance(last, nodes.RawText) or last == nodes.Operator(tokens.TOK_THEN)


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
