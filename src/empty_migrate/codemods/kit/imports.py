"""Add and remove ``from module import name`` lines, cheaply, as text.

LibCST's ``AddImportsVisitor`` and ``RemoveImportsVisitor`` resolve scopes and
qualified names over the whole module, which costs most of a second per file;
the codemods only ever add a few names from known modules and drop an import
they made unused. ``ast`` finds the import statements, by the rules of
`empty_migrate.analysis.syntax`, and each is edited in its chunk's text: new names join
the first ``from module import ...`` line of their module, or a new line goes
after the last top-level import (else after the docstring, else before the
first statement); the target's isort (run by the runner) then puts everything
in its place.

An edited import line keeps what it starts with (``from module import (``) and
what follows its last name (a comment, the closing parenthesis). Joined names
are separated by ``, ``; a line that loses names keeps the separators (and
their comments) after the names that stay. Either way its trailing comma goes,
so isort does not keep a one-name-a-line layout made for other names.
"""

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from empty_migrate.analysis.syntax import import_bindings, imports_from, is_docstring
from empty_migrate.codemods.kit.base import Skip
from empty_migrate.codemods.kit.chunks import Chunks

Import = ast.Import | ast.ImportFrom


def add_imports(chunks: Chunks, imports: Iterable[tuple[str, str]]) -> None:
    """Ensure each ``(module, name)`` is imported with ``from module import name``.

    Raises:
        Skip: If the module has lone carriage-return line ends (no positions).
    """
    wanted: dict[str, list[str]] = {}
    for source, name in imports:
        if not _imported_at_top(chunks, source, name):
            names = wanted.setdefault(source, [])
            if name not in names:
                names.append(name)
    new_lines = []
    for source, names in wanted.items():
        found = _first_import_from(chunks, source)
        if found is None:
            new_lines.append(f"from {source} import {', '.join(names)}")
            continue
        index, statement = found
        line = _ImportLine.read(chunks, index, statement)
        chunks.edit(index, [(*line.span, line.joined(names))])
    if new_lines:
        _insert_imports(chunks, new_lines)


def add_module_import(chunks: Chunks, module: str) -> None:
    """Ensure ``import module`` is a top-level statement of the module."""
    if not any(
        binding.name is None and binding.local == binding.module == module
        for group in chunks.statements
        for statement in group
        for binding in import_bindings(statement)
    ):
        _insert_imports(chunks, [f"import {module}"])


def remove_unused_imports(chunks: Chunks, names: Iterable[str]) -> None:
    """Drop top-level imports of `names` that the module no longer uses.

    A name counts as used where the code reads it, and where a string names
    it (``__all__``, a string annotation), so an import is never dropped
    while something still needs it. A statement that loses every name goes
    with its line; a chunk that loses every statement goes with its comments
    (the first chunk keeps the module's header).
    """
    unused = set(names) - _used_names(ast.parse(chunks.text))
    for index, group in list(enumerate(chunks.statements)):
        dropping = [s for s in group if isinstance(s, Import) and _binds(s, unused)]
        if not dropping:
            continue
        lines = [_ImportLine.read(chunks, index, s) for s in dropping]
        if all(not line.kept(unused) for line in lines) and len(lines) == len(group):
            chunks.edit(index, [_without_statements(chunks, index)])
            continue
        edits = []
        for statement, line in zip(dropping, lines, strict=True):
            if line.kept(unused):
                edits.append((*line.span, line.without(unused)))
            else:
                edits.append(_without_statement(chunks, index, group, statement))
        chunks.edit(index, edits)


class NeededImports:
    """The ``from module import name`` imports a rewrite needs, in first-use order.

    A codemod records them while it builds new code, and adds them to the
    module at the end (`add_imports`).
    """

    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []

    def add(self, module: str, name: str) -> None:
        """Record that the new code uses ``name`` from ``module``."""
        if (module, name) not in self.items:
            self.items.append((module, name))


