from typing import Literal

from inspect_ai import Task, task
from inspect_ai.scorer import model_graded_qa

from inspect_evals.demo.paper import paper_scorer


@task
def demo(
    subset: Literal["original", "contrast"] = "original",
    grader: list[str] | str = "openai/gpt-4o-mini",
    grade_parse: Literal["strict", "paper"] = "strict",
) -> Task:
    graders = grader if isinstance(grader, list) else [grader]
    if grade_parse == "paper":
        scorers = [paper_scorer(model=m) for m in graders]
    else:
        # one judge per grader model; each labels the response
        scorers = [
            model_graded_qa(
                model=m,
                grade_pattern=r"(ACCEPTABLE|UNACCEPTABLE)",
            )
            for m in graders
        ]

    return Task(dataset=[], scorer=scorers)
