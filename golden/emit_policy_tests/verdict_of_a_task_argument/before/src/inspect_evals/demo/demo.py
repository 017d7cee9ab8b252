from inspect_ai import Task, task
from inspect_ai.scorer import model_graded_qa


@task
def demo(subset: str = "original", scorer_model: str = "openai/gpt-4o") -> Task:
    return Task(dataset=[], scorer=model_graded_qa(model=scorer_model))
