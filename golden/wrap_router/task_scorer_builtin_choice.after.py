from inspect_ai import Task, task
from inspect_ai.scorer import choice
from inspect_ai.solver import multiple_choice

from inspect_evals.utils.empty_response import route_empty_responses


@task
def demo() -> Task:
    return Task(
        dataset=[],
        solver=multiple_choice(),
        scorer=route_empty_responses(choice(), category="qa"),
    )
