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

from inspect_evals.utils.empty_response import Outcome, classify_output


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        outcome = classify_output(state.output).outcome
        if classify_output(state.output).outcome in (Outcome.REFUSED, Outcome.FILTERED):
            return Score(
                value=INCORRECT, explanation=f"Refused ({outcome})", reason="refusal"
            )
        if classify_output(state.output).outcome is Outcome.EMPTY and target.text:
            return Score(
                value=INCORRECT,
                explanation="The model gave no answer to score.",
                reason="no_response",
            )
        return Score(
            value=CORRECT if target.text in state.output.completion else INCORRECT
        )

    return score
