from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig, Model, get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState, generate


@task
def demo(grader_model: str = "openai/gpt-4o", grader_temperature: float = 0.0) -> Task:
    return Task(
        dataset=[],
        solver=generate(),
        scorer=demo_scorer(
            grader=get_model(
                grader_model, config=GenerateConfig(temperature=grader_temperature)
            )
        ),
    )


@scorer(metrics=[mean()])
def demo_scorer(grader: Model) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        reply = await grader.generate(f"Score 0 or 1:\n{state.output.completion}")
        return Score(value=float(reply.completion.strip() == "1"))

    return score
