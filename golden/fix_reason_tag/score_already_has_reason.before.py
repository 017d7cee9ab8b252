from inspect_ai.scorer import (
    INCORRECT,
    NOANSWER,
    Score,
    Scorer,
    Target,
    accuracy,
    scorer,
)
from inspect_ai.solver import TaskState

from inspect_evals.utils.scorers import NO_RESPONSE


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion
        if not completion:
            return Score(value=NOANSWER, reason=NO_RESPONSE)
        if not completion.strip():
            return Score(value=NOANSWER, reason="no_response", explanation="Blank")
        return Score(value=INCORRECT if completion != target.text else "C")

    return score
