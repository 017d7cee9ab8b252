"""install_router: install the outcome router in the target.

Every migrated eval imports ``route_empty_responses`` from
``inspect_evals.utils.empty_response``, so that module must exist. Its text is
``empty_migrate.runtime.router``'s own source, read from the installed package
so the two never drift, under a module docstring of its own (`DOCSTRING`):
once installed it is the target's module. The codemod always writes today's
text; a run keeps a text its maintainers edited instead
(`empty_migrate.pipeline.migrate.keep_edited`). An up-to-date router is left
alone. (``preset_score_on_no_response`` is retired by ``retire_preset``.)
"""

import ast
from functools import cache

from empty_migrate.codemods.kit.base import Codemod, EvalTarget
from empty_migrate.codemods.kit.generated import (
    module_source,
    ruff_clean,
    with_docstring,
)

ROUTER_PATH = "utils/empty_response.py"
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


class InstallRouter(Codemod):
    """Install ``utils/empty_response.py``, which every migrated eval imports."""

    def files(self, target: EvalTarget) -> list[str]:
        """The router module, for every eval whose codemods use the router.

        The registry never lists this codemod: the codemods that route imply it.
        """
        if not self.applies(target):
            return []
        return [target.source(ROUTER_PATH)]

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        return router_text()


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
