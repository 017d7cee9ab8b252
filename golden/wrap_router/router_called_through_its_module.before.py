from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState

import inspect_evals.utils.empty_response as er


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=state.output.completion == target.text)

    return er.route_empty_responses(score, category="qa")
