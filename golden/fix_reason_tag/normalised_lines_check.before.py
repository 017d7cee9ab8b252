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
        raw = state.output.completion
        lines = raw.strip().splitlines()
        if not lines:
            return Score(value=INCORRECT, explanation="Model produced empty completion")
        answer = lines[-1].strip()
        return Score(value=CORRECT if answer == target.text else INCORRECT)

    return score
