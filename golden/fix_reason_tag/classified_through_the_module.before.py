from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    scorer,
)
from inspect_ai.solver import TaskState

import inspect_evals.utils.empty_response as er


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if er.classify(state.output) in (er.Outcome.REFUSED, er.Outcome.FILTERED):
            return Score(value=INCORRECT, explanation="Refused")
        if er.classify(state.output) is not er.Outcome.ANSWERED:
            return Score(value=INCORRECT)
        return Score(
            value=CORRECT if target.text in state.output.completion else INCORRECT
        )

    return score
