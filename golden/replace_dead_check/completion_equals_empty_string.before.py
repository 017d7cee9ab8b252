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
        if state.output.completion == "":
            return Score(value=NOANSWER, explanation="Empty completion")
        correct = state.output.completion.strip() == target.text
        return Score(value=CORRECT if correct else INCORRECT)

    return score
