"""The Anthropic Messages API, as ``model/_providers/anthropic.py`` shapes it."""

from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    Content,
    ContentReasoning,
    ContentText,
    ModelOutput,
    ModelUsage,
    StopCategory,
    StopDetails,
    StopReason,
)
from inspect_ai.tool import ToolCall

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.provider_outputs.fixture import Shapes, collected

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


_ANTHROPIC_STOP: dict[str, StopReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "max_tokens",
    "refusal": "content_filter",
}


def _anthropic_stop_details(
    details: dict[str, str | None] | None,
) -> StopDetails | None:
    if details is None:
        return None
    category = details.get("category")
    return StopDetails(
        type=details.get("type"),
        category=category,
        explanation=details.get("explanation"),
        categories=[StopCategory(category=category)] if category else [],
    )


def _anthropic_message(
    model: str,
    content: list[Content],
    stop_reason: str,
    *,
    tool_calls: list[ToolCall] | None = None,
    stop_details: dict[str, str | None] | None = None,
    input_tokens: int,
    output_tokens: int,
    reasoning_tokens: int | None = None,
    message_id: str = "msg_01XFDUDYJgAACzvnptvVoYEL",
) -> ModelOutput:
    return ModelOutput(
        model=model,
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(
                    content=content,
                    tool_calls=tool_calls,
                    model=model,
                    source="generate",
                ),
                stop_reason=_ANTHROPIC_STOP.get(stop_reason, "unknown"),
                stop_details=collected(
                    "anthropic", _anthropic_stop_details(stop_details)
                ),
            )
        ],
        usage=ModelUsage(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            total_tokens=input_tokens + output_tokens,
            input_tokens_cache_write=0,
            input_tokens_cache_read=0,
            reasoning_tokens=reasoning_tokens,
        ),
        response_id=message_id,
    )


def _anthropic_error(
    status: int, error_type: str, message: str
) -> tuple[str, dict[str, Any]]:
    body = {"type": "error", "error": {"type": error_type, "message": message}}
    return f"Error code: {status} - {body}", body


_OPUS = "claude-opus-4-7"


_SONNET = "claude-sonnet-4-5-20250929"


_THINKING_SIGNATURE = "EqQBCkgIBxABGAIiQL3kq9Zt0c1Tq2m8VvH4yJrP7nWxG5aK0sDfLb6uE3iYoR"


@SHAPES.add(
    name="anthropic_end_turn_answer",
    provider="anthropic",
    source="model/_providers/anthropic.py:4905-4935",
    shape="A text block with stop_reason end_turn gives [ContentText] with stop "
    "and tool_calls None.",
    expected=Outcome.ANSWERED,
)
def _anthropic_end_turn_answer() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [ContentText(text="The Treaty of Westphalia was signed in 1648.")],
        "end_turn",
        input_tokens=19,
        output_tokens=17,
    )


@SHAPES.add(
    name="anthropic_refusal_stop_cyber_no_text",
    provider="anthropic",
    source="model/_providers/anthropic.py:5595-5625",
    shape="stop_reason refusal with empty content and stop_details category "
    "cyber gives content [], content_filter, StopDetails(type=refusal, cyber).",
    expected=Outcome.REFUSED,
)
def _anthropic_refusal_stop_cyber_no_text() -> ModelOutput:
    return _anthropic_message(
        _OPUS,
        [],
        "refusal",
        stop_details={
            "type": "refusal",
            "category": "cyber",
            "explanation": "This request could enable cyber harm.",
        },
        input_tokens=2140,
        output_tokens=0,
        message_id="msg_01Hk7dP3vQw9ZrT2yLm5NcX8",
    )


@SHAPES.add(
    name="anthropic_refusal_stop_partial_text",
    provider="anthropic",
    source="model/_providers/anthropic.py:5603-5625",
    shape="A streaming-classifier refusal keeps the partial text unflagged with "
    "content_filter and refusal stop_details (explanation synthesized from cyber).",
    expected=Outcome.REFUSED_AFTER_PARTIAL,
)
def _anthropic_refusal_stop_partial_text() -> ModelOutput:
    return _anthropic_message(
        _OPUS,
        [
            ContentText(
                text=(
                    "Here's an overview of how the loader resolves imports. First, it "
                    "walks the export table and"
                )
            )
        ],
        "refusal",
        stop_details={"type": "refusal", "category": "cyber", "explanation": None},
        input_tokens=2140,
        output_tokens=27,
        message_id="msg_01Lq2wE8rT5yU1iO4pA7sD3f",
    )


