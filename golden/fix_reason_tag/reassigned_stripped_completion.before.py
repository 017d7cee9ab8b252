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
        completion = state.output.completion
        completion = completion.strip()
        if not completion:
            return Score(value=INCORRECT, answer="")
        return Score(value=CORRECT if completion == target.text else INCORRECT)

    return score
