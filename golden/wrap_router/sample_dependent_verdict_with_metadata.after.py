from typing import Any, cast

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from inspect_evals.utils.empty_response import route_empty_responses


@metric
def followed_rate() -> Metric:
    def compute(scores: list[SampleScore]) -> float:
        followed = sum(cast(dict[str, Any], s.score.value)["followed"] for s in scores)
        total = sum(cast(dict[str, Any], s.score.value)["total"] for s in scores)
        return followed / total

    return compute


@metric
def by_topic() -> Metric:
    def compute(scores: list[SampleScore]) -> float:
        topics = {(s.score.metadata or {})["topic"] for s in scores}
        return float(len(topics))

    return compute


@scorer(metrics=[followed_rate(), by_topic()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        rules = state.metadata["rules"]
        followed = sum(rule in state.output.completion for rule in rules)
        return Score(
            value={"followed": followed, "total": len(rules)},
            metadata={"topic": state.metadata["topic"]},
        )

    return route_empty_responses(
        score,
        category="qa",
        no_answer_verdict=lambda state, target: {
            "followed": 0,
            "total": len(state.metadata["rules"]),
        },
        copy_metadata=["topic"],
    )
