from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils import empty_response


@scorer(metrics=[accuracy()])
def demo_scorer(strict: bool = False) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=state.output.completion == target.text)

    if strict:
        return empty_response.route_empty_responses(score, category="qa")
    return score
