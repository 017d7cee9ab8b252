from inspect_ai.scorer import INCORRECT, Scorer, model_graded_qa

from inspect_evals.utils.scorers import preset_score_on_no_response

TEMPLATE = "Question: {question}\nAnswer: {answer}\n{instructions}"


def graded_answer(judge: str | None, instructions: str) -> Scorer:
    """The judge both demo tasks use; only the instructions differ."""
    grader = model_graded_qa(template=TEMPLATE, instructions=instructions, model=judge)
    return preset_score_on_no_response(grader=grader, no_response_value=INCORRECT)
