import re

from inspect_ai.model import get_model
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    Value,
    scorer,
)
from inspect_ai.solver import TaskState

from inspect_evals.utils.scorers import GRADER_FAILED, preset_score_on_no_response

NO_RESPONSE_VALUE: Value = {"score": INCORRECT, "confidence": 100}


def _confidence(text: str) -> int:
    found = re.findall(r"confidence:\s*(\d+)", text, re.IGNORECASE)
    return min(100, int(found[-1])) if found else 100


@scorer(name="demo/tool_judge", metrics=[])
def tool_judge(role: str = "grader") -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        verdict = await get_model(role=role).generate(state.output.completion)
        if not verdict.message.tool_calls:
            return Score(
                value={"score": float("nan"), "confidence": 100}, reason=GRADER_FAILED
            )
        correct = verdict.message.tool_calls[0].arguments.get("correct") == "yes"
        return Score(
            value={
                "score": CORRECT if correct else INCORRECT,
                "confidence": _confidence(state.output.completion),
            }
        )

    return preset_score_on_no_response(score, NO_RESPONSE_VALUE)


@scorer(name="demo/text_judge", metrics=[])
def text_judge(role: str = "grader") -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        verdict = await get_model(role=role).generate(state.output.completion)
        correct = "GRADE: C" in verdict.completion
        return Score(
            value={
                "score": CORRECT if correct else INCORRECT,
                "confidence": _confidence(state.output.completion),
            }
        )

    return preset_score_on_no_response(score, NO_RESPONSE_VALUE)
