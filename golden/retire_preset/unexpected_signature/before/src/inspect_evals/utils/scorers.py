from inspect_ai.scorer import INCORRECT, Scorer


def preset_score_on_no_response(
    grader: Scorer, value: str = INCORRECT, *, explanation: str = ""
) -> Scorer:
    """A local variant with a keyword of its own."""
    return grader
