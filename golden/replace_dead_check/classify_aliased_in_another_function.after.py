from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import Outcome
from inspect_evals.utils.empty_response import classify as outcome_of


def describe(state: TaskState) -> str:
    from inspect_evals.utils.empty_response import classify as local_outcome

    return str(local_outcome(state.output))


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if outcome_of(state.output) is Outcome.REFUSED:
            return Score(value=0.0, explanation="Refused")
        if outcome_of(state.output) is Outcome.NO_OUTPUT:
            return Score(value=0.0, explanation="No output")
        return Score(value=float(target.text in state.output.completion))

    return score
