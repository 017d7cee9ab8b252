from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.scorers import GRADER_FAILED


@scorer(metrics=[mean()])
def demo_scorer(judge: str = "openai/gpt-4o") -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        response = state.output.completion
        if response == "":
            return Score(value=0.0, explanation="Empty response")
        verdict = await get_model(judge).generate(response)
        if "SCORE" not in verdict.completion:
            return Score.unscored(reason=GRADER_FAILED, explanation=verdict.completion)
        return Score(value=float(verdict.completion.split("SCORE:")[-1]))

    return score
