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
def demo_scorer(strict: bool = False) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        if answer:
            correct = answer == target.text if strict else target.text in answer
            return Score(value=CORRECT if correct else INCORRECT, answer=answer)
        return Score(value=INCORRECT)

    return score
