from inspect_ai.scorer import Scorer, accuracy, model_graded_fact, scorer

from inspect_evals.utils.empty_response import route_empty_responses


@scorer(metrics=[accuracy()])
def demo_scorer(judge: str | None = None) -> Scorer:
    return route_empty_responses(
        model_graded_fact(model=judge), category="model_graded"
    )
