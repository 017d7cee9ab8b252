from inspect_ai import Task, task
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
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver


@task
def demo() -> Task:
    return Task(dataset=[], solver=[generate(), check_answer()], scorer=demo_scorer())


@solver
def check_answer(grader_model: str | None = None) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        grader = get_model(grader_model, role="grader")
        verdict = await grader.generate(
            f"Is this answer correct? Reply yes or no.\n"
            f"Question: {state.input_text}\nAnswer: {state.output.completion}"
        )
        state.metadata["verdict"] = verdict.completion.strip().lower()
        return state

    return solve


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        correct = state.metadata.get("verdict", "").startswith("yes")
        return Score(value=CORRECT if correct else INCORRECT)

    return score
