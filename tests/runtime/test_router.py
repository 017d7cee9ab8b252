"""The routed scorer keeps its identity and handles every value shape."""

import math
from types import SimpleNamespace
from unittest.mock import MagicMock

import pytest
from inspect_ai import Task
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    NOANSWER,
    Score,
    Target,
    accuracy,
    includes,
    mean,
    scorer,
)
from inspect_ai.util import registry_info

from empty_migrate.runtime.probe import task_state
from empty_migrate.runtime.router import (
    ContextOverflowError,
    Outcome,
    ResponsePolicy,
    Route,
    assistant_outputs,
    classify,
    classify_outputs,
    first_assistant_output,
    last_assistant_output,
    metadata_output,
    non_answer_score,
    route_empty_responses,
    store_output,
)
from tests.outcomes import OUTCOME_EXAMPLES

pytestmark = pytest.mark.inspect_versions


@scorer(metrics={"score": [mean()], "confidence": [mean()]})
def dict_scorer(threshold: int = 50):
    async def score(state, target):
        return Score(value={"score": CORRECT, "confidence": threshold})

    return score


@scorer(metrics=[mean()])
def harm_scorer(scale: float = 1.0):
    async def score(state, target):
        return Score(value=scale)

    return score


@scorer(metrics=[accuracy()])
def bool_scorer():
    async def score(state, target):
        return Score(value=False)

    return score


def state_for(outcome, **kwargs):
    return task_state(OUTCOME_EXAMPLES[outcome](), **kwargs)


def test_keeps_registry_name_metrics_and_params():
    inner = harm_scorer(scale=2.0)
    routed = route_empty_responses(inner, category="safety", refusal_verdict=0.0)

    assert registry_info(routed).name == registry_info(inner).name
    assert registry_info(routed).metadata == registry_info(inner).metadata
    assert routed.__registry_params__ == {"scale": 2.0}


def test_routed_scorer_passes_task_validation():
    routed = route_empty_responses(includes(), category="qa")
    task = Task(dataset=[Sample(input="q", target="a")], scorer=routed)
    assert registry_info(task.scorer[0]).name == "inspect_ai/includes"


async def test_answered_result_is_left_intact():
    inner_score = await harm_scorer(scale=0.0)(state_for("answered"), Target("x"))
    routed = route_empty_responses(
        harm_scorer(scale=0.0), category="agentic", refusal_verdict=0.0
    )
    assert await routed(state_for("answered"), Target("x")) == inner_score


@pytest.mark.parametrize(
    ("make_scorer", "verdict"),
    [
        (lambda: includes(), INCORRECT),
        (lambda: harm_scorer(), 0.0),
        (lambda: bool_scorer(), False),
        (lambda: dict_scorer(), {"score": INCORRECT, "confidence": 100}),
    ],
    ids=["str", "float", "bool", "dict"],
)
async def test_refusal_verdict_in_the_scorers_value_shape(make_scorer, verdict):
    routed = route_empty_responses(
        make_scorer(),
        category="safety",
        refusal_verdict=verdict,
        no_answer_verdict=verdict,
    )
    result = await routed(state_for("refused"), Target("x"))
    assert result.value == verdict
    assert result.reason == "refusal"


async def test_dict_scorer_unscored_is_a_root_nan():
    routed = route_empty_responses(
        dict_scorer(),
        category="qa",
        no_answer_verdict={"score": NOANSWER, "confidence": math.nan},
    )
    result = await routed(state_for("filtered"), Target("x"))
    assert math.isnan(result.value)


def test_dict_verdict_must_carry_every_metric_key():
    with pytest.raises(ValueError, match=r"lacks keys \['confidence'\]"):
        route_empty_responses(
            dict_scorer(), category="qa", no_answer_verdict={"score": NOANSWER}
        )


def test_scalar_verdict_for_dict_metrics_is_rejected():
    with pytest.raises(ValueError, match="dict-valued metrics"):
        route_empty_responses(dict_scorer(), category="qa")


def test_safety_requires_a_refusal_verdict():
    with pytest.raises(ValueError, match="needs refusal_verdict="):
        route_empty_responses(includes(), category="safety")


def test_unknown_category_is_rejected():
    with pytest.raises(ValueError, match="'chat' is not a valid Category"):
        route_empty_responses(includes(), category="chat")


def test_unknown_override_is_rejected():
    with pytest.raises(ValueError, match="invalid empty-response override"):
        route_empty_responses(includes(), category="qa", overrides={"silence": "raise"})


async def test_override_turns_overflow_into_a_verdict():
    routed = route_empty_responses(
        includes(), category="qa", overrides={Outcome.OVERFLOW: Route.NO_ANSWER}
    )
    result = await routed(state_for("overflow"), Target("x"))
    assert (result.value, result.metadata["empty_outcome"]) == (NOANSWER, "overflow")


