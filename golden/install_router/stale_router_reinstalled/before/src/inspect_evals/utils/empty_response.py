"""Route a model's non-answers to the right scoring outcome.

A stale install, from before the router had its name: only silence was routed.
"""

from inspect_ai.scorer import NOANSWER, Score, Scorer, Target
from inspect_ai.solver import TaskState


def route_silence(scorer: Scorer) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score | None:
        if not state.output.completion.strip():
            return Score(value=NOANSWER, reason="no_response")
        return await scorer(state, target)

    return score
