"""Static analysis of an inspect_evals tree: what each eval package holds.

Fast and read-only: ``ast`` only, nothing is imported or executed. Finds every
eval package under ``src/inspect_evals/``, its ``@task`` and ``@scorer``
definitions, built-in scorers it uses, judge calls, calls of
``preset_score_on_no_response``, hand-rolled or dead empty checks, and what
its metrics and reducers read of a score (``metrics.py``). The registry is
checked against this picture to report drift.
"""

import ast
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from empty_migrate.analysis.findings import Finding
from empty_migrate.analysis.flow import FlowCheck, follow_output
from empty_migrate.analysis.metrics import MetricReport, read_metrics
from empty_migrate.analysis.package_index import package_of
from empty_migrate.analysis.syntax import (
    Imports,
    decorator_kinds,
    imports_of,
    is_state_output,
    last_name,
)
from empty_migrate.analysis.workspace import Workspace
from empty_migrate.target.kept import code_digest, keep, key_of, recall

# PACKAGE_ROOT is imported from here by the scan's readers too
from empty_migrate.target.layout import PACKAGE_ROOT as PACKAGE_ROOT
from empty_migrate.target.layout import eval_package_names
from empty_migrate.target.text_files import NotUtf8

BUILTIN_SCORERS = {
    "answer",
    "choice",
    "exact",
    "f1",
    "includes",
    "match",
    "math",
    "model_graded_fact",
    "model_graded_qa",
    "pattern",
}
BUILTIN_MODULE = "inspect_ai.scorer"
JUDGES = {
    "get_model": "inspect_ai.model.get_model",
    "model_graded_qa": f"{BUILTIN_MODULE}.model_graded_qa",
    "model_graded_fact": f"{BUILTIN_MODULE}.model_graded_fact",
}
"""The judge calls: each one's name, and the function it is."""
JUDGE_CALLS = set(JUDGES)
PRESET = "preset_score_on_no_response"
PRESET_FUNCTION = f"inspect_evals.utils.scorers.{PRESET}"
# a file holding none of these cannot contain anything the scan reports, so it
# is not parsed (most files of a package are data, prompts or challenge code)
_WORTH_PARSING = re.compile(
    r"@task|scorer|get_model|model_graded|\.output|completion|\.empty|\.text\b"
)


@dataclass
class EvalScan:
    """What one eval package holds."""

    name: str
    tasks: dict[str, Finding] = field(default_factory=dict)
    scorers: dict[str, Finding] = field(default_factory=dict)
    builtin_scorers: set[str] = field(default_factory=set)
    judge_calls: list[Finding] = field(default_factory=list)
    preset_calls: list[Finding] = field(default_factory=list)
    empty_checks: list[Finding] = field(default_factory=list)
    dead_checks: list[Finding] = field(default_factory=list)
    unparsable: list[Finding] = field(default_factory=list)
    not_utf8: list[Finding] = field(default_factory=list)
    """Files the scan could not read, each with the whole reason as its text."""
    flow_checks: list[FlowCheck] = field(default_factory=list)
    unfollowed: list[Finding] = field(default_factory=list)
    metrics: MetricReport = field(default_factory=MetricReport)
    """What the package's metrics and reducers read of a score (`read_metrics`)."""

    @property
    def helpers(self) -> list[FlowCheck]:
        """Empty checks on the output in plain functions a scorer passes it to."""
        return [check for check in self.flow_checks if not check.in_scorer]

    @property
    def missed_by_name(self) -> list[FlowCheck]:
        """Checks in scorers that only following the output finds (not by name)."""
        named = {(f.file, f.line) for f in [*self.empty_checks, *self.dead_checks]}
        return [
            check
            for check in self.flow_checks
            if check.in_scorer and (check.file, check.line) not in named
        ]

    def definitions(self) -> dict[str, list[Finding]]:
        """Every ``@task`` and ``@scorer`` name, with where it is defined."""
        found: dict[str, list[Finding]] = {}
        for name, where in [*self.tasks.items(), *self.scorers.items()]:
            found.setdefault(name.rsplit("@", 1)[0], []).append(where)
        return found


