from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


def build_scorer(judge_model: str = "openai/gpt-4o") -> Scorer:
    def empty_value() -> dict[str, float]:
        return {"points": 0.0, "criteria_met": 0}

    @scorer(metrics={"points": [mean()], "criteria_met": [mean()]})
    def _scorer() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            model_response = state.output.completion
            if not model_response:
                return Score(value=empty_value(), answer="", explanation="No response")
            rubrics = state.metadata.get("rubrics", [])
            if not rubrics:
                return Score(value=empty_value(), answer=model_response)
            return Score(value={"points": 1.0, "criteria_met": len(rubrics)})

        return score

    return _scorer()
