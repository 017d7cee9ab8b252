from typing import Final

from inspect_ai._util.registry import (
    REGISTRY_PARAMS,
    is_registry_object,
    registry_info,
    set_registry_info,
)
from inspect_ai.scorer import (
    INCORRECT,
    Score,
    Scorer,
    ScoreReason,
    Target,
    Value,
    accuracy,
    scorer,
)
from inspect_ai.solver import TaskState

NO_RESPONSE: Final[ScoreReason] = "no_response"


@scorer(metrics=[accuracy()])
def exact_text_scorer() -> Scorer:
    """Score C when the completion equals the target text."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        return Score(value=float(answer == target.text), answer=answer)

    return score


def preset_score_on_no_response(
    grader: Scorer,
    no_response_value: Value = INCORRECT,
) -> Scorer:
    """Give empty responses a fixed score instead of calling the grader.

    If ``grader`` is registered, the wrapper keeps its name, metrics and params.
    """

    async def score(state: TaskState, target: Target) -> Score | None:
        if not state.output.completion.strip():
            return Score(
                value=no_response_value,
                answer=state.output.completion,
                explanation="Empty output; preset score.",
                reason=NO_RESPONSE,
            )
        return await grader(state, target)

    if is_registry_object(grader):
        set_registry_info(score, registry_info(grader))
        params = getattr(grader, REGISTRY_PARAMS, None)
        if params is not None:
            setattr(score, REGISTRY_PARAMS, params)
    return score
