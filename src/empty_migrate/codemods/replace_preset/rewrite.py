"""replace_preset: replace ``preset_score_on_no_response`` with the outcome router.

``preset_score_on_no_response(grader, value)`` gives only an empty or
whitespace completion a preset score; refusals, filters and truncated
reasoning still reach the grader. Each call that resolves to
``inspect_evals.utils.scorers.preset_score_on_no_response`` (positional or
``no_response_value=``, through an alias or the ``scorers`` module) becomes
``route_empty_responses(grader, category=..., ...)`` with the registry
settings of the registered construct (factory, shared helper or task) whose
top-level function encloses the call. The preset value gives way to the
registry's verdicts, and the preset import goes once unused; a module-level
constant that held the value stays, since other modules may import it. A call
outside any registered construct, with arguments the preset does not take, or
whose dict value the registry's verdicts do not match, skips the eval.
Unsafe: non-answers get new score values.

Each call is known by where it is: ``ast`` finds it and the function around
it, the router call is written around the grader's own source, and the new
text replaces the old (`Chunks.edit`), as wrap_router does. A call inside
another's arguments is rewritten first, and the outer call is read with it
rewritten.
"""

import ast
from dataclasses import dataclass, field

from empty_migrate.analysis.package_index import package_of
from empty_migrate.analysis.scan import PACKAGE_ROOT
from empty_migrate.analysis.scan import PRESET_FUNCTION as PRESET
from empty_migrate.analysis.syntax import (
    Definition,
    Function,
    Imports,
    end_of,
    imports_of,
    scope_bindings,
)
from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from empty_migrate.codemods.kit.chunks import Chunks
from empty_migrate.codemods.kit.expressions import (
    Located,
    call_room,
    parse_expression,
    spliced,
)
from empty_migrate.codemods.kit.imports import (
    NeededImports,
    add_imports,
    remove_unused_imports,
)
from empty_migrate.codemods.kit.router_call import router_call
from empty_migrate.entries.schema import Resolved, ScorerEntry
from empty_migrate.runtime.policy import POLICY, Category, Route

PRESET_NAME = PRESET.rpartition(".")[2]
PARAMETERS = ("grader", "no_response_value")
VERDICTS = {
    Route.NO_ANSWER: "no_answer_verdict",
    Route.REFUSAL_VERDICT: "refusal_verdict",
}


