from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


def answer_text(state: TaskState) -> str:
    if not state.output:
        return ""
    return state.output.completion


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=float(answer_text(state) == target.text))

    return score
