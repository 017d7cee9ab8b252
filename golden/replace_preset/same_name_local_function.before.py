from inspect_ai.scorer import (
    INCORRECT,
    Score,
    Scorer,
    Target,
    Value,
    accuracy,
    model_graded_fact,
    scorer,
)
from inspect_ai.solver import TaskState


def preset_score_on_no_response(grader: Scorer, value: Value) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score | None:
        if state.output.completion == "":
            return Score(value=value)
        return await grader(state, target)

    return score


@scorer(metrics=[accuracy()])
def demo_scorer(judge: str | None = None) -> Scorer:
    return preset_score_on_no_response(model_graded_fact(model=judge), INCORRECT)
