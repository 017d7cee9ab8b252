"""The OpenAI Responses API, as ``model/_openai_responses.py`` shapes it."""

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    Content,
    ContentReasoning,
    ContentText,
    ModelOutput,
    ModelUsage,
    StopDetails,
    StopReason,
)

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.inspect_internals import (
    parse_tool_call,
)
from empty_migrate.testing.provider_outputs.fixture import Shapes, collected

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


_RESPONSES_STOP: dict[str, StopReason] = {
    "max_output_tokens": "max_tokens",
    "content_filter": "content_filter",
}


def _responses_usage(prompt: int, completion: int, reasoning: int = 0) -> ModelUsage:
    return ModelUsage(
        input_tokens=prompt,
        output_tokens=completion,
        reasoning_tokens=reasoning,
        total_tokens=prompt + completion,
    )


def _responses_text(text: str, message_id: str) -> ContentText:
    return ContentText(text=text, internal={"message_id": message_id})


def _responses_refusal(text: str, message_id: str) -> ContentText:
    return ContentText(text=text, refusal=True, internal={"message_id": message_id})


def _responses_reasoning(
    item_id: str, encrypted: str, summary: list[str] | None = None
) -> ContentReasoning:
    return ContentReasoning(
        reasoning=encrypted,
        summary="\n\n".join(summary) if summary else None,
        signature=item_id,
        redacted=True,
    )


def _responses_output(
    api_model: str,
    response_model: str,
    content: list[Content],
    *,
    incomplete: str | None = None,
    tool_calls: list[tuple[str, str, str]] | None = None,
    usage: ModelUsage,
    response_id: str,
) -> ModelOutput:
    stop_reason = _RESPONSES_STOP.get(incomplete or "", "stop")
    calls = [parse_tool_call(*call, []) for call in tool_calls or []]
    if calls:
        stop_reason = "tool_calls"
    refusals = [c.text for c in content if isinstance(c, ContentText) and c.refusal]
    explanation = "\n".join(refusals) if refusals else None
    details = (
        StopDetails(
            type="content_filter" if incomplete == "content_filter" else "refusal",
            explanation=explanation,
        )
        if explanation or incomplete == "content_filter"
        else None
    )
    return ModelOutput(
        model=response_model,
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(
                    content=content,
                    tool_calls=calls or None,
                    model=api_model,
                    source="generate",
                ),
                stop_reason=stop_reason,
                stop_details=collected("openai_responses", details),
            )
        ],
        usage=usage,
        response_id=response_id,
    )


_RESP_MSG_ID = "msg_68a1f0c2b7e48191a0c5d3e9f2b4a6c8"


_RESP_RS_ID = "rs_68a1f0c19d6c8191b3e2f4a6c8d0e2f4"


_RESP_ENCRYPTED = "gAAAAABoofDCx3Yq0m8Hc2kVt9ZpQe4Lr7Ws1Nf6Jb0Ud5Ag3Xk8Tz2Cv4Mh9Ry"


@SHAPES.add(
    name="openai_responses_answer",
    provider="openai_responses",
    source="model/_openai_responses.py:972-990",
    shape="One message item with output_text gives [ContentText(internal="
    "message_id)] with stop_reason stop.",
    expected=Outcome.ANSWERED,
)
def _responses_answer() -> ModelOutput:
    return _responses_output(
        "gpt-4.1",
        "gpt-4.1-2025-04-14",
        [_responses_text("Water boils at 100 °C at sea level.", _RESP_MSG_ID)],
        usage=_responses_usage(21, 12),
        response_id="resp_68a1f0c0a1b28191c3d4e5f6a7b8c9d0",
    )


@SHAPES.add(
    name="openai_responses_output_text_then_refusal",
    provider="openai_responses",
    source="model/_openai_responses.py:972-990",
    shape="One message item holding output_text then a refusal part gives a "
    "plain ContentText followed by ContentText(refusal=True), stop, refusal "
    "stop_details.",
    expected=Outcome.REFUSED_AFTER_PARTIAL,
)
def _responses_output_text_then_refusal() -> ModelOutput:
    return _responses_output(
        "gpt-4.1",
        "gpt-4.1-2025-04-14",
        [
            _responses_text(
                "Ricin is a toxic protein found in castor beans, and exposure is a "
                "medical emergency.",
                _RESP_MSG_ID,
            ),
            _responses_refusal(
                "I can't help with extracting or purifying it.", _RESP_MSG_ID
            ),
        ],
        usage=_responses_usage(38, 35),
        response_id="resp_68a1f0c3e2f48191a9b8c7d6e5f4a3b2",
    )


