from inspect_ai.scorer import INCORRECT, Scorer, accuracy, model_graded_fact, scorer

from inspect_evals.utils.scorers import preset_score_on_no_response as preset


@scorer(metrics=[accuracy()])
def demo_scorer(judge: str | None = None) -> Scorer:
    return preset(model_graded_fact(model=judge), INCORRECT)
