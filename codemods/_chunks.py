"""Rewrite a module one top-level statement at a time.

LibCST parses in native code but builds, walks and prints its tree in Python:
a pass over a whole 8 KB scorer file costs about 30 ms, which is what its own
no-op codemod spends per file. A codemod here rewrites a few functions of a
file, so `Chunks` cuts the text at its top-level statements with ``ast`` (in
C), and LibCST parses only the chunks a codemod asks for.

A chunk is one top-level statement with the lines LibCST gives it: the blank
lines and comments above it, and the lines below an indented block that are
indented like the block (LibCST's block footer). So each chunk parses on
its own as a module, its statements are exactly the ones LibCST would put
there, and a chunk nobody rewrote keeps its text byte for byte.
"""

import ast
import re
from collections.abc import Callable, Iterable

import libcst as cst

_LINE = re.compile(r"[^\n]*\n|[^\n]+$")
_Block = list[ast.stmt]


class Chunks:
    """A module's text cut at its top-level statements.

    Args:
        text: The module's source.
        tree: Its ``ast`` tree, if already parsed (it is not changed).

    Raises:
        SyntaxError: If the text does not parse.
    """

    def __init__(self, text: str, tree: ast.Module | None = None) -> None:
        self.original = text
        self.tree = tree or ast.parse(text)
        self.newline = "\r\n" if "\r\n" in text else "\n"
        lines = _LINE.findall(text)
        self.texts: list[str] = []
        self.statements: list[list[ast.stmt]] = []
        self._modules: dict[int, cst.Module] = {}
        # chunks still as parsed: their first line number and their lines
        self._pristine: dict[int, tuple[int, list[str]]] = {}
        start = 0
        old_mac = "\r" in text.replace("\r\n", "")
        groups = [] if old_mac else _line_groups(self.tree.body)
        for position, group in enumerate(groups):
            following = groups[position + 1] if position + 1 < len(groups) else None
            stop = _first_line(following[0]) if following else len(lines) + 1
            end = _owned_end(group[-1], lines, stop)
            self._pristine[len(self.texts)] = (start + 1, lines[start:end])
            self.texts.append("".join(lines[start:end]))
            self.statements.append(group)
            start = end
        if not self.texts:
            # no statements, or line ends ast counts differently: one chunk,
            # whose ast positions cannot be found in its text
            self.texts, self.statements = [text], [list(self.tree.body)]
            self._pristine = {} if old_mac else {0: (1, lines)}
        else:
            self.texts[-1] += "".join(lines[start:])
            self._pristine[len(self.texts) - 1][1].extend(lines[start:])

    @property
    def text(self) -> str:
        """The module's current text."""
        return "".join(self.texts)

    def find(
        self, wanted: Callable[[ast.stmt], bool], mentions: Iterable[str] = ()
    ) -> list[int]:
        """The chunks holding a top-level statement for which `wanted` is true.

        Args:
            wanted: The test of one top-level statement.
            mentions: If given, only chunks whose text holds one of these
                strings are tested (a cheap filter before walking the tree).
        """
        mentions = list(mentions)
        return [
            index
            for index, group in enumerate(self.statements)
            if (not mentions or any(m in self.texts[index] for m in mentions))
            and any(wanted(statement) for statement in group)
        ]

    def module(self, index: int) -> cst.Module:
        """The chunk as a LibCST module (parsed once, until replaced)."""
        if index not in self._modules:
            self._modules[index] = cst.parse_module(self.texts[index])
        return self._modules[index]

    def replace(self, index: int, module: cst.Module) -> None:
        """Put a rewritten chunk in place of the old one."""
        self._modules[index] = module
        self.texts[index] = module.code
        self._pristine.pop(index, None)

    def splice(self, index: int, edits: list[tuple[ast.AST, str]]) -> None:
        """Replace the source of ``ast`` nodes in an unchanged chunk with new text.

        Args:
            index: The chunk, as parsed (no earlier rewrite).
            edits: Nodes of `tree` inside the chunk, none overlapping, each
                with the text that replaces its source.
        """
        text = self.texts[index]
        spans = [
            (
                self._offset(index, node, end=False),
                self._offset(index, node, end=True),
                new,
            )
            for node, new in edits
        ]
        for start, end, new in sorted(spans, reverse=True):
            text = text[:start] + new + text[end:]
        self.texts[index] = text
        self._modules.pop(index, None)
        self._pristine.pop(index, None)

    def spliceable(self, index: int) -> bool:
        """Whether ``ast`` positions still find text in the chunk (`splice`)."""
        return index in self._pristine

    def source(self, index: int, node: ast.AST) -> str:
        """The source text of an ``ast`` node inside an unchanged chunk."""
        return self.texts[index][
            self._offset(index, node, end=False) : self._offset(index, node, end=True)
        ]

    def _offset(self, index: int, node: ast.AST, end: bool) -> int:
        """Where an ``ast`` position (its column in UTF-8 bytes) is in the chunk."""
        line = node.end_lineno if end else node.lineno
        column = node.end_col_offset if end else node.col_offset
        first, lines = self._pristine[index]  # KeyError: the chunk was rewritten
        row = line - first
        before = sum(len(text) for text in lines[:row])
        return before + len(lines[row].encode("utf-8")[:column].decode("utf-8"))

    def transform(self, indexes: Iterable[int], transformer: cst.CSTVisitorT) -> None:
        """Visit each chunk in `indexes` with `transformer`, in order."""
        for index in indexes:
            self.replace(index, self.module(index).visit(transformer))

    def insert_after(self, index: int, text: str, statements: list[ast.stmt]) -> None:
        """Insert new statements (their text and tree) after chunk `index`."""
        self.texts.insert(index + 1, text)
        self.statements.insert(index + 1, statements)
        self._pristine = {
            (i + 1 if i > index else i): kept for i, kept in self._pristine.items()
        }
        self._modules = {
            (i + 1 if i > index else i): module for i, module in self._modules.items()
        }


