import re

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver


@solver
def judge_response() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.user_prompt.text = f"Rate this answer: {state.output.completion}"
        return await generate(state)

    return solve


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        # state.output is the judge's reply here
        if not state.output.completion:
            return Score(value=0.0, explanation="The judge said nothing")
        found = re.search(r"score: ([\d.]+)", state.output.completion)
        return Score(value=float(found.group(1)) if found else 0.0)

    return score
