import logging

from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import Outcome, classify

logger = logging.getLogger(__name__)


@scorer(metrics=[mean()])
def demo_scorer(judge: str = "openai/gpt-4o") -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if classify(state.output) is Outcome.NO_OUTPUT:
            logger.warning("No output for sample %s", state.sample_id)
            return Score(value=0.0, answer="", explanation="No model output")

        answer = state.output.completion or ""
        if classify(state.output) is not Outcome.ANSWERED:
            return Score(value=0.0, answer="", explanation="Empty completion")

        result = await get_model(judge).generate(f"Grade: {answer}\n{target.text}")
        return Score(value=float(result.completion.strip() == "PASS"), answer=answer)

    return score