@SHAPES.add(
    name="anthropic_refusal_stop_without_stop_details",
    provider="anthropic",
    source="model/_providers/anthropic.py:5603-5604",
    shape="A pre-stop_details model stops with refusal and no content: content "
    "[], content_filter, stop_details None.",
    expected=Outcome.FILTERED,
)
def _anthropic_refusal_stop_without_stop_details() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [],
        "refusal",
        input_tokens=1893,
        output_tokens=0,
        message_id="msg_01Gh6jK9lZ2xC5vB8nM1qW4e",
    )


@SHAPES.add(
    name="anthropic_refusal_stop_uncategorised",
    provider="anthropic",
    source="model/_model_output.py:183-186",
    shape="stop_details {type: refusal, category: null, explanation: null} is "
    "dropped by collect_stop_details, leaving content_filter with None.",
    expected=Outcome.FILTERED,
)
def _anthropic_refusal_stop_uncategorised() -> ModelOutput:
    return _anthropic_message(
        _OPUS,
        [],
        "refusal",
        stop_details={"type": "refusal", "category": None, "explanation": None},
        input_tokens=1893,
        output_tokens=0,
        message_id="msg_01Rt3yU6iO9pA2sD5fG8hJ1k",
    )


@SHAPES.add(
    name="anthropic_400_content_filtering",
    provider="anthropic",
    source="model/_providers/anthropic.py:2089-2128",
    shape="A 400 mentioning content filtering becomes the canned apology with "
    "content_filter, no stop_details and output.error the lower-cased SDK message.",
    expected=Outcome.FILTERED,
)
def _anthropic_400_content_filtering() -> ModelOutput:
    message, _ = _anthropic_error(
        400, "invalid_request_error", "Output blocked by content filtering policy"
    )
    return ModelOutput.from_content(
        model=_SONNET,
        content="Sorry, but I am unable to help with that request.",
        stop_reason="content_filter",
        error=message.lower(),
    )


@SHAPES.add(
    name="anthropic_413_request_too_large",
    provider="anthropic",
    source="model/_providers/anthropic.py:1069-1078",
    shape="A 413 uses the SDK's 'Error code: 413 - {...}' string as both the "
    "text and output.error, with model_length.",
    expected=Outcome.OVERFLOW,
)
def _anthropic_413_request_too_large() -> ModelOutput:
    message, _ = _anthropic_error(
        413, "request_too_large", "Request exceeds the maximum allowed number of bytes."
    )
    return ModelOutput.from_content(
        model=_SONNET, content=message, stop_reason="model_length", error=message
    )


@SHAPES.add(
    name="anthropic_400_prompt_too_long",
    provider="anthropic",
    source="model/_providers/anthropic.py:2094-2115",
    shape="'prompt is too long' becomes the body's error message as text with "
    "model_length and output.error the lower-cased SDK message.",
    expected=Outcome.OVERFLOW,
)
def _anthropic_400_prompt_too_long() -> ModelOutput:
    message, body = _anthropic_error(
        400,
        "invalid_request_error",
        "prompt is too long: 213457 tokens > 200000 maximum",
    )
    return ModelOutput.from_content(
        model=_SONNET,
        content=str(body["error"]["message"]),
        stop_reason="model_length",
        error=message.lower(),
    )


