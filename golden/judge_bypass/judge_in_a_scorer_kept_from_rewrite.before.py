from inspect_ai import Task, task
from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState, generate


@task
def demo() -> Task:
    return Task(dataset=[], solver=generate(), scorer=demo_scorer())


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        grader = get_model(role="grader")
        reply = await grader.generate(state.output.completion)
        return Score(value=float(reply.completion == "1"))

    return score
