"""The empty-response policy as data: outcome classes, routes, and the table.

Kept free of dependencies so the registry and the codemods can read the policy
without importing inspect_ai. ``empty_migrate.runtime.router`` re-exports all of it, and
the router installed into a target has this module inlined.
"""

from collections.abc import Mapping
from enum import StrEnum


class Outcome(StrEnum):
    """What the model's final output amounts to, decided from provider signals."""

    ANSWERED = "answered"
    EMPTY = "empty"
    REASONING_ONLY = "reasoning_only"
    TOOL_CALLS_ONLY = "tool_calls_only"
    TRUNCATED = "truncated"
    REFUSED = "refused"
    REFUSED_AFTER_PARTIAL = "refused_after_partial"
    FILTERED = "filtered"
    OVERFLOW = "overflow"
    NO_OUTPUT = "no_output"


class Category(StrEnum):
    """How an eval reads a non-answer; decides the route of every outcome."""

    QA = "qa"
    MODEL_GRADED = "model_graded"
    SAFETY = "safety"
    AGENTIC = "agentic"


class Route(StrEnum):
    """What the routed scorer does with one outcome."""

    SCORE = "score"
    """Call the wrapped scorer and return its score unchanged."""

    SCORE_TAGGED = "score_tagged"
    """Call the wrapped scorer; tag a failing, reason-less score with the outcome."""

    NO_ANSWER = "no_answer"
    """Verdict on the model: the eval's no-answer value (``NOANSWER`` by default)."""

    REFUSAL_VERDICT = "refusal_verdict"
    """Verdict on the model: the eval's own refusal value ``R``."""

    UNSCORED = "unscored"
    """Instrument failure: ``Score.unscored()``, excluded from metrics."""

    RAISE = "raise"
    """Machinery failure: raise, so the sample errors and can be retried."""


_NON_ANSWERS = (Outcome.EMPTY, Outcome.REASONING_ONLY, Outcome.TOOL_CALLS_ONLY)
_REFUSALS = (Outcome.REFUSED, Outcome.REFUSED_AFTER_PARTIAL)


def _column(**routes: Route) -> dict[Outcome, Route]:
    column = {Outcome.ANSWERED: Route.SCORE}
    column |= dict.fromkeys(_NON_ANSWERS, routes["non_answer"])
    column |= dict.fromkeys(_REFUSALS, routes["refused"])
    column[Outcome.TRUNCATED] = routes["truncated"]
    column[Outcome.FILTERED] = routes["filtered"]
    column[Outcome.OVERFLOW] = Route.RAISE
    column[Outcome.NO_OUTPUT] = routes["no_output"]
    return column


_VERDICT_ON_SILENCE = _column(
    non_answer=Route.NO_ANSWER,
    refused=Route.NO_ANSWER,
    truncated=Route.NO_ANSWER,
    filtered=Route.UNSCORED,
    no_output=Route.RAISE,
)

POLICY: Mapping[Category, Mapping[Outcome, Route]] = {
    Category.QA: _VERDICT_ON_SILENCE,
    Category.MODEL_GRADED: _VERDICT_ON_SILENCE,
    Category.SAFETY: _column(
        non_answer=Route.REFUSAL_VERDICT,
        refused=Route.REFUSAL_VERDICT,
        truncated=Route.UNSCORED,
        filtered=Route.REFUSAL_VERDICT,
        no_output=Route.RAISE,
    ),
    Category.AGENTIC: _column(
        non_answer=Route.SCORE_TAGGED,
        refused=Route.SCORE_TAGGED,
        truncated=Route.SCORE_TAGGED,
        filtered=Route.SCORE_TAGGED,
        no_output=Route.SCORE,
    ),
}
"""The route of every outcome in every category: one column per category."""

_REASONS: Mapping[Outcome, str] = {
    Outcome.EMPTY: "no_response",
    Outcome.REASONING_ONLY: "no_response",
    Outcome.TOOL_CALLS_ONLY: "no_response",
    Outcome.TRUNCATED: "no_response",
    Outcome.REFUSED: "refusal",
    Outcome.REFUSED_AFTER_PARTIAL: "refusal",
    Outcome.FILTERED: "refusal",
}


def route_reason(outcome: Outcome | str) -> str | None:
    """The Inspect ``reason`` the router writes for an outcome, if any."""
    return _REASONS.get(Outcome(outcome))


AFTER_AGENT_TRAJECTORY: Mapping[Outcome, Route] = {
    Outcome.OVERFLOW: Route.SCORE_TAGGED,
}
"""Where an outcome routes once the model has run tools, whatever the category.

An agent that runs out of context has done work worth scoring: ``react()`` and
``basic_agent()`` stop on the overflow and leave the sandbox and the tool trace
to the scorer. Only a prompt that cannot fit before any tool ran is a
configuration defect.
"""


def route_for(
    category: Category | str,
    outcome: Outcome | str,
    overrides: Mapping[Outcome, Route] | Mapping[str, str] | None = None,
    *,
    after_trajectory: bool = False,
) -> Route:
    """The route of one outcome in one category, after per-eval overrides.

    Args:
        category: The eval's category.
        outcome: The classified outcome.
        overrides: Per-eval departures from `POLICY`, outcome to route.
        after_trajectory: Whether the model ran tools before this output
            (`AFTER_AGENT_TRAJECTORY` applies).

    Returns:
        The route the routed scorer takes.
    """
    outcome = Outcome(outcome)
    if overrides and outcome in overrides:
        return Route(overrides[outcome])
    if after_trajectory and outcome in AFTER_AGENT_TRAJECTORY:
        return AFTER_AGENT_TRAJECTORY[outcome]
    return POLICY[Category(category)][outcome]
