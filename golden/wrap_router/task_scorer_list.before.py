from inspect_ai import Task, task
from inspect_ai.scorer import includes, match


@task
def demo() -> Task:
    return Task(dataset=[], scorer=[match(), includes()])
