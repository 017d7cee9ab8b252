from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver


@solver
def annotate() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.user_prompt.text = f"Grade this answer: {state.output.completion}"
        return await generate(state)

    return solve


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=float("GRADE: C" in state.output.completion))

    return score
