from inspect_ai.model import get_model
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


@scorer(metrics=[accuracy()])
def demo_scorer(judge_model: str = "openai/gpt-4o-mini") -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        # grades the dataset's reference completion, never the model's output
        judge = get_model(judge_model)
        reply = await judge.generate(
            f"Does this meet the rubric {state.metadata['rubric']}?\n{target.text}"
        )
        agrees = reply.completion.strip().lower().startswith("yes")
        expected = state.metadata["physician_label"]
        return Score(value=CORRECT if agrees == expected else INCORRECT)

    return score
