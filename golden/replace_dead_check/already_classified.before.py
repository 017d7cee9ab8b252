from inspect_ai.scorer import NOANSWER, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import Outcome, classify


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if state.output.empty:
            raise ValueError("No choices in the output; did generation run?")
        if classify(state.output) is not Outcome.ANSWERED:
            return Score(value=NOANSWER, explanation="No answer")
        return Score(value=float(state.output.completion.strip() == target.text))

    return score
