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
        output = state.output
        if not output:
            raise ValueError("The solver chain did not generate")
        text = output.completion
        final_completion = text
        if final_completion == "":
            return Score(value=NOANSWER, explanation="Empty completion")
        answer = output.message.text.strip()
        return Score(value=CORRECT if answer == target.text else INCORRECT)

    return score