@SHAPES.add(
    name="anthropic_thinking_cut_at_max_tokens",
    provider="anthropic",
    source="model/_providers/anthropic.py:5016-5024",
    shape="A thinking block cut at max_tokens gives only ContentReasoning("
    "summary=<thinking>, reasoning=<signature>, redacted=True) with max_tokens.",
    expected=Outcome.TRUNCATED,
)
def _anthropic_thinking_cut_at_max_tokens() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [
            ContentReasoning(
                summary=(
                    "Let me set up the integral. Substituting u = x^2 gives "
                    "du = 2x dx, so the bounds become 0 and 4, and then"
                ),
                reasoning=_THINKING_SIGNATURE,
                redacted=True,
            )
        ],
        "max_tokens",
        input_tokens=64,
        output_tokens=1024,
        reasoning_tokens=1024,
        message_id="msg_01Wq8eR2tY4uI6oP9aS1dF3g",
    )


@SHAPES.add(
    name="anthropic_thinking_then_answer",
    provider="anthropic",
    source="model/_providers/anthropic.py:5016-5024",
    shape="A thinking block then a text block gives [ContentReasoning, "
    "ContentText] with stop.",
    expected=Outcome.ANSWERED,
)
def _anthropic_thinking_then_answer() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [
            ContentReasoning(
                summary="Substituting u = x^2 turns the integral into (1/2)∫ e^u du.",
                reasoning=_THINKING_SIGNATURE,
                redacted=True,
            ),
            ContentText(text="The integral evaluates to (e^4 - 1)/2."),
        ],
        "end_turn",
        input_tokens=64,
        output_tokens=212,
        reasoning_tokens=180,
        message_id="msg_01Zx5cV7bN9mQ2wE4rT6yU8i",
    )


@SHAPES.add(
    name="anthropic_max_tokens_partial_text",
    provider="anthropic",
    source="model/_providers/anthropic.py:5595-5602",
    shape="A text block cut by stop_reason max_tokens keeps its partial text "
    "with max_tokens.",
    expected=Outcome.ANSWERED,
    partial="truncated_partial",
)
def _anthropic_max_tokens_partial_text() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [
            ContentText(
                text=(
                    "1. Preheat the oven to 180 °C.\n2. Cream the butter and sugar.\n"
                    "3. Beat in the eggs one at a"
                )
            )
        ],
        "max_tokens",
        input_tokens=33,
        output_tokens=32,
        message_id="msg_01Po4iU7yT1rE3wQ6aS9dF2g",
    )


@SHAPES.add(
    name="anthropic_tool_use_only",
    provider="anthropic",
    source="model/_providers/anthropic.py:4936-4966",
    shape="Only a tool_use block gives content [] and a ToolCall list with "
    "stop_reason tool_calls.",
    expected=Outcome.TOOL_CALLS_ONLY,
)
def _anthropic_tool_use_only() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [],
        "tool_use",
        tool_calls=[
            ToolCall(
                id="toolu_01A09q90qw90lq917835lq9",
                function="bash",
                arguments={"cmd": "cat /etc/os-release"},
            )
        ],
        input_tokens=812,
        output_tokens=58,
        message_id="msg_01Mn3bV5cX7zL9kJ2hG4fD6s",
    )


@SHAPES.add(
    name="anthropic_context_window_exceeded_partial",
    provider="anthropic",
    source="model/_providers/anthropic.py:5605-5606",
    shape="stop_reason model_context_window_exceeded falls to the catch-all: "
    "partial text kept with stop_reason unknown, not model_length.",
    expected=Outcome.ANSWERED,
)
def _anthropic_context_window_exceeded_partial() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [
            ContentText(
                text=(
                    "Summary of the logs: the service restarted 14 times between 02:00 "
                    "and 03:00, each time after"
                )
            )
        ],
        "model_context_window_exceeded",
        input_tokens=198760,
        output_tokens=1240,
        message_id="msg_01Kj8hG6fD4sA2pO0iU9yT7r",
    )


@SHAPES.add(
    name="anthropic_context_window_exceeded_empty",
    provider="anthropic",
    source="model/_providers/anthropic.py:5605-5606",
    shape="model_context_window_exceeded with no content blocks gives content "
    "[] and stop_reason unknown.",
    expected=Outcome.EMPTY,
)
def _anthropic_context_window_exceeded_empty() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [],
        "model_context_window_exceeded",
        input_tokens=199990,
        output_tokens=0,
        message_id="msg_01Bv2nM4qW6eR8tY0uI1oP3a",
    )