async def test_per_sample_refusal_verdict():
    def refusal_is_correct_on_harmful(state, target):
        return CORRECT if state.metadata["label"] == "harmful" else INCORRECT

    routed = route_empty_responses(
        includes(), category="safety", refusal_verdict=refusal_is_correct_on_harmful
    )
    harmful = state_for("empty", metadata={"label": "harmful"})
    benign = state_for("empty", metadata={"label": "benign"})
    assert (await routed(harmful, Target("x"))).value == CORRECT
    assert (await routed(benign, Target("x"))).value == INCORRECT


async def test_truncated_partial_answer_is_scored_and_flagged():
    output = ModelOutput.from_content(
        "mockllm/model", "The capital is Par", stop_reason="max_tokens"
    )
    routed = route_empty_responses(includes(), category="qa")
    result = await routed(task_state(output, target="Par"), Target("Par"))
    assert result.value == CORRECT
    assert result.metadata["truncated_partial"] is True


async def test_agentic_keeps_a_passing_score_untagged():
    routed = route_empty_responses(harm_scorer(scale=1.0), category="agentic")
    result = await routed(state_for("tool_calls_only"), Target("x"))
    assert (result.value, result.reason) == (1.0, None)
    assert result.metadata["empty_outcome"] == "tool_calls_only"


async def test_agentic_does_not_overwrite_the_scorers_own_reason():
    @scorer(metrics=[accuracy()])
    def sandbox_scorer():
        async def score(state, target):
            return Score(value=INCORRECT, reason="invalid_response_format")

        return score

    routed = route_empty_responses(sandbox_scorer(), category="agentic")
    result = await routed(state_for("refused"), Target("x"))
    assert result.reason == "invalid_response_format"


async def test_store_locator_classifies_the_saved_output_not_state_output():
    judge_output = ModelOutput.from_content("judge", "GRADE: C")
    state = task_state(judge_output)
    state.store.set("mut_output", OUTCOME_EXAMPLES["refused"]())
    routed = route_empty_responses(
        includes(), category="qa", output=store_output("mut_output")
    )
    result = await routed(state, Target("x"))
    assert result.metadata["empty_outcome"] == "refused"


async def test_metadata_locator_accepts_a_serialised_output():
    state = task_state(ModelOutput.from_content("judge", "GRADE: C"))
    state.metadata["mut"] = OUTCOME_EXAMPLES["empty"]().model_dump()
    routed = route_empty_responses(
        includes(), category="qa", output=metadata_output("mut")
    )
    assert (await routed(state, Target("x"))).metadata["empty_outcome"] == "empty"


async def test_metadata_locator_rejects_other_values():
    state = task_state(ModelOutput.from_content("judge", "GRADE: C"))
    state.metadata["mut"] = 42
    routed = route_empty_responses(
        includes(), category="qa", output=metadata_output("mut")
    )
    with pytest.raises(TypeError, match=r"state.metadata\['mut'\] holds int"):
        await routed(state, Target("x"))


async def test_last_assistant_locator_reads_the_message_history():
    state = task_state(OUTCOME_EXAMPLES["tool_calls_only"]())
    state.output = ModelOutput.from_content("judge", "GRADE: C")
    routed = route_empty_responses(
        includes(), category="qa", output=last_assistant_output
    )
    result = await routed(state, Target("x"))
    assert result.metadata["empty_outcome"] == "tool_calls_only"


async def test_safety_dict_scorer_needs_only_a_dict_refusal_verdict():
    verdict = {"score": INCORRECT, "confidence": 100}
    routed = route_empty_responses(
        dict_scorer(), category="safety", refusal_verdict=verdict
    )
    assert (await routed(state_for("empty"), Target("x"))).value == verdict


@pytest.mark.parametrize(
    ("copy_metadata", "copied"),
    [
        (["failure_type"], {"failure_type": "cross_domain"}),
        (True, {"failure_type": "cross_domain", "memories": ["m"]}),
        (False, {}),
    ],
    ids=["keys", "all", "none"],
)
@pytest.mark.parametrize("outcome", ["empty", "filtered"])
async def test_verdicts_carry_the_sample_metadata_asked_for(
    copy_metadata, copied, outcome
):
    routed = route_empty_responses(
        harm_scorer(), category="qa", copy_metadata=copy_metadata
    )
    metadata = {"failure_type": "cross_domain", "memories": ["m"]}
    result = await routed(state_for(outcome, metadata=metadata), Target("x"))
    assert {k: v for k, v in result.metadata.items() if k in metadata} == copied
    assert result.metadata["empty_outcome"] == outcome


async def test_a_filtered_partial_answer_is_scored_and_flagged():
    output = ModelOutput.from_content(
        "mockllm/model", "The capital is Par", stop_reason="content_filter"
    )
    output.usage = ModelUsage(input_tokens=9, output_tokens=4, total_tokens=13)
    routed = route_empty_responses(includes(), category="safety", refusal_verdict=0)
    result = await routed(task_state(output, target="Par"), Target("Par"))
    assert result.value == CORRECT
    assert result.metadata["filtered_partial"] is True


