"""Find the model under test's output in the conditions of scorers and solvers.

Shared by ``replace_dead_check`` (which rewrites empty checks) and
``fix_reason_tag`` (which tags the scores returned behind them). Both act only
inside the registered scorer constructs of a file (``replace_dead_check`` also
inside ``@solver`` functions), and both read ``<state>.output`` as the model
under test's output only where the registry says it is there (``output:
state.output``): in air_bench's scorer it holds the judge's reply instead.

An output is ``.output`` on something named like a task state (``state``,
``s``, ``*state*``), as in the registry scan, or a local name bound only to
one. A completion is ``<output>.completion`` (optionally ``or ""``) or a name
bound only to one; a *derived* completion also allows whitespace normalisers
(``.strip()``, ``.splitlines()``), whose result is empty exactly when the text
is empty or blank. A value passed through any other function (an answer
extractor, a code-block parser) is not a completion: its emptiness is a format
failure, not a non-answer.

What a name holds follows `empty_migrate.analysis.syntax.scope_bindings`, the one
binding rule, over the ``ast`` tree: each function the rewrite enters is found
there by its qualified path, and a value is parsed by LibCST only when a check
reads it. Doing it the other way round (LibCST bindings for everyone) would
need LibCST trees of whole modules for the judge index and the module-level
questions, which the chunked parsing exists to avoid; and LibCST has no source
positions without a metadata pass that costs more than the parse.
"""

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeGuard

import libcst as cst

from empty_migrate.analysis.syntax import (
    UNKNOWN,
    Bindings,
    Definition,
    Function,
    QualifiedPath,
    end_of,
    is_output_of_state,
    is_solver,
    qualified_definitions,
    scope_bindings,
)
from empty_migrate.codemods.kit.base import EvalTarget
from empty_migrate.codemods.kit.chunks import Chunks
from empty_migrate.codemods.kit.imports import NeededImports, add_imports
from empty_migrate.codemods.kit.nodes import (
    is_attribute,
    is_empty_string,
    is_name,
)
from empty_migrate.entries.schema import ScorerEntry, resolve

NORMALIZERS = {"strip", "lstrip", "rstrip", "splitlines", "lower", "casefold"}
_ITSELF = cst.Name("itself")  # a name's own value, while it is being resolved

Read = Callable[[cst.BaseExpression], cst.BaseExpression | None]


def constructs(target: EvalTarget, relative: str) -> dict[str, bool]:
    """The registered scorer constructs defined in one file.

    ``rewrite: false`` keeps a scorer from being wrapped on its own, not from
    having its checks fixed: an inner scorer reached through a wrapped outer
    one (frontierscience's ``research_scorer``) still holds them.

    Returns:
        Construct name -> whether ``state.output`` holds the model under
        test's output in it (the registry's ``output`` is ``state.output`` in
        every task that uses it).
    """
    return {
        scorer.name: outputs(target, scorer) == {"state.output"}
        for scorer in target.scorers_in(relative)
    }


def outputs(target: EvalTarget, scorer: ScorerEntry) -> set[str]:
    """Where the scorer finds the model's output, over the tasks that use it."""
    tasks = target.entry.tasks_of(scorer)
    return {resolve(target.entry, task, scorer).output for task in tasks}


def construct_lines(tree: ast.Module, names: set[str]) -> list[range]:
    """The line ranges of the named functions and of ``@solver`` functions."""
    return [
        range(node.lineno, end_of(node)[0] + 1)
        for node in ast.walk(tree)
        if _acted_in(node, names, solvers=True)
    ]


def _acted_in(
    node: ast.AST, names: Iterable[str], solvers: bool
) -> TypeGuard[Function]:
    """Whether a node is a function named in `names`, or a solver if `solvers`."""
    return isinstance(node, Function) and (
        node.name in names or (solvers and is_solver(node))
    )


def run_command(command: "ConstructCommand", text: str, target: EvalTarget) -> str:
    """Run a command on a module's text, then add the imports it recorded.

    Only the chunks that define a function the command acts in are parsed.
    """
    chunks = Chunks(text, target.workspace.parse(text))
    command.prepare(chunks)
    mentions = [*command.constructs, *(["solver"] if command.solvers else [])]
    for index in chunks.find(command.may_act_in, mentions):
        command.enter_chunk(chunks, index)
        chunks.transform([index], command)
    add_imports(chunks, command.imports.items)
    return chunks.text


