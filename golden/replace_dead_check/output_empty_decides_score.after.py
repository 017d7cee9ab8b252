from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    scorer,
)
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import Outcome, classify


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if classify(state.output) is not Outcome.ANSWERED:
            return Score(value=INCORRECT, explanation="The model gave no text")
        answer = state.output.completion.strip()
        return Score(value=CORRECT if answer == target.text else INCORRECT)

    return score
