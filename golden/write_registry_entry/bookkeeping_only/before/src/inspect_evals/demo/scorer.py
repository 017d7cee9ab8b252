from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[accuracy()])
def demo_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        return Score(value=CORRECT if answer == target.text else INCORRECT)

    return score
