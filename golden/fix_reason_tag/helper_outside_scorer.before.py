from inspect_ai.scorer import INCORRECT, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState


def text_match(state: TaskState, target: Target) -> Score:
    if not state.output.completion:
        return Score(value=INCORRECT, explanation="Empty completion")
    return Score(value=state.output.completion.strip() == target.text)


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return text_match(state, target)

    return score
