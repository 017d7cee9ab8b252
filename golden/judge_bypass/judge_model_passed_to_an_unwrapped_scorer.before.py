from inspect_ai import Task, task
from inspect_ai.model import Model, get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState, generate


@task
def demo(grader_model: str = "openai/gpt-4o") -> Task:
    grader = get_model(grader_model)
    return Task(dataset=[], solver=generate(), scorer=demo_scorer(grader))


@scorer(metrics=[mean()])
def demo_scorer(grader: Model) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        reply = await grader.generate(state.output.completion)
        return Score(value=float(reply.completion == "1"))

    return score
