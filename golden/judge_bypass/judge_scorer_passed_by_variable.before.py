from inspect_ai import Task, task
from inspect_ai.model import get_model
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    choice,
    scorer,
)
from inspect_ai.solver import TaskState, generate, multiple_choice


@task
def demo(open_ended: bool = False) -> Task:
    scorer = same_expression() if open_ended else choice()
    solver = generate() if open_ended else multiple_choice()
    return Task(dataset=[], solver=solver, scorer=scorer)


@scorer(metrics=[accuracy()])
def same_expression() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        verdict = await get_model().generate(
            f"Are {target.text} and {state.output.completion} equal? yes or no"
        )
        same = verdict.completion.strip().lower() == "yes"
        return Score(value=CORRECT if same else INCORRECT)

    return score
