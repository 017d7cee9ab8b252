"""Citations of the target's code in registry prose, by symbol: ``path.py::name``.

Line numbers move with every release; a function's name rarely does. Prose in
an entry (``today``, notes, reasons) therefore cites code as ``path::symbol``,
pytest-style: ``path`` is relative to ``src/inspect_evals`` (or, failing that,
to the repository root, for a tool like ``tools/check_unlisted_evals.py``),
and ``symbol`` is a name the module defines as an attribute path from the
module: a function, a class, ``Class.method``, or a name assigned at module or
class level (a constant). A closure inside a function is cited by the function
that holds it.

One function per question: the citations a text holds (`symbol_citations`,
and the line citations it should no longer hold, `line_citations`); the
symbols a module defines, with their lines (`symbols`); the one holding some
lines (`enclosing_symbol`, which turns a line citation into a symbol
citation); the file a citation names in a tree (`cited_file`) and the symbols
it defines (`cited_symbols`), among which the citation's must be.
"""

import ast
import functools
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from empty_migrate.analysis import syntax
from empty_migrate.analysis.scan import PACKAGE_ROOT
from empty_migrate.analysis.syntax import blocks, definition_names, end_of, first_line
from empty_migrate.target.files import leaves_tree
from empty_migrate.target.kept import code_digest, keep, key_of, recall
from empty_migrate.target.text_files import source_text

_PATH = r"(?<![\w/.-])(?P<path>[\w.-]+(?:/[\w.-]+)*\.{extension})"
SYMBOL_CITATION = re.compile(
    _PATH.format(extension="py") + r"::(?P<symbol>\w+(?:\.\w+)*)"
)
"""``xstest/xstest.py::xstest_scorer``, ``judge.py::Judge.score``."""
LINE_CITATION = re.compile(
    _PATH.format(extension=r"(?:py|yaml|md|json|txt)") + r":\d+(?:-\d+)?"
    r"|\blines? \d+(?:-\d+)?"
)
"""``xstest/xstest.py:99-106`` or ``line 108``: the lines it meant soon move."""


@dataclass(frozen=True)
class Citation:
    """One symbol citation: a module (from ``src/inspect_evals``) and a name in it."""

    path: str
    symbol: str

    def __str__(self) -> str:
        return f"{self.path}::{self.symbol}"


@dataclass(frozen=True)
class Symbol:
    """A name a module defines, with the lines of its definition (decorators too)."""

    name: str
    first: int
    last: int


def symbol_citations(text: str) -> list[Citation]:
    """Every ``path::symbol`` citation in `text`, in order."""
    return [
        Citation(m.group("path"), m.group("symbol"))
        for m in SYMBOL_CITATION.finditer(text)
    ]


def line_citations(text: str) -> list[str]:
    """Every citation of lines in `text` (``file.py:12``, ``line 12``), as written."""
    return [match.group(0) for match in LINE_CITATION.finditer(text)]


@functools.cache
def symbols(text: str) -> tuple[Symbol, ...]:
    """The symbols a module's text defines, outer ones first; none if it does not parse.

    Functions and classes outside any function, with their qualified names
    (``Judge.score``), and the names assigned at module or class level. Kept
    in the user cache by the text: `registry validate` reads a few hundred
    modules, and parsing them is most of its cost.
    """
    key = key_of(_code(), text)
    kept = recall("symbols", key)
    if isinstance(kept, tuple) and all(isinstance(s, Symbol) for s in kept):
        return kept
    found = _parsed_symbols(text)
    keep("symbols", key, found)
    return found


@functools.cache
def _code() -> str:
    return code_digest([sys.modules[__name__], syntax])


def _parsed_symbols(text: str) -> tuple[Symbol, ...]:
    try:
        tree = syntax.parse_python(text)
    except (SyntaxError, ValueError):
        return ()
    return tuple(_named(tree.body, ()))


def _named(statements: Iterable[ast.stmt], outer: tuple[str, ...]) -> Iterator[Symbol]:
    for statement in statements:
        names = definition_names(statement)
        if not names:
            for block in blocks(statement):  # if/try at module or class level
                yield from _named(block, outer)
            continue
        first, last = first_line(statement), end_of(statement)[0]
        yield from (Symbol(".".join((*outer, name)), first, last) for name in names)
        # a function's own names are locals: only a class's body is walked
        if isinstance(statement, ast.ClassDef):
            yield from _named(statement.body, (*outer, statement.name))


def enclosing_symbol(text: str, first: int, last: int) -> str | None:
    """The innermost symbol whose definition holds lines `first` to `last`.

    None if no symbol holds them all (an import, a ``__main__`` block, or lines
    that run over the end of a definition).
    """
    holding = [s for s in symbols(text) if s.first <= first and last <= s.last]
    if not holding:
        return None
    return min(holding, key=lambda s: (s.last - s.first, -len(s.name))).name


def cited_file(root: Path, path: str) -> Path | None:
    """The file a citation's path names in the tree at `root`, if there is one.

    From ``src/inspect_evals`` first, then from the repository root; none
    for a path that leaves the tree (`leaves_tree`).
    """
    if leaves_tree(path):
        return None
    for base in (root / PACKAGE_ROOT, root):
        if (base / path).is_file():
            return base / path
    return None


def cited_symbols(root: Path, citation: Citation) -> list[str] | None:
    """The symbols of the file `citation` names in the tree at `root`.

    None if there is no such file; the citation resolves if its symbol is
    among them.

    Raises:
        NotUtf8: If the file is not UTF-8.
    """
    file = cited_file(root, citation.path)
    if file is None:
        return None
    return [symbol.name for symbol in symbols(source_text(file))]
