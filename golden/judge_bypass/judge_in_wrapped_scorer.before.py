from inspect_ai.model import get_model
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    scorer,
)
from inspect_ai.solver import TaskState

GRADER_PROMPT = "Question: {question}\nAnswer: {answer}\nReply GRADE: C or GRADE: I."


@scorer(metrics=[accuracy()])
def demo_scorer(grader_model: str | None = None) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        grader = get_model(grader_model, role="grader")
        prompt = GRADER_PROMPT.format(
            question=state.input_text, answer=state.output.completion
        )
        verdict = await grader.generate(prompt)
        correct = "GRADE: C" in verdict.completion
        return Score(
            value=CORRECT if correct else INCORRECT,
            explanation=verdict.completion,
        )

    return score