def scan_repo(repo: Path) -> dict[str, EvalScan]:
    """Scan every eval package of an inspect_evals tree."""
    return {name: scan_eval(repo, name) for name in eval_package_names(repo)}


def scan_eval(tree: Path | Workspace, name: str) -> EvalScan:
    """Scan one eval package, of a tree or as a run's workspace holds it.

    A scan reads nothing but the package's own files, so it is kept in the
    user cache under their paths and texts (and the scan's code): a package
    scanned before in the same state is not parsed and followed again.
    """
    workspace = tree if isinstance(tree, Workspace) else Workspace(tree)
    key = _key(workspace, name)
    kept = recall("scan", key) if key else None
    if isinstance(kept, EvalScan):
        return kept
    result = _scan(workspace, name)
    if key:
        keep("scan", key, result)
    return result


def _scan(workspace: Workspace, name: str) -> EvalScan:
    result = EvalScan(name)
    for path in workspace.python_files((PACKAGE_ROOT / name).as_posix()):
        relative = path.removeprefix(f"{PACKAGE_ROOT.as_posix()}/")
        try:
            text = workspace.read(path)
            if not _WORTH_PARSING.search(text):
                continue
            module = workspace.parse(text, relative)
        except NotUtf8 as error:
            result.not_utf8.append(Finding(relative, error.line, str(error)))
            continue
        except (SyntaxError, ValueError) as error:
            line = getattr(error, "lineno", None) or 1
            result.unparsable.append(Finding(relative, line, str(error)))
            continue
        _ModuleScanner(relative, result, imports_of(module, package_of(relative))).scan(
            module
        )
    report = follow_output(workspace, name)
    result.flow_checks, result.unfollowed = report.checks, report.unfollowed
    result.metrics = read_metrics(workspace, name)
    return result


def _key(workspace: Workspace, name: str) -> str | None:
    """What the scan of a package depends on: its files' texts and the scan's code.

    None if a file cannot be read as text (the scan reports it, uncached).
    """
    parts = [_scan_code(), name]
    try:
        for path in workspace.python_files((PACKAGE_ROOT / name).as_posix()):
            parts += [path, workspace.read(path)]
    except (NotUtf8, OSError):
        return None
    return key_of(*parts)


@cache
def _scan_code() -> str:
    """The scan's own code: a change to it makes every kept scan stale."""
    return code_digest(
        sys.modules[f"empty_migrate.analysis.{name}"] for name in _SCANNERS
    )


_SCANNERS = (
    "scan",
    "findings",
    "flow",
    "metadata_sources",
    "metric_model",
    "metric_reads",
    "metric_uses",
    "metrics",
    "package_index",
    "syntax",
    "workspace",
)
"""The modules whose code decides what a scan finds."""


def _call_name(node: ast.Call) -> str:
    return last_name(node.func)


def judge_called(imports: Imports, call: ast.Call) -> str | None:
    """The judge a call makes (a name of `JUDGES`), None if it makes none.

    A call by a judge's own name is that judge, whatever the name is bound to
    (``inspect_model.get_model(...)``, a local wrapper named so); a call by
    another name is one when `imports` bind it to the judge (``mgq`` of
    ``from inspect_ai.scorer import model_graded_qa as mgq``).
    """
    return _judge(_call_name(call), imports.meanings_of(call.func))


def builtin_scorer(imports: Imports, call: ast.Call) -> str | None:
    """The inspect_ai built-in scorer a call makes, by any name bound to it."""
    return _builtin(imports.meanings_of(call.func))


def _judge(name: str, meanings: set[str]) -> str | None:
    if name in JUDGES:
        return name
    return next((n for n, f in JUDGES.items() if f in meanings), None)


def _builtin(meanings: set[str]) -> str | None:
    for meaning in meanings:
        module, _, name = meaning.rpartition(".")
        if module == BUILTIN_MODULE and name in BUILTIN_SCORERS:
            return name
    return None


