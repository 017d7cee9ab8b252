import re

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        # the solver replaced state.output with the judge's reply
        if not state.output.completion:
            return Score(value=0.0, explanation="Blocked request or empty reply")
        found = re.search(r"score: ([\d.]+)", state.output.completion)
        return Score(value=float(found.group(1)) if found else 0.0)

    return score
