import logging

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

logger = logging.getLogger(__name__)


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion
        if not completion:
            logger.warning("Sample %s has an empty completion", state.sample_id)
        return Score(value=float(target.text in completion))

    return score
