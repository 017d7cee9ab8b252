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
        output = state.output
        if classify(output) is Outcome.NO_OUTPUT:
            raise ValueError("The solver chain did not generate")
        if classify(output) is not Outcome.ANSWERED:
            return Score(value=NOANSWER, explanation="Empty completion")
        answer = output.message.text.strip()
        return Score(value=CORRECT if answer == target.text else INCORRECT)

    return score
