from typing import Final

from inspect_ai.scorer import ScoreReason

REFUSAL: Final[ScoreReason] = "refusal"
NO_RESPONSE: Final[ScoreReason] = "no_response"
GRADER_FAILED: Final[ScoreReason] = "grader_failed"
