from inspect_ai import Task, task
from inspect_ai.scorer import choice
from inspect_ai.solver import multiple_choice


@task
def demo() -> Task:
    return Task(dataset=[], solver=multiple_choice(), scorer=choice())
