"""Where the judge calls the scan found run: inside a routed scorer, or not.

Read-only ``ast`` analysis of one eval package. A call runs inside the
top-level definition (function, class or module-level name) that holds it. A
definition that is not a scorer, solver or task runs wherever it is
referenced, so its references are followed until each reaches one of those
(a *root*), or nothing (``unreferenced``). Names are matched across the
package by identifier, which over-approximates the callers: a name shared by
two definitions only adds roots, so the check can only get stricter.
"""

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from empty_migrate.analysis.findings import Finding
from empty_migrate.analysis.package_index import package_of
from empty_migrate.analysis.scan import PACKAGE_ROOT, judge_called
from empty_migrate.analysis.syntax import (
    Function,
    decorated_kind,
    definition_names,
    imports_of,
    last_name,
)
from empty_migrate.analysis.workspace import Workspace

MODULE = "<module>"
ROUTED = {"wrapped", "blind"}
"""Root kinds whose judge never sees a non-answer: routed, or blind to the output."""


@dataclass
class Definition:
    """A top-level definition, and where in it a ``Task(...)`` call's args are."""

    file: str
    name: str
    node: ast.AST
    task_scorer_args: list[ast.AST] = field(default_factory=list)
    task_other_args: list[ast.AST] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.name} ({self.file})"

    def slot(self, node: ast.AST) -> str:
        """``scorer`` inside ``Task(scorer=...)``, ``other`` in another Task arg."""
        if any(_within(node, arg) for arg in self.task_scorer_args):
            return "scorer"
        if any(_within(node, arg) for arg in self.task_other_args):
            return "other"
        return ""


@dataclass(frozen=True)
class Reference:
    """A use of a name, in the definition that holds it."""

    holder: Definition
    node: ast.AST


class PackageIndex:
    """Every top-level definition of an eval package and every use of a name."""

    def __init__(self, workspace: Workspace, package: str) -> None:
        self.definitions: dict[tuple[str, str], Definition] = {}
        self.references: dict[str, list[Reference]] = {}
        self.trees: dict[str, ast.Module] = {}
        self._generate: list[tuple[Definition, ast.Call]] = []
        for path in workspace.python_files((PACKAGE_ROOT / package).as_posix()):
            relative = path.removeprefix(f"{PACKAGE_ROOT.as_posix()}/")
            if is_test_file(relative):
                continue
            try:
                tree = workspace.parse(workspace.read(path))
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            self.trees[relative] = tree
            for statement in tree.body:
                self._add(relative, statement)

    def _add(self, file: str, statement: ast.stmt) -> None:
        # one walk of the statement feeds the references, the Task(...)
        # arguments and the .generate() calls
        holders = []
        for name in definition_names(statement) or [MODULE]:
            self.definitions.setdefault((file, name), Definition(file, name, statement))
            holders.append(self.definitions[(file, name)])
        uses, tasks = [], []
        for node in ast.walk(statement):
            if used := _used_name(node):
                uses.append((used, node))
            if isinstance(node, ast.Call):
                if call_name(node) == "Task":
                    tasks.append(node)
                if _is_generate(node):
                    self._generate.append((holders[0], node))
        for held in holders:
            for task in tasks:
                _add_task_args(task, held)
            for used, node in uses:
                self.references.setdefault(used, []).append(Reference(held, node))

    def holder(self, finding: Finding) -> tuple[Definition, ast.Call] | None:
        """The definition holding a scan finding, and the call node itself."""
        tree = self.trees.get(finding.file)
        for statement in tree.body if tree else []:
            for node in ast.walk(statement):
                if (
                    isinstance(node, ast.Call)
                    and node.lineno == finding.line
                    and self.judge(finding.file, node)
                ):
                    name = definition_names(statement) or [MODULE]
                    return self.definitions[(finding.file, name[0])], node
        return None

    def judge(self, file: str, call: ast.Call) -> str | None:
        """The judge a call of `file` makes (`scan.judge_called`), if any."""
        return judge_called(imports_of(self.trees[file], package_of(file)), call)

    def generate_calls(self) -> Iterator[tuple[Definition, ast.Call]]:
        """Every ``<model>.generate(...)`` call, with the definition holding it."""
        yield from self._generate

    def callers(self, definition: Definition) -> Iterator[Reference]:
        """The uses of a definition's name outside the definition itself."""
        for reference in self.references.get(definition.name, []):
            if reference.holder is not definition:
                yield reference


def is_test_file(relative: str) -> bool:
    """Test code shipped inside an eval package: it never runs in an eval."""
    *folders, name = relative.split("/")
    return "tests" in folders or name.startswith("test_") or name == "conftest.py"


def _used_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_generate(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Attribute) and node.func.attr == "generate"


