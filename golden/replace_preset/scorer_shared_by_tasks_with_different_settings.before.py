from inspect_ai.scorer import INCORRECT, Scorer, model_graded_fact

from inspect_evals.utils.scorers import preset_score_on_no_response


def demo_scorer() -> Scorer:
    return preset_score_on_no_response(model_graded_fact(), INCORRECT)
