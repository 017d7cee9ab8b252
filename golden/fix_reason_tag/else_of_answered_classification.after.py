from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import Outcome, classify


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if classify(state.output) is Outcome.ANSWERED:
            value = float(target.text in state.output.completion)
        else:
            return Score(
                value=0.0,
                answer="",
                explanation="The model gave no answer to score.",
                reason="no_response",
            )
        return Score(value=value, answer=state.output.completion)

    return score
