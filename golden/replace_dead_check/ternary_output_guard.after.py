import json

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


def parse_answer(text: str) -> dict[str, float]:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return {}


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        model_output = state.output.completion
        parsed = parse_answer(model_output)
        if not parsed:
            return Score(value=0.0, answer=model_output, explanation="Not JSON")
        return Score(value=parsed.get(target.text, 0.0), answer=model_output)

    return score