def _text(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 100 else text[:97] + "..."


class _ModuleScanner:
    """Finds what the scan reports in one module's tree.

    Nodes are visited depth first in source order, as ``ast.NodeVisitor``
    would, but in one loop instead of a recursive call per node.
    """

    def __init__(self, file: str, result: EvalScan, imports: Imports) -> None:
        self.file = file
        self.result = result
        self.imports = imports

    def scan(self, tree: ast.AST) -> None:
        """Run the handlers over the tree, in source order."""
        # each handler takes the node type it is keyed by
        handlers: dict[type[ast.AST], Callable[[Any], None]] = {
            ast.FunctionDef: self.visit_FunctionDef,
            ast.AsyncFunctionDef: self.visit_FunctionDef,
            ast.Call: self.visit_Call,
            ast.If: self._visit_test,
            ast.IfExp: self._visit_test,
            ast.While: self._visit_test,
            ast.comprehension: self.visit_comprehension,
        }
        stack = [tree]
        while stack:
            node = stack.pop()
            handler = handlers.get(type(node))
            if handler is not None:
                handler(node)
            children = _children(node)
            children.reverse()
            stack.extend(children)

    def finding(self, node: ast.AST, text: str | None = None) -> Finding:
        return Finding(self.file, getattr(node, "lineno", 1), text or _text(node))

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        kinds = decorator_kinds(node.decorator_list)
        if "task" in kinds:
            self.result.tasks.setdefault(node.name, self.finding(node, node.name))
        if "scorer" in kinds:
            key = node.name
            if key in self.result.scorers:
                key = f"{node.name}@{self.file}"
            self.result.scorers[key] = self.finding(node, node.name)

    def visit_Call(self, node: ast.Call) -> None:
        name, meanings = _call_name(node), self.imports.meanings_of(node.func)
        if name == PRESET or PRESET_FUNCTION in meanings:
            self.result.preset_calls.append(self.finding(node))
        if _judge(name, meanings):
            self.result.judge_calls.append(self.finding(node))
        if builtin := _builtin(meanings):
            self.result.builtin_scorers.add(builtin)

    def _visit_test(self, node: ast.If | ast.IfExp | ast.While) -> None:
        self._check_condition(node.test)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        for condition in node.ifs:
            self._check_condition(condition)

    def _check_condition(self, test: ast.expr) -> None:
        if _is_dead_check(test):
            self.result.dead_checks.append(self.finding(test))
        elif _is_empty_check(test):
            self.result.empty_checks.append(self.finding(test))


def _children(node: ast.AST) -> list[ast.AST]:
    """The direct child nodes, in field order (``ast.iter_child_nodes``).

    Operators and load/store contexts are left out: no handler looks at them,
    and they are a fifth of all nodes.
    """
    children = []
    # a class object is hashable; mypy says not (python/mypy#11470)
    for name in _node_fields(type(node)):  # type: ignore[arg-type]
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            children.append(value)
        elif isinstance(value, list):
            children.extend(item for item in value if isinstance(item, ast.AST))
    return children


_LEAF_FIELDS = {"ctx", "op", "ops"}


@cache
def _node_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    return tuple(f for f in kind._fields if f not in _LEAF_FIELDS)


def _is_dead_check(test: ast.expr) -> bool:
    """Conditions that never fire: a pydantic model is always truthy."""
    if isinstance(test, ast.BoolOp):
        return any(_is_dead_check(value) for value in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return is_state_output(test.operand)
    if is_state_output(test):
        return True
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == "text"
        and any(isinstance(op, ast.IsNot | ast.Is) for op in test.ops)
        and all(
            isinstance(c, ast.Constant) and c.value is None for c in test.comparators
        )
    )


def _mentions_completion(node: ast.expr) -> bool:
    return any(
        (isinstance(n, ast.Attribute) and n.attr in {"completion", "empty"})
        or (isinstance(n, ast.Name) and "completion" in n.id)
        for n in ast.walk(node)
    )


def _is_empty_check(test: ast.expr) -> bool:
    """Hand-rolled checks for an empty answer: ``not completion``, ``== ""``."""
    if isinstance(test, ast.BoolOp):
        return any(_is_empty_check(value) for value in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _mentions_completion(test.operand)
    if isinstance(test, ast.Compare):
        empty = any(
            isinstance(c, ast.Constant) and c.value == "" for c in test.comparators
        )
        return empty and _mentions_completion(test.left)
    return isinstance(test, ast.Attribute) and test.attr == "empty"
