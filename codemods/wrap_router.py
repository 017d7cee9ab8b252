"""wrap_router: wrap each registered scorer construct with the outcome router.

For a ``@scorer`` factory or a shared helper, every ``return`` of the function
itself (not of the nested ``score`` coroutine) is wrapped; for a
``Task(scorer=...)`` construct, the ``scorer=`` value inside the named function
is wrapped (each element, if it is a list). The router's arguments are the
eval's registry values, written out explicitly. Already-routed expressions,
including calls through an aliased import, are left alone, so the codemod is
idempotent. Unsafe: non-answers get new score values.
"""

import ast

import libcst as cst

from empty_migrate.codemods._chunks import Chunks
from empty_migrate.codemods._imports import NeededImports, add_imports
from empty_migrate.codemods._router_call import (
    ROUTER_FUNCTION,
    ROUTER_MODULE,
    router_call,
)
from empty_migrate.codemods.base import Codemod, EvalTarget, Skip
from empty_migrate.registry.schema import Resolved, ScorerEntry
from empty_migrate.syntax import blocks, defines, imported_names, outer_functions


class WrapRouter(Codemod):
    """Wrap registered scorers with ``route_empty_responses``."""

    name = "wrap_router"
    description = "Wrap each registered scorer construct with the outcome router."
    changes_scores = True

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not target.wants(self.name):
            return []
        return sorted({target.source(s.file) for s in _wrapped(target)})

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        relative = path.removeprefix("src/inspect_evals/")
        scorers = [s for s in _wrapped(target) if s.file == relative]
        jobs = {s.name: (s.construct_kind, target.settings(s)) for s in scorers}
        imports = NeededImports()
        chunks = Chunks(text, target.workspace.parse(text))
        router = imported_names(chunks.tree, ROUTER_MODULE).get(ROUTER_FUNCTION)
        names = {ROUTER_FUNCTION} | ({router} if router else set())
        command = _WrapCommand(imports, jobs, names)
        for index in chunks.find(lambda s: defines(s, set(jobs)), mentions=jobs):
            if not _wrap_returns_in_place(chunks, index, command):
                chunks.transform([index], command)
        add_imports(chunks, imports.items)
        if missing := set(jobs) - command.found:
            raise Skip(f"{', '.join(sorted(missing))}: not found in {relative}")
        if unwrapped := set(jobs) - command.wrapped:
            raise Skip(f"{', '.join(sorted(unwrapped))}: no scorer expression to wrap")
        return chunks.text


def _wrap_returns_in_place(chunks: Chunks, index: int, command: "_WrapCommand") -> bool:
    """Wrap the returns of the factories defined in one chunk, expression by expression.

    The same rewrite as `_WrapCommand`, but LibCST parses and prints only each
    returned expression, not the whole function around it: ``ast`` finds the
    returns, and the new call replaces the old text. Returns False, having
    changed nothing, for a chunk `_WrapCommand` must handle: one that defines
    a ``Task(scorer=...)`` construct, or whose returns do not parse alone.
    """
    functions = [
        function
        for statement in chunks.statements[index]
        for function in outer_functions(statement)
        if function.name in command.jobs
    ]
    if not chunks.spliceable(index) or any(
        command.jobs[f.name][0] == "task_scorer" for f in functions
    ):
        return False
    planned = []
    for function in functions:
        for returned in _returns(function.body):
            if returned.value is None:
                raise Skip(f"{function.name}: a bare return has no scorer to wrap")
            source = chunks.source(index, returned)
            value = source.removeprefix("return").lstrip()
            if not source.startswith("return") or value.startswith("\\"):
                return False
            try:
                expression = cst.parse_expression(value)
            except cst.ParserSyntaxError:
                return False
            planned.append((function.name, returned, source, value, expression))
    command.found |= {f.name for f in functions}
    printer = cst.Module(body=[], default_newline=chunks.newline)
    edits = []
    for name, returned, source, value, expression in planned:
        command.wrapped.add(name)
        if command.is_routed(expression):
            continue
        call = router_call(command.imports, expression, command.jobs[name][1])
        keyword = source[: len(source) - len(value)]
        edits.append((returned, keyword + printer.code_for_node(call)))
    if edits:
        chunks.splice(index, edits)
    return True


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


def _wrapped(target: EvalTarget) -> list[ScorerEntry]:
    return [s for s in target.entry.scorers if target.reads_model_output(s)]


_STATEMENT_LEVEL = (
    cst.Module,
    cst.BaseCompoundStatement,
    cst.BaseSuite,
    cst.SimpleStatementLine,
    cst.Else,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.Finally,
    cst.MatchCase,
)


class _WrapCommand(cst.CSTTransformer):
    def __init__(
        self,
        imports: NeededImports,
        jobs: dict[str, tuple[str, Resolved]],
        router_names: set[str],
    ) -> None:
        super().__init__()
        self.imports = imports
        self.jobs = jobs
        self.found: set[str] = set()
        self.wrapped: set[str] = set()
        self.router_names = router_names
        self.stack: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        # a factory's returns are statements: the walk stays at statement level
        # (a skipped node still gets its leave_ call); only a task_scorer job
        # looks inside expressions, for its Task(...) call
        job = self._job()
        if (job is None or job[0] != "task_scorer") and not isinstance(
            node, _STATEMENT_LEVEL
        ):
            return False
        return super().on_visit(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.stack.append(node.name.value)
        if len(self.stack) == 1 and node.name.value in self.jobs:
            self.found.add(node.name.value)
        # nothing outside a job's own top-level function, or in a nested one
        return len(self.stack) == 1 and node.name.value in self.jobs

    def leave_FunctionDef(
        self, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.FunctionDef:
        self.stack.pop()
        return updated

    def _job(self) -> tuple[str, Resolved] | None:
        if len(self.stack) == 1:
            return self.jobs.get(self.stack[0])
        return None

    def leave_Return(self, original: cst.Return, updated: cst.Return) -> cst.Return:
        job = self._job()
        if job is None or job[0] == "task_scorer":
            return updated
        if updated.value is None:
            raise Skip(f"{self.stack[0]}: a bare return has no scorer to wrap")
        return updated.with_changes(value=self._wrap(updated.value, job[1]))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        job = self._job()
        if job is None or job[0] != "task_scorer" or not _is_task_call(updated):
            return updated
        return updated.with_changes(
            args=[self._wrap_scorer_arg(arg, job[1]) for arg in updated.args]
        )

    def _wrap_scorer_arg(self, arg: cst.Arg, settings: Resolved) -> cst.Arg:
        if arg.keyword is None or arg.keyword.value != "scorer":
            return arg
        if isinstance(arg.value, cst.List):
            elements = [
                e.with_changes(value=self._wrap(e.value, settings))
                for e in arg.value.elements
            ]
            return arg.with_changes(value=arg.value.with_changes(elements=elements))
        return arg.with_changes(value=self._wrap(arg.value, settings))

    def _wrap(
        self, expression: cst.BaseExpression, settings: Resolved
    ) -> cst.BaseExpression:
        self.wrapped.add(self.stack[0])
        if self.is_routed(expression):
            return expression
        return router_call(self.imports, expression, settings)

    def is_routed(self, expression: cst.BaseExpression) -> bool:
        """Whether the expression already calls the router (maybe by an alias)."""
        return (
            isinstance(expression, cst.Call)
            and isinstance(expression.func, cst.Name)
            and expression.func.value in self.router_names
        )


def _is_task_call(call: cst.Call) -> bool:
    name = cst.helpers.get_full_name_for_node(call.func) or ""
    return name.split(".")[-1] == "Task"