@pytest.mark.parametrize(
    "double",
    [
        SimpleNamespace(completion=""),
        MagicMock(completion="Paris"),
    ],
    ids=["duck_typed", "mock"],
)
async def test_a_test_double_in_the_output_slot_goes_to_the_scorer(double):
    state = task_state(ModelOutput())
    state.output = double
    routed = route_empty_responses(harm_scorer(scale=0.5), category="qa")
    assert await routed(state, Target("x")) == Score(value=0.5)


@pytest.mark.parametrize(
    "locator",
    [store_output("mut_output"), metadata_output("mut"), last_assistant_output],
    ids=["store", "metadata", "last_assistant"],
)
async def test_an_output_never_recorded_leaves_the_sample_to_the_scorer(locator):
    state = task_state(ModelOutput.from_content("judge", "GRADE: C"))
    state.messages = []
    routed = route_empty_responses(
        harm_scorer(scale=0.5), category="qa", output=locator
    )
    assert await routed(state, Target("x")) == Score(value=0.5)


@scorer(metrics=[accuracy()])
def counting_scorer(calls: list):
    async def score(state, target):
        calls.append(state.sample_id)
        return Score(value=CORRECT)

    return score


def several(*outcomes: str) -> list[dict]:
    return [OUTCOME_EXAMPLES[o]().model_dump() for o in outcomes]


async def test_several_outputs_are_a_non_answer_only_when_every_one_is():
    calls: list = []
    routed = route_empty_responses(
        counting_scorer(calls),
        category="model_graded",
        output=store_output("first_turns", "last_turns"),
    )
    state = task_state(ModelOutput(model="mockllm/model"))
    state.store.set("first_turns", several("empty", "answered"))
    state.store.set("last_turns", several("filtered"))

    assert (await routed(state, Target("x"))).value == CORRECT
    assert len(calls) == 1

    state.store.set("first_turns", several("empty", "reasoning_only"))
    score = await routed(state, Target("x"))

    # the last output decides the class: a platform filter, unscored
    assert math.isnan(score.value)
    assert score.metadata["empty_outcome"] == "filtered"
    assert len(calls) == 1


async def test_completions_kept_as_text_are_classified_by_their_words():
    calls: list = []
    routed = route_empty_responses(
        counting_scorer(calls), category="qa", output=metadata_output("forks")
    )
    state = task_state(ModelOutput(model="mockllm/model"))
    state.metadata["forks"] = ["", "  ", "<think>hmm</think>"]

    score = await routed(state, Target("x"))

    assert score.value == NOANSWER
    assert score.metadata["empty_outcome"] == "reasoning_only"
    state.metadata["forks"] = ["", "Paris"]
    assert (await routed(state, Target("x"))).value == CORRECT


async def test_no_outputs_at_all_leave_the_sample_to_the_scorer():
    calls: list = []
    routed = route_empty_responses(
        counting_scorer(calls), category="qa", output=store_output("turns", "more")
    )
    state = task_state(ModelOutput(model="mockllm/model"))
    state.store.set("turns", [])

    assert (await routed(state, Target("x"))).value == CORRECT


async def test_first_and_every_assistant_message_locators():
    state = task_state(OUTCOME_EXAMPLES["empty"]())
    state.messages.append(OUTCOME_EXAMPLES["answered"]().message)

    assert classify(first_assistant_output(state)) == Outcome.EMPTY
    found = [classify(o) for o in assistant_outputs(state)]
    assert found == [Outcome.EMPTY, Outcome.ANSWERED]
    assert classify_outputs(assistant_outputs(state)).outcome == Outcome.ANSWERED


async def test_verdict_metadata_is_added_to_every_verdict_but_not_to_answers():
    routed = route_empty_responses(
        includes(),
        category="safety",
        refusal_verdict=INCORRECT,
        verdict_metadata=lambda state, target: {"verdict": "refusal", "t": target.text},
    )

    refused = await routed(task_state(OUTCOME_EXAMPLES["refused"]()), Target("x"))
    answered = await routed(task_state(OUTCOME_EXAMPLES["answered"]()), Target("x"))

    assert refused.metadata["verdict"] == "refusal"
    assert refused.metadata["t"] == "x"
    assert refused.metadata["empty_outcome"] == "refused"
    assert "verdict" not in (answered.metadata or {})


async def test_non_answer_score_routes_one_response_as_the_wrapper_does():
    policy = ResponsePolicy("safety", refusal_verdict=0.0)
    state = task_state(ModelOutput(model="mockllm/model"))

    refused = non_answer_score(OUTCOME_EXAMPLES["refused"](), state, Target(""), policy)
    truncated = non_answer_score(
        OUTCOME_EXAMPLES["truncated"](), state, Target(""), policy
    )

    assert (refused.value, refused.reason) == (0.0, "refusal")
    assert math.isnan(truncated.value)
    assert truncated.reason == "no_response"
    assert (
        non_answer_score(OUTCOME_EXAMPLES["answered"](), state, Target(""), policy)
        is None
    )
    with pytest.raises(ContextOverflowError):
        non_answer_score(OUTCOME_EXAMPLES["overflow"](), state, Target(""), policy)


def test_response_policy_checks_its_settings_once():
    with pytest.raises(ValueError, match="needs refusal_verdict"):
        ResponsePolicy("safety")
