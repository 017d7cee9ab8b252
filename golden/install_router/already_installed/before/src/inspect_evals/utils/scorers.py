import warnings
from typing import Final

from inspect_ai.scorer import INCORRECT, Scorer, ScoreReason, Value

from inspect_evals.utils.empty_response import route_empty_responses

NO_RESPONSE: Final[ScoreReason] = "no_response"


def preset_score_on_no_response(
    grader: Scorer,
    no_response_value: Value = INCORRECT,
) -> Scorer:
    """Give empty responses a fixed score instead of calling the grader.

    Deprecated: wrap the grader with ``route_empty_responses`` instead.
    """
    warnings.warn(
        "use route_empty_responses instead", DeprecationWarning, stacklevel=2
    )
    return route_empty_responses(
        grader, category="qa", no_answer_verdict=no_response_value
    )