@SHAPES.add(
    name="openai_responses_refusal_only",
    provider="openai_responses",
    source="model/_openai_responses.py:700-727",
    shape="A message item with only a refusal part gives [ContentText(refusal="
    "True)] with stop and stop_details type refusal explaining it.",
    expected=Outcome.REFUSED,
)
def _responses_refusal_only() -> ModelOutput:
    return _responses_output(
        "gpt-4.1",
        "gpt-4.1-2025-04-14",
        [_responses_refusal("I'm sorry, but I can't help with that.", _RESP_MSG_ID)],
        usage=_responses_usage(38, 12),
        response_id="resp_68a1f0c4f3a58191b0c9d8e7f6a5b4c3",
    )


@SHAPES.add(
    name="openai_responses_incomplete_reasoning_summary_only",
    provider="openai_responses",
    source="model/_openai_responses.py:1168-1212",
    shape="incomplete max_output_tokens with only a reasoning item gives "
    "ContentReasoning(reasoning=<encrypted>, summary=<text>, redacted) and "
    "max_tokens.",
    expected=Outcome.TRUNCATED,
)
def _responses_incomplete_reasoning_summary_only() -> ModelOutput:
    return _responses_output(
        "gpt-5",
        "gpt-5-2025-08-07",
        [
            _responses_reasoning(
                _RESP_RS_ID,
                _RESP_ENCRYPTED,
                [
                    "**Setting up the recurrence**\n\nI need a closed form for a_n.",
                    "**Checking small cases**\n\nThe first terms are 1, 3, 7, 15.",
                ],
            )
        ],
        incomplete="max_output_tokens",
        usage=_responses_usage(142, 1024, reasoning=1024),
        response_id="resp_68a1f0c5a4b68191c1d0e9f8a7b6c5d4",
    )


@SHAPES.add(
    name="openai_responses_incomplete_reasoning_encrypted_only",
    provider="openai_responses",
    source="model/_openai_responses.py:1195-1212",
    shape="incomplete max_output_tokens with an encrypted reasoning item and no "
    "summary gives one redacted ContentReasoning with summary None and max_tokens.",
    expected=Outcome.TRUNCATED,
)
def _responses_incomplete_reasoning_encrypted_only() -> ModelOutput:
    return _responses_output(
        "o4-mini",
        "o4-mini-2025-04-16",
        [_responses_reasoning(_RESP_RS_ID, _RESP_ENCRYPTED)],
        incomplete="max_output_tokens",
        usage=_responses_usage(142, 512, reasoning=512),
        response_id="resp_68a1f0c6b5c78191d2e1f0a9b8c7d6e5",
    )


@SHAPES.add(
    name="openai_responses_incomplete_content_filter",
    provider="openai_responses",
    source="model/_openai_responses.py:700-727",
    shape="incomplete content_filter keeps the partial output_text; the bare "
    "StopDetails(type=content_filter) is dropped, so stop_details is None.",
    expected=Outcome.ANSWERED,
    partial="filtered_partial",
)
def _responses_incomplete_content_filter() -> ModelOutput:
    return _responses_output(
        "gpt-4.1",
        "gpt-4.1-2025-04-14",
        [_responses_text("Here is the first part of the story. The", _RESP_MSG_ID)],
        incomplete="content_filter",
        usage=_responses_usage(58, 9),
        response_id="resp_68a1f0c7c6d88191e3f2a1b0c9d8e7f6",
    )


@SHAPES.add(
    name="openai_responses_function_call_incomplete",
    provider="openai_responses",
    source="model/_openai_responses.py:1114-1130",
    shape="A function_call item forces stop_reason tool_calls even though the "
    "response is incomplete at max_output_tokens; content is only reasoning.",
    expected=Outcome.TOOL_CALLS_ONLY,
)
def _responses_function_call_incomplete() -> ModelOutput:
    return _responses_output(
        "gpt-5",
        "gpt-5-2025-08-07",
        [_responses_reasoning(_RESP_RS_ID, _RESP_ENCRYPTED)],
        incomplete="max_output_tokens",
        tool_calls=[
            ("call_Zt8Qw1Ls5Nc3Vb7Xm2Kp", "python", '{"code": "print(2**64)"}')
        ],
        usage=_responses_usage(530, 2048, reasoning=2010),
        response_id="resp_68a1f0c8d7e98191f4a3b2c1d0e9f8a7",
    )
