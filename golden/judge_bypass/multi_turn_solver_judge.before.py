from inspect_ai import Task, task
from inspect_ai.model import ChatMessageUser, get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver


@task
def demo() -> Task:
    return Task(dataset=[], solver=persuade(), scorer=demo_scorer())


@solver
def persuade(turns: int = 3) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        evaluator = get_model(role="grader")
        for _ in range(turns):
            state = await generate(state)
            rating = await evaluator.generate(f"Rate 0-10: {state.output.completion}")
            state.metadata.setdefault("ratings", []).append(rating.completion)
            state.messages.append(ChatMessageUser(content="Try to convince me."))
        return state

    return solve


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        ratings = [float(r) for r in state.metadata["ratings"]]
        return Score(value=sum(ratings) / len(ratings))

    return score
