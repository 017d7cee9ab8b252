from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import accuracy, model_graded_qa, stderr
from inspect_ai.solver import generate, system_message

from inspect_evals.utils.scorers import preset_score_on_no_response

GRADING_TEMPLATE = "Question: {question}\nAnswer: {answer}\n{instructions}"


@task
def demo(judge: str | None = None, max_tokens: int = 512) -> Task:
    return Task(
        dataset=[],
        solver=[system_message("Answer briefly."), generate(max_tokens=max_tokens)],
        scorer=preset_score_on_no_response(
            model_graded_qa(template=GRADING_TEMPLATE, model=judge)
        ),
        metrics=[accuracy(), stderr()],
        config=GenerateConfig(temperature=0.0),
    )
