from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    NOANSWER,
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
            return Score(value=NOANSWER, explanation="Empty completion")
        correct = state.output.completion.strip() == target.text
        return Score(value=CORRECT if correct else INCORRECT)

    return score