def direct_returns(suite: cst.BaseSuite) -> list[cst.Return]:
    """``return`` statements directly in a block (not in nested blocks)."""
    lines = suite.body if isinstance(suite, cst.IndentedBlock) else [suite]
    return [
        small
        for line in lines
        if isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite)
        for small in line.body
        if isinstance(small, cst.Return)
    ]


def is_score_call(node: cst.BaseExpression | None) -> TypeGuard[cst.Call]:
    """Whether the expression is a ``Score(...)`` construction."""
    return isinstance(node, cst.Call) and (
        is_name(node.func, "Score") or is_attribute(node.func, "Score")
    )


def returns_score(suite: cst.BaseSuite) -> bool:
    """Whether the block decides a score: it returns ``Score(...)`` directly."""
    return any(is_score_call(r.value) for r in direct_returns(suite))


@dataclass
class Frame:
    """One function being transformed: its bindings and how the codemod reads it.

    Attributes:
        bindings: Name -> the ``ast`` value of each of its bindings in the
            function (`UNKNOWN` where not ``name = value``).
        active: Whether the codemod acts in the function.
        mut_in_state: Whether ``state.output`` is the model under test's here.
    """

    bindings: Bindings
    active: bool
    mut_in_state: bool


class OutputReader:
    """Finds the model under test's output in expressions of the current function."""

    def __init__(
        self,
        frames: list[Frame],
        expression: Callable[[ast.expr], cst.BaseExpression],
    ) -> None:
        self.frames = frames
        self.expression = expression
        self.resolving: set[str] = set()

    def output(self, expr: cst.BaseExpression) -> cst.BaseExpression | None:
        """The output ``expr`` is or names, if it is the model under test's."""
        if not self.frames or not self.frames[-1].mut_in_state:
            return None
        if isinstance(expr, cst.Attribute):
            found = is_output_of_state(expr.attr.value, _name_of(expr.value))
            return expr if found else None
        # a name that holds the output is the output, spelled as the author does
        return expr if self._alias(expr, self.output) is not None else None

    def completion(self, expr: cst.BaseExpression) -> cst.BaseExpression | None:
        """The output whose raw completion ``expr`` is."""
        if is_attribute(expr, "completion"):
            return self.output(expr.value)
        if (
            isinstance(expr, cst.BooleanOperation)
            and isinstance(expr.operator, cst.Or)
            and is_empty_string(expr.right)
        ):
            return self.completion(expr.left)
        return self._alias(expr, self.completion)

    def derived(self, expr: cst.BaseExpression) -> cst.BaseExpression | None:
        """The output whose completion ``expr`` is, up to whitespace normalisers."""
        if (found := self.completion(expr)) is not None:
            return found
        func = expr.func if isinstance(expr, cst.Call) and not expr.args else None
        if isinstance(func, cst.Attribute) and func.attr.value in NORMALIZERS:
            return self.derived(func.value)
        return self._alias(expr, self.derived)

    def binding_frame(self, name: str) -> Frame | None:
        """The innermost frame that binds ``name``."""
        return next((f for f in reversed(self.frames) if name in f.bindings), None)

    def _alias(self, expr: cst.BaseExpression, read: Read) -> cst.BaseExpression | None:
        """What a name holds, if every assignment to it holds that.

        A name that reads itself (``answer = answer.strip()``) is taken to hold
        what its other assignments give it.
        """
        if not isinstance(expr, cst.Name):
            return None
        if expr.value in self.resolving:
            return _ITSELF
        frame = self.binding_frame(expr.value)
        values = frame.bindings[expr.value] if frame else []
        known = [value for value in values if value is not UNKNOWN]
        if len(known) < len(values):
            return None
        self.resolving.add(expr.value)
        try:
            found = [read(self.expression(value)) for value in known]
        finally:
            self.resolving.discard(expr.value)
        found = [f for f in found if f is not _ITSELF]
        return found[0] if found and None not in found else None


def _name_of(owner: cst.BaseExpression) -> str:
    """The last name of what an attribute is read from; "" if not a name."""
    name = owner.attr if isinstance(owner, cst.Attribute) else owner
    return name.value if isinstance(name, cst.Name) else ""


