from inspect_ai import Task, task
from inspect_ai.scorer import model_graded_fact as graded_by_a_model
from inspect_ai.solver import generate


@task
def demo() -> Task:
    return open_ended_task()


def open_ended_task() -> Task:
    return Task(dataset=[], solver=generate(), scorer=graded_by_a_model())
