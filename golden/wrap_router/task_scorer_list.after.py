from inspect_ai import Task, task
from inspect_ai.scorer import includes, match

from inspect_evals.utils.empty_response import route_empty_responses


@task
def demo() -> Task:
    return Task(
        dataset=[],
        scorer=[
            route_empty_responses(match(), category="qa"),
            route_empty_responses(includes(), category="qa"),
        ],
    )
