"""wrap_router: wrap each registered scorer construct with the outcome router.

For a ``@scorer`` factory or a shared helper, every ``return`` of the function
itself (not of the nested ``score`` coroutine) is wrapped; for a
``Task(scorer=...)`` construct, the ``scorer=`` value inside the named function
is wrapped (each element, if it is a list). Where ``scorer=`` names a local
variable the function assigns, each value assigned to it is wrapped instead, so
a list built by a comprehension gets each of its scorers routed; a variable
built up in place (``append``, ``+=``) is a skip. The router's arguments are the
eval's registry values, written out explicitly. Already-routed expressions,
including calls through any alias of the router or of its module, are left
alone, so the codemod is idempotent, on its own output unformatted too.
Unsafe: non-answers get new score values.

One path does it all: ``ast`` finds each ``return`` and ``scorer=`` keyword,
the router call is written around the expression's own source, and the new
text replaces the old (`Chunks.splice`), so the rest of the file keeps its
bytes.
"""

import ast
import re
from collections.abc import Mapping, Sequence

from empty_migrate.analysis.package_index import package_of
from empty_migrate.analysis.syntax import (
    Function,
    Imports,
    blocks,
    defines,
    imports_of,
    last_name,
    outer_functions,
)
from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from empty_migrate.codemods.kit.chunks import Chunks
from empty_migrate.codemods.kit.expressions import (
    Located,
    bracket_room,
    parse_expression,
    spliced,
)
from empty_migrate.codemods.kit.imports import NeededImports, add_imports
from empty_migrate.codemods.kit.router_call import is_router_call, router_call
from empty_migrate.entries.schema import Resolved


