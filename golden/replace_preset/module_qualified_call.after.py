from inspect_ai.scorer import (
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    model_graded_fact,
    scorer,
)
from inspect_ai.solver import TaskState

from inspect_evals.utils import scorers
from inspect_evals.utils.empty_response import route_empty_responses


@scorer(metrics=[accuracy()])
def demo_scorer(judge: str | None = None) -> Scorer:
    grader = model_graded_fact(model=judge)

    async def score(state: TaskState, target: Target) -> Score | None:
        result = await grader(state, target)
        if result is not None and result.value == INCORRECT and not result.reason:
            result.reason = scorers.INVALID_RESPONSE_FORMAT
        return result

    return route_empty_responses(score, category="model_graded")