class ReplacePreset(Codemod):
    """Replace ``preset_score_on_no_response`` calls with ``route_empty_responses``."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not self.applies(target):
            return []
        # the scan finds the calls by any name the imports bind to the preset
        found = {f.file for f in target.scan.preset_calls}
        return sorted(target.source(relative) for relative in found)

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        relative = path.removeprefix(f"{PACKAGE_ROOT.as_posix()}/")
        chunks = Chunks(text, target.workspace.parse(text))
        imports = imports_of(chunks.tree, package_of(relative))
        rewrite = _Rewrite(target, relative, _dict_constants(chunks.tree))
        calling = chunks.find(
            lambda s: bool(_preset_calls(s, imports)),
            mentions=[*imports.locals_of(PRESET), PRESET_NAME],
        )
        if calling and not chunks.positioned:
            raise Skip(f"{relative}: lone carriage-return line ends; replace by hand")
        for index in calling:
            group = chunks.statements[index]
            calls = [call for s in group for call in _preset_calls(s, imports)]
            chunks.edit(index, rewrite.edits(chunks, index, calls))
        remove_unused_imports(chunks, rewrite.dropped)
        add_imports(chunks, rewrite.imports.items)
        return chunks.text


@dataclass(frozen=True)
class _Call:
    """A preset call, and the function or class at the top of those around it."""

    node: ast.Call
    outermost: Definition | None


def _preset_calls(statement: ast.stmt, imports: Imports) -> list[_Call]:
    """The preset calls in a top-level statement, with what encloses each.

    A call of the preset by any name or module path the imports bind to it
    counts; a same-named function from elsewhere does not.
    """
    found = []
    stack: list[tuple[ast.AST, Definition | None]] = [(statement, None)]
    while stack:
        node, outermost = stack.pop()
        if outermost is None and isinstance(node, Definition):
            outermost = node
        if imports.calls(node, PRESET):
            found.append(_Call(node, outermost))
        stack.extend((child, outermost) for child in ast.iter_child_nodes(node))
    return found


@dataclass
class _Rewrite:
    """Turns preset calls into router calls, noting the imports in and out."""

    target: EvalTarget
    relative: str
    dict_constants: set[str]
    imports: NeededImports = field(default_factory=NeededImports)
    dropped: set[str] = field(default_factory=set)

    def edits(
        self, chunks: Chunks, index: int, calls: list[_Call]
    ) -> list[tuple[int, int, str]]:
        """The text edits of one chunk: each outermost call, rewritten.

        Calls are rewritten in the order they end, so a call nested in
        another's arguments comes first, and the outer one is read with it
        rewritten.
        """
        text = chunks.texts[index]
        done: list[tuple[int, int, str]] = []
        for call in sorted(calls, key=lambda c: end_of(c.node)):
            start, end = chunks.span(index, call.node)
            inner = [edit for edit in done if start <= edit[0] and edit[1] <= end]
            inside = [(a - start, b - start, new) for a, b, new in inner]
            new = self.routed(spliced(text[start:end], inside), call)
            done = [edit for edit in done if edit not in inner] + [(start, end, new)]
        return done

    def routed(self, source: str, found: _Call) -> str:
        """The router call that replaces a preset call, given the call's source."""
        where = f"{self.relative}:{found.node.lineno}"
        construct = self._enclosing(found, where)
        located = Located(source)
        call = parse_expression(source)
        assert isinstance(call, ast.Call)  # the source of a preset call
        grader, value = _arguments(call, where)
        settings = self.target.settings(construct)
        if _is_dict(value, self.dict_constants) and not _dict_verdicts(settings):
            raise Skip(
                f"{where}: the preset value is a dict but {construct.name}'s "
                f"registry verdicts for category {settings.category} are not; "
                "give it a dict no_answer_verdict or refusal_verdict"
            )
        self.dropped |= _names_in(call.func)
        if value is not None:
            self.dropped |= _names_in(value)
        scorer = located.source(grader, call_room(located, call))
        return router_call(self.imports, scorer, settings)

    def _enclosing(self, found: _Call, where: str) -> ScorerEntry:
        """The registered construct whose top-level function holds the call."""
        constructs = {s.name: s for s in self.target.scorers_in(self.relative)}
        top = found.outermost
        if not isinstance(top, Function) or top.name not in constructs:
            raise Skip(
                f"{where}: preset_score_on_no_response is not inside a registered "
                "scorer construct, so its route settings are unknown"
            )
        construct = constructs[top.name]
        if not construct.rewrite:
            raise Skip(
                f"{where}: {construct.name} holds a preset_score_on_no_response "
                "call but is registered with rewrite: false"
            )
        return construct


def _arguments(call: ast.Call, where: str) -> tuple[ast.expr, ast.expr | None]:
    """The grader and the preset value, bound as the preset's signature binds them."""
    positional = [a for a in call.args if not isinstance(a, ast.Starred)]
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    bound = dict(zip(PARAMETERS, positional, strict=False))
    unknown = set(keywords) - set(PARAMETERS) or set(keywords) & set(bound)
    starred = len(positional) < len(call.args) or len(keywords) < len(call.keywords)
    if starred or unknown or len(positional) > len(PARAMETERS):
        raise Skip(f"{where}: preset_score_on_no_response has unexpected arguments")
    bound |= keywords
    if "grader" not in bound:
        raise Skip(f"{where}: preset_score_on_no_response has no grader")
    return bound["grader"], bound.get("no_response_value")


def _dict_constants(tree: ast.Module) -> set[str]:
    """Names bound at module level to a dict literal (by one binding or more)."""
    return {
        name
        for name, values in scope_bindings(tree.body).items()
        if any(isinstance(value, ast.Dict) for value in values)
    }


def _is_dict(value: ast.expr | None, constants: set[str]) -> bool:
    if isinstance(value, ast.Name):
        return value.id in constants
    return isinstance(value, ast.Dict)


def _dict_verdicts(settings: Resolved) -> bool:
    """Whether every verdict the router will give a non-answer is a dict."""
    routes = set(POLICY[Category(settings.category)].values())
    routes |= {override.route for override in settings.overrides}
    used = [getattr(settings, name) for r, name in VERDICTS.items() if r in routes]
    return all(isinstance(verdict, dict) for verdict in used)


def _names_in(node: ast.AST) -> set[str]:
    """Every name the node holds (candidates for now-unused imports)."""
    names = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            names.add(part.id)
        elif isinstance(part, ast.Attribute):
            names.add(part.attr)
        elif isinstance(part, ast.keyword | ast.arg) and part.arg is not None:
            names.add(part.arg)
    return names
