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
"""

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import libcst as cst

from empty_migrate.codemods._chunks import Chunks
from empty_migrate.codemods._imports import NeededImports, add_imports
from empty_migrate.codemods._nodes import (
    find_all,
    is_attribute,
    is_empty_string,
    is_name,
)
from empty_migrate.codemods.base import EvalTarget
from empty_migrate.registry.schema import ScorerEntry, resolve
from empty_migrate.syntax import is_solver, solver_paths, state_like

NORMALIZERS = {"strip", "lstrip", "rstrip", "splitlines", "lower", "casefold"}
_UNKNOWN = None  # a binding that is not a simple ``name = value``
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
    tasks = scorer.tasks or list(target.entry.tasks) or [None]
    return {resolve(target.entry, task, scorer).output for task in tasks}


def construct_lines(tree: ast.Module, names: set[str]) -> list[range]:
    """The line ranges of the named functions and of ``@solver`` functions."""
    return [
        range(node.lineno, node.end_lineno + 1)
        for node in ast.walk(tree)
        if _acted_in(node, names, solvers=True)
    ]


def _acted_in(node: ast.AST, names: Iterable[str], solvers: bool) -> bool:
    """Whether a node is a function named in `names`, or a solver if `solvers`."""
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
        node.name in names or (solvers and is_solver(node))
    )


def run_command(command: "ConstructCommand", text: str, target: EvalTarget) -> str:
    """Run a command on a module's text, then add the imports it recorded.

    Only the chunks that define a function the command acts in are parsed.
    """
    chunks = Chunks(text, target.workspace.parse(text))
    command.prepare(chunks)
    mentions = [*command.constructs, *(["solver"] if command.solvers else [])]
    chunks.transform(chunks.find(command.may_act_in, mentions), command)
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


def is_score_call(node: cst.BaseExpression | None) -> bool:
    """Whether the expression is a ``Score(...)`` construction."""
    return isinstance(node, cst.Call) and (
        is_name(node.func, "Score") or is_attribute(node.func, "Score")
    )


def returns_score(suite: cst.BaseSuite) -> bool:
    """Whether the block decides a score: it returns ``Score(...)`` directly."""
    return any(is_score_call(r.value) for r in direct_returns(suite))


class _Bindings(cst.CSTVisitor):
    """Every name bound in one function body; the value when it is ``name = value``."""

    def __init__(self, function: cst.FunctionDef) -> None:
        self.values: dict[str, list[cst.BaseExpression | None]] = {}
        for param in _parameters(function.params):
            self.bind(param, _UNKNOWN)
        function.body.visit(self)

    def bind(self, name: str, value: cst.BaseExpression | None) -> None:
        self.values.setdefault(name, []).append(value)

    def bind_target(self, target: cst.CSTNode) -> None:
        for node in find_all(target, cst.Name):
            self.bind(node.value, _UNKNOWN)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.bind(node.name.value, _UNKNOWN)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.bind(node.name.value, _UNKNOWN)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name) and len(node.targets) == 1:
                self.bind(target.target.value, node.value)
            else:
                self.bind_target(target.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name) and node.value is not None:
            self.bind(node.target.value, node.value)
        else:
            self.bind_target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.bind_target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self.bind_target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self.bind_target(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.bind_target(node.target)


def _parameters(params: cst.Parameters) -> list[str]:
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    every += [
        p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)
    ]
    return [p.name.value for p in every]


@dataclass
class Frame:
    """One function being transformed: its bindings and how the codemod reads it."""

    values: dict[str, list[cst.BaseExpression | None]]
    active: bool
    mut_in_state: bool


class OutputReader:
    """Finds the model under test's output in expressions of the current function."""

    def __init__(self, frames: list[Frame]) -> None:
        self.frames = frames
        self.resolving: set[str] = set()

    def output(self, expr: cst.BaseExpression) -> cst.BaseExpression | None:
        """The output ``expr`` is or names, if it is the model under test's."""
        if not self.frames or not self.frames[-1].mut_in_state:
            return None
        if is_attribute(expr, "output"):
            return expr if _state_like(expr.value) else None
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
        normalised = isinstance(expr, cst.Call) and any(
            is_attribute(expr.func, name) for name in NORMALIZERS
        )
        if normalised and not expr.args:
            return self.derived(expr.func.value)
        return self._alias(expr, self.derived)

    def binding_frame(self, name: str) -> Frame | None:
        """The innermost frame that binds ``name``."""
        return next((f for f in reversed(self.frames) if name in f.values), None)

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
        values = frame.values[expr.value] if frame else []
        if _UNKNOWN in values:
            return None
        self.resolving.add(expr.value)
        try:
            found = [read(value) for value in values]
        finally:
            self.resolving.discard(expr.value)
        found = [f for f in found if f is not _ITSELF]
        return found[0] if found and None not in found else None


def _state_like(owner: cst.BaseExpression) -> bool:
    name = owner.attr if isinstance(owner, cst.Attribute) else owner
    return state_like(name.value if isinstance(name, cst.Name) else "")


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
        self.reader = OutputReader(self.frames)
        self.path: list[str] = []
        self.solver_paths: set[tuple[str, ...]] = set()

    def prepare(self, chunks: Chunks) -> None:
        """Read what the command needs from the whole module, before any chunk.

        Subclasses that read more call this first.
        """
        self.solver_paths = solver_paths(chunks.tree) if self.solvers else set()

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

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        outer = self.frames[-1] if self.frames else None
        self.path.append(node.name.value)
        if node.name.value in self.constructs:
            active, mut = True, self.constructs[node.name.value]
        elif tuple(self.path) in self.solver_paths:
            active, mut = True, True
        elif outer is not None:
            active, mut = outer.active, outer.mut_in_state
        else:
            active, mut = False, False
        self.frames.append(Frame(_Bindings(node).values, active, mut))

    def leave_FunctionDef(
        self, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.FunctionDef:
        self.frames.pop()
        self.path.pop()
        return updated
