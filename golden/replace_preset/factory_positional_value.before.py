from inspect_ai.model import Model
from inspect_ai.scorer import (
    INCORRECT,
    Score,
    Scorer,
    Target,
    mean,
    model_graded_fact,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from inspect_evals.utils.scorers import preset_score_on_no_response


@scorer(metrics=[mean(), stderr()])
def demo_scorer(model: str | Model | None = None) -> Scorer:
    """Grade short answers and long answers with different judges."""
    short_judge = model_graded_fact(model=model)
    long_judge = model_graded_fact(model=model, partial_credit=True)

    async def score(state: TaskState, target: Target) -> Score | None:
        if state.metadata.get("format") == "long":
            return await long_judge(state, target)
        return await short_judge(state, target)

    return preset_score_on_no_response(score, INCORRECT)