def _line_groups(body: _Block) -> list[_Block]:
    """Top-level statements, grouped when they share a line (``a = 1; b = 2``)."""
    groups: list[_Block] = []
    for statement in body:
        if groups and _first_line(statement) <= groups[-1][-1].end_lineno:
            groups[-1].append(statement)
        else:
            groups.append([statement])
    return groups


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(d.lineno for d in decorators)])


def _owned_end(statement: ast.stmt, lines: list[str], stop: int) -> int:
    """The number of lines up to the end of what LibCST gives `statement`.

    After an indented block, LibCST keeps every line up to the last one
    indented like the block (a comment or blank: its footer); the rest belongs
    to what follows.
    """
    end = statement.end_lineno
    indent = _block_indent(statement, lines)
    if indent is None:
        return end
    last = end
    for number in range(end, stop - 1):
        line = lines[number]
        if line.startswith(indent):  # a comment or a blank line, indented
            last = number + 1
    return last


def _block_indent(statement: ast.stmt, lines: list[str]) -> str | None:
    """The indentation of a compound statement's last block; None if it has none."""
    block = _last_block(statement, lines)
    if not block:
        return None
    first = block[0]
    line = lines[first.lineno - 1].encode("utf-8")
    prefix = line[: first.col_offset].decode("utf-8")
    return prefix if prefix and not prefix.strip() else None


def _last_block(statement: ast.stmt, lines: list[str]) -> _Block:
    if isinstance(statement, ast.If) and statement.orelse:
        (elif_,) = statement.orelse if _is_elif(statement.orelse, lines) else (None,)
        return _last_block(elif_, lines) if elif_ else statement.orelse
    if isinstance(statement, ast.Try | ast.TryStar):
        handlers = statement.handlers[-1].body if statement.handlers else []
        return statement.finalbody or statement.orelse or handlers or statement.body
    if isinstance(statement, ast.Match):
        return statement.cases[-1].body
    if isinstance(statement, ast.For | ast.AsyncFor | ast.While):
        return statement.orelse or statement.body
    return getattr(statement, "body", [])


def _is_elif(orelse: _Block, lines: list[str]) -> bool:
    first = orelse[0]
    if len(orelse) != 1 or not isinstance(first, ast.If):
        return False
    line = lines[first.lineno - 1].encode("utf-8")
    return line[first.col_offset :].startswith(b"elif")
