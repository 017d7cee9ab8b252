from inspect_ai.scorer import INCORRECT, Scorer, accuracy, model_graded_fact, scorer

from inspect_evals.demo.helpers import preset_score_on_no_response


@scorer(metrics=[accuracy()])
def demo_scorer(judge: str | None = None) -> Scorer:
    return preset_score_on_no_response(model_graded_fact(model=judge), INCORRECT)
