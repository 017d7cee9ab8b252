from inspect_ai.scorer import Scorer, model_graded_qa

from inspect_evals.utils.empty_response import route_empty_responses

TEMPLATE = "Question: {question}\nAnswer: {answer}\n{instructions}"


def graded_answer(judge: str | None, instructions: str) -> Scorer:
    """The judge both demo tasks use; only the instructions differ."""
    grader = model_graded_qa(template=TEMPLATE, instructions=instructions, model=judge)
    return route_empty_responses(grader, category="model_graded")
