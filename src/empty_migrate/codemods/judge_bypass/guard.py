"""Insert the judge guard at the top of a solver's ``solve`` coroutine.

The guard returns before the judge for every outcome the scorer's router
decides without calling the scorer; when the router reads the model's output
from the store, the output is saved there first, since the judge's reply then
replaces ``state.output``. Both are placed first in ``solve``, before any early
return, so the router finds the saved output on every path. A guard or save
already present (also through an aliased ``classify`` import) is kept.
"""

import ast
from ast import literal_eval

import libcst as cst

from empty_migrate.analysis.syntax import (
    imports_of,
    is_docstring,
    module_bindings,
    qualified_definitions,
)
from empty_migrate.codemods.judge_bypass.solver import Guard
from empty_migrate.codemods.kit.base import Skip
from empty_migrate.codemods.kit.imports import NeededImports
from empty_migrate.codemods.kit.nodes import find_all, is_attribute, is_call_of, is_name
from empty_migrate.codemods.kit.router_call import ROUTER_MODULE
from empty_migrate.runtime.policy import Outcome

_SAVE_COMMENT = "# Save the model's own output: the scorer's router reads it from here."
_GUARD_COMMENT = "# The router scores non-answers without a verdict: skip the judge."


class GuardCommand(cst.CSTTransformer):
    """Guard the named solvers' solve coroutines; ``found`` lists those seen."""

    def __init__(
        self, imports: NeededImports, guards: list[Guard], tree: ast.Module
    ) -> None:
        super().__init__()
        self.imports = imports
        self.guards = {g.solver: g for g in guards}
        self.found: set[str] = set()
        self.stack: list[str] = []
        self.bound = imports_of(tree)
        self.local = {
            name: self.bound.local_for(f"{ROUTER_MODULE}.{name}") or name
            for name in ("classify", "Outcome")
        }
        self.taken = module_bindings(tree)
        self.documented = {
            path
            for path, definition in qualified_definitions(tree.body)
            if is_docstring(definition.body[0])
        }

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        """Enter a class: its name joins the qualified path."""
        self.stack.append(node.name.value)

    def leave_ClassDef(
        self, original: cst.ClassDef, updated: cst.ClassDef
    ) -> cst.ClassDef:
        """Leave a class."""
        self.stack.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """Enter a function: its name joins the qualified path."""
        self.stack.append(node.name.value)

    def leave_FunctionDef(
        self, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.FunctionDef:
        """Leave a function; rewrite it if it is acted on."""
        guard = self.guards.get(self.stack[0]) if len(self.stack) == 2 else None
        self.stack.pop()
        if guard is None or updated.name.value != guard.solve:
            return updated
        self.found.add(guard.solver)
        return self._guarded(updated, guard)

    def _guarded(self, function: cst.FunctionDef, guard: Guard) -> cst.FunctionDef:
        state = function.params.params[0].name.value
        suite = function.body
        start = 1 if (guard.solver, guard.solve) in self.documented else 0
        new: list[cst.BaseStatement] = []
        if guard.store_key and not any(
            _saves(s, state, guard.store_key) for s in suite.body
        ):
            new.append(_with_comment(_save(state, guard.store_key), _SAVE_COMMENT))
        guarded = len(guard.scored) < len(Outcome) and not any(
            self._is_guard(s) for s in suite.body
        )
        if guarded:
            new.append(_with_comment(self._guard(state, guard), _GUARD_COMMENT))
        if not new:
            return function
        if not isinstance(suite, cst.IndentedBlock):
            raise Skip(f"{guard.solve}: its body is on the def line; guard by hand")
        return function.with_changes(body=_inserted(suite, start, new, guarded))

    def _guard(self, state: str, guard: Guard) -> cst.BaseStatement:
        for name in ("classify", "Outcome"):
            if not self.bound.locals_of(f"{ROUTER_MODULE}.{name}"):
                if name in self.taken:
                    raise Skip(f"{name} is already bound in this module: guard by hand")
                self.imports.add(ROUTER_MODULE, name)
        test = _condition(self.local["Outcome"], guard.scored)
        return cst.parse_statement(
            f"if {self.local['classify']}({state}.output) {test}:\n    return {state}\n"
        )

    def _is_guard(self, statement: cst.CSTNode) -> bool:
        if not isinstance(statement, cst.If):
            return False
        calls = find_all(statement.test, cst.Call)
        classify = f"{ROUTER_MODULE}.classify"
        return any(is_call_of(call, self.bound, classify) for call in calls)


def _inserted(
    suite: cst.IndentedBlock, start: int, new: list[cst.BaseStatement], blank: bool
) -> cst.IndentedBlock:
    """`new` put before statement `start`, which gets a blank line above if `blank`."""
    body = list(suite.body)
    first = body[start] if blank and start < len(body) else None
    # every statement is one of these two: both have leading lines
    if isinstance(first, cst.SimpleStatementLine | cst.BaseCompoundStatement):
        body[start] = first.with_changes(
            leading_lines=[cst.EmptyLine(), *first.leading_lines]
        )
    body[start:start] = new
    return suite.with_changes(body=body)


def _condition(outcome: str, scored: frozenset[Outcome]) -> str:
    bypassed = [o for o in Outcome if o not in scored]
    kept = [o for o in Outcome if o in scored]

    def members(outcomes: list[Outcome]) -> str:
        return ", ".join(f"{outcome}.{o.name}" for o in outcomes)

    if kept == [Outcome.ANSWERED]:
        return f"is not {outcome}.ANSWERED"
    if len(bypassed) == 1:
        return f"is {outcome}.{bypassed[0].name}"
    if len(kept) <= len(bypassed):
        return f"not in ({members(kept)})"
    return f"in ({members(bypassed)})"


def _save(state: str, key: str) -> cst.BaseStatement:
    return cst.parse_statement(f'{state}.store.set("{key}", {state}.output)\n')


def _saves(statement: cst.CSTNode, state: str, key: str) -> bool:
    """Whether `statement` is ``<state>.store.set("<key>", ...)``."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    call = statement.body[0].value if isinstance(statement.body[0], cst.Expr) else None
    if not isinstance(call, cst.Call) or not is_attribute(call.func, "set"):
        return False
    store = call.func.value
    if not is_attribute(store, "store") or not is_name(store.value, state):
        return False
    first = call.args[0].value if call.args else None
    return isinstance(first, cst.SimpleString) and literal_eval(first.value) == key


def _with_comment(statement: cst.BaseStatement, comment: str) -> cst.BaseStatement:
    line = cst.EmptyLine(comment=cst.Comment(comment))
    return statement.with_changes(leading_lines=[line])
