"""Render the policy table (category x outcome -> route) for people to read.

MIGRATION.md embeds this rendering, and a test keeps the two identical, so the
document can never drift from the router's `POLICY`.
"""

from empty_migrate.runtime.policy import (
    AFTER_AGENT_TRAJECTORY,
    POLICY,
    Category,
    Outcome,
    Route,
    route_reason,
)

_ROUTE_TEXT = {
    Route.SCORE: "scorer",
    Route.SCORE_TAGGED: "scorer, tagged `{reason}`",
    Route.NO_ANSWER: "`NOANSWER`, `{reason}`",
    Route.REFUSAL_VERDICT: "`R`, `{reason}`",
    Route.UNSCORED: "unscored, `{reason}`",
}

_ERRORS = {
    Outcome.OVERFLOW: "raise `ContextOverflowError`",
    Outcome.NO_OUTPUT: "raise `EmptyResponseError`",
}


def describe_route(category: Category, outcome: Outcome) -> str:
    """Describe one cell: the route, and the reason tag it writes."""
    text = _describe(POLICY[category][outcome], outcome)
    if outcome in AFTER_AGENT_TRAJECTORY:
        after = _describe(AFTER_AGENT_TRAJECTORY[outcome], outcome)
        text += f"; after tool calls, {after}"
    return text


def _describe(route: Route, outcome: Outcome) -> str:
    if route == Route.RAISE:
        return _ERRORS[outcome]
    reason = route_reason(outcome)
    if route == Route.SCORE_TAGGED and reason is None:
        return "scorer, tagged"  # metadata only: Inspect has no reason for it
    return _ROUTE_TEXT[route].format(reason=reason)


def policy_markdown() -> str:
    """The whole policy as a Markdown table: one row per outcome."""
    lines = [
        "| outcome | " + " | ".join(Category) + " |",
        "|---" * (len(Category) + 1) + "|",
    ]
    for outcome in Outcome:
        cells = " | ".join(describe_route(category, outcome) for category in Category)
        lines.append(f"| `{outcome}` | {cells} |")
    return "\n".join(lines) + "\n"
