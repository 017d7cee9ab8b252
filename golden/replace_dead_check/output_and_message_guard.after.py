from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import Outcome, classify


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        if classify(state.output) is not Outcome.NO_OUTPUT and state.output.message:
            message = state.output.message
        else:
            raise ValueError("No output in the TaskState.")

        calls = [call.function for call in message.tool_calls or []]
        return Score(value=float(target.text in calls), answer=message.text)

    return score
