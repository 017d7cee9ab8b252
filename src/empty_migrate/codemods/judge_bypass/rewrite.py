"""judge_bypass: stop model-graded evals from sending non-answers to their judge.

A judge inside a scorer that wrap_router wraps needs no change: the router
returns before the scorer, and so before the judge, for every non-answer. The
codemod verifies that: every judge call the scan found (``model_graded_qa``,
``model_graded_fact``, ``get_model``) must run inside a registered scorer
construct that wrap_router wraps, or in a scorer that never reads the model's
output; and no ``<model>.generate(...)`` may run in a scorer left unwrapped.
A ``get_model`` call that runs only when a task is built, or in code no scorer
reaches, is a model lookup (often of the model under test), not a judge; so is
one in a solver, unless the registry puts the judge there or it asks for
``role="grader"`` (a simulated victim or persuader is not a judge). Test code
inside the package is ignored.

Where the registry says the judge runs in a solver (AIR-Bench's annotate
step), the solver's ``solve`` coroutine gets a guard at its top: it returns
before the judge for every outcome the router decides without the scorer,
after saving the model's own output to ``store:KEY`` when the registry reads it
from there (the judge's reply replaces ``state.output``). Anything else (a
multi-turn solver, a judge reached from an unwrapped scorer) is skipped with
the reason, to be guarded by hand. Unsafe: judge-derived scores change.
"""

import ast
from dataclasses import dataclass, field

from empty_migrate.analysis.findings import Finding
from empty_migrate.analysis.syntax import defines
from empty_migrate.codemods.judge_bypass.sites import (
    ROUTED,
    PackageIndex,
    Reach,
    Root,
    call_name,
    is_test_file,
)
from empty_migrate.codemods.judge_bypass.solver import GRADERS, Guard, solver_judges
from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from empty_migrate.codemods.kit.chunks import Chunks
from empty_migrate.codemods.kit.imports import NeededImports, add_imports
from empty_migrate.entries.schema import ScorerEntry, resolve
from empty_migrate.runtime.policy import Outcome, Route, route_for

_LOOKUP_ROOTS = {"task", "module", "unreferenced"}
_SCORED = (Route.SCORE, Route.SCORE_TAGGED)


@dataclass
class Plan:
    """What judge_bypass does to one eval: per repo path, a skip or guards."""

    problems: dict[str, str] = field(default_factory=dict)
    guards: dict[str, list[Guard]] = field(default_factory=dict)
    checked: set[str] = field(default_factory=set)

    def files(self) -> list[str]:
        """Every file the plan looks at: checked, skipped or guarded."""
        return sorted(self.checked | set(self.problems) | set(self.guards))


