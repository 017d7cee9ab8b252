"""retire_preset: shim ``preset_score_on_no_response`` along with its last callers.

The migrated evals stop calling ``preset_score_on_no_response`` (replace_preset
writes the router in its place). While any other eval calls it, it keeps its
behaviour: changing it would change how those evals score, with no version
bump of theirs. In the run whose unit holds every eval that calls it (the
planner, `empty_migrate.pipeline.plan`, migrates them together), it becomes a
deprecated shim that keeps its signature and routes the grader as a ``qa``
scorer whose non-answer verdict is the preset value, so code outside the
repository that calls it keeps working. Imports only the old body used are
removed; an already-shimmed function is left alone. Unsafe: for code outside
the repository, the shim also routes refusals, filters, truncation and
overflow, which the preset sent to the grader.
"""

import ast
from functools import lru_cache
from typing import TypeGuard

from empty_migrate.analysis.callers import callers
from empty_migrate.analysis.package_index import package_of
from empty_migrate.analysis.syntax import Function, end_of, imports_of, is_docstring
from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from empty_migrate.codemods.kit.chunks import Chunks
from empty_migrate.codemods.kit.imports import (
    add_imports,
    add_module_import,
    remove_unused_imports,
)
from empty_migrate.codemods.kit.router_call import (
    ROUTER_FUNCTION,
    ROUTER_MODULE,
    is_router_call,
)
from empty_migrate.codemods.retire_preset import PRESET, PRESET_FILE

DEFAULT_SUMMARY = "Wrap a scorer so empty responses get a preset score."
SHIM = '''\
def shim():
    """{summary}

    Deprecated: use ``route_empty_responses`` from
    ``inspect_evals.utils.empty_response``, which routes every kind of
    non-answer (silence, truncation, refusal, platform filter, context
    overflow) by the empty-response policy. This shim routes ``{grader}`` as a
    ``qa`` scorer whose non-answer verdict is ``{value}``, and keeps
    its registry name, metrics and params so it can be passed directly to a
    ``Task``.
    """
    warnings.warn(
        "{preset} is deprecated: use {router} "
        "from {module}",
        DeprecationWarning,
        stacklevel=2,
    )
    return {router}({grader}, category="qa", no_answer_verdict={value})
'''


class RetirePreset(Codemod):
    """Shim ``preset_score_on_no_response`` over the router, with its last callers."""

    def files(self, target: EvalTarget) -> list[str]:
        """``utils/scorers.py``, when the eval's unit holds every caller of the preset.

        The callers are read from the tree as the run found it: the eval must
        be one, and no eval outside its unit may be.
        """
        if not self.applies(target):
            return []
        found = callers(target.workspace.repo, [PRESET], PRESET_FILE)
        if target.name not in found or not found <= set(target.unit):
            return []
        return [target.source(PRESET_FILE)]

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        return _shim_preset(text) if text else text


@lru_cache(maxsize=8)
def _shim_preset(text: str) -> str:
    # every eval of the unit passes the shared file through here: rewrite
    # it once per distinct text, not once per eval
    chunks = Chunks(text)
    found = chunks.find(_is_preset)
    if not found:
        return text
    index = found[0]
    old = next(s for s in chunks.statements[index] if _is_preset(s))
    assert isinstance(old, ast.FunctionDef | ast.AsyncFunctionDef)
    imports = imports_of(chunks.tree, package_of(PRESET_FILE))
    if any(is_router_call(node, imports) for node in ast.walk(old)):
        return text
    grader, value = _parameters(old)
    shim = SHIM.format(
        summary=_summary(chunks, index, old),
        grader=grader,
        value=value,
        preset=PRESET,
        router=ROUTER_FUNCTION,
        module=ROUTER_MODULE,
    )
    # the new body in place of the old, under the function's own header
    body = shim.partition("\n")[2].replace("\n", chunks.newline)
    start = chunks.offset(index, old.body[0].lineno)
    end = chunks.offset(index, end_of(old.body[-1])[0] + 1)
    chunks.edit(index, [(start, end, body)])
    remove_unused_imports(
        chunks, {n.id for n in ast.walk(old) if isinstance(n, ast.Name)}
    )
    add_module_import(chunks, "warnings")
    add_imports(chunks, [(ROUTER_MODULE, ROUTER_FUNCTION)])
    return chunks.text


def _is_preset(statement: ast.stmt) -> TypeGuard[Function]:
    return isinstance(statement, Function) and statement.name == PRESET


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, str]:
    arguments = function.args
    extra = arguments.posonlyargs or arguments.kwonlyargs or arguments.kwarg
    if len(arguments.args) != 2 or extra or arguments.vararg:
        raise Skip(f"{PRESET_FILE}: {PRESET} has an unexpected signature")
    return arguments.args[0].arg, arguments.args[1].arg


def _summary(chunks: Chunks, index: int, function: Function) -> str:
    """The docstring's first line, as written in the source."""
    first = function.body[0]
    if not is_docstring(first):
        return DEFAULT_SUMMARY
    raw = chunks.source(index, first.value)
    if not raw.startswith('"""'):
        return DEFAULT_SUMMARY
    return raw[3:].split("\n")[0].removesuffix('"""')
