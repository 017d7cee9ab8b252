"""Scorer helpers shared by several evals."""

from typing import Any

from inspect_ai._util.registry import (
    REGISTRY_PARAMS,
    is_registry_object,
    registry_info,
    set_registry_info,
)
from inspect_ai.scorer import INCORRECT, Score, Scorer, Target, Value
from inspect_ai.solver import TaskState


def scorer_name(grader: Scorer) -> str:
    """The registry name of a scorer, or its function name when unregistered."""
    if is_registry_object(grader):
        return registry_info(grader).name
    return getattr(grader, "__name__", "scorer")


def scorer_params(grader: Scorer) -> dict[str, Any]:
    """The registry params a scorer was built with."""
    return dict(getattr(grader, REGISTRY_PARAMS, None) or {})


def preset_score_on_no_response(
    grader: Scorer, no_response_value: Value = INCORRECT
) -> Scorer:
    """Wrap a scorer so empty responses output a predefined score.

    When the model output is empty or whitespace, return ``no_response_value``
    instead of calling the grader.
    """

    async def score(state: TaskState, target: Target) -> Score | None:
        if state.output.completion.strip() == "":
            return Score(value=no_response_value, reason="no_response")
        return await grader(state, target)

    if is_registry_object(grader):
        set_registry_info(score, registry_info(grader))
        setattr(score, REGISTRY_PARAMS, scorer_params(grader))
    return score
