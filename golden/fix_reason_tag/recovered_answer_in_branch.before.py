import logging

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import sandbox

logger = logging.getLogger(__name__)


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if not state.output.completion.strip():
            logger.info("Empty final answer; reading the answer file")
            recovered = await sandbox().read_file("/tmp/answer.txt")
            return Score(value=float(recovered.strip() == target.text))
        if state.output.completion.strip():
            logger.info("Answered")
        return Score(value=float(state.output.completion.strip() == target.text))

    return score
