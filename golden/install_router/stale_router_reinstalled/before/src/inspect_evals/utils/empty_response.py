"""Route a model's non-answers to the right scoring outcome.

An earlier install: only silence was routed.
"""

from inspect_ai.scorer import NOANSWER, Score, Scorer, Target
from inspect_ai.solver import TaskState


def route_empty_responses(scorer: Scorer, *, category: str) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score | None:
        if not state.output.completion.strip():
            return Score(value=NOANSWER, reason="no_response")
        return await scorer(state, target)

    return score