class ConstructCommand(cst.CSTTransformer):
    """A codemod command that tracks which function it is in, and whether to act.

    Subclasses act where ``self.active`` is true: inside a registered scorer
    construct of ``constructs`` (name -> whether ``state.output`` is the model
    under test's there), or inside a ``@solver`` when ``solvers`` is set.
    """

    def __init__(
        self, imports: NeededImports, constructs: dict[str, bool], solvers: bool
    ) -> None:
        super().__init__()
        # imports are recorded here and added by `run_command` (cheaply)
        self.imports = imports
        self.constructs = constructs
        self.solvers = solvers
        self.frames: list[Frame] = []
        self.reader = OutputReader(self.frames, self._expression)
        self.path: list[str] = []
        self.chunk = _Chunk()

    def prepare(self, chunks: Chunks) -> None:
        """Read what the command needs from the whole module, before any chunk.

        The base command needs nothing there: it reads each chunk as it enters
        it (`enter_chunk`).
        """

    def enter_chunk(self, chunks: Chunks, index: int) -> None:
        """Get ready to transform one chunk: its definitions, by qualified path."""
        self.chunk = _Chunk(chunks, index)
        for path, definition in qualified_definitions(chunks.statements[index]):
            self.chunk.definitions.setdefault(path, []).append(definition)

    def may_act_in(self, statement: ast.stmt) -> bool:
        """Whether a top-level statement defines a function the command acts in."""
        return any(
            _acted_in(node, self.constructs, self.solvers)
            for node in ast.walk(statement)
        )

    @property
    def active(self) -> bool:
        """Whether the current function is (inside) a construct to act on."""
        return bool(self.frames) and self.frames[-1].active

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        """Enter a class: its name joins the qualified path."""
        self.path.append(node.name.value)

    def leave_ClassDef(
        self, original: cst.ClassDef, updated: cst.ClassDef
    ) -> cst.ClassDef:
        """Leave a class."""
        self.path.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """Enter a function, with what its names hold and whether it is acted on."""
        outer = self.frames[-1] if self.frames else None
        self.path.append(node.name.value)
        functions = self.chunk.functions(tuple(self.path))
        if node.name.value in self.constructs:
            active, mut = True, self.constructs[node.name.value]
        elif self.solvers and any(is_solver(f) for f in functions):
            active, mut = True, True
        elif outer is not None:
            active, mut = outer.active, outer.mut_in_state
        else:
            active, mut = False, False
        self.frames.append(Frame(_merged_bindings(functions), active, mut))

    def leave_FunctionDef(
        self, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.FunctionDef:
        """Leave a function; rewrite it if it is acted on."""
        self.frames.pop()
        self.path.pop()
        return updated

    def _expression(self, value: ast.expr) -> cst.BaseExpression:
        """A bound value of the current chunk as a LibCST expression."""
        return self.chunk.expression(value)


@dataclass
class _Chunk:
    """The chunk being transformed: its ``ast`` definitions and parsed values."""

    chunks: Chunks | None = None
    index: int = 0
    definitions: dict[QualifiedPath, list[Definition]] = field(default_factory=dict)
    parsed: dict[int, cst.BaseExpression] = field(default_factory=dict)

    def functions(self, path: QualifiedPath) -> list[Function]:
        """The functions defined at `path` (more than one if it is redefined)."""
        found = self.definitions.get(path, [])
        return [f for f in found if isinstance(f, Function)]

    def expression(self, value: ast.expr) -> cst.BaseExpression:
        """`value` parsed by LibCST from its source (once)."""
        if id(value) not in self.parsed:
            if self.chunks is None:
                raise RuntimeError("a value read before the command entered a chunk")
            source = self.chunks.source(self.index, value)
            # parenthesized, so a value that spans lines still parses alone
            wrapped = cst.parse_expression(f"({source})")
            self.parsed[id(value)] = wrapped.with_changes(
                lpar=wrapped.lpar[1:], rpar=wrapped.rpar[:-1]
            )
        return self.parsed[id(value)]


def _merged_bindings(functions: list[Function]) -> Bindings:
    """The bindings of the functions at one path, together.

    A path names more than one function only where the module redefines it
    (``if ...: def f`` / ``else: def f``); taking every binding of each only
    makes more values unknown, so no check is read wrongly.
    """
    merged: Bindings = {}
    for function in functions:
        for name, values in scope_bindings(function.body, function.args).items():
            merged.setdefault(name, []).extend(values)
    return merged