def call_name(node: ast.Call) -> str:
    """The called name: ``get_model`` for ``inspect_model.get_model(...)``."""
    return last_name(node.func)


def _add_task_args(call: ast.Call, held: Definition) -> None:
    for keyword in call.keywords:
        slots = (
            held.task_scorer_args if keyword.arg == "scorer" else held.task_other_args
        )
        slots.append(keyword.value)
    held.task_other_args += call.args


def _within(node: ast.AST, outer: ast.AST) -> bool:
    start, end = _span(node)
    outer_start, outer_end = _span(outer)
    return outer_start <= start and end <= outer_end


def _span(node: ast.AST) -> tuple[tuple[int, int], tuple[int, int]]:
    def at(line: str, column: str) -> tuple[int, int]:
        return getattr(node, line, None) or 0, getattr(node, column, None) or 0

    return at("lineno", "col_offset"), at("end_lineno", "end_col_offset")


def ancestors(statement: ast.AST, node: ast.AST) -> list[ast.AST]:
    """The nodes (outermost first) between `statement` and `node`, both excluded."""
    chain: list[ast.AST] = []
    current = statement
    while True:
        inner = next(
            (
                child
                for child in ast.iter_child_nodes(current)
                if hasattr(child, "lineno") and _within(node, child)
            ),
            None,
        )
        if inner is None or inner is node:
            return chain
        chain.append(inner)
        current = inner


def enclosing_functions(statement: ast.AST, node: ast.AST) -> list[Function]:
    """The functions (outermost first) that hold `node` inside `statement`."""
    return [n for n in ancestors(statement, node) if isinstance(n, Function)]


@dataclass(frozen=True, order=True)
class Root:
    """Where a definition's code ends up running: a scorer, a solver, a task..."""

    kind: str
    """``wrapped``, ``blind`` (a scorer that never reads the model's output),
    ``scorer`` (not wrapped), ``solver``, ``task``, ``module`` or
    ``unreferenced``."""
    where: str


class Reach:
    """Follows references from a call site up to the roots it runs under.

    Args:
        index: The package's definitions and references.
        constructs: Registered scorer constructs, ``(file, name)`` to ``wrapped``,
            ``task_scorer`` (wrapped), ``blind``, ``scorer`` (not wrapped) or
            ``helper`` (wrapped through another construct: follow its uses).
    """

    def __init__(
        self, index: PackageIndex, constructs: dict[tuple[str, str], str]
    ) -> None:
        self.index = index
        self.constructs = constructs

    def roots(
        self,
        definition: Definition,
        node: ast.AST,
        seen: frozenset[int] = frozenset(),
        callee: Definition | None = None,
    ) -> set[Root]:
        """The roots a node inside `definition` runs under.

        Args:
            definition: The top-level definition holding `node`.
            node: A judge call, or a use of `callee`'s name.
            seen: Definitions already on the path (cycles add nothing).
            callee: The definition `node` refers to, when following a use.
        """
        if root := self._root(definition, node, callee):
            return {root}
        seen |= {id(definition)}
        found: set[Root] = set()
        for reference in self.index.callers(definition):
            if id(reference.holder) not in seen:
                found |= self.roots(reference.holder, reference.node, seen, definition)
        if self.constructs.get((definition.file, definition.name)) == "helper":
            # a registered scorer left unwrapped runs unwrapped, unless only
            # routed scorers use it
            unrouted = Root("scorer", str(definition))
            return {r if r.kind in ROUTED else unrouted for r in found or [unrouted]}
        return found or {Root("unreferenced", str(definition))}

    def _root(
        self, definition: Definition, node: ast.AST, callee: Definition | None
    ) -> Root | None:
        construct = self.constructs.get((definition.file, definition.name))
        if construct == "task_scorer":
            # wrap_router wraps the Task's scorer= expression, and so a scorer
            # built elsewhere in the function and passed in by a variable; a
            # helper that builds the whole Task is out of its reach
            slot = definition.slot(node)
            helper = callee is not None and not self._is_scorer(callee)
            task = slot == "other" or (helper and not slot)
            return Root("task" if task else "wrapped", str(definition))
        if construct == "helper":
            return None
        if construct:
            return Root(construct, str(definition))
        for function in reversed(enclosing_functions(definition.node, node)):
            if kind := decorated_kind(function.decorator_list):
                return Root(kind, f"{function.name} in {definition}")
        if definition.name == MODULE:
            return Root("module", definition.file)
        if kind := decorated_kind(getattr(definition.node, "decorator_list", [])):
            return Root(kind, str(definition))
        return None

    def _is_scorer(self, definition: Definition) -> bool:
        decorators = getattr(definition.node, "decorator_list", [])
        construct = self.constructs.get((definition.file, definition.name))
        registered = construct not in (None, "task_scorer")
        return registered or decorated_kind(decorators) == "scorer"
