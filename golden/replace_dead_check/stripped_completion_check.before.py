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


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if not state.output.completion.strip():
            return Score(value=INCORRECT, explanation="Empty completion")
        answer = state.output.completion.strip()
        return Score(value=CORRECT if answer == target.text else INCORRECT)

    return score
