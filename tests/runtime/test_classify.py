"""classify() agrees with the policy on every provider-shaped output."""

from types import SimpleNamespace

import pytest
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ContentText,
    ModelOutput,
    ModelUsage,
    StopDetails,
)

from empty_migrate.runtime.router import Outcome, classify, classify_output
from empty_migrate.testing.provider_outputs import PROVIDER_OUTPUTS, provider_output

pytestmark = pytest.mark.inspect_versions

PROVIDERS = {
    "openai",
    "openai_responses",
    "azure",
    "anthropic",
    "google",
    "bedrock",
    "mistral",
    "together",
    "grok",
    "vllm",
}


@pytest.mark.parametrize("fixture", PROVIDER_OUTPUTS, ids=lambda f: f.name)
def test_classify_agrees_with_the_policy(fixture):
    found = classify_output(fixture.output)
    assert found.outcome == fixture.expected, found
    partial = found.flags & {"truncated_partial", "filtered_partial"}
    assert partial == ({fixture.partial} if fixture.partial else set())


def test_library_covers_every_provider_and_outcome():
    assert len(PROVIDER_OUTPUTS) >= 40
    assert PROVIDERS <= {f.provider for f in PROVIDER_OUTPUTS}
    assert set(Outcome) == {f.expected for f in PROVIDER_OUTPUTS}


def test_every_fixture_cites_adapter_code():
    for fixture in PROVIDER_OUTPUTS:
        path, _, lines = fixture.source.partition(":")
        assert path.endswith(".py") and lines, fixture.name


@pytest.mark.parametrize(
    "name",
    [
        "openai_chat_sorry_but_answers",
        "openai_chat_reasoning_then_answer",
        "openai_chat_text_and_tool_calls",
        "openai_chat_partial_answer_max_tokens",
    ],
)
def test_controls_stay_answered(name):
    assert classify(provider_output(name).output) == Outcome.ANSWERED


def test_unknown_fixture_name_lists_the_known_ones():
    with pytest.raises(KeyError, match="openai_chat_answer"):
        provider_output("openai_chat_answr")


def _output(content, stop_reason="stop", completion="", stop_details=None):
    choice = ChatCompletionChoice(
        message=ChatMessageAssistant(content=content),
        stop_reason=stop_reason,
        stop_details=stop_details,
    )
    return ModelOutput(model="m", choices=[choice], completion=completion)


def test_refusal_prose_is_not_a_refusal():
    output = _output("I'm sorry, I can't help with that.")
    assert classify(output) == Outcome.ANSWERED


def test_refusal_block_wins_over_an_identical_explanation():
    text = "I can't help with that."
    output = _output(
        [ContentText(text=text, refusal=True)],
        stop_details=StopDetails(type="refusal", explanation=text),
    )
    assert classify_output(output).signal == "refusal_block"
    assert classify(output) == Outcome.REFUSED


def test_api_error_as_content_is_a_filter_not_a_refusal():
    text = "Invalid prompt: your prompt was flagged."
    output = _output(
        text,
        stop_reason="content_filter",
        stop_details=StopDetails(type="refusal", explanation=text),
    )
    assert classify_output(output).signal == "api_error"
    assert classify(output) == Outcome.FILTERED


def test_rewritten_completion_is_the_answer():
    output = _output("", stop_reason="tool_calls", completion="42")
    found = classify_output(output)
    assert (found.outcome, found.visible_text) == (Outcome.ANSWERED, "42")
    assert "completion_rewritten" in found.flags


@pytest.mark.parametrize(
    ("text", "stop_reason", "outcome", "visible"),
    [
        ("<think>step 1, step 2", "max_tokens", Outcome.TRUNCATED, ""),
        ("<think>done</think>", "stop", Outcome.REASONING_ONLY, ""),
        ("<think>done</think>\n\nParis", "stop", Outcome.ANSWERED, "Paris"),
        ("reasoning</think>Paris", "stop", Outcome.ANSWERED, "Paris"),
        ("reasoning</think>  ", "stop", Outcome.REASONING_ONLY, ""),
        ("Paris <think>more", "max_tokens", Outcome.ANSWERED, "Paris"),
        ("(no content)", "stop", Outcome.EMPTY, ""),
        (" \n\t", "stop", Outcome.EMPTY, ""),
    ],
)
def test_visible_text(text, stop_reason, outcome, visible):
    found = classify_output(_output(text, stop_reason=stop_reason))
    assert (found.outcome, found.visible_text) == (outcome, visible)


def test_explanation_names_the_signal():
    found = classify_output(provider_output("azure_content_filter_empty").output)
    assert "content filter" in found.explanation
    assert "signal: stop_reason:content_filter" in found.explanation


def test_output_error_marks_a_moderation_block_whatever_the_stop_reason():
    output = _output("Sorry, but I am unable to help with that request.")
    output.error = "content filtering blocked the request"
    found = classify_output(output)
    assert (found.outcome, found.signal) == (Outcome.FILTERED, "output.error")


def _usage(output_tokens):
    return ModelUsage(
        input_tokens=20, output_tokens=output_tokens, total_tokens=20 + output_tokens
    )


def test_completion_without_choices_is_an_answer():
    found = classify_output(ModelOutput(model="m", completion="The answer is 42."))
    assert found.outcome == Outcome.ANSWERED
    assert found.visible_text == "The answer is 42."
    assert "completion_without_choices" in found.flags


def test_no_choices_and_a_blank_completion_is_no_output():
    assert classify(ModelOutput(model="m", completion="  \n")) == Outcome.NO_OUTPUT


def test_a_duck_typed_output_is_read_by_its_completion():
    double = SimpleNamespace(completion="def solution(x): return x")
    assert classify(double) == Outcome.ANSWERED
    assert classify(SimpleNamespace()) == Outcome.NO_OUTPUT


@pytest.mark.parametrize(
    ("stop_reason", "flag"),
    [("content_filter", "filtered_partial"), ("model_length", "truncated_partial")],
)
def test_generated_text_before_a_cut_is_an_answer(stop_reason, flag):
    output = _output("Here is the first half", stop_reason=stop_reason)
    output.usage = _usage(5)
    found = classify_output(output)
    assert found.outcome == Outcome.ANSWERED
    assert flag in found.flags


@pytest.mark.parametrize(
    ("stop_reason", "outcome"),
    [("content_filter", Outcome.FILTERED), ("model_length", Outcome.OVERFLOW)],
)
@pytest.mark.parametrize(
    "platform_text",
    [
        {"usage": None},
        {"usage": _usage(0)},
        {"usage": _usage(9), "error": "the request was blocked"},
    ],
    ids=["no_usage", "no_output_tokens", "output_error"],
)
def test_text_the_platform_wrote_is_not_an_answer(stop_reason, outcome, platform_text):
    output = _output("Sorry, the model cannot answer this.", stop_reason=stop_reason)
    for field, value in platform_text.items():
        setattr(output, field, value)
    assert classify(output) == outcome
