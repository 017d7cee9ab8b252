import pytest
from inspect_ai.model import ModelName, ModelOutput
from inspect_ai.scorer import CORRECT, INCORRECT, Target
from inspect_ai.solver import TaskState

from inspect_evals.demo.scorer import demo_scorer


def _state(completion: str) -> TaskState:
    state = TaskState(
        model=ModelName("mockllm/model"),
        sample_id=1,
        epoch=0,
        input="What is 2 + 2?",
        messages=[],
    )
    state.output.completion = completion
    return state


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        ("4", CORRECT),
        ("5", INCORRECT),
        ("", INCORRECT),  # an empty answer is wrong
    ],
)
async def test_demo_scorer(completion, expected):
    score = await demo_scorer()(_state(completion), Target("4"))
    assert score.value == expected
