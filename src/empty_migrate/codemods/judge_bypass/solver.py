"""Find the judge call inside an eval's solvers, and whether it can be guarded.

Read-only ``ast`` analysis. In a ``@solver``'s ``solve(state, generate)``
coroutine, a judge call is a ``<model>.generate(...)`` call, a
``model_graded_qa``/``model_graded_fact`` call, or a call of the ``generate``
argument made after the coroutine has read ``state.output``: the model under
test has answered, and the solver now asks a model (often itself, as in
AIR-Bench's annotate step) to grade that answer. Only a single-turn shape can
be guarded by a codemod: one judge call, made by ``solve`` itself, outside any
loop, with no generation of the model's answer in the same coroutine.
"""

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from empty_migrate.analysis.syntax import is_solver
from empty_migrate.codemods.judge_bypass.sites import (
    Definition,
    PackageIndex,
    ancestors,
)
from empty_migrate.runtime.policy import Outcome

GRADERS = {"model_graded_qa", "model_graded_fact"}
_LOOPS = (
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


@dataclass(frozen=True)
class Guard:
    """One solver to guard: its names, what still reaches the judge, the key."""

    solver: str
    solve: str
    scored: frozenset[Outcome]
    store_key: str | None


@dataclass(frozen=True)
class SolverJudge:
    """A judge call found in a solver.

    Attributes:
        file: The solver's file, relative to ``src/inspect_evals``.
        solver: The ``@solver`` factory.
        solve: Its ``solve(state, generate)`` coroutine ("" if it has none).
        line: The line of the (first) judge call.
        overwrites_output: The judge is the ``generate`` argument, so its reply
            replaces ``state.output``.
        problem: Why a codemod cannot guard it, or None.
    """

    file: str
    solver: str
    solve: str
    line: int
    overwrites_output: bool
    problem: str | None = None


def solver_judges(index: PackageIndex) -> Iterator[SolverJudge]:
    """Every ``@solver`` of the package that calls a judge."""
    for definition in index.definitions.values():
        if is_solver(definition.node):
            if judge := _judge_in(index, definition, definition.node):
                yield judge


def _judge_in(
    index: PackageIndex,
    definition: Definition,
    factory: ast.FunctionDef | ast.AsyncFunctionDef,
) -> SolverJudge | None:
    def model_calls(node: ast.AST) -> list[ast.Call]:
        return _model_calls(index, definition.file, node)

    solve = _solve_coroutine(factory)
    outside = [
        c for c in model_calls(factory) if solve is None or not _inside(c, solve)
    ]
    if solve is None:
        if not outside:
            return None
        return _found(definition, outside, False, "no solve(state, generate) coroutine")
    state, generate = (a.arg for a in solve.args.args[:2])
    answered = _first_output_read(solve, state)
    generations = [
        c
        for c in ast.walk(solve)
        if isinstance(c, ast.Call)
        and isinstance(c.func, ast.Name)
        and c.func.id == generate
    ]
    own = [g for g in generations if answered is None or _position(g) < answered]
    judges = [*model_calls(solve), *(g for g in generations if g not in own)]
    if not judges and not outside:
        return None
    overwrites = any(g in judges for g in generations)
    problem = _problem(solve, judges, own, outside)
    return _found(definition, [*judges, *outside], overwrites, problem, solve.name)


def _problem(
    solve: ast.AsyncFunctionDef,
    judges: list[ast.Call],
    own: list[ast.Call],
    outside: list[ast.Call],
) -> str | None:
    if outside:
        return "the judge is called outside its solve coroutine"
    path = [n for judge in judges for n in ancestors(solve, judge)]
    if any(isinstance(n, _LOOPS) for n in path):
        return "the judge call is in a loop: multi-turn"
    if len(judges) > 1:
        return f"it calls a judge {len(judges)} times"
    if own:
        return "it also generates the model's answer: multi-turn"
    if any(
        isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) for n in path
    ):
        return "the judge call is in a nested function"
    return None


def _found(
    definition: Definition,
    calls: list[ast.Call],
    overwrites: bool,
    problem: str | None,
    solve: str = "",
) -> SolverJudge:
    line = min(c.lineno for c in calls)
    return SolverJudge(
        definition.file, definition.name, solve, line, overwrites, problem
    )


def _solve_coroutine(
    factory: ast.FunctionDef | ast.AsyncFunctionDef,
) -> ast.AsyncFunctionDef | None:
    coroutines = {
        n.name: n
        for n in factory.body
        if isinstance(n, ast.AsyncFunctionDef) and len(n.args.args) >= 2
    }
    returned = [
        n.value.id
        for n in factory.body
        if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)
    ]
    return next((coroutines[r] for r in returned if r in coroutines), None)


def _model_calls(index: PackageIndex, file: str, node: ast.AST) -> list[ast.Call]:
    """``<model>.generate(...)`` and model-graded scorer calls under `node`."""
    return [
        c
        for c in ast.walk(node)
        if isinstance(c, ast.Call)
        and (
            index.judge(file, c) in GRADERS
            or (isinstance(c.func, ast.Attribute) and c.func.attr == "generate")
        )
    ]


def _first_output_read(
    solve: ast.AsyncFunctionDef, state: str
) -> tuple[int, int] | None:
    reads = [
        _position(n)
        for n in ast.walk(solve)
        if isinstance(n, ast.Attribute)
        and n.attr == "output"
        and isinstance(n.value, ast.Name)
        and n.value.id == state
        and isinstance(n.ctx, ast.Load)
    ]
    return min(reads, default=None)


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    return any(n is node for n in ast.walk(outer))


def _position(node: ast.expr) -> tuple[int, int]:
    return node.lineno, node.col_offset
