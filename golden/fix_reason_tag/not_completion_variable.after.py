from inspect_ai.scorer import INCORRECT, Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


@scorer(metrics={"score": [mean()], "answered": [mean()]})
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion
        if not completion:
            return Score(
                value={"score": INCORRECT, "answered": 0},
                answer="",
                metadata={"task_id": state.metadata.get("task_id")},
                explanation="The model gave no answer to score.",
                reason="no_response",
            )
        return Score(
            value={"score": float(completion == target.text), "answered": 1},
            answer=completion,
            metadata={"task_id": state.metadata.get("task_id")},
        )

    return score
