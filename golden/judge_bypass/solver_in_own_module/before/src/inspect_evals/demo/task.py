from inspect_ai import Task, task
from inspect_ai.solver import generate
from inspect_evals.demo.scorer import annotation_scorer
from inspect_evals.demo.solver import annotate


@task
def demo() -> Task:
    return Task(dataset=[], solver=[generate(), annotate()], scorer=annotation_scorer())
