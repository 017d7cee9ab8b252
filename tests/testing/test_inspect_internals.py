"""The adapter's private inspect_ai names do what the fixture library and audit need.

CI runs this on inspect-ai 0.3.278 and 0.3.285 (``-m inspect_versions``): a
release that moves or changes one of them fails here, by name.
"""

import logging

import pytest
from inspect_ai.model import StopDetails
from inspect_ai.scorer import accuracy

from empty_migrate.testing import inspect_internals
from empty_migrate.testing.inspect_internals import (
    NO_CONTENT,
    ConverseResponse,
    as_stop_reason,
    collect_stop_details,
    malformed_function_apology,
    model_output_from_response,
    parse_content_with_reasoning,
    parse_tool_call,
    registry_lookup,
)

pytestmark = pytest.mark.inspect_versions

LOGGER = logging.getLogger(__name__)


def test_every_name_is_exported():
    assert all(hasattr(inspect_internals, name) for name in inspect_internals.__all__)


def test_no_content_is_the_google_adapters_text():
    assert NO_CONTENT == "(no content)"


def test_registry_lookup_gives_a_registered_metric_or_none():
    assert registry_lookup("metric", "accuracy") is accuracy
    assert registry_lookup("metric", "nowhere/not_a_metric") is None


def test_parse_tool_call_parses_json_arguments_and_keeps_a_bad_one_as_an_error():
    call = parse_tool_call("call_1", "bash", '{"cmd": "ls"}', [])
    assert (call.id, call.function, call.arguments) == ("call_1", "bash", {"cmd": "ls"})
    assert call.parse_error is None
    assert parse_tool_call("call_2", "bash", "{not json", []).parse_error


@pytest.mark.parametrize(
    "reason, stop",
    [
        ("stop", "stop"),
        ("length", "max_tokens"),
        ("tool_calls", "tool_calls"),
        ("content_filter", "content_filter"),
        ("something_else", "unknown"),
    ],
)
def test_as_stop_reason_maps_a_finish_reason(reason, stop):
    assert as_stop_reason(reason) == stop


def test_collect_stop_details_drops_empty_details_and_keeps_real_ones():
    assert collect_stop_details("p", LOGGER, lambda: StopDetails()) is None
    details = StopDetails(type="refusal", explanation="no")
    assert collect_stop_details("p", LOGGER, lambda: details) == details


def test_malformed_function_apology_is_text_between_newlines():
    apology = malformed_function_apology("MALFORMED")
    assert apology.startswith("\n") and apology.endswith("\n")
    assert "MALFORMED" in apology


def test_a_converse_response_converts_to_a_model_output():
    response = ConverseResponse.model_validate(
        {
            "output": {"message": {"role": "assistant", "content": [{"text": "Hi"}]}},
            "stopReason": "end_turn",
            "usage": {"inputTokens": 3, "outputTokens": 1, "totalTokens": 4},
            "metrics": {"latencyMs": 5},
        }
    )
    output = model_output_from_response("bedrock-model", response, [])
    assert (output.completion, output.stop_reason) == ("Hi", "stop")
    assert output.message.tool_calls == []


def test_a_think_block_is_split_off_the_content():
    content, capsule = parse_content_with_reasoning("<think>Because.</think>Paris")
    assert content == "Paris"
    assert capsule is not None and capsule.reasoning == "Because."
    assert parse_content_with_reasoning("Paris") == ("Paris", None)
