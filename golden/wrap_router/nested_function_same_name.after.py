from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import route_empty_responses


def build() -> Scorer:
    def demo_scorer() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=0)

        return score

    return demo_scorer()


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=state.output.completion == target.text)

    return route_empty_responses(score, category="qa")
