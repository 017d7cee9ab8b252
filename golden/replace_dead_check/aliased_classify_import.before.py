from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import Outcome as Kind
from inspect_evals.utils.empty_response import classify as classify_output_of


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if classify_output_of(state.output) is Kind.REFUSED:
            return Score(value=0.0, explanation="Refused")
        if not state.output:
            return Score(value=0.0, explanation="No output")
        return Score(value=float(target.text in state.output.completion))

    return score
