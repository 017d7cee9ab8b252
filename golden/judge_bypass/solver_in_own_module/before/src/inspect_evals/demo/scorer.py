from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[mean()])
def annotation_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        reply = state.output.completion
        if "## score:" not in reply:
            return Score.unscored(reason="grader_failed", explanation=reply)
        return Score(value=float(reply.rsplit("## score:", 1)[1]), explanation=reply)

    return score