@dataclass(frozen=True)
class _ImportLine:
    """The text of one import statement, cut at its names.

    Attributes:
        span: Where the statement is in its chunk.
        prefix: Its text before the first name (``from m import (``).
        names: Each imported name as written (``a as b``).
        separators: The text between each name and the next: the comma, the
            blanks and comments after it.
        tail: What follows the last name, less a trailing comma and what
            that comma is followed by before the closing parenthesis.
    """

    span: tuple[int, int]
    prefix: str
    names: list[str]
    separators: list[str]
    tail: str
    locals: list[str]

    @classmethod
    def read(cls, chunks: Chunks, index: int, statement: Import) -> "_ImportLine":
        """Cut an import statement of chunk `index`.

        Raises:
            Skip: If the module has lone carriage-return line ends.
        """
        _require_positions(chunks)
        text = chunks.texts[index]
        start, end = chunks.span(index, statement)
        spans = [chunks.span(index, alias) for alias in statement.names]
        rest = text[spans[-1][1] : end]
        trailing_comma = rest.lstrip(" \t\f\\\r\n").startswith(",")
        return cls(
            span=(start, end),
            prefix=text[start : spans[0][0]],
            names=[text[a:b] for a, b in spans],
            separators=[text[b:a] for (_, b), (a, _) in pairwise(spans)],
            tail=rest[rest.rindex(")") :] if trailing_comma else rest,
            locals=[binding.local for binding in import_bindings(statement)],
        )

    def joined(self, added: list[str]) -> str:
        """The statement with `added` names after its own."""
        return self.prefix + ", ".join([*self.names, *added]) + self.tail

    def kept(self, unused: set[str]) -> list[int]:
        """The positions of the names that stay when `unused` go."""
        return [i for i, local in enumerate(self.locals) if local not in unused]

    def without(self, unused: set[str]) -> str:
        """The statement without the names that bind `unused` locals."""
        *kept, last = self.kept(unused)
        names = "".join(self.names[i] + self.separators[i] for i in kept)
        return self.prefix + names + self.names[last] + self.tail


def _imported_at_top(chunks: Chunks, source: str, name: str) -> bool:
    """Whether a top-level ``from source import name`` binds `name` itself."""
    return any(
        (binding.module, binding.name, binding.local) == (source, name, name)
        for group in chunks.statements
        for statement in group
        for binding in import_bindings(statement)
    )


def _first_import_from(
    chunks: Chunks, source: str
) -> tuple[int, ast.ImportFrom] | None:
    """The first top-level ``from source import ...`` and its chunk."""
    for index, group in enumerate(chunks.statements):
        for statement in group:
            if imports_from(statement, source):
                return index, statement
    return None


def _insert_imports(chunks: Chunks, statements: list[str]) -> None:
    """Put new import lines after the last top-level import (or docstring).

    With neither, they go before the first statement, after the comments
    that head the module.
    """
    block = "".join(statement + chunks.newline for statement in statements)
    position = _after_imports(chunks)
    if position > 0 and len(chunks.texts) > 1:
        chunks.insert_after(position - 1, block)
        return
    # at the top, or a module in one chunk: inside the first chunk
    _require_positions(chunks)
    text = chunks.texts[0]
    start, end = chunks.statement_lines(0)
    at = end if position > 0 else start
    if at == len(text) and not text.endswith(("\n", "\r")):
        # a last line without its line end keeps going without one
        block = (chunks.newline if text else "") + block.removesuffix(chunks.newline)
    chunks.edit(0, [(at, at, block)])


def _after_imports(chunks: Chunks) -> int:
    """The chunk a new import goes before: after imports, or the docstring."""
    position = 0
    for index, group in enumerate(chunks.statements):
        if any(isinstance(s, Import) for s in group):
            position = index + 1
        elif index == 0 and len(group) == 1 and is_docstring(group[0]):
            position = 1
    return position


def _without_statements(chunks: Chunks, index: int) -> tuple[int, int, str]:
    """The edit that deletes a chunk's statements, with their lines.

    A statement's comments go with it, except the module's header: those
    above the first chunk's statement (and the footer below the last's).
    """
    if index > 0:
        return 0, len(chunks.texts[index]), ""
    return *chunks.statement_lines(0), ""


def _without_statement(
    chunks: Chunks, index: int, group: list[ast.stmt], statement: ast.stmt
) -> tuple[int, int, str]:
    """The edit that deletes one of the statements sharing a line.

    It takes the ``;`` after it, or (the last on its line) none.
    """
    start, end = chunks.span(index, statement)
    following = group[group.index(statement) + 1 :]
    if following:
        end = chunks.span(index, following[0])[0]
    return start, end, ""


def _require_positions(chunks: Chunks) -> None:
    if not chunks.positioned:
        raise Skip("lone carriage-return line ends: edit the imports by hand")


def _binds(statement: Import, names: set[str]) -> bool:
    """Whether the statement imports one of `names` (a ``*`` import names none)."""
    return any(binding.local in names for binding in import_bindings(statement))


def _used_names(tree: ast.Module) -> set[str]:
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            used |= _names_in_string(node.value)
    return used


def _names_in_string(text: str) -> set[str]:
    if text.isidentifier():
        return {text}
    if len(text) > 200 or "\n" in text:
        return set()
    try:
        expression = ast.parse(text, mode="eval")
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(expression) if isinstance(n, ast.Name)}
