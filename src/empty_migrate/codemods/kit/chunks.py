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
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # LibCST loads only when a codemod rewrites through it
    import libcst as cst

from empty_migrate.analysis.syntax import Positioned, end_of, first_line, parse_python
from empty_migrate.codemods.kit.expressions import LINE, Located, spliced

_Block = list[ast.stmt]


class Chunks:
    """A module's text cut at its top-level statements.

    Every chunk keeps ``ast`` positions for its statements: the module's tree
    for a chunk as parsed, a tree of the chunk's own text (read again when
    first needed) after an edit. So ``ast`` finds what to change in any chunk,
    and the change is made to the text (`splice`, `edit`) or through LibCST
    (`module`, `replace`, `transform`), which is imported only then.

    Args:
        text: The module's source.
        tree: Its ``ast`` tree, if already parsed (it is not changed).

    Attributes:
        tree: The module's tree as parsed: for what the module held before
            any edit (its imports, its bindings).

    Raises:
        SyntaxError: If the text does not parse.
    """

    def __init__(self, text: str, tree: ast.Module | None = None) -> None:
        self.tree = tree or parse_python(text)
        self.newline = "\r\n" if "\r\n" in text else "\n"
        lines = LINE.findall(text)
        self.texts: list[str] = []
        self._statements: list[_Block | None] = []
        self._modules: dict[int, cst.Module] = {}
        # per chunk, the first line number its statements count from, and its
        # text's positions; a chunk edited since is missing until read again
        self._located: dict[int, tuple[int, Located]] = {}
        # lone carriage returns: line ends ast counts differently, so no
        # position can be found in the text
        self.positioned = "\r" not in text.replace("\r\n", "")
        start = 0
        firsts: list[int] = []
        groups = _line_groups(self.tree.body) if self.positioned else []
        for position, group in enumerate(groups):
            following = groups[position + 1] if position + 1 < len(groups) else None
            stop = first_line(following[0]) if following else len(lines) + 1
            end = _owned_end(group[-1], lines, stop)
            firsts.append(start + 1)
            self.texts.append("".join(lines[start:end]))
            self._statements.append(group)
            start = end
        if not self.texts:
            # no statements, or no positions: the module is one chunk
            self.texts, self._statements = [text], [list(self.tree.body)]
            firsts = [1] if self.positioned else []
        else:
            self.texts[-1] += "".join(lines[start:])
        self._located = {
            index: (first, Located(self.texts[index]))
            for index, first in enumerate(firsts)
        }

    @property
    def text(self) -> str:
        """The module's current text."""
        return "".join(self.texts)

    @property
    def statements(self) -> list[_Block]:
        """Each chunk's top-level statements, as its text now holds them."""
        for index in range(len(self.texts)):
            self._read_again(index)
        # every chunk was just read again: none is None
        return self._statements  # type: ignore[return-value]

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

    def module(self, index: int) -> "cst.Module":
        """The chunk as a LibCST module (parsed once, until replaced)."""
        if index not in self._modules:
            import libcst

            self._modules[index] = libcst.parse_module(self.texts[index])
        return self._modules[index]

    def replace(self, index: int, module: "cst.Module") -> None:
        """Put a rewritten chunk in place of the old one."""
        self._set(index, module.code)
        self._modules[index] = module

    def transform(
        self, indexes: Iterable[int], transformer: "cst.CSTTransformer"
    ) -> None:
        """Visit each chunk in `indexes` with `transformer`, in order."""
        for index in indexes:
            self.replace(index, self.module(index).visit(transformer))

    def span(self, index: int, node: Positioned) -> tuple[int, int]:
        """Where an ``ast`` node of the chunk's `statements` is in its text.

        Nodes of `tree` do as well while the chunk is as parsed.

        Raises:
            KeyError: If the module has no positions (not `positioned`).
        """
        return self.offset(index, node.lineno, node.col_offset), self.offset(
            index, *end_of(node)
        )

    def offset(self, index: int, line: int, column: int = 0) -> int:
        """Where an ``ast`` line and column (in UTF-8 bytes) is in the chunk's text.

        A line past the chunk's last is its end.
        """
        self._read_again(index)
        first, located = self._located[index]
        return located.index(line - first + 1, column)

    def statement_lines(self, index: int) -> tuple[int, int]:
        """Where the chunk's statements are in its text, as whole lines.

        From the start of the first one's first line (its decorators') to the
        end of the last one's last line. Above are the comments and blank lines
        LibCST gives the first statement (the module's header, in the first
        chunk); below, the block footer of a compound statement, and in the
        last chunk the module's footer. A chunk without statements is all
        header: both ends are its end.
        """
        group = self.statements[index]
        if not group:
            return len(self.texts[index]), len(self.texts[index])
        start = self.offset(index, first_line(group[0]))
        return start, self.offset(index, end_of(group[-1])[0] + 1)

    def source(self, index: int, node: Positioned) -> str:
        """The source text of an ``ast`` node of the chunk."""
        start, end = self.span(index, node)
        return self.texts[index][start:end]

    def splice(self, index: int, edits: Sequence[tuple[Positioned, str]]) -> None:
        """Replace the source of ``ast`` nodes of the chunk with new text.

        Args:
            index: The chunk.
            edits: Nodes of the chunk (see `span`), none overlapping, each
                with the text that replaces its source.
        """
        self.edit(index, [(*self.span(index, node), new) for node, new in edits])

    def edit(self, index: int, changes: list[tuple[int, int, str]]) -> None:
        """Replace spans of the chunk's text: ``(start, end, new text)``, apart."""
        self._set(index, spliced(self.texts[index], changes))

    def insert_after(self, index: int, text: str) -> None:
        """Insert a new chunk of statements after chunk `index`."""
        self.texts.insert(index + 1, text)
        self._statements.insert(index + 1, None)
        self._located = {
            (i + 1 if i > index else i): v for i, v in self._located.items()
        }
        self._modules = {
            (i + 1 if i > index else i): module for i, module in self._modules.items()
        }
        self._located.pop(index + 1, None)

    def _set(self, index: int, text: str) -> None:
        """Give a chunk new text; its statements are read again when needed."""
        self.texts[index] = text
        self._modules.pop(index, None)
        self._located.pop(index, None)
        self._statements[index] = None

    def _read_again(self, index: int) -> None:
        """Parse an edited chunk's text, for its statements and their positions."""
        if self._statements[index] is not None:
            return
        text = self.texts[index]
        self._statements[index] = ast.parse(text).body
        if self.positioned:
            self._located[index] = (1, Located(text))


def _line_groups(body: _Block) -> list[_Block]:
    """Top-level statements, grouped when they share a line (``a = 1; b = 2``)."""
    groups: list[_Block] = []
    for statement in body:
        if groups and first_line(statement) <= end_of(groups[-1][-1])[0]:
            groups[-1].append(statement)
        else:
            groups.append([statement])
    return groups


def _owned_end(statement: ast.stmt, lines: list[str], stop: int) -> int:
    """The number of lines up to the end of what LibCST gives `statement`.

    After an indented block, LibCST keeps every line up to the last one
    indented like the block (a comment or blank: its footer); the rest belongs
    to what follows.
    """
    end = end_of(statement)[0]
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