class JudgeBypass(Codemod):
    """Verify judges run behind the router; guard judges that run in solvers."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not self.applies(target):
            return []
        return plan(target).files()

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        found = plan(target)
        if problem := found.problems.get(path):
            raise Skip(problem)
        guards = found.guards.get(path)
        if not guards:
            return text
        # imported here: LibCST, for the few evals that judge in a solver
        from empty_migrate.codemods.judge_bypass.guard import GuardCommand

        chunks = Chunks(text, target.workspace.parse(text))
        command = GuardCommand(NeededImports(), guards, chunks.tree)
        solvers = {guard.solver for guard in guards}
        chunks.transform(
            chunks.find(lambda s: defines(s, solvers), mentions=solvers), command
        )
        add_imports(chunks, command.imports.items)
        result = chunks.text
        if missing := {g.solver for g in guards} - command.found:
            raise Skip(f"{', '.join(sorted(missing))}: solve coroutine not found")
        return result


def plan(target: EvalTarget) -> Plan:
    """Check the eval's judge calls and find the solvers to guard.

    The runner asks once for the files and once per file; the target keeps
    its plan, so the package is read once per eval.
    """
    return target.derived("judge_bypass.plan", lambda: _plan(target))


def _plan(target: EvalTarget) -> Plan:
    result = Plan()
    index = PackageIndex(target.workspace, target.name)
    reach = Reach(index, _constructs(target))
    in_solver = _judged_in_solver(target)
    for finding in target.scan.judge_calls:
        path = target.source(finding.file)
        result.checked.add(path)
        if problem := _site_problem(index, reach, finding, bool(in_solver)):
            result.problems.setdefault(path, problem)
    _check_model_calls(target, index, reach, result)
    if in_solver:
        _plan_solvers(target, index, in_solver, result)
    return result


def _check_model_calls(
    target: EvalTarget, index: PackageIndex, reach: Reach, result: Plan
) -> None:
    """A model called in a scorer left unwrapped is a judge the scan cannot see."""
    for holder, call in index.generate_calls():
        unrouted = sorted(r for r in reach.roots(holder, call) if r.kind == "scorer")
        if unrouted:
            result.problems.setdefault(
                target.source(holder.file),
                f"judge call .generate() at {holder.file}:{call.lineno} runs in "
                f"{_describe(unrouted[0])}: route it by hand",
            )


def _constructs(target: EvalTarget) -> dict[tuple[str, str], str]:
    kinds = {}
    for scorer in target.entry.scorers:
        if _blind(target, scorer):
            kind = "blind"
        elif not scorer.rewrite:
            kind = "helper"
        elif not target.wants("wrap_router"):
            kind = "scorer"
        else:
            task_scorer = scorer.construct == "task_scorer"
            kind = "task_scorer" if task_scorer else "wrapped"
        kinds[(scorer.file, scorer.name)] = kind
    return kinds


def _blind(target: EvalTarget, scorer: ScorerEntry) -> bool:
    return all(
        resolve(target.entry, task, scorer).output == "none"
        for task in target.entry.tasks_of(scorer)
    )


def _judged_in_solver(target: EvalTarget) -> list[ScorerEntry]:
    return [
        s
        for s in target.entry.scorers
        if any(
            resolve(target.entry, task, s).judge == "solver"
            for task in target.entry.tasks_of(s)
        )
    ]


def _site_problem(
    index: PackageIndex, reach: Reach, finding: Finding, judge_in_solver: bool
) -> str | None:
    if is_test_file(finding.file):
        return None
    located = index.holder(finding)
    if located is None:
        return f"judge call at {finding.file}:{finding.line} not found: check by hand"
    holder, call = located
    allowed = set(ROUTED)
    if index.judge(finding.file, call) not in GRADERS:
        allowed |= _LOOKUP_ROOTS
        if judge_in_solver or _role(call) != "grader":
            allowed.add("solver")
    outside = sorted(r for r in reach.roots(holder, call) if r.kind not in allowed)
    if not outside:
        return None
    return (
        f"judge call {call_name(call)}() at {finding.file}:{finding.line} runs in "
        f"{_describe(outside[0])}: route it by hand"
    )


def _role(call: ast.Call) -> object:
    role = next((k.value for k in call.keywords if k.arg == "role"), None)
    return role.value if isinstance(role, ast.Constant) else None


def _describe(root: Root) -> str:
    return {
        "scorer": f"the scorer {root.where}, which wrap_router does not wrap",
        "solver": f"the solver {root.where}, and the registry says no judge runs "
        "in a solver",
        "task": f"the task {root.where}, outside its Task(scorer=...)",
        "module": f"module-level code of {root.where}",
        "unreferenced": f"{root.where}, which no scorer calls",
    }[root.kind]


def _plan_solvers(
    target: EvalTarget, index: PackageIndex, judged: list[ScorerEntry], result: Plan
) -> None:
    try:
        scored, output = _solver_settings(target, judged)
        judges = list(solver_judges(index))
        if not judges:
            raise Skip(
                f"the registry says the judge runs in a solver, but no @solver of "
                f"{target.name} calls one: guard it by hand"
            )
    except Skip as skip:
        for scorer in judged:
            result.problems.setdefault(target.source(scorer.file), str(skip))
        return
    kind, _, key = output.partition(":")
    for judge in judges:
        path = target.source(judge.file)
        if problem := judge.problem or _output_problem(judge.overwrites_output, output):
            result.problems.setdefault(
                path,
                f"judge runs in the solver {judge.solver} at {judge.file}:"
                f"{judge.line} ({problem}): guard it by hand",
            )
        else:
            guard = Guard(
                judge.solver, judge.solve, scored, key if kind == "store" else None
            )
            result.guards.setdefault(path, []).append(guard)


def _solver_settings(
    target: EvalTarget, judged: list[ScorerEntry]
) -> tuple[frozenset[Outcome], str]:
    """What still reaches the judge, and where the router reads the output.

    Raises:
        Skip: If a scorer reading the judge's verdict is not wrapped, or the
            scorers disagree.
    """
    found = set()
    for scorer in judged:
        if not (target.wants("wrap_router") and target.reads_model_output(scorer)):
            raise Skip(
                f"{scorer.name} reads the verdict of a judge in a solver, but "
                "wrap_router does not wrap it: guard the solver by hand"
            )
        settings = target.settings(scorer)
        overrides = {o.outcome: o.route for o in settings.overrides}
        scored = frozenset(
            o for o in Outcome if route_for(settings.category, o, overrides) in _SCORED
        )
        found.add((scored, settings.output))
    if len(found) > 1:
        raise Skip(
            "the scorers reading the solver's judge differ in routes or output: "
            "guard the solver by hand"
        )
    return found.pop()


def _output_problem(overwrites: bool, output: str) -> str | None:
    if output.startswith("metadata:"):
        return f"the registry reads the model's output from {output}, not saved there"
    if overwrites and not output.startswith("store:"):
        return (
            f"the judge's reply replaces the model's output, which the registry "
            f"reads from {output}; save it with output: store:KEY"
        )
    return None
