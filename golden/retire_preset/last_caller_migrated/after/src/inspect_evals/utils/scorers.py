import warnings
from typing import Final

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

from inspect_evals.utils.empty_response import route_empty_responses

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

    Deprecated: use ``route_empty_responses`` from
    ``inspect_evals.utils.empty_response``, which routes every kind of
    non-answer (silence, truncation, refusal, platform filter, context
    overflow) by the empty-response policy. This shim routes ``grader`` as a
    ``qa`` scorer whose non-answer verdict is ``no_response_value``, and keeps
    its registry name, metrics and params so it can be passed directly to a
    ``Task``.
    """
    warnings.warn(
        "preset_score_on_no_response is deprecated: use route_empty_responses "
        "from inspect_evals.utils.empty_response",
        DeprecationWarning,
        stacklevel=2,
    )
    return route_empty_responses(
        grader, category="qa", no_answer_verdict=no_response_value
    )
