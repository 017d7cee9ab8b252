import json

from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import TaskState

from inspect_evals.demo.types import Dimension


@scorer(metrics=[mean()])
def demo_scorer(dimensions: dict[str, Dimension]):
    async def score(state: TaskState, target: Target) -> Score:
        tags = json.loads(target.text)["tags"]
        return Score(value={"overall": 1.0, **dict.fromkeys(tags, 1.0)})

    return score
