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
"""

import ast

import libcst as cst

from empty_migrate.codemods._chunks import Chunks
from empty_migrate.codemods._imports import (
    NeededImports,
    add_imports,
    remove_unused_imports,
)
from empty_migrate.codemods._nodes import find_all
from empty_migrate.codemods._router_call import router_call
from empty_migrate.codemods.base import Codemod, EvalTarget, Skip
from empty_migrate.policy import POLICY, Category, Route
from empty_migrate.registry.scan import PACKAGE_ROOT
from empty_migrate.registry.schema import Resolved, ScorerEntry
from empty_migrate.syntax import imported_locals

PRESET_NAME = "preset_score_on_no_response"
PRESET = f"inspect_evals.utils.scorers.{PRESET_NAME}"
PARAMETERS = ("grader", "no_response_value")
VERDICTS = {
    Route.NO_ANSWER: "no_answer_verdict",
    Route.REFUSAL_VERDICT: "refusal_verdict",
}


class ReplacePreset(Codemod):
    """Replace ``preset_score_on_no_response`` calls with ``route_empty_responses``."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not target.wants(self.name):
            return []
        found = {f.file for f in target.scan.preset_calls} | _naming_files(target)
        return sorted(target.source(relative) for relative in found)

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        relative = path.removeprefix(f"{PACKAGE_ROOT.as_posix()}/")
        chunks = Chunks(text, target.workspace.parse(text))
        names = _preset_names(chunks.tree)
        imports = NeededImports()
        command = _ReplaceCommand(imports, target, relative, names)
        # the module's dict constants, to tell a dict preset value by its name
        command.dict_constants = _dict_constants(chunks.tree)
        calling = chunks.find(
            lambda s: bool(_preset_calls(s, names)), mentions=[*names[0], PRESET_NAME]
        )
        for index in calling:
            calls = [_preset_calls(s, names) for s in chunks.statements[index]]
            command.call_lines = [call.lineno for group in calls for call in group]
            chunks.transform([index], command)
        remove_unused_imports(chunks, command.dropped)
        add_imports(chunks, imports.items)
        return chunks.text


def _preset_calls(
    statement: ast.stmt, names: tuple[set[str], set[str]]
) -> list[ast.Call]:
    """The preset calls in a statement, in source order (for line numbers)."""
    functions, modules = names
    calls = [
        node
        for node in ast.walk(statement)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id in functions)
            or (
                isinstance(node.func, ast.Attribute)
                and node.func.attr == PRESET_NAME
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in modules
            )
        )
    ]
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def _preset_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """Local names bound to the preset, and to its module (``utils.scorers``).

    An aliased import resolves, and a same-named function from elsewhere does not.
    """
    module, _, function = PRESET.rpartition(".")
    package, _, name = module.rpartition(".")
    return imported_locals(tree, module, function), imported_locals(tree, package, name)


def _naming_files(target: EvalTarget) -> set[str]:
    """The eval's files that name the preset: the scan misses calls via an alias."""
    return {
        path.removeprefix(f"{PACKAGE_ROOT.as_posix()}/")
        for path in target.python_files(target.name)
        if PRESET_NAME in _text_of(target, path)
    }


def _text_of(target: EvalTarget, path: str) -> str:
    """A file's text; one that is not UTF-8 names no preset (the scan reports it)."""
    try:
        return target.read(path)
    except UnicodeDecodeError:
        return ""


