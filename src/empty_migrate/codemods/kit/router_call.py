"""Build ``route_empty_responses(scorer, category=..., ...)`` calls a reviewer can read.

Every argument comes from the registry and is written out explicitly: the
migrated code never looks anything up at runtime. Score constants are written
as the names inspect_ai exports (``INCORRECT``, not ``"I"``). The call is
built as text around the scorer expression's own source, which it keeps byte
for byte (the target's formatter lays the call out afterwards). A call already
routed calls the router by its own name, or by any name or module path the
module's imports bind to it (`is_router_call`).
"""

import ast
import math
from typing import Any

from empty_migrate.analysis.syntax import Imports
from empty_migrate.codemods.kit.imports import NeededImports
from empty_migrate.entries.schema import Resolved, VerdictExpression, output_locator

ROUTER_MODULE = "inspect_evals.utils.empty_response"
ROUTER_FUNCTION = "route_empty_responses"
ROUTER = f"{ROUTER_MODULE}.{ROUTER_FUNCTION}"
SCORE_CONSTANTS = {"C": "CORRECT", "I": "INCORRECT", "N": "NOANSWER", "P": "PARTIAL"}


def router_call(imports: NeededImports, scorer: str, settings: Resolved) -> str:
    """The source `scorer` wrapped in a router call with the settings; notes imports."""
    imports.add(ROUTER_MODULE, ROUTER_FUNCTION)
    args = [scorer, f"category={_quote(settings.category)}"]
    for name, verdict in settings.verdicts_written().items():
        if verdict is not None:
            args.append(f"{name}={value(imports, verdict)}")
    if locator := _output_locator(imports, settings.output):
        args.append(f"output={locator}")
    if settings.overrides:
        args.append(f"overrides={_overrides(imports, settings)}")
    if settings.copy_metadata:
        args.append(f"copy_metadata={value(imports, settings.copy_metadata)}")
    if settings.verdict_metadata is not None:
        args.append(f"verdict_metadata={value(imports, settings.verdict_metadata)}")
    return f"{ROUTER_FUNCTION}({', '.join(args)})"


def is_router_call(node: ast.AST, imports: Imports) -> bool:
    """Whether an ``ast`` node calls the router.

    By its own name (``route_empty_responses``, however bound), or by any name
    or module path `imports` binds to it (``route``, ``er.route_empty_responses``).
    """
    if not isinstance(node, ast.Call):
        return False
    own = isinstance(node.func, ast.Name) and node.func.id == ROUTER_FUNCTION
    return own or imports.calls(node, ROUTER)


def value(imports: NeededImports, item: Any) -> str:
    """A registry value as source text, with inspect_ai's score constants."""
    if isinstance(item, VerdictExpression):
        return item.expression
    if isinstance(item, list):
        return "[" + ", ".join(value(imports, v) for v in item) + "]"
    if isinstance(item, str) and item in SCORE_CONSTANTS:
        imports.add("inspect_ai.scorer", SCORE_CONSTANTS[item])
        return SCORE_CONSTANTS[item]
    if isinstance(item, dict):
        pairs = (f"{_quote(k)}: {value(imports, v)}" for k, v in item.items())
        return "{" + ", ".join(pairs) + "}"
    if isinstance(item, float) and math.isnan(item):
        return 'float("nan")'
    if isinstance(item, str):
        return _quote(item)
    return repr(item)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _output_locator(imports: NeededImports, output: str) -> str | None:
    if (locator := output_locator(output)) is None:
        return None
    function, keys = locator
    imports.add(ROUTER_MODULE, function)
    if keys is None:
        return function
    return f"{function}({', '.join(_quote(key) for key in keys)})"


def _overrides(imports: NeededImports, settings: Resolved) -> str:
    imports.add(ROUTER_MODULE, "Outcome")
    imports.add(ROUTER_MODULE, "Route")
    pairs = (
        f"Outcome.{o.outcome.name}: Route.{o.route.name}" for o in settings.overrides
    )
    return "{" + ", ".join(pairs) + "}"
