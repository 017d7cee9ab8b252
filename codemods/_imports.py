"""Add and remove ``from module import name`` lines, cheaply.

LibCST's ``AddImportsVisitor`` and ``RemoveImportsVisitor`` resolve scopes and
qualified names over the whole module, which costs most of a second per file;
the codemods only ever add a few names from known modules and drop an import
they made unused. New names join an existing ``from module import ...`` line,
or a new line goes after the last top-level import; the target's isort (run by
the runner) then puts everything in its place.
"""

import ast
from collections.abc import Iterable

import libcst as cst

from empty_migrate.codemods._chunks import Chunks
from empty_migrate.syntax import imports_from


def add_imports(chunks: Chunks, imports: Iterable[tuple[str, str]]) -> None:
    """Ensure each ``(module, name)`` is imported with ``from module import name``.

    A name joins the first ``from module import ...`` line of its module (only
    that chunk is parsed); a module not imported yet gets a new line after the
    last top-level import, or after the docstring.
    """
    wanted: dict[str, list[str]] = {}
    for source, name in imports:
        if not _chunks_import_name(chunks, source, name):
            names = wanted.setdefault(source, [])
            if name not in names:
                names.append(name)
    new_lines = []
    for source, names in wanted.items():
        holders = chunks.find(lambda s, source=source: imports_from(s, source))
        if holders:
            index = holders[0]
            body = _merged(list(chunks.module(index).body), source, names)
            chunks.replace(index, chunks.module(index).with_changes(body=body))
        else:
            new_lines.append(f"from {source} import {', '.join(names)}")
    if new_lines:
        _insert_imports(chunks, new_lines)


def add_module_import(chunks: Chunks, module: str) -> None:
    """Ensure ``import module`` is in a module held as `Chunks`."""
    if not any(
        isinstance(statement, ast.Import)
        and any(a.name == module and a.asname is None for a in statement.names)
        for statement in chunks.tree.body
    ):
        _insert_imports(chunks, [f"import {module}"])


def _insert_imports(chunks: Chunks, statements: list[str]) -> None:
    """Put new import lines after the last top-level import (or docstring)."""
    text = "".join(statement + chunks.newline for statement in statements)
    position = _chunks_after_imports(chunks)
    if position > 0 and len(chunks.texts) > 1:
        chunks.insert_after(position - 1, text, ast.parse(text).body)
        return
    # at the top, or a module in one chunk: after its imports or docstring
    module = chunks.module(0)
    body = list(module.body)
    at = _after_imports(body)
    new = [cst.parse_statement(s + chunks.newline) for s in statements]
    chunks.replace(0, module.with_changes(body=[*body[:at], *new, *body[at:]]))
    chunks.statements[0] = [*ast.parse(text).body, *chunks.statements[0]]


def remove_unused_imports(chunks: Chunks, names: Iterable[str]) -> None:
    """Drop top-level imports of `names` that the module no longer uses.

    A name counts as used where the code reads it, and where a string names
    it (``__all__``, a string annotation), so an import is never dropped
    while something still needs it.
    """
    unused = set(names) - _used_names(ast.parse(chunks.text))
    for index, group in enumerate(chunks.statements):
        if not any(_binds(statement, unused) for statement in group):
            continue
        module = chunks.module(index)
        body = [
            kept
            for statement in module.body
            if (kept := _without_locals(statement, unused)) is not None
        ]
        if not body and index > 0:
            # the statement's comments and blank lines go with it, as LibCST
            # drops a statement's leading lines (the first chunk's are the
            # module's header, which stays)
            empty = module.with_changes(header=(), body=(), has_trailing_newline=False)
            chunks.replace(index, empty)
        else:
            chunks.replace(index, module.with_changes(body=body))


def _binds(statement: ast.stmt, names: set[str]) -> bool:
    if not isinstance(statement, ast.Import | ast.ImportFrom):
        return False
    return any((a.asname or a.name.split(".")[0]) in names for a in statement.names)


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


def _chunks_import_name(chunks: Chunks, source: str, name: str) -> bool:
    return any(
        imports_from(statement, source)
        and any(a.name == name and a.asname is None for a in statement.names)
        for statement in chunks.tree.body
    )


def _chunks_after_imports(chunks: Chunks) -> int:
    """`_after_imports` over chunks: the chunk index a new import goes before."""
    position = 0
    for index, group in enumerate(chunks.statements):
        if any(isinstance(s, ast.Import | ast.ImportFrom) for s in group):
            position = index + 1
        elif index == 0 and _docstring_chunk(chunks, group):
            position = 1
    return position


def _docstring_chunk(chunks: Chunks, group: list[ast.stmt]) -> bool:
    string = ast.Constant | ast.JoinedStr
    if len(group) != 1 or not isinstance(group[0], ast.Expr):
        return False
    return isinstance(group[0].value, string) and is_docstring(chunks.module(0).body[0])


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


def _import_from(statement: cst.CSTNode, source: str) -> cst.ImportFrom | None:
    if not isinstance(statement, cst.SimpleStatementLine):
        return None
    for small in statement.body:
        if (
            isinstance(small, cst.ImportFrom)
            and small.module is not None
            and not small.relative
            and cst.helpers.get_full_name_for_node(small.module) == source
            and not isinstance(small.names, cst.ImportStar)
        ):
            return small
    return None


def _merged(
    body: list[cst.BaseStatement], source: str, names: list[str]
) -> list[cst.BaseStatement]:
    """`body` with `names` added to its first ``from source import ...``."""
    for index, statement in enumerate(body):
        found = _import_from(statement, source)
        if found is not None:
            aliases = [
                a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in found.names
            ]
            aliases += [cst.ImportAlias(cst.Name(n)) for n in names]
            merged = found.with_changes(names=aliases)
            body[index] = statement.with_changes(body=[merged])
            return body
    raise ValueError(f"no import from {source} to add {names} to")


def _after_imports(body: list[cst.BaseStatement]) -> int:
    position = 0
    for index, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and any(
            isinstance(s, cst.Import | cst.ImportFrom) for s in statement.body
        ):
            position = index + 1
        elif index == 0 and is_docstring(statement):
            position = 1
    return position


def is_docstring(statement: cst.BaseStatement) -> bool:
    """Whether a statement is a docstring (a lone string expression)."""
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(
            statement.body[0].value, cst.SimpleString | cst.ConcatenatedString
        )
    )


def _without_locals(
    statement: cst.BaseStatement, unused: set[str]
) -> cst.BaseStatement | None:
    if not isinstance(statement, cst.SimpleStatementLine):
        return statement
    smalls = []
    for small in statement.body:
        if isinstance(small, cst.Import | cst.ImportFrom) and not isinstance(
            small.names, cst.ImportStar
        ):
            kept = [a for a in small.names if _local_name(a) not in unused]
            if not kept:
                continue
            if len(kept) != len(small.names):
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                small = small.with_changes(names=kept)
        smalls.append(small)
    if not smalls:
        return None
    return statement.with_changes(body=smalls)


def _local_name(alias: cst.ImportAlias) -> str:
    name = cst.helpers.get_full_name_for_node(alias.name) or ""
    return alias.evaluated_alias or name.split(".")[0]
