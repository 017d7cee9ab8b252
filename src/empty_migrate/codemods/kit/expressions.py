"""Expressions as source text: where an ``ast`` node is, with its parentheses.

The codemods that wrap a scorer expression keep its source byte for byte and
write the new code around it. ``ast`` says where a node is (in UTF-8 bytes
per line) but leaves out the parentheses around it, which belong to the
expression as written: ``(grader)`` stays ``(grader)``. `Located` turns those
positions into string indexes, here and in each chunk of ``kit/chunks``.
"""

import ast
import re
from collections.abc import Iterable

from empty_migrate.analysis.syntax import Positioned, end_of

LINE = re.compile(r"[^\n]*\n|[^\n]+$")
"""A line of a text with its end (a last line may have none); ``\r\n`` ends one."""
_BLANK = " \t\r\n\f"


def spliced(text: str, changes: Iterable[tuple[int, int, str]]) -> str:
    """The text with spans replaced: ``(start, end, new text)``, none overlapping."""
    for start, end, new in sorted(changes, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def parse_expression(text: str) -> ast.expr:
    """The ``ast`` of one expression's source.

    Raises:
        SyntaxError: If `text` is not one expression.
    """
    return ast.parse(text, mode="eval").body


class Located:
    """A text, and where its ``ast`` nodes are in it (as string indexes)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] = []
        self._lines = LINE.findall(text)
        offset = 0
        for line in self._lines:
            self._starts.append(offset)
            offset += len(line)

    def index(self, line: int, column: int) -> int:
        """The string index of an ``ast`` line (from 1) and UTF-8 byte column.

        A line past the text's last is its end.
        """
        if line > len(self._lines):
            return len(self.text)
        text = self._lines[line - 1]
        return self._starts[line - 1] + len(text.encode("utf-8")[:column].decode())

    def span(self, node: Positioned) -> tuple[int, int]:
        """Where `node` is, without the parentheses around it."""
        return self.index(node.lineno, node.col_offset), self.index(*end_of(node))

    def source(self, node: Positioned, inside: tuple[int, int]) -> str:
        """The source of `node` with the parentheses around it that lie `inside`."""
        start, end = self.enclosed(node, inside)
        return self.text[start:end]

    def enclosed(self, node: Positioned, inside: tuple[int, int]) -> tuple[int, int]:
        """Where `node` is with the parentheses around it that lie `inside`.

        Args:
            node: A node of the text's tree.
            inside: The span the parentheses may take: the room between the
                brackets of the call or list the node is an element of (a
                call's own parentheses are not the element's).
        """
        start, end = self.span(node)
        low, high = inside
        while True:
            before = self._skip_back(start, low)
            after = self._skip_forward(end, high)
            if before <= low or after >= high:
                break
            if self.text[before - 1] != "(" or self.text[after] != ")":
                break
            start, end = before - 1, after + 1
        return start, end

    def _skip_back(self, index: int, low: int) -> int:
        while index > low and self.text[index - 1] in _BLANK:
            index -= 1
        return index

    def _skip_forward(self, index: int, high: int) -> int:
        while index < high and self.text[index] in _BLANK:
            index += 1
        return index


def call_room(located: Located, call: ast.Call) -> tuple[int, int]:
    """The room between a call's own parentheses, where its arguments are."""
    after_func = located.span(call.func)[1]
    opening = located.text.index("(", after_func)
    return opening + 1, located.span(call)[1] - 1


def bracket_room(located: Located, node: ast.List | ast.ListComp) -> tuple[int, int]:
    """The room between a list's brackets, where its elements are."""
    start, end = located.span(node)
    return start + 1, end - 1
