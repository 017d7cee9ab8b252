from inspect_ai.scorer import INCORRECT, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState

from inspect_evals.demo.labels import Outcome, classify


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if classify(target.text) is Outcome.EMPTY:
            return Score(value=INCORRECT, explanation="The target has no label")
        return Score(value=state.output.completion.strip() == target.text)

    return score
