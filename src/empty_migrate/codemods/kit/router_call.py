"""Build ``route_empty_responses(scorer, category=..., ...)`` calls a reviewer can read.

Every argument comes from the registry and is written out explicitly: the
migrated code never looks anything up at runtime. Score constants are written
as the names inspect_ai exports (``INCORRECT``, not ``"I"``). A call already
routed is one of the router by a local name (`is_router_call`).
"""

import math
from collections.abc import Iterable
from typing import Any

import libcst as cst

from empty_migrate.codemods.kit.imports import NeededImports
from empty_migrate.entries.schema import Resolved, VerdictExpression, output_locator
from empty_migrate.runtime.policy import POLICY, Category, Route

ROUTER_MODULE = "inspect_evals.utils.empty_response"
ROUTER_FUNCTION = "route_empty_responses"
SCORE_CONSTANTS = {"C": "CORRECT", "I": "INCORRECT", "N": "NOANSWER", "P": "PARTIAL"}


def router_call(
    imports: NeededImports, scorer: cst.BaseExpression, settings: Resolved
) -> cst.Call:
    """Wrap `scorer` in a router call with the settings, and record the imports."""
    imports.add(ROUTER_MODULE, ROUTER_FUNCTION)
    category = cst.SimpleString(_quote(settings.category))
    args = [cst.Arg(scorer), _keyword("category", category)]
    routes = set(POLICY[Category(settings.category)].values())
    routes |= {override.route for override in settings.overrides}
    for route, name in [
        (Route.REFUSAL_VERDICT, "refusal_verdict"),
        (Route.NO_ANSWER, "no_answer_verdict"),
    ]:
        verdict = getattr(settings, name)
        if route in routes and verdict is not None:
            args.append(_keyword(name, value(imports, verdict)))
    if locator := _output_locator(imports, settings.output):
        args.append(_keyword("output", locator))
    if settings.overrides:
        args.append(_keyword("overrides", _overrides(imports, settings)))
    if settings.copy_metadata:
        args.append(_keyword("copy_metadata", value(imports, settings.copy_metadata)))
    if settings.verdict_metadata is not None:
        metadata = value(imports, settings.verdict_metadata)
        args.append(_keyword("verdict_metadata", metadata))
    return cst.Call(func=cst.Name(ROUTER_FUNCTION), args=args)


def is_router_call(
    node: cst.CSTNode, names: Iterable[str] = (ROUTER_FUNCTION,)
) -> bool:
    """Whether a node calls the router by one of its local `names`."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value in names
    )


def _keyword(name: str, expression: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(
        keyword=cst.Name(name),
        value=expression,
        equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""),
            whitespace_after=cst.SimpleWhitespace(""),
        ),
    )


def value(imports: NeededImports, item: Any) -> cst.BaseExpression:
    """A registry value as an expression, with inspect_ai's score constants."""
    if isinstance(item, VerdictExpression):
        return cst.parse_expression(item.expression)
    if isinstance(item, list):
        return cst.List([cst.Element(value(imports, v)) for v in item])
    if isinstance(item, str) and item in SCORE_CONSTANTS:
        imports.add("inspect_ai.scorer", SCORE_CONSTANTS[item])
        return cst.Name(SCORE_CONSTANTS[item])
    if isinstance(item, dict):
        return cst.Dict(
            [
                cst.DictElement(cst.SimpleString(_quote(k)), value(imports, v))
                for k, v in item.items()
            ]
        )
    if isinstance(item, float) and math.isnan(item):
        return cst.parse_expression('float("nan")')
    if isinstance(item, str):
        return cst.SimpleString(_quote(item))
    return cst.parse_expression(repr(item))


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _output_locator(imports: NeededImports, output: str) -> cst.BaseExpression | None:
    if (locator := output_locator(output)) is None:
        return None
    function, keys = locator
    imports.add(ROUTER_MODULE, function)
    if keys is None:
        return cst.Name(function)
    return cst.Call(
        cst.Name(function), [cst.Arg(cst.SimpleString(_quote(key))) for key in keys]
    )


def _overrides(imports: NeededImports, settings: Resolved) -> cst.Dict:
    imports.add(ROUTER_MODULE, "Outcome")
    imports.add(ROUTER_MODULE, "Route")
    return cst.Dict(
        [
            cst.DictElement(
                cst.parse_expression(f"Outcome.{o.outcome.name}"),
                cst.parse_expression(f"Route.{o.route.name}"),
            )
            for o in settings.overrides
        ]
    )
