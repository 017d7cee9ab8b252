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
    return Task(dataset=[], solver=[generate(), revise()], scorer=demo_scorer())


@solver
def revise() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        draft = state.output.completion
        state.user_prompt.text += f"\n\nYour draft:\n{draft}\n\nImprove it."
        return await generate(state)

    return solve


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        grader = get_model(role="grader")
        reply = await grader.generate(
            f"Is '{state.output.completion}' the same as '{target.text}'? yes/no"
        )
        correct = reply.completion.strip().lower().startswith("yes")
        return Score(value=CORRECT if correct else INCORRECT)

    return score
