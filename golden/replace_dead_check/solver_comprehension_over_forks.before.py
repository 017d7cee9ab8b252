from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, fork, generate, solver


@solver
def sample_k(k: int = 4) -> Solver:
    async def solve(state: TaskState, generate_fn: Generate) -> TaskState:
        forks = await fork(state, [generate()] * k)
        state.metadata["completions"] = [s.output.completion for s in forks if s.output]
        return state

    return solve


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        completions = state.metadata["completions"]
        return Score(value=len(set(completions)) / max(len(completions), 1))

    return score
