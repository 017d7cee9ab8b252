from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import route_empty_responses


@scorer(metrics={"score": [mean()], "jaccard": [mean()]})
def choice_with_jaccard() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value={"score": "C", "jaccard": 1.0})

    return route_empty_responses(
        score, category="qa", no_answer_verdict={"score": "N", "jaccard": 0.0}
    )
