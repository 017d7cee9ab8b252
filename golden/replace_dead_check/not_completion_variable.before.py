from inspect_ai.scorer import INCORRECT, Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


def extract_choice(text: str) -> str:
    return text.rsplit("Answer:", 1)[-1].strip()


@scorer(metrics={"score": [mean()], "answered": [mean()]})
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion
        if not completion:
            return Score(
                value={"score": INCORRECT, "answered": 0},
                answer="",
                metadata={"task_id": state.metadata.get("task_id")},
            )

        choice = extract_choice(completion)
        return Score(
            value={"score": float(choice == target.text), "answered": 1},
            answer=choice,
            metadata={"task_id": state.metadata.get("task_id")},
        )

    return score
