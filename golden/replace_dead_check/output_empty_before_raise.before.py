from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[mean()])
def demo_scorer(judge: str = "openai/gpt-4o") -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if state.output.empty:
            raise ValueError("Missing model output; did generation run?")
        verdict = await get_model(judge).generate(state.output.completion)
        return Score(value=float("YES" in verdict.completion))

    return score
