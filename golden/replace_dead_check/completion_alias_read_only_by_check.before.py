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


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion
        if not completion:
            return Score(value=NOANSWER, explanation="Empty completion")
        answer = state.output.message.text.strip()
        return Score(value=CORRECT if answer == target.text else INCORRECT)

    return score
