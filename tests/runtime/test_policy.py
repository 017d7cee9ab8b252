"""Every category x outcome cell of the policy, checked against a literal table."""

import math

import pytest
from inspect_ai.scorer import (
    INCORRECT,
    NOANSWER,
    Score,
    Target,
    accuracy,
    scorer,
)

from empty_migrate.runtime.probe import task_state
from empty_migrate.runtime.router import (
    ContextOverflowError,
    EmptyResponseError,
    Outcome,
    classify,
    route_empty_responses,
)
from tests.outcomes import OUTCOME_EXAMPLES

R = 0.25  # a refusal verdict no scorer would return by accident
WRAPPED = "wrapped scorer"
TAGGED_NO_RESPONSE = ("tagged", "no_response")
TAGGED_REFUSAL = ("tagged", "refusal")

QA_COLUMN = {
    "answered": WRAPPED,
    "empty": ("verdict", NOANSWER, "no_response"),
    "reasoning_only": ("verdict", NOANSWER, "no_response"),
    "tool_calls_only": ("verdict", NOANSWER, "no_response"),
    "truncated": ("verdict", NOANSWER, "no_response"),
    "refused": ("verdict", NOANSWER, "refusal"),
    "refused_after_partial": ("verdict", NOANSWER, "refusal"),
    "filtered": ("unscored", "refusal"),
    "overflow": ("raise", ContextOverflowError),
    "no_output": ("raise", EmptyResponseError),
}

EXPECTED = {
    "qa": QA_COLUMN,
    "model_graded": QA_COLUMN,
    "safety": {
        "answered": WRAPPED,
        "empty": ("verdict", R, "no_response"),
        "reasoning_only": ("verdict", R, "no_response"),
        "tool_calls_only": ("verdict", R, "no_response"),
        "truncated": ("unscored", "no_response"),
        "refused": ("verdict", R, "refusal"),
        "refused_after_partial": ("verdict", R, "refusal"),
        "filtered": ("verdict", R, "refusal"),
        "overflow": ("raise", ContextOverflowError),
        "no_output": ("raise", EmptyResponseError),
    },
    "agentic": {
        "answered": WRAPPED,
        "empty": TAGGED_NO_RESPONSE,
        "reasoning_only": TAGGED_NO_RESPONSE,
        "tool_calls_only": TAGGED_NO_RESPONSE,
        "truncated": TAGGED_NO_RESPONSE,
        "refused": TAGGED_REFUSAL,
        "refused_after_partial": TAGGED_REFUSAL,
        "filtered": TAGGED_REFUSAL,
        "overflow": ("raise", ContextOverflowError),
        "no_output": WRAPPED,
    },
}

CELLS = [(c, o) for c, column in EXPECTED.items() for o in column]


@scorer(metrics=[accuracy()])
def counting_scorer(calls: list[str]):
    async def score(state, target):
        calls.append(state.output.completion)
        return Score(value=INCORRECT, answer=state.output.completion)

    return score


def test_examples_classify_as_their_outcome():
    assert {o: classify(build()) for o, build in OUTCOME_EXAMPLES.items()} == {
        o: o for o in OUTCOME_EXAMPLES
    }


def test_every_cell_has_an_expectation():
    assert set(CELLS) == {(c, o.value) for c in EXPECTED for o in Outcome}


@pytest.mark.parametrize(("category", "outcome"), CELLS)
async def test_route(category, outcome, outcome_output):
    calls: list[str] = []
    routed = route_empty_responses(
        counting_scorer(calls), category=category, refusal_verdict=R
    )
    state = task_state(outcome_output(outcome))
    expected = EXPECTED[category][outcome]

    if expected[0] == "raise":
        with pytest.raises(expected[1]) as raised:
            await routed(state, Target("Paris"))
        assert raised.value.classification.outcome == outcome
        assert calls == []
        return

    result = await routed(state, Target("Paris"))
    if expected == WRAPPED:
        assert calls == [state.output.completion]
        assert result.value == INCORRECT
        assert result.reason is None
    elif expected[0] == "tagged":
        assert len(calls) == 1
        assert (result.value, result.reason) == (INCORRECT, expected[1])
        assert result.metadata["empty_outcome"] == outcome
        assert result.explanation
    elif expected[0] == "unscored":
        assert calls == [], "the scorer (and its judge) must not be called"
        assert math.isnan(result.value)
        assert result.reason == expected[1]
        assert result.metadata["empty_outcome"] == outcome
        assert result.explanation
    else:
        assert calls == [], "the scorer (and its judge) must not be called"
        assert (result.value, result.reason) == expected[1:]
        assert result.metadata["empty_outcome"] == outcome
        assert result.explanation
