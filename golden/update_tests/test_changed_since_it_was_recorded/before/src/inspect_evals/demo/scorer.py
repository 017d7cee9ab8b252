from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import route_empty_responses


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        return Score(value=CORRECT if answer == target.text else INCORRECT)

    return route_empty_responses(score, category="qa")
