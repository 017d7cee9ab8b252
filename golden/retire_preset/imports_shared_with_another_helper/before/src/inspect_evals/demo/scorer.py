from inspect_ai.scorer import Scorer, model_graded_fact, scorer

from inspect_evals.utils.scorers import preset_score_on_no_response


@scorer(metrics=[])
def demo_scorer() -> Scorer:
    return preset_score_on_no_response(model_graded_fact())
