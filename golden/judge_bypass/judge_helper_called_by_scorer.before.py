from inspect_ai.model import Model, get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


async def rate_helpfulness(answer: str, grader_model: str | Model | None) -> float:
    grader = get_model(grader_model, role="grader")
    reply = await grader.generate(f"Rate from 0 to 10 how helpful this is:\n{answer}")
    digits = "".join(c for c in reply.completion if c.isdigit())
    return min(int(digits or 0), 10) / 10


@scorer(metrics=[mean()])
def demo_scorer(grader_model: str | Model | None = None) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        rating = await rate_helpfulness(state.output.completion, grader_model)
        return Score(value=rating, answer=state.output.completion)

    return score