class _ReplaceCommand(cst.CSTTransformer):
    def __init__(
        self,
        imports: NeededImports,
        target: EvalTarget,
        relative: str,
        names: tuple[set[str], set[str]],
    ) -> None:
        super().__init__()
        self.imports = imports
        self.call_lines: list[int] = []
        self.order: list[cst.Call] = []
        self.dropped: set[str] = set()
        self.functions, self.modules = names
        self.target = target
        self.relative = relative
        self.constructs = {s.name: s for s in target.scorers_in(relative)}
        self.dict_constants: set[str] = set()
        self.stack: list[cst.FunctionDef | cst.ClassDef] = []

    def visit_Module(self, node: cst.Module) -> None:
        # one chunk of the module: pre-order is source order, as in `call_lines`
        self.order = [c for c in find_all(node, cst.Call) if self._is_preset(c)]

    def _is_preset(self, call: cst.Call) -> bool:
        func = call.func
        if isinstance(func, cst.Name):
            return func.value in self.functions
        return (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value in self.modules
            and func.attr.value == PRESET_NAME
        )

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.append(node)

    def leave_FunctionDef(
        self, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.FunctionDef:
        self.stack.pop()
        return updated

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.stack.append(node)

    def leave_ClassDef(
        self, original: cst.ClassDef, updated: cst.ClassDef
    ) -> cst.ClassDef:
        self.stack.pop()
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not self._is_preset(original):
            return updated
        index = next(i for i, c in enumerate(self.order) if c is original)
        line = self.call_lines[index] if index < len(self.call_lines) else "?"
        where = f"{self.relative}:{line}"
        construct = self._enclosing(where)
        grader, value = _arguments(updated, where)
        settings = self.target.settings(construct)
        if _is_dict(value, self.dict_constants) and not _dict_verdicts(settings):
            raise Skip(
                f"{where}: the preset value is a dict but {construct.name}'s "
                f"registry verdicts for category {settings.category} are not; "
                "give it a dict no_answer_verdict or refusal_verdict"
            )
        self.dropped |= _names_in(original.func)
        if value is not None:
            self.dropped |= _names_in(value)
        return router_call(self.imports, grader, settings)

    def _enclosing(self, where: str) -> ScorerEntry:
        """The registered construct whose top-level function holds the call."""
        top = self.stack[0] if self.stack else None
        if (
            not isinstance(top, cst.FunctionDef)
            or top.name.value not in self.constructs
        ):
            raise Skip(
                f"{where}: preset_score_on_no_response is not inside a registered "
                "scorer construct, so its route settings are unknown"
            )
        construct = self.constructs[top.name.value]
        if not construct.rewrite:
            raise Skip(
                f"{where}: {construct.name} holds a preset_score_on_no_response "
                "call but is registered with rewrite: false"
            )
        return construct


def _arguments(
    call: cst.Call, where: str
) -> tuple[cst.BaseExpression, cst.BaseExpression | None]:
    """The grader and the preset value, bound as the preset's signature binds them."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword}
    bound = dict(zip(PARAMETERS, positional, strict=False))
    unknown = set(keywords) - set(PARAMETERS) or set(keywords) & set(bound)
    starred = any(a.star for a in call.args)
    if starred or unknown or len(positional) > len(PARAMETERS):
        raise Skip(f"{where}: preset_score_on_no_response has unexpected arguments")
    bound |= keywords
    if "grader" not in bound:
        raise Skip(f"{where}: preset_score_on_no_response has no grader")
    return bound["grader"], bound.get("no_response_value")


def _dict_constants(tree: ast.Module) -> set[str]:
    """Names bound at module level to a dict literal."""
    names = set()
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
        elif isinstance(statement, ast.AnnAssign):
            target = statement.target
        else:
            continue
        if isinstance(target, ast.Name) and isinstance(statement.value, ast.Dict):
            names.add(target.id)
    return names


def _is_dict(value: cst.BaseExpression | None, constants: set[str]) -> bool:
    if isinstance(value, cst.Name):
        return value.value in constants
    return isinstance(value, cst.Dict)


def _dict_verdicts(settings: Resolved) -> bool:
    """Whether every verdict the router will give a non-answer is a dict."""
    routes = set(POLICY[Category(settings.category)].values())
    routes |= {override.route for override in settings.overrides}
    used = [getattr(settings, name) for r, name in VERDICTS.items() if r in routes]
    return all(isinstance(verdict, dict) for verdict in used)


def _names_in(node: cst.CSTNode) -> set[str]:
    """Every name the node refers to (candidates for now-unused imports)."""
    return {name.value for name in find_all(node, cst.Name)}
