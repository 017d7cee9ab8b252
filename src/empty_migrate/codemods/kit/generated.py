"""Text this package generates into a target: its own modules' source, formatted.

The router module and the emitted tests' helpers are this package's own
source under a module docstring written for the target (`with_docstring`): once
installed they are the target's own modules, and say nothing of this package.
`module_source` reads a module without importing it
(importing the router would import inspect_ai); `ruff_clean` formats a text as
ruff does by default and keeps the result in the user cache
(`empty_migrate.target.kept`), since it is the same on every run until the
source changes.
"""

import ast
import subprocess
import tokenize
from importlib.util import find_spec
from pathlib import Path

from empty_migrate.analysis.syntax import is_docstring
from empty_migrate.target.kept import keep, key_of, recall
from empty_migrate.target.ruff import installed_ruff


def module_source(module: str) -> str:
    """The source text of one of this package's modules, found, not imported.

    Raises:
        ModuleNotFoundError: If the module has no source file.
    """
    spec = find_spec(module)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"{module} is not installed with a source file")
    return Path(spec.origin).read_text(encoding="utf-8")


def with_docstring(source: str, docstring: str) -> str:
    """`source` with its module docstring replaced by `docstring`, a string literal.

    Raises:
        ValueError: If `source` has no module docstring.
    """
    lines = source.splitlines(keepends=True)
    first = _first_statement(lines)
    if first is None or not is_docstring(first) or first.end_lineno is None:
        raise ValueError("the module has no docstring to replace")
    rest = lines[first.end_lineno :]
    return docstring.rstrip("\n") + "\n" + "".join(rest)


def _first_statement(lines: list[str]) -> ast.stmt | None:
    """The first statement of a module, parsed alone: its first logical line.

    A module's docstring is a simple statement, so it ends its logical line;
    parsing that line, not the whole module, is what reading it costs. None
    if the module has no statement.
    """
    tokens = tokenize.generate_tokens(iter(lines).__next__)
    end = next((t.end[0] for t in tokens if t.type == tokenize.NEWLINE), len(lines))
    body = ast.parse("".join(lines[:end])).body
    return body[0] if body else None


def ruff_clean(text: str) -> str:
    """Sort imports and format as ruff does by default (the target's settings).

    The result is kept in the user cache, keyed by the text and the ruff
    version: two ruff processes cost more CPU than the rest of a one-eval
    run's rewriting.
    """
    ruff = installed_ruff()
    key = key_of(ruff.version, text)
    cached = recall("generated", key)
    if isinstance(cached, str):
        return cached
    for args in (["check", "--select", "I", "--fix", "--quiet"], ["format", "--quiet"]):
        text = subprocess.run(
            [*ruff.command, *args, "--isolated", "-"],
            input=text,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    keep("generated", key, text)
    return text
