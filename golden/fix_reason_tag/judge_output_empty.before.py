from inspect_ai.model import get_model
from inspect_ai.scorer import INCORRECT, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[accuracy()])
def demo_scorer(judge: str = "openai/gpt-4o") -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        verdict = await get_model(judge).generate(state.output.completion)
        grade = verdict.completion
        if not grade:
            return Score(value=INCORRECT, explanation="The judge returned nothing")
        return Score(value=grade.strip()[:1], explanation=grade)

    return score
