"""install_router: install the outcome router in the target and retire the preset.

Every migrated eval imports ``route_empty_responses`` from
``inspect_evals.utils.empty_response``, so that module must exist. Its text is
``empty_migrate.runtime.router``'s own source, read from the installed package
so the two never drift, under a module docstring of its own (`DOCSTRING`):
once installed it is the target's module. The codemod always writes today's
text; a run keeps a text its maintainers edited instead
(`empty_migrate.pipeline.migrate.keep_edited`). In ``utils/scorers.py``,
``preset_score_on_no_response`` becomes a deprecated shim that keeps its
signature and routes the grader as a ``qa`` scorer whose non-answer verdict is
the preset value, so callers outside the migrated evals keep working. Imports
only the old body used are removed. An up-to-date router and an
already-shimmed function are left alone. Unsafe: the shim also routes
refusals, filters, truncation and overflow, which the preset sent to the
grader.
"""

import ast
from functools import cache, lru_cache
from typing import TypeGuard

from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from empty_migrate.codemods.kit.chunks import Chunks
from empty_migrate.codemods.kit.generated import (
    module_source,
    ruff_clean,
    with_docstring,
)
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
from empty_migrate.source.package_index import package_of
from empty_migrate.source.syntax import Function, end_of, imports_of, is_docstring

ROUTER_PATH = "utils/empty_response.py"
SCORERS_PATH = "utils/scorers.py"
PRESET = "preset_score_on_no_response"
DOCSTRING = '''\
"""Route a model's non-answers to the right scoring outcome.

A model under test can fail to answer in many ways: silence, reasoning cut off
at ``max_tokens``, a final turn of tool calls, a refusal, a platform content
filter, a prompt that overflows the context window. ``classify`` reads the
model's final output (its choices, ``stop_reason``, ``stop_details``, refusal
blocks, reasoning, tool calls and visible text) and names its ``Outcome``.
``route_empty_responses`` wraps an eval's scorer so that each non-answer takes
the route the eval's ``Category`` (qa, model_graded, safety, agentic) gives it:
a verdict on the model (``NOANSWER``, or the eval's refusal value),
``Score.unscored()`` for an instrument failure, or a raised error
(``EmptyResponseError``, ``ContextOverflowError``) for a machinery failure. An
answer reaches the wrapped scorer unchanged.

Changing the policy: for every eval of a category, edit the category's column
in ``POLICY`` here (the ``Route`` of each ``Outcome``). ``AFTER_AGENT_TRAJECTORY``
holds the routes that change once the model has run tools, and ``route_reason``
gives the ``reason`` each verdict carries. For one eval, pass ``overrides=`` (or
its verdict values) to that eval's ``route_empty_responses`` call instead. Each
eval's ``tests/<eval>/test_empty_response_policy.py`` asserts the routes its
scorers take, with the helpers in ``tests/utils/empty_response.py``: change
their expected routes with the policy.

It depends only on ``inspect_ai`` and the standard library.

Example:
    ```python
    from inspect_ai.scorer import INCORRECT

    scorer = route_empty_responses(
        xstest_scorer(), category="safety", refusal_verdict=INCORRECT
    )
    ```
"""
'''
"""The installed router's module docstring: what it does and how to change it."""
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


class InstallRouter(Codemod):
    """Install ``utils/empty_response.py`` and shim the preset helper."""

    def files(self, target: EvalTarget) -> list[str]:
        """Both shared files, for every eval whose codemods use the router.

        The registry never lists this codemod: the codemods that route imply it.
        """
        if not self.applies(target):
            return []
        return [target.source(ROUTER_PATH), target.source(SCORERS_PATH)]

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        if path == target.source(ROUTER_PATH):
            return router_text()
        if path == target.source(SCORERS_PATH) and text:
            return _shim_preset(text)
        return text


@cache
def router_text() -> str:
    """The router module as installed in a target: the package's own source.

    ``empty_migrate.runtime.policy`` is inlined where the router marks it (a
    target has no empty_migrate), the module docstring is the target's own
    (`DOCSTRING`), the imports are sorted and the text formatted as ruff
    leaves it.
    """
    source = _inline_policy(
        module_source("empty_migrate.runtime.router"),
        module_source("empty_migrate.runtime.policy"),
    )
    return ruff_clean(with_docstring(source, DOCSTRING))


POLICY_MARKER = "# The policy (runtime/policy.py, inlined here when installed)\n"


def _inline_policy(router: str, policy: str) -> str:
    """Replace the router's policy import and marker with the policy's own code."""
    tree = ast.parse(policy)
    imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    lines = policy.splitlines(keepends=True)
    import_text = "".join("".join(lines[n.lineno - 1 : n.end_lineno]) for n in imports)
    body = "".join(lines[imports[-1].end_lineno :]).strip("\n") + "\n\n\n"
    statement = next(
        n
        for n in ast.parse(router).body
        if isinstance(n, ast.ImportFrom) and n.module == "empty_migrate.runtime.policy"
    )
    router_lines = router.splitlines(keepends=True)
    router = "".join(
        router_lines[: statement.lineno - 1]
        + [import_text]
        + router_lines[statement.end_lineno :]
    )
    return router.replace(POLICY_MARKER, body)


@lru_cache(maxsize=8)
def _shim_preset(text: str) -> str:
    # every migrated eval passes the same shared file through here: rewrite
    # it once per distinct text, not once per eval
    chunks = Chunks(text)
    found = chunks.find(_is_preset)
    if not found:
        return text
    index = found[0]
    old = next(s for s in chunks.statements[index] if _is_preset(s))
    assert isinstance(old, ast.FunctionDef | ast.AsyncFunctionDef)
    imports = imports_of(chunks.tree, package_of(SCORERS_PATH))
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
        raise Skip(f"{SCORERS_PATH}: {PRESET} has an unexpected signature")
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