class WrapRouter(Codemod):
    """Wrap registered scorers with ``route_empty_responses``."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not self.applies(target):
            return []
        return sorted({target.source(s.file) for s in target.routed_scorers()})

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        relative = path.removeprefix("src/inspect_evals/")
        scorers = [s for s in target.routed_scorers() if s.file == relative]
        jobs = {s.name: (s.construct, target.settings(s)) for s in scorers}
        chunks = Chunks(text, target.workspace.parse(text))
        wrap = _Wrap(NeededImports(), imports_of(chunks.tree, package_of(relative)))
        found, wrapped = set(), set()
        for index in chunks.find(lambda s: defines(s, set(jobs)), mentions=jobs):
            if not chunks.positioned:
                raise Skip(f"{relative}: lone carriage-return line ends; wrap by hand")
            edits = []
            for function in _functions(chunks, index, jobs):
                found.add(function.name)
                kind, settings = jobs[function.name]
                sites = _scorer_sites(function, kind)
                wrapped |= {function.name} if sites else set()
                edits += [wrap.edit(chunks, index, site, settings) for site in sites]
            chunks.splice(index, [edit for edit in edits if edit is not None])
        add_imports(chunks, wrap.imports.items)
        if missing := set(jobs) - found:
            raise Skip(f"{', '.join(sorted(missing))}: not found in {relative}")
        if unwrapped := set(jobs) - wrapped:
            raise Skip(f"{', '.join(sorted(unwrapped))}: no scorer expression to wrap")
        return chunks.text


Site = ast.Return | ast.keyword | ast.Assign
"""Where a scorer expression is: a factory's ``return``, ``Task(scorer=...)``,
or the assignment of the variable ``scorer=`` names."""

_LEAD = {
    ast.Return: re.compile(r"return(?:[ \t]|\\\r?\n)*"),
    ast.keyword: re.compile(r"scorer(?:[ \t]|\\\r?\n)*=(?:[ \t]|\\\r?\n)*"),
    ast.Assign: re.compile(r"\w+(?:[ \t]|\\\r?\n)*=(?:[ \t]|\\\r?\n)*"),
}
"""The text before the expression: the keyword, blanks and line continuations."""


def _functions(
    chunks: Chunks, index: int, jobs: Mapping[str, tuple[str, Resolved]]
) -> list[Function]:
    """The job functions a chunk defines, outside any other function."""
    return [
        function
        for statement in chunks.statements[index]
        for function in outer_functions(statement)
        if function.name in jobs
    ]


def _scorer_sites(function: Function, kind: str) -> Sequence[Site]:
    """The returns of a factory, or the ``scorer=`` keywords of a task's Task calls.

    Raises:
        Skip: If a factory has a bare ``return``.
    """
    if kind != "task_scorer":
        returns = _returns(function.body)
        if any(r.value is None for r in returns):
            raise Skip(f"{function.name}: a bare return has no scorer to wrap")
        return returns
    nodes = _own_nodes(function)
    keywords = [
        keyword
        for call in nodes
        if isinstance(call, ast.Call) and last_name(call.func) == "Task"
        for keyword in call.keywords
        if keyword.arg == "scorer"
    ]
    return [site for keyword in keywords for site in _assigned(keyword, nodes)]


def _assigned(keyword: ast.keyword, nodes: list[ast.AST]) -> list[Site]:
    """The assignments of the variable ``scorer=`` names, else the keyword itself.

    A variable the function never assigns (a parameter) is wrapped where it is
    passed, as any other expression.

    Raises:
        Skip: If the variable is built up in place, where no one value holds
            every scorer.
    """
    if not isinstance(keyword.value, ast.Name):
        return [keyword]
    name = keyword.value.id
    if any(_grows(node, name) for node in nodes):
        raise Skip(f"scorer={name}: {name} is built up in place; wrap by hand")
    assignments: list[Site] = [
        node
        for node in nodes
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == name
    ]
    return sorted(assignments, key=lambda node: node.lineno) or [keyword]


def _grows(node: ast.AST, name: str) -> bool:
    """Whether `node` adds to the variable `name` in place (``append``, ``+=``)."""
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return isinstance(node.target, ast.Name) and node.target.id == name
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("append", "extend", "insert")
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == name
    )


def _own_nodes(function: Function) -> list[ast.AST]:
    """The nodes of a function, without those of the functions defined in it."""
    found, stack = [], list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if not isinstance(node, Function):
            found.append(node)
            stack.extend(ast.iter_child_nodes(node))
    return found


class _Wrap:
    """Builds the router call for one scorer expression, and the imports it needs."""

    def __init__(self, imports: NeededImports, imported: Imports) -> None:
        self.imports = imports
        self.imported = imported

    def edit(
        self, chunks: Chunks, index: int, site: Site, settings: Resolved
    ) -> tuple[Site, str] | None:
        """The new text of a site, or None if it is already routed."""
        source = chunks.source(index, site)
        lead = _LEAD[type(site)].match(source)
        if lead is None:  # a site's text always starts with what `_LEAD` matches
            raise ValueError(f"no {type(site).__name__} lead in {source!r}")
        text = source[lead.end() :]
        expression = parse_expression(text)
        if isinstance(site, ast.Return):
            new = self.wrapped(text, expression, settings)
        elif isinstance(expression, ast.List | ast.ListComp):
            new = self._elements(Located(text), expression, settings)
        else:
            new = self.wrapped(text, expression, settings)
        if new is None:
            return None
        return site, lead.group(0) + new

    def _elements(
        self, located: Located, listed: ast.List | ast.ListComp, settings: Resolved
    ) -> str | None:
        """The list with each element (or the comprehension's) wrapped."""
        room = bracket_room(located, listed)
        elements = listed.elts if isinstance(listed, ast.List) else [listed.elt]
        edits = []
        for element in elements:
            inner = element.value if isinstance(element, ast.Starred) else element
            start, end = located.enclosed(inner, room)
            new = self.wrapped(located.text[start:end], inner, settings)
            if new is not None:
                edits.append((start, end, new))
        return spliced(located.text, edits) if edits else None

    def wrapped(self, source: str, node: ast.expr, settings: Resolved) -> str | None:
        """The expression in a router call; None if it already calls the router."""
        if is_router_call(node, self.imported):
            return None
        return router_call(self.imports, source, settings)


def _returns(block: list[ast.stmt]) -> list[ast.Return]:
    """The ``return`` statements of a function body, not of functions inside it."""
    found = []
    for statement in block:
        if isinstance(statement, ast.Return):
            found.append(statement)
        elif not isinstance(
            statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        ):
            found += [r for inner in blocks(statement) for r in _returns(inner)]
    return found
