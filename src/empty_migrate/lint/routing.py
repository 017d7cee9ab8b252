"""Where the files of one eval route the model's output through the policy.

A place is routed when it lies in the arguments of a ``route_empty_responses``
call, or in a function that calls the router or guards with ``classify`` (both
from ``inspect_evals.utils.empty_response``), or in a function some router
call's arguments call (``Task(scorer=route_empty_responses(my_scorer()))``).
"""

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from empty_migrate.analysis.package_index import package_of
from empty_migrate.analysis.scan import PACKAGE_ROOT, builtin_scorer
from empty_migrate.analysis.syntax import (
    Function,
    decorator_kinds,
    imports_of,
    last_name,
    parse_python,
)
from empty_migrate.target.text_files import NotUtf8, source_text

POLICY_MODULE = "inspect_evals.utils.empty_response"
ROUTER = "route_empty_responses"
GUARD = "classify"
_READS_OUTPUT = re.compile(r"\.output\b|completion|\.messages\b|\.text\b")


@dataclass(frozen=True)
class Span:
    """A function or call: its name and first and last line."""

    name: str
    start: int
    end: int
    col: int = 1

    def holds(self, line: int) -> bool:
        """Whether `line` lies in it."""
        return self.start <= line <= self.end


@dataclass
class FileRouting:
    """What one file defines and routes."""

    file: str
    lines: list[str]
    scorers: list[Span] = field(default_factory=list)
    tasks: list[Span] = field(default_factory=list)
    functions: list[Span] = field(default_factory=list)
    router_args: list[Span] = field(default_factory=list)
    called_in_router: set[str] = field(default_factory=set)
    routing_functions: set[str] = field(default_factory=set)
    builtin_calls: list[Span] = field(default_factory=list)
    """Calls of inspect_ai's built-in scorers, each with its column."""

    def reads_output(self, span: Span) -> bool:
        """Whether a function's text reads the model's output."""
        text = "\n".join(self.lines[span.start - 1 : span.end])
        return bool(_READS_OUTPUT.search(text))

    def column(self, line: int, text: str) -> int:
        """The 1-based column of `text` on `line`, else of the line's first code."""
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        at = source.find(text.split("\n")[0][:30]) if text else -1
        return at + 1 if at >= 0 else len(source) - len(source.lstrip()) + 1


def read_file(repo: Path, file: str) -> FileRouting | None:
    """The routing of one file (relative to src/inspect_evals); None if unreadable."""
    try:
        text = source_text(repo / PACKAGE_ROOT / file)
        tree = parse_python(text, file)
    except (OSError, NotUtf8, SyntaxError, ValueError):
        return None
    result = FileRouting(file, text.splitlines())
    imports = imports_of(tree, package_of(file))
    routing_lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, Function):
            span = _span(node.name, node)
            result.functions.append(span)
            kinds = decorator_kinds(node.decorator_list)
            if "scorer" in kinds:
                result.scorers.append(span)
            if "task" in kinds:
                result.tasks.append(span)
        elif isinstance(node, ast.Call):
            name = last_name(node)
            # a router call by its own name counts wherever it comes from
            if name == ROUTER or imports.calls(node, f"{POLICY_MODULE}.{ROUTER}"):
                result.router_args.append(_span(name, node))
                result.called_in_router |= _called_names(node)
                routing_lines.append(node.lineno)
            elif imports.calls(node, f"{POLICY_MODULE}.{GUARD}"):
                routing_lines.append(node.lineno)
            elif builtin := builtin_scorer(imports, node):
                result.builtin_calls.append(_span(builtin, node))
    result.routing_functions = {
        span.name
        for span in result.functions
        if any(span.holds(line) for line in routing_lines)
    }
    return result


def _span(name: str, node: ast.expr | ast.stmt) -> Span:
    end = getattr(node, "end_lineno", None) or node.lineno
    return Span(name, node.lineno, end, node.col_offset + 1)


def _called_names(call: ast.Call) -> set[str]:
    arguments = [*call.args, *(keyword.value for keyword in call.keywords)]
    return {
        last_name(node)
        for argument in arguments
        for node in ast.walk(argument)
        if isinstance(node, ast.Call)
    }


@dataclass
class EvalRouting:
    """The routing of every file of one eval, by file."""

    files: dict[str, FileRouting]

    @property
    def routed_names(self) -> set[str]:
        """Functions that route, or that a router call's arguments call."""
        names: set[str] = set()
        for one in self.files.values():
            names |= one.routing_functions | one.called_in_router
        return names

    def routed(self, file: str, line: int) -> bool:
        """Whether `line` of `file` lies where the output is routed."""
        one = self.files.get(file)
        if one is None:
            return False
        names = self.routed_names
        return any(span.holds(line) for span in one.router_args) or any(
            span.name in names and span.holds(line) for span in one.functions
        )

    def in_scorer(self, file: str, line: int) -> Span | None:
        """The innermost ``@scorer`` function holding `line` of `file`."""
        one = self.files.get(file)
        holding = [s for s in one.scorers if s.holds(line)] if one else []
        return max(holding, key=lambda span: span.start, default=None)

    def calls_builtin(self, file: str, line: int, names: Iterable[str]) -> bool:
        """Whether `line` of `file` calls one of the built-in scorers `names`."""
        one = self.files.get(file)
        calls = one.builtin_calls if one else []
        return any(c.start == line and c.name in names for c in calls)

    def in_task(self, file: str, line: int) -> bool:
        """Whether `line` of `file` lies in a ``@task`` function."""
        one = self.files.get(file)
        return one is not None and any(span.holds(line) for span in one.tasks)

    def defines_routed(self, file: str, name: str) -> bool:
        """Whether `name`, defined in `file`, routes or is routed where called."""
        one = self.files.get(file)
        return bool(one) and name in self.routed_names


def eval_routing(repo: Path, files: list[str]) -> EvalRouting:
    """The routing of the given files (relative to src/inspect_evals)."""
    read = {file: read_file(repo, file) for file in files}
    return EvalRouting({file: one for file, one in read.items() if one is not None})
