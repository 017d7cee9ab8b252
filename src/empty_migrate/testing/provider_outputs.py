"""Model outputs shaped exactly as inspect-ai 0.3.285's provider adapters build them.

The router decides what a scorer does with the final output of the model under
test (the table of MIGRATION.md). Its tests need outputs that look like the ones real
providers produce, not idealised ones: a refusal that arrives as a flagged text
block, as a stop reason, as an API error turned into text or as a canned apology;
silence that is really a filter, a token ceiling or a tool call. Each
:class:`ProviderOutput` pairs a builder of a real ``ModelOutput`` with the adapter
code it mirrors (``source``, relative to the installed ``inspect_ai`` package), a
one-sentence ``shape`` and the ``expected`` outcome the policy assigns to it.

Builders use the real inspect-ai classes and call the adapter's own helpers
wherever they run without a provider SDK or network: ``collect_stop_details``,
``as_stop_reason``, ``ModelOutput.from_content``, ``parse_tool_call``,
``parse_content_with_reasoning``, ``malformed_function_apology``, Bedrock's
``model_output_from_response``, ``AgentState`` and ``TaskState`` (the private
ones come through ``empty_migrate.testing.inspect_internals``). Helpers that need
the OpenAI, Anthropic, Google, Mistral or xAI SDK (none is a dependency of this
project) are mirrored by hand in the ``_openai_*``, ``_responses_*``,
``_anthropic_*``, ``_google_*``, ``_mistral_*`` and ``_grok_*`` functions, which
keep the adapter's choices of ``str`` versus list content, ``None`` versus ``[]``
tool calls, and present versus dropped ``stop_details``.

Ids, token counts and message texts are illustrative; the structure is not.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspect_ai.agent import AgentState
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ChatMessageUser,
    Content,
    ContentReasoning,
    ContentText,
    ModelName,
    ModelOutput,
    ModelUsage,
    StopCategory,
    StopDetails,
    StopReason,
)
from inspect_ai.solver import TaskState
from inspect_ai.tool import ToolCall

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.inspect_internals import (
    NO_CONTENT,
    ConverseResponse,
    as_stop_reason,
    collect_stop_details,
    malformed_function_apology,
    model_output_from_response,
    parse_content_with_reasoning,
    parse_tool_call,
)

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProviderOutput:
    """A model output shaped as one inspect-ai provider adapter builds it."""

    name: str
    provider: str
    source: str
    shape: str
    expected: Outcome
    build: Callable[[], ModelOutput]
    partial: str | None = None
    """An answer cut short carries its flag: truncated_partial or filtered_partial."""

    @property
    def output(self) -> ModelOutput:
        """A freshly built output (each access builds a new object)."""
        return self.build()


def _collected(provider: str, details: StopDetails | None) -> StopDetails | None:
    return collect_stop_details(provider, _LOGGER, lambda: details)


# OpenAI chat completions and OpenAI-compatible servers (model/_openai.py)


def _openai_usage(
    prompt: int, completion: int, reasoning: int = 0, *, details: bool = True
) -> ModelUsage:
    if not details:
        return ModelUsage(
            input_tokens=prompt,
            output_tokens=completion,
            total_tokens=prompt + completion,
        )
    return ModelUsage(
        input_tokens=prompt,
        output_tokens=completion,
        input_tokens_cache_read=0,
        reasoning_tokens=reasoning,
        total_tokens=prompt + completion,
    )


def _openai_content(
    content: str | None,
    *,
    refusal: str | None = None,
    reasoning_content: str | None = None,
) -> str | list[Content]:
    msg_content = str(refusal or content or "")
    reasoning: ContentReasoning | None = None
    remaining: str | None = None
    if reasoning_content:
        reasoning = ContentReasoning(
            reasoning=reasoning_content, internal="reasoning_content"
        )
    else:
        remaining, capsule = parse_content_with_reasoning(content or "")
        if capsule:
            reasoning = ContentReasoning(reasoning=capsule.reasoning, internal="think")
    if reasoning is not None:
        return [
            reasoning,
            ContentText(
                text=remaining or msg_content, refusal=True if refusal else None
            ),
        ]
    if refusal is not None:
        return [ContentText(text=msg_content, refusal=True)]
    return msg_content


def _openai_stop_details(
    finish_reason: str,
    *,
    refusal: str | None = None,
    content_filter_results: dict[str, dict[str, Any]] | None = None,
) -> StopDetails | None:
    categories = [
        StopCategory(
            category=name,
            level=str(info["severity"]) if info.get("severity") is not None else None,
        )
        for name, info in (content_filter_results or {}).items()
        if info.get("filtered")
    ]
    if not categories and not refusal:
        return None
    return StopDetails(
        type="content_filter" if finish_reason == "content_filter" else "refusal",
        explanation=refusal,
        categories=categories,
    )


def _openai_chat(
    model: str,
    finish_reason: str,
    *,
    content: str | None = None,
    refusal: str | None = None,
    reasoning_content: str | None = None,
    tool_calls: list[tuple[str, str, str]] | None = None,
    content_filter_results: dict[str, dict[str, Any]] | None = None,
    usage: ModelUsage | None = None,
    response_id: str = "chatcmpl-C3mZ8qJ1vYbKpX2fT0aLwRn5sHdE",
    provider: str = "openai",
) -> ModelOutput:
    calls = [parse_tool_call(*call, []) for call in tool_calls or []]
    return ModelOutput(
        model=model,
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(
                    content=_openai_content(
                        content, refusal=refusal, reasoning_content=reasoning_content
                    ),
                    model=model,
                    source="generate",
                    tool_calls=calls or None,
                ),
                stop_reason=as_stop_reason(finish_reason),
                stop_details=_collected(
                    provider,
                    _openai_stop_details(
                        finish_reason,
                        refusal=refusal,
                        content_filter_results=content_filter_results,
                    ),
                ),
            )
        ],
        usage=usage,
        response_id=response_id,
    )


def _openai_error(model: str, code: str, message: str) -> ModelOutput:
    if code == "context_length_exceeded":
        return ModelOutput.from_content(
            model=model, content=message, stop_reason="model_length"
        )
    details = (
        StopDetails(
            type="refusal",
            category="cyber",
            explanation=message,
            categories=[StopCategory(category="cyber")],
        )
        if code == "cyber_policy"
        else StopDetails(type="refusal", explanation=message)
    )
    return ModelOutput.from_content(
        model=model,
        content=message,
        stop_reason="content_filter",
        stop_details=details,
    )


_GPT4O = "gpt-4o-2024-08-06"
_AZURE_GPT4O = "gpt-4o-2024-11-20"
_AZURE_FILTERED_VIOLENCE = {
    "hate": {"filtered": False, "severity": "safe"},
    "self_harm": {"filtered": False, "severity": "safe"},
    "sexual": {"filtered": False, "severity": "safe"},
    "violence": {"filtered": True, "severity": "high"},
}


def _openai_chat_answer() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "stop",
        content="The capital of Australia is Canberra.",
        usage=_openai_usage(24, 9),
    )


def _openai_chat_refusal_field() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "stop",
        refusal="I'm sorry, I can't assist with that request.",
        usage=_openai_usage(61, 11),
    )


def _openai_chat_refusal_with_reasoning_content() -> ModelOutput:
    return _openai_chat(
        "gpt-oss-120b",
        "stop",
        reasoning_content=(
            "The user asks for step-by-step synthesis of a nerve agent. "
            "This is disallowed. Must refuse."
        ),
        refusal="I'm sorry, but I can't help with that.",
        usage=_openai_usage(88, 47, details=False),
        response_id="chatcmpl-9f2c1e0b7a5d4e3c8b6a",
    )


def _openai_chat_whitespace_only() -> ModelOutput:
    return _openai_chat(_GPT4O, "stop", content="\n\n  \n", usage=_openai_usage(40, 3))


def _openai_chat_length_empty_content() -> ModelOutput:
    return _openai_chat(
        "o3-2025-04-16",
        "length",
        content="",
        usage=_openai_usage(312, 256, reasoning=256),
    )


def _openai_chat_reasoning_content_only() -> ModelOutput:
    return _openai_chat(
        "deepseek-reasoner",
        "stop",
        content="",
        reasoning_content=(
            "We need the smallest prime above 100. 101 is not divisible by 2, 3, 5 "
            "or 7, so it is prime."
        ),
        usage=_openai_usage(35, 42, reasoning=42),
        response_id="8e7f2b1c-4d5a-4b6c-9e0f-1a2b3c4d5e6f",
    )


def _openai_chat_reasoning_then_answer() -> ModelOutput:
    return _openai_chat(
        "deepseek-reasoner",
        "stop",
        content="The smallest prime greater than 100 is 101.",
        reasoning_content="101 is not divisible by 2, 3, 5 or 7, so it is prime.",
        usage=_openai_usage(35, 40, reasoning=24),
        response_id="3a9d7c2e-1f4b-4e8a-b6c5-0d9e8f7a6b5c",
    )


def _openai_chat_tool_calls_only() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "tool_calls",
        tool_calls=[("call_Qm3vX8bNf2LkR7pT1sYd", "bash", '{"cmd": "ls -la /srv"}')],
        usage=_openai_usage(410, 19),
    )


def _openai_chat_text_and_tool_calls() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "tool_calls",
        content="Let me check the directory listing first.",
        tool_calls=[("call_H7kLp2Wq9zXc4VbN0mJr", "bash", '{"cmd": "ls /srv"}')],
        usage=_openai_usage(410, 28),
    )


def _openai_chat_sorry_but_answers() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "stop",
        content=(
            "I'm sorry, but there is no single correct answer without the units. "
            "Assuming metres, the area is 12 square metres."
        ),
        usage=_openai_usage(52, 27),
    )


def _openai_chat_partial_answer_max_tokens() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "length",
        content=(
            "We prove the claim by induction on n. For the base case n = 1, the sum "
            "is 1 = 1(1 + 1)/2. For the inductive step, assume the claim for n and"
        ),
        usage=_openai_usage(77, 48),
    )


def _openai_chat_400_invalid_prompt() -> ModelOutput:
    return _openai_error(
        "o3",
        "invalid_prompt",
        "Invalid prompt: your prompt was flagged as potentially violating our usage "
        "policy. Please try again with a different prompt: "
        "https://platform.openai.com/docs/guides/reasoning#advice-on-prompting",
    )


def _openai_chat_400_content_policy_violation() -> ModelOutput:
    return _openai_error(
        "gpt-4o",
        "content_policy_violation",
        "Your request was rejected as a result of our safety system. Your prompt may "
        "contain text that is not allowed by our safety system.",
    )


def _openai_chat_400_cyber_policy() -> ModelOutput:
    return _openai_error(
        "gpt-5.4",
        "cyber_policy",
        "This content was flagged for possible cybersecurity risk. If this seems "
        "wrong, try rephrasing your request.",
    )


def _openai_chat_400_context_length_exceeded() -> ModelOutput:
    return _openai_error(
        "gpt-4o",
        "context_length_exceeded",
        "This model's maximum context length is 128000 tokens. However, your "
        "messages resulted in 131072 tokens. Please reduce the length of the "
        "messages.",
    )


def _openai_compatible_empty_choices() -> ModelOutput:
    return ModelOutput(
        model="Qwen/Qwen2.5-72B-Instruct",
        choices=[],
        usage=_openai_usage(1830, 0, details=False),
        response_id="chatcmpl-5b0f0d8e2c7a4f19a3e6",
    )


def _azure_content_filter_empty() -> ModelOutput:
    return _openai_chat(
        _AZURE_GPT4O,
        "content_filter",
        content=None,
        content_filter_results=_AZURE_FILTERED_VIOLENCE,
        usage=_openai_usage(96, 0),
    )


def _azure_stream_filter_partial_text() -> ModelOutput:
    return _openai_chat(
        _AZURE_GPT4O,
        "content_filter",
        content="Sure. The first thing you would need to do is",
        usage=_openai_usage(96, 11),
    )


def _azure_detected_not_filtered_answer() -> ModelOutput:
    return _openai_chat(
        _AZURE_GPT4O,
        "stop",
        content="Here is a short summary of the chapter you pasted.",
        content_filter_results={
            "protected_material_text": {"filtered": False, "detected": True},
            "violence": {"filtered": False, "severity": "safe"},
        },
        usage=_openai_usage(1204, 12),
    )


def _azure_400_content_filter() -> ModelOutput:
    return _openai_error(
        "gpt-4o",
        "content_filter",
        "The response was filtered due to the prompt triggering Azure OpenAI's "
        "content management policy. Please modify your prompt and retry. To learn "
        "more about our content filtering policies please read our documentation: "
        "https://go.microsoft.com/fwlink/?linkid=2198766",
    )


# OpenAI Responses API (model/_openai_responses.py)


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
                stop_details=_collected("openai_responses", details),
            )
        ],
        usage=usage,
        response_id=response_id,
    )


_RESP_MSG_ID = "msg_68a1f0c2b7e48191a0c5d3e9f2b4a6c8"
_RESP_RS_ID = "rs_68a1f0c19d6c8191b3e2f4a6c8d0e2f4"
_RESP_ENCRYPTED = "gAAAAABoofDCx3Yq0m8Hc2kVt9ZpQe4Lr7Ws1Nf6Jb0Ud5Ag3Xk8Tz2Cv4Mh9Ry"


def _responses_answer() -> ModelOutput:
    return _responses_output(
        "gpt-4.1",
        "gpt-4.1-2025-04-14",
        [_responses_text("Water boils at 100 °C at sea level.", _RESP_MSG_ID)],
        usage=_responses_usage(21, 12),
        response_id="resp_68a1f0c0a1b28191c3d4e5f6a7b8c9d0",
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


def _responses_refusal_only() -> ModelOutput:
    return _responses_output(
        "gpt-4.1",
        "gpt-4.1-2025-04-14",
        [_responses_refusal("I'm sorry, but I can't help with that.", _RESP_MSG_ID)],
        usage=_responses_usage(38, 12),
        response_id="resp_68a1f0c4f3a58191b0c9d8e7f6a5b4c3",
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


def _responses_incomplete_reasoning_encrypted_only() -> ModelOutput:
    return _responses_output(
        "o4-mini",
        "o4-mini-2025-04-16",
        [_responses_reasoning(_RESP_RS_ID, _RESP_ENCRYPTED)],
        incomplete="max_output_tokens",
        usage=_responses_usage(142, 512, reasoning=512),
        response_id="resp_68a1f0c6b5c78191d2e1f0a9b8c7d6e5",
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


# Anthropic Messages API (model/_providers/anthropic.py)


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
                stop_details=_collected(
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


def _anthropic_end_turn_answer() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [ContentText(text="The Treaty of Westphalia was signed in 1648.")],
        "end_turn",
        input_tokens=19,
        output_tokens=17,
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


def _anthropic_refusal_stop_without_stop_details() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [],
        "refusal",
        input_tokens=1893,
        output_tokens=0,
        message_id="msg_01Gh6jK9lZ2xC5vB8nM1qW4e",
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


def _anthropic_413_request_too_large() -> ModelOutput:
    message, _ = _anthropic_error(
        413, "request_too_large", "Request exceeds the maximum allowed number of bytes."
    )
    return ModelOutput.from_content(
        model=_SONNET, content=message, stop_reason="model_length", error=message
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


def _anthropic_context_window_exceeded_empty() -> ModelOutput:
    return _anthropic_message(
        _SONNET,
        [],
        "model_context_window_exceeded",
        input_tokens=199990,
        output_tokens=0,
        message_id="msg_01Bv2nM4qW6eR8tY0uI1oP3a",
    )


# Google Gemini (model/_providers/google.py)


_GEMINI_PRO = "gemini-2.5-pro"
_GOOGLE_STOP: dict[str, StopReason] = {
    "STOP": "stop",
    "MAX_TOKENS": "max_tokens",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
}
_GEMINI_FLASH = "gemini-2.5-flash"


def _google_usage(prompt: int, candidates: int, thoughts: int = 0) -> ModelUsage:
    return ModelUsage(
        input_tokens=prompt,
        output_tokens=candidates + thoughts,
        total_tokens=prompt + candidates + thoughts,
        reasoning_tokens=thoughts,
    )


def _google_blocked_categories(
    ratings: list[tuple[str, str, bool]],
) -> list[StopCategory]:
    return [
        StopCategory(category=category, level=probability)
        for category, probability, blocked in ratings
        if blocked
    ]


def _google_candidate(
    model: str,
    content: list[Content],
    finish_reason: str,
    *,
    tool_calls: list[ToolCall] | None = None,
    ratings: list[tuple[str, str, bool]] | None = None,
    finish_message: str | None = None,
    usage: ModelUsage,
    input_context_tokens: int | None = None,
    response_id: str,
) -> ModelOutput:
    stop_reason = _GOOGLE_STOP.get(finish_reason, "unknown")
    categories = _google_blocked_categories(ratings or [])
    details = (
        StopDetails(
            type=finish_reason, explanation=finish_message, categories=categories
        )
        if categories or stop_reason == "content_filter"
        else None
    )
    return ModelOutput(
        model=model,
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(
                    content=content if len(content) > 0 else "",
                    tool_calls=tool_calls or None,
                    model=model,
                    source="generate",
                ),
                stop_reason=stop_reason,
                stop_details=_collected("google", details),
            )
        ],
        usage=usage,
        input_context_tokens=input_context_tokens or usage.input_tokens,
        response_id=response_id,
    )


def _google_rating_json(category: str, probability: str, blocked: bool) -> str:
    return "\n".join(
        [
            "{",
            f'  "blocked": {"true" if blocked else "null"},',
            f'  "category": "{category}",',
            '  "overwritten_threshold": null,',
            f'  "probability": "{probability}",',
            '  "probability_score": null,',
            '  "severity": null,',
            '  "severity_score": null',
            "}",
        ]
    )


def _google_answer() -> ModelOutput:
    return _google_candidate(
        _GEMINI_FLASH,
        [ContentText(text="Mount Kilimanjaro is 5,895 metres tall.")],
        "STOP",
        usage=_google_usage(14, 12),
        response_id="kX2vaN3hDpKqnvgP8bWm4Qw",
    )


def _google_safety_candidate_empty() -> ModelOutput:
    return _google_candidate(
        _GEMINI_FLASH,
        [],
        "SAFETY",
        ratings=[
            ("HARM_CATEGORY_HATE_SPEECH", "NEGLIGIBLE", False),
            ("HARM_CATEGORY_DANGEROUS_CONTENT", "HIGH", True),
            ("HARM_CATEGORY_HARASSMENT", "NEGLIGIBLE", False),
            ("HARM_CATEGORY_SEXUALLY_EXPLICIT", "NEGLIGIBLE", False),
        ],
        usage=_google_usage(57, 0),
        response_id="pL4xaM7cE9TzoPEP1uWk2Ag",
    )


def _google_recitation_partial_text() -> ModelOutput:
    return _google_candidate(
        _GEMINI_FLASH,
        [
            ContentText(
                text="It was the best of times, it was the worst of times, it was the"
            )
        ],
        "RECITATION",
        usage=_google_usage(22, 16),
        response_id="tQ9zaB2nF5UylMIP3vXa6Rc",
    )


def _google_prompt_blocked() -> ModelOutput:
    ratings = [
        ("HARM_CATEGORY_DANGEROUS_CONTENT", "HIGH", True),
        ("HARM_CATEGORY_HARASSMENT", "NEGLIGIBLE", False),
    ]
    text = "\n".join(
        ["BLOCKED: BlockedReason.SAFETY"]
        + [_google_rating_json(*rating) for rating in ratings]
    )
    usage = _google_usage(61, 0)
    return ModelOutput(
        model=_GEMINI_FLASH,
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(
                    content=text, model=_GEMINI_FLASH, source="generate"
                ),
                stop_reason="content_filter",
                stop_details=_collected(
                    "google",
                    StopDetails(
                        type="SAFETY",
                        explanation="Blocked: SAFETY",
                        categories=_google_blocked_categories(ratings),
                    ),
                ),
            )
        ],
        usage=usage,
        input_context_tokens=usage.input_tokens,
        response_id="vR1caD4pG7WanNKP5xZc8Td",
    )


def _google_no_candidates() -> ModelOutput:
    usage = _google_usage(40, 0)
    return ModelOutput(
        model=_GEMINI_PRO,
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(
                    content=NO_CONTENT, model=_GEMINI_PRO, source="generate"
                ),
                stop_reason="stop",
            )
        ],
        usage=usage,
        input_context_tokens=usage.input_tokens,
        response_id="wS2daE5qH8XboOLP6yAd9Ue",
    )


def _google_max_tokens_no_parts() -> ModelOutput:
    return _google_candidate(
        _GEMINI_PRO,
        [],
        "MAX_TOKENS",
        usage=_google_usage(318, 0, thoughts=8189),
        response_id="xT3eaF6rI9YcpPMP7zBe0Vf",
    )


def _google_max_tokens_partial_text() -> ModelOutput:
    return _google_candidate(
        _GEMINI_FLASH,
        [ContentText(text="The three main causes of the French Revolution were")],
        "MAX_TOKENS",
        usage=_google_usage(18, 10),
        response_id="yU4faG7sJ0ZdqQNP8aCf1Wg",
    )


def _google_malformed_function_call() -> ModelOutput:
    message = "Malformed function call: print(default_api.bash(cmd='ls -la /srv'))"
    return _google_candidate(
        _GEMINI_PRO,
        [ContentText(text=malformed_function_apology(message))],
        "MALFORMED_FUNCTION_CALL",
        finish_message=message,
        usage=_google_usage(3 * 1402 + 96, 0, thoughts=3 * 211),
        input_context_tokens=1402,
        response_id="zV5gaH8tK1AerROP9bDg2Xh",
    )


def _google_function_call_anchor() -> ModelOutput:
    call_id = "get_weather_Tq3kVb9XmN2pLr7Wc5Hs8d"
    return _google_candidate(
        _GEMINI_FLASH,
        [
            ContentReasoning(
                reasoning="",
                redacted=True,
                internal={"gemini_function_call_id": call_id},
            )
        ],
        "STOP",
        tool_calls=[
            ToolCall(id=call_id, function="get_weather", arguments={"city": "Oslo"})
        ],
        usage=_google_usage(95, 7),
        response_id="aW6haI9uL2BfsSPP0cEh3Yi",
    )


def _google_400_maximum_number_of_tokens() -> ModelOutput:
    return ModelOutput.from_content(
        _GEMINI_PRO,
        content=(
            "The input token count (1196265) exceeds the maximum number of tokens "
            "allowed (1048576)."
        ),
        stop_reason="model_length",
    )


# Amazon Bedrock Converse (model/_providers/bedrock.py)


_BEDROCK_CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"


def _bedrock(
    content: list[dict[str, Any]],
    stop_reason: str,
    *,
    model: str = _BEDROCK_CLAUDE,
    trace: dict[str, Any] | None = None,
    input_tokens: int = 50,
    output_tokens: int = 20,
) -> ModelOutput:
    response = ConverseResponse.model_validate(
        {
            "output": {"message": {"role": "assistant", "content": content}},
            "stopReason": stop_reason,
            "usage": {
                "inputTokens": input_tokens,
                "outputTokens": output_tokens,
                "totalTokens": input_tokens + output_tokens,
            },
            "metrics": {"latencyMs": 812},
            "trace": trace,
        }
    )
    return model_output_from_response(model, response, [])


def _bedrock_answer_tool_calls_empty_list() -> ModelOutput:
    return _bedrock(
        [{"text": "Photosynthesis turns light, water and CO2 into glucose and O2."}],
        "end_turn",
    )


def _bedrock_guardrail_intervened() -> ModelOutput:
    return _bedrock(
        [{"text": "Sorry, the model cannot answer this question."}],
        "guardrail_intervened",
        trace={
            "guardrail": {
                "inputAssessment": {
                    "q6xm1ltwyrpe": {
                        "contentPolicy": {
                            "filters": [
                                {
                                    "type": "VIOLENCE",
                                    "confidence": "HIGH",
                                    "filterStrength": "HIGH",
                                    "action": "BLOCKED",
                                    "detected": True,
                                }
                            ]
                        }
                    }
                }
            }
        },
        output_tokens=0,
    )


def _bedrock_guardrail_intervened_untraced() -> ModelOutput:
    return _bedrock(
        [{"text": "Sorry, the model cannot answer this question."}],
        "guardrail_intervened",
        output_tokens=0,
    )


def _bedrock_content_filtered() -> ModelOutput:
    return _bedrock(
        [], "content_filtered", model="amazon.nova-pro-v1:0", output_tokens=0
    )


def _bedrock_context_window_exceeded() -> ModelOutput:
    return _bedrock(
        [{"text": "The report covers three quarters of"}],
        "model_context_window_exceeded",
        input_tokens=199870,
        output_tokens=130,
    )


def _bedrock_validation_too_long() -> ModelOutput:
    return ModelOutput.from_content(
        model=_BEDROCK_CLAUDE,
        content="Input is too long for requested model.".lower(),
        stop_reason="model_length",
    )


def _bedrock_reasoning_cut_at_max_tokens() -> ModelOutput:
    return _bedrock(
        [
            {
                "reasoningContent": {
                    "reasoningText": {
                        "text": (
                            "Okay, the user wants the number of lattice paths. "
                            "Each path is a choice of 10 rights among 20 steps, so"
                        )
                    }
                }
            }
        ],
        "max_tokens",
        model="us.deepseek.r1-v1:0",
        output_tokens=512,
    )


# Mistral (model/_providers/mistral.py)


def _mistral_output(
    choices: list[tuple[str, str | None]],
    *,
    model: str = "mistral-large-latest",
    prompt_tokens: int = 30,
    completion_tokens: int = 25,
) -> ModelOutput:
    mapped: dict[str | None, StopReason] = {
        "stop": "stop",
        "length": "max_tokens",
        "model_length": "model_length",
        "tool_calls": "tool_calls",
    }
    return ModelOutput(
        model=model,
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(
                    content=content, tool_calls=None, model=model, source="generate"
                ),
                stop_reason=mapped.get(finish_reason, "unknown"),
            )
            for content, finish_reason in choices
        ],
        usage=ModelUsage(
            input_tokens=prompt_tokens,
            output_tokens=completion_tokens,
            total_tokens=prompt_tokens + completion_tokens,
        ),
        response_id="cmpl-e5cc70bb28c444948073e77776eb30ef",
    )


def _mistral_finish_none_answer() -> ModelOutput:
    return _mistral_output([("Lyon is the third-largest city in France.", None)])


def _mistral_empty_choices() -> ModelOutput:
    return _mistral_output([], completion_tokens=0)


def _mistral_400_maximum_context_length() -> ModelOutput:
    return ModelOutput.from_content(
        model="mistral-large-latest",
        content=(
            "Prompt contains 140012 tokens and 0 draft tokens, too large for "
            "model with 131072 maximum context length"
        ),
        stop_reason="model_length",
    )


# Together AI (model/_providers/together.py)


def _together_content_filter() -> ModelOutput:
    return _openai_chat(
        "meta-llama/Llama-3.3-70B-Instruct-Turbo",
        "content_filter",
        content="",
        usage=_openai_usage(73, 0, details=False),
        response_id="oFq3Hk9-2j9zxn-97c5a1f2e8d4b3a6",
        provider="together",
    )


# xAI Grok (model/_providers/grok.py)


def _grok_safety_output(details: str) -> ModelOutput:
    return ModelOutput.from_content(
        model="grok-4",
        content=details,
        stop_reason="content_filter",
        stop_details=StopDetails(type="refusal", explanation=details),
    )


def _grok_safety_check() -> ModelOutput:
    return _grok_safety_output(
        "Content violates usage guidelines. Failed check: SAFETY_CHECK_TYPE_BIO"
    )


def _grok_cant_help() -> ModelOutput:
    return _grok_safety_output("I'm sorry, but I can't help with that request.")


def _grok_answer() -> ModelOutput:
    text = "The Danube flows through ten countries."
    return ModelOutput(
        model="grok-4",
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(
                    source="generate",
                    content=[
                        ContentReasoning(
                            reasoning="EvYBCkYICRgCKkB1cQ7Xz0pR3sVt8Wk2Lm9Nb4Hj6Gf",
                            redacted=True,
                            summary=None,
                        ),
                        ContentText(text=text),
                    ],
                    tool_calls=None,
                    model="grok-4",
                ),
                stop_reason="stop",
            )
        ],
        completion=text,
        usage=ModelUsage(
            input_tokens=40,
            output_tokens=11,
            total_tokens=412,
            input_tokens_cache_read=0,
            reasoning_tokens=361,
        ),
        response_id="0f5b7c3e-9a2d-4c1e-8b6f-3d2a1e0c9b8a",
    )


# vLLM and other OpenAI-compatible servers that emit <think> in content


_QWEN = "Qwen/Qwen3-8B"


def _vllm(content: str, finish_reason: str, completion_tokens: int) -> ModelOutput:
    return _openai_chat(
        _QWEN,
        finish_reason,
        content=content,
        usage=_openai_usage(45, completion_tokens, details=False),
        response_id="chatcmpl-a3f1c9e27b5d4c8e9f0a1b2c3d4e5f60",
    )


def _vllm_unterminated_think_max_tokens() -> ModelOutput:
    return _vllm(
        "<think>\nOkay, the user wants 17 * 23. Let me break it down: 17 * 20 = 340, "
        "and 17 * 3 = 51, so",
        "length",
        256,
    )


def _vllm_closed_think_nothing_after() -> ModelOutput:
    return _vllm(
        "<think>\nThe question is ambiguous; I should ask which year they mean.\n"
        "</think>",
        "stop",
        31,
    )


def _vllm_orphan_close_think_then_answer() -> ModelOutput:
    return _vllm(
        "17 * 20 = 340 and 17 * 3 = 51, so 391.\n</think>\n\n17 × 23 = 391.",
        "stop",
        40,
    )


def _vllm_orphan_close_think_nothing_after() -> ModelOutput:
    return _vllm("17 * 20 = 340 and 17 * 3 = 51, so 391.\n</think>\n\n", "stop", 32)


def _vllm_think_then_answer() -> ModelOutput:
    return _vllm(
        "<think>\n17 * 20 = 340 and 17 * 3 = 51.\n</think>\n\n17 × 23 = 391.",
        "stop",
        38,
    )


def _vllm_400_maximum_context_length() -> ModelOutput:
    return ModelOutput.from_content(
        _QWEN,
        content=(
            "This model's maximum context length is 40960 tokens. However, you "
            "requested 41234 tokens (39186 in the messages, 2048 in the completion). "
            "Please reduce the length of the messages or completion."
        ),
        stop_reason="model_length",
    )


# Agent and solver state (agent/_agent.py, agent/_react.py, solver/_task_state.py)


def _task_state_never_generated() -> ModelOutput:
    state = TaskState(
        model=ModelName("openai/gpt-4o"),
        sample_id=1,
        epoch=1,
        input="What is the boiling point of water in Kelvin?",
        messages=[
            ChatMessageUser(content="What is the boiling point of water in Kelvin?")
        ],
    )
    return state.output


def _agent_state_no_assistant_message() -> ModelOutput:
    return AgentState(
        messages=[ChatMessageUser(content="Fix the failing test.")]
    ).output


def _agent_state_synthesized_from_filtered_turn() -> ModelOutput:
    filtered = _azure_content_filter_empty().message
    return AgentState(
        messages=[ChatMessageUser(content="Describe the attack in detail."), filtered]
    ).output


def _react_submit_rewrite() -> ModelOutput:
    output = _openai_chat(
        _GPT4O,
        "tool_calls",
        tool_calls=[("call_Fs2Kd8Lq4Xw6Zn1Cv9Bm", "submit", '{"answer": "391"}')],
        usage=_openai_usage(2210, 15),
    )
    answer = "391"
    output.completion = f"{output.completion}\n\n{answer}".strip()
    message = output.choices[0].message
    assert isinstance(message.content, str)
    message.content = f"{message.content}\n\n{answer}".strip()
    return output


PROVIDER_OUTPUTS: tuple[ProviderOutput, ...] = (
    ProviderOutput(
        name="openai_chat_answer",
        provider="openai",
        source="model/_openai.py:1116-1126",
        shape="Chat completion with plain message.content and finish_reason stop "
        "becomes str content with stop_reason stop and no stop_details.",
        expected=Outcome.ANSWERED,
        build=_openai_chat_answer,
    ),
    ProviderOutput(
        name="openai_chat_refusal_field",
        provider="openai",
        source="model/_openai.py:1095-1117",
        shape="message.refusal replaces content as [ContentText(refusal=True)] with "
        "stop_reason stop; openai_stop_details adds type refusal with the refusal "
        "text as explanation.",
        expected=Outcome.REFUSED,
        build=_openai_chat_refusal_field,
    ),
    ProviderOutput(
        name="openai_chat_refusal_with_reasoning_content",
        provider="openai",
        source="model/_openai.py:1099-1114",
        shape="OpenAI-compatible server returns reasoning_content and a refusal: "
        "[ContentReasoning(internal=reasoning_content), ContentText(refusal=True)], "
        "stop, refusal stop_details.",
        expected=Outcome.REFUSED,
        build=_openai_chat_refusal_with_reasoning_content,
    ),
    ProviderOutput(
        name="openai_chat_whitespace_only",
        provider="openai",
        source="model/_openai.py:1116-1126",
        shape="message.content of only newlines and spaces is kept verbatim as str "
        "content with stop_reason stop.",
        expected=Outcome.EMPTY,
        build=_openai_chat_whitespace_only,
    ),
    ProviderOutput(
        name="openai_chat_length_empty_content",
        provider="openai",
        source="model/_openai.py:1394-1401",
        shape="Reasoning model spends max_completion_tokens on hidden reasoning: "
        "content '' and finish_reason length map to str '' with max_tokens.",
        expected=Outcome.TRUNCATED,
        build=_openai_chat_length_empty_content,
    ),
    ProviderOutput(
        name="openai_chat_reasoning_content_only",
        provider="openai",
        source="model/_openai.py:1129-1146",
        shape="DeepSeek-style reasoning_content with empty content gives "
        "[ContentReasoning, ContentText('')] with stop_reason stop.",
        expected=Outcome.REASONING_ONLY,
        build=_openai_chat_reasoning_content_only,
    ),
    ProviderOutput(
        name="openai_chat_reasoning_then_answer",
        provider="openai",
        source="model/_openai.py:1099-1114",
        shape="reasoning_content plus a real answer gives [ContentReasoning, "
        "ContentText(answer)] with stop_reason stop.",
        expected=Outcome.ANSWERED,
        build=_openai_chat_reasoning_then_answer,
    ),
    ProviderOutput(
        name="openai_chat_tool_calls_only",
        provider="openai",
        source="model/_openai.py:792-803",
        shape="content null with one function tool call gives str '' content, "
        "parsed ToolCall list and stop_reason tool_calls.",
        expected=Outcome.TOOL_CALLS_ONLY,
        build=_openai_chat_tool_calls_only,
    ),
    ProviderOutput(
        name="openai_chat_text_and_tool_calls",
        provider="openai",
        source="model/_openai.py:1116-1126",
        shape="Preamble text plus a tool call gives str content and a ToolCall list "
        "with stop_reason tool_calls.",
        expected=Outcome.ANSWERED,
        build=_openai_chat_text_and_tool_calls,
    ),
    ProviderOutput(
        name="openai_chat_sorry_but_answers",
        provider="openai",
        source="model/_openai.py:1116-1126",
        shape='An unflagged answer that opens with "I\'m sorry, but" and then answers '
        "is plain str content with stop and no stop_details.",
        expected=Outcome.ANSWERED,
        build=_openai_chat_sorry_but_answers,
    ),
    ProviderOutput(
        name="openai_chat_partial_answer_max_tokens",
        provider="openai",
        source="model/_model_output.py:459-471",
        shape="A partial answer cut by finish_reason length keeps its text with "
        "stop_reason max_tokens.",
        expected=Outcome.ANSWERED,
        build=_openai_chat_partial_answer_max_tokens,
        partial="truncated_partial",
    ),
    ProviderOutput(
        name="openai_chat_400_invalid_prompt",
        provider="openai",
        source="model/_openai.py:1632-1679",
        shape="400 invalid_prompt becomes from_content(<error.message>, "
        "content_filter) with stop_details type refusal whose explanation is the text.",
        expected=Outcome.FILTERED,
        build=_openai_chat_400_invalid_prompt,
    ),
    ProviderOutput(
        name="openai_chat_400_content_policy_violation",
        provider="openai",
        source="model/_openai.py:1652-1676",
        shape="400 content_policy_violation becomes the API error text with "
        "content_filter and refusal stop_details explaining it verbatim.",
        expected=Outcome.FILTERED,
        build=_openai_chat_400_content_policy_violation,
    ),
    ProviderOutput(
        name="openai_chat_400_cyber_policy",
        provider="openai",
        source="model/_openai.py:1661-1667",
        shape="400 cyber_policy becomes the API error text with content_filter and "
        "stop_details type refusal, category cyber, explanation equal to the text.",
        expected=Outcome.FILTERED,
        build=_openai_chat_400_cyber_policy,
    ),
    ProviderOutput(
        name="openai_chat_400_context_length_exceeded",
        provider="openai",
        source="model/_openai.py:1650-1651",
        shape="400 context_length_exceeded becomes the API error text with "
        "stop_reason model_length and no stop_details.",
        expected=Outcome.OVERFLOW,
        build=_openai_chat_400_context_length_exceeded,
    ),
    ProviderOutput(
        name="openai_compatible_empty_choices",
        provider="openai",
        source="model/_openai.py:1383-1410",
        shape="An OpenAI-compatible server answers choices: [] so the output has no "
        "choices at all (output.empty).",
        expected=Outcome.NO_OUTPUT,
        build=_openai_compatible_empty_choices,
    ),
    ProviderOutput(
        name="openai_responses_answer",
        provider="openai_responses",
        source="model/_openai_responses.py:972-990",
        shape="One message item with output_text gives [ContentText(internal="
        "message_id)] with stop_reason stop.",
        expected=Outcome.ANSWERED,
        build=_responses_answer,
    ),
    ProviderOutput(
        name="openai_responses_output_text_then_refusal",
        provider="openai_responses",
        source="model/_openai_responses.py:972-990",
        shape="One message item holding output_text then a refusal part gives a "
        "plain ContentText followed by ContentText(refusal=True), stop, refusal "
        "stop_details.",
        expected=Outcome.REFUSED_AFTER_PARTIAL,
        build=_responses_output_text_then_refusal,
    ),
    ProviderOutput(
        name="openai_responses_refusal_only",
        provider="openai_responses",
        source="model/_openai_responses.py:700-727",
        shape="A message item with only a refusal part gives [ContentText(refusal="
        "True)] with stop and stop_details type refusal explaining it.",
        expected=Outcome.REFUSED,
        build=_responses_refusal_only,
    ),
    ProviderOutput(
        name="openai_responses_incomplete_reasoning_summary_only",
        provider="openai_responses",
        source="model/_openai_responses.py:1168-1212",
        shape="incomplete max_output_tokens with only a reasoning item gives "
        "ContentReasoning(reasoning=<encrypted>, summary=<text>, redacted) and "
        "max_tokens.",
        expected=Outcome.TRUNCATED,
        build=_responses_incomplete_reasoning_summary_only,
    ),
    ProviderOutput(
        name="openai_responses_incomplete_reasoning_encrypted_only",
        provider="openai_responses",
        source="model/_openai_responses.py:1195-1212",
        shape="incomplete max_output_tokens with an encrypted reasoning item and no "
        "summary gives one redacted ContentReasoning with summary None and max_tokens.",
        expected=Outcome.TRUNCATED,
        build=_responses_incomplete_reasoning_encrypted_only,
    ),
    ProviderOutput(
        name="openai_responses_incomplete_content_filter",
        provider="openai_responses",
        source="model/_openai_responses.py:700-727",
        shape="incomplete content_filter keeps the partial output_text; the bare "
        "StopDetails(type=content_filter) is dropped, so stop_details is None.",
        expected=Outcome.ANSWERED,
        partial="filtered_partial",
        build=_responses_incomplete_content_filter,
    ),
    ProviderOutput(
        name="openai_responses_function_call_incomplete",
        provider="openai_responses",
        source="model/_openai_responses.py:1114-1130",
        shape="A function_call item forces stop_reason tool_calls even though the "
        "response is incomplete at max_output_tokens; content is only reasoning.",
        expected=Outcome.TOOL_CALLS_ONLY,
        build=_responses_function_call_incomplete,
    ),
    ProviderOutput(
        name="azure_content_filter_empty",
        provider="azure",
        source="model/_openai.py:1359-1380",
        shape="Azure finish_reason content_filter with null content gives str '' and "
        "stop_details listing only filtered categories, explanation synthesized.",
        expected=Outcome.FILTERED,
        build=_azure_content_filter_empty,
    ),
    ProviderOutput(
        name="azure_stream_filter_partial_text",
        provider="azure",
        source="model/_openai.py:1258-1265",
        shape="A streamed Azure filter returns the snapshot: partial str text, "
        "content_filter, and no content_filter_results so stop_details is None.",
        expected=Outcome.ANSWERED,
        partial="filtered_partial",
        build=_azure_stream_filter_partial_text,
    ),
    ProviderOutput(
        name="azure_detected_not_filtered_answer",
        provider="azure",
        source="model/_openai.py:1353-1373",
        shape="A normal stop whose content_filter_results only mark protected "
        "material as detected (not filtered) gets no stop_details.",
        expected=Outcome.ANSWERED,
        build=_azure_detected_not_filtered_answer,
    ),
    ProviderOutput(
        name="azure_400_content_filter",
        provider="azure",
        source="model/_openai.py:1652-1676",
        shape="Azure 400 with code content_filter becomes the error text with "
        "content_filter and refusal stop_details explaining it verbatim.",
        expected=Outcome.FILTERED,
        build=_azure_400_content_filter,
    ),
    ProviderOutput(
        name="anthropic_end_turn_answer",
        provider="anthropic",
        source="model/_providers/anthropic.py:4905-4935",
        shape="A text block with stop_reason end_turn gives [ContentText] with stop "
        "and tool_calls None.",
        expected=Outcome.ANSWERED,
        build=_anthropic_end_turn_answer,
    ),
    ProviderOutput(
        name="anthropic_refusal_stop_cyber_no_text",
        provider="anthropic",
        source="model/_providers/anthropic.py:5595-5625",
        shape="stop_reason refusal with empty content and stop_details category "
        "cyber gives content [], content_filter, StopDetails(type=refusal, cyber).",
        expected=Outcome.REFUSED,
        build=_anthropic_refusal_stop_cyber_no_text,
    ),
    ProviderOutput(
        name="anthropic_refusal_stop_partial_text",
        provider="anthropic",
        source="model/_providers/anthropic.py:5603-5625",
        shape="A streaming-classifier refusal keeps the partial text unflagged with "
        "content_filter and refusal stop_details (explanation synthesized from cyber).",
        expected=Outcome.REFUSED_AFTER_PARTIAL,
        build=_anthropic_refusal_stop_partial_text,
    ),
    ProviderOutput(
        name="anthropic_refusal_stop_without_stop_details",
        provider="anthropic",
        source="model/_providers/anthropic.py:5603-5604",
        shape="A pre-stop_details model stops with refusal and no content: content "
        "[], content_filter, stop_details None.",
        expected=Outcome.FILTERED,
        build=_anthropic_refusal_stop_without_stop_details,
    ),
    ProviderOutput(
        name="anthropic_refusal_stop_uncategorised",
        provider="anthropic",
        source="model/_model_output.py:183-186",
        shape="stop_details {type: refusal, category: null, explanation: null} is "
        "dropped by collect_stop_details, leaving content_filter with None.",
        expected=Outcome.FILTERED,
        build=_anthropic_refusal_stop_uncategorised,
    ),
    ProviderOutput(
        name="anthropic_400_content_filtering",
        provider="anthropic",
        source="model/_providers/anthropic.py:2089-2128",
        shape="A 400 mentioning content filtering becomes the canned apology with "
        "content_filter, no stop_details and output.error the lower-cased SDK message.",
        expected=Outcome.FILTERED,
        build=_anthropic_400_content_filtering,
    ),
    ProviderOutput(
        name="anthropic_413_request_too_large",
        provider="anthropic",
        source="model/_providers/anthropic.py:1069-1078",
        shape="A 413 uses the SDK's 'Error code: 413 - {...}' string as both the "
        "text and output.error, with model_length.",
        expected=Outcome.OVERFLOW,
        build=_anthropic_413_request_too_large,
    ),
    ProviderOutput(
        name="anthropic_400_prompt_too_long",
        provider="anthropic",
        source="model/_providers/anthropic.py:2094-2115",
        shape="'prompt is too long' becomes the body's error message as text with "
        "model_length and output.error the lower-cased SDK message.",
        expected=Outcome.OVERFLOW,
        build=_anthropic_400_prompt_too_long,
    ),
    ProviderOutput(
        name="anthropic_thinking_cut_at_max_tokens",
        provider="anthropic",
        source="model/_providers/anthropic.py:5016-5024",
        shape="A thinking block cut at max_tokens gives only ContentReasoning("
        "summary=<thinking>, reasoning=<signature>, redacted=True) with max_tokens.",
        expected=Outcome.TRUNCATED,
        build=_anthropic_thinking_cut_at_max_tokens,
    ),
    ProviderOutput(
        name="anthropic_thinking_then_answer",
        provider="anthropic",
        source="model/_providers/anthropic.py:5016-5024",
        shape="A thinking block then a text block gives [ContentReasoning, "
        "ContentText] with stop.",
        expected=Outcome.ANSWERED,
        build=_anthropic_thinking_then_answer,
    ),
    ProviderOutput(
        name="anthropic_max_tokens_partial_text",
        provider="anthropic",
        source="model/_providers/anthropic.py:5595-5602",
        shape="A text block cut by stop_reason max_tokens keeps its partial text "
        "with max_tokens.",
        expected=Outcome.ANSWERED,
        build=_anthropic_max_tokens_partial_text,
        partial="truncated_partial",
    ),
    ProviderOutput(
        name="anthropic_tool_use_only",
        provider="anthropic",
        source="model/_providers/anthropic.py:4936-4966",
        shape="Only a tool_use block gives content [] and a ToolCall list with "
        "stop_reason tool_calls.",
        expected=Outcome.TOOL_CALLS_ONLY,
        build=_anthropic_tool_use_only,
    ),
    ProviderOutput(
        name="anthropic_context_window_exceeded_partial",
        provider="anthropic",
        source="model/_providers/anthropic.py:5605-5606",
        shape="stop_reason model_context_window_exceeded falls to the catch-all: "
        "partial text kept with stop_reason unknown, not model_length.",
        expected=Outcome.ANSWERED,
        build=_anthropic_context_window_exceeded_partial,
    ),
    ProviderOutput(
        name="anthropic_context_window_exceeded_empty",
        provider="anthropic",
        source="model/_providers/anthropic.py:5605-5606",
        shape="model_context_window_exceeded with no content blocks gives content "
        "[] and stop_reason unknown.",
        expected=Outcome.EMPTY,
        build=_anthropic_context_window_exceeded_empty,
    ),
    ProviderOutput(
        name="google_answer",
        provider="google",
        source="model/_providers/google.py:2188-2215",
        shape="A candidate with one text part and finish STOP gives [ContentText] "
        "with stop.",
        expected=Outcome.ANSWERED,
        build=_google_answer,
    ),
    ProviderOutput(
        name="google_safety_candidate_empty",
        provider="google",
        source="model/_providers/google.py:2203-2215",
        shape="finish SAFETY with candidate.content None gives str '' with "
        "content_filter and stop_details type SAFETY listing the blocked rating.",
        expected=Outcome.FILTERED,
        build=_google_safety_candidate_empty,
    ),
    ProviderOutput(
        name="google_recitation_partial_text",
        provider="google",
        source="model/_providers/google.py:2526-2540",
        shape="finish RECITATION keeps partial text with content_filter; with no "
        "blocked ratings or finish_message the details are dropped to None.",
        expected=Outcome.ANSWERED,
        partial="filtered_partial",
        build=_google_recitation_partial_text,
    ),
    ProviderOutput(
        name="google_prompt_blocked",
        provider="google",
        source="model/_providers/google.py:2287-2300",
        shape="No candidates but prompt_feedback SAFETY gives text 'BLOCKED: "
        "BlockedReason.SAFETY' plus rating JSON, content_filter, type SAFETY details.",
        expected=Outcome.FILTERED,
        build=_google_prompt_blocked,
    ),
    ProviderOutput(
        name="google_no_candidates",
        provider="google",
        source="model/_providers/google.py:2274-2284",
        shape="No candidates and no prompt_feedback gives the NO_CONTENT sentinel "
        "'(no content)' as str content with stop_reason stop.",
        expected=Outcome.EMPTY,
        build=_google_no_candidates,
    ),
    ProviderOutput(
        name="google_max_tokens_no_parts",
        provider="google",
        source="model/_providers/google.py:1967-1969",
        shape="finish MAX_TOKENS with content.parts None (budget spent on thoughts) "
        "gives str '' with max_tokens; only usage.reasoning_tokens shows why.",
        expected=Outcome.TRUNCATED,
        build=_google_max_tokens_no_parts,
    ),
    ProviderOutput(
        name="google_max_tokens_partial_text",
        provider="google",
        source="model/_providers/google.py:2482-2487",
        shape="finish MAX_TOKENS after some text keeps [ContentText] with max_tokens.",
        expected=Outcome.ANSWERED,
        build=_google_max_tokens_partial_text,
        partial="truncated_partial",
    ),
    ProviderOutput(
        name="google_malformed_function_call",
        provider="google",
        source="model/_providers/google.py:2193-2201",
        shape="MALFORMED_FUNCTION_CALL after the internal retries injects the "
        "malformed_function_apology text (leading and trailing newline), unknown, no "
        "tool calls.",
        expected=Outcome.EMPTY,
        build=_google_malformed_function_call,
    ),
    ProviderOutput(
        name="google_function_call_anchor",
        provider="google",
        source="model/_providers/google.py:1993-2011",
        shape="A function_call part adds a redacted ContentReasoning anchor and a "
        "ToolCall while finish STOP maps to stop, never tool_calls.",
        expected=Outcome.TOOL_CALLS_ONLY,
        build=_google_function_call_anchor,
    ),
    ProviderOutput(
        name="google_400_maximum_number_of_tokens",
        provider="google",
        source="model/_providers/google.py:1124-1137",
        shape="A 400 ClientError mentioning 'maximum number of tokens' becomes its "
        "message as text with model_length and no error.",
        expected=Outcome.OVERFLOW,
        build=_google_400_maximum_number_of_tokens,
    ),
    ProviderOutput(
        name="bedrock_answer_tool_calls_empty_list",
        provider="bedrock",
        source="model/_providers/bedrock.py:1451-1454",
        shape="Converse end_turn text gives [ContentText] with tool_calls=[] (not "
        "None) and stop.",
        expected=Outcome.ANSWERED,
        build=_bedrock_answer_tool_calls_empty_list,
    ),
    ProviderOutput(
        name="bedrock_guardrail_intervened",
        provider="bedrock",
        source="model/_providers/bedrock.py:1540-1577",
        shape="guardrail_intervened returns the guardrail's blocked message as text "
        "with content_filter and traced VIOLENCE (HIGH) stop_details.",
        expected=Outcome.FILTERED,
        build=_bedrock_guardrail_intervened,
    ),
    ProviderOutput(
        name="bedrock_guardrail_intervened_untraced",
        provider="bedrock",
        source="model/_providers/bedrock.py:1573-1577",
        shape="guardrail_intervened without guardrail tracing keeps the "
        "refusal-like blocked message with content_filter and stop_details None.",
        expected=Outcome.FILTERED,
        build=_bedrock_guardrail_intervened_untraced,
    ),
    ProviderOutput(
        name="bedrock_content_filtered",
        provider="bedrock",
        source="model/_providers/bedrock.py:1499-1502",
        shape="stopReason content_filtered with no content blocks gives content [] "
        "with content_filter and stop_details None.",
        expected=Outcome.FILTERED,
        build=_bedrock_content_filtered,
    ),
    ProviderOutput(
        name="bedrock_context_window_exceeded",
        provider="bedrock",
        source="model/_providers/bedrock.py:1505-1506",
        shape="stopReason model_context_window_exceeded maps to model_length even "
        "with partial text.",
        expected=Outcome.ANSWERED,
        partial="truncated_partial",
        build=_bedrock_context_window_exceeded,
    ),
    ProviderOutput(
        name="bedrock_validation_too_long",
        provider="bedrock",
        source="model/_providers/bedrock.py:934-947",
        shape="A ValidationException saying the input is too long becomes "
        "from_content(<lower-cased message>, model_length).",
        expected=Outcome.OVERFLOW,
        build=_bedrock_validation_too_long,
    ),
    ProviderOutput(
        name="bedrock_reasoning_cut_at_max_tokens",
        provider="bedrock",
        source="model/_providers/bedrock.py:1411-1438",
        shape="Only a reasoningText block cut at max_tokens gives ContentReasoning "
        "with the text in .reasoning (not .summary) and tool_calls=[].",
        expected=Outcome.TRUNCATED,
        build=_bedrock_reasoning_cut_at_max_tokens,
    ),
    ProviderOutput(
        name="mistral_finish_none_answer",
        provider="mistral",
        source="model/_providers/mistral.py:947-951",
        shape="A non-streamed choice with finish_reason None keeps its str answer "
        "with stop_reason unknown.",
        expected=Outcome.ANSWERED,
        build=_mistral_finish_none_answer,
    ),
    ProviderOutput(
        name="mistral_empty_choices",
        provider="mistral",
        source="model/_providers/mistral.py:1012-1021",
        shape="A response whose choices list is empty gives an output with no "
        "choices (output.empty).",
        expected=Outcome.NO_OUTPUT,
        build=_mistral_empty_choices,
    ),
    ProviderOutput(
        name="mistral_400_maximum_context_length",
        provider="mistral",
        source="model/_providers/mistral.py:433-444",
        shape="A 400 whose body mentions 'maximum context length' becomes the body "
        "message as text with model_length.",
        expected=Outcome.OVERFLOW,
        build=_mistral_400_maximum_context_length,
    ),
    ProviderOutput(
        name="together_content_filter",
        provider="together",
        source="model/_providers/together.py:82-93",
        shape="TogetherAIAPI passes finish_reason content_filter through "
        "as_stop_reason; openai_stop_details finds no refusal or filter results, so "
        "None.",
        expected=Outcome.FILTERED,
        build=_together_content_filter,
    ),
    ProviderOutput(
        name="grok_safety_check",
        provider="grok",
        source="model/_providers/grok.py:556-571",
        shape="gRPC PERMISSION_DENIED with safety_check becomes the details text "
        "with content_filter and StopDetails(type=refusal, explanation=<same text>); "
        "error stays None.",
        expected=Outcome.FILTERED,
        build=_grok_safety_check,
    ),
    ProviderOutput(
        name="grok_cant_help_permission_denied",
        provider="grok",
        source="model/_providers/grok.py:558-562",
        shape='PERMISSION_DENIED saying "can\'t help with that request" takes the '
        "same branch: the text is both content and refusal explanation.",
        expected=Outcome.FILTERED,
        build=_grok_cant_help,
    ),
    ProviderOutput(
        name="grok_answer",
        provider="grok",
        source="model/_providers/grok.py:676-685",
        shape="A reasoning answer gives [encrypted ContentReasoning, ContentText] "
        "with stop and completion passed explicitly from response.content.",
        expected=Outcome.ANSWERED,
        build=_grok_answer,
    ),
    ProviderOutput(
        name="vllm_unterminated_think_max_tokens",
        provider="vllm",
        source="model/_reasoning.py:114-118",
        shape="An unterminated <think> cut by length is not parsed: the raw "
        "'<think>...' stays as str content with max_tokens.",
        expected=Outcome.TRUNCATED,
        build=_vllm_unterminated_think_max_tokens,
    ),
    ProviderOutput(
        name="vllm_closed_think_nothing_after",
        provider="vllm",
        source="model/_openai.py:1109-1114",
        shape="A closed <think> block with nothing after falls back to the raw "
        "content: ContentReasoning(internal=think) next to text starting '<think>'.",
        expected=Outcome.REASONING_ONLY,
        build=_vllm_closed_think_nothing_after,
    ),
    ProviderOutput(
        name="vllm_orphan_close_think_then_answer",
        provider="vllm",
        source="model/_reasoning.py:114-118",
        shape="A pre-filled <think> leaves an orphan '</think>' that is not parsed: "
        "reasoning, </think> and answer stay in str content with stop.",
        expected=Outcome.ANSWERED,
        build=_vllm_orphan_close_think_then_answer,
    ),
    ProviderOutput(
        name="vllm_orphan_close_think_nothing_after",
        provider="vllm",
        source="model/_reasoning.py:114-118",
        shape="An orphan '</think>' with nothing after it leaves only reasoning text "
        "in str content with stop.",
        expected=Outcome.REASONING_ONLY,
        build=_vllm_orphan_close_think_nothing_after,
    ),
    ProviderOutput(
        name="vllm_think_then_answer",
        provider="vllm",
        source="model/_openai.py:1153-1163",
        shape="A closed <think> block followed by an answer is parsed into "
        "[ContentReasoning(internal=think), ContentText(answer)] with stop.",
        expected=Outcome.ANSWERED,
        build=_vllm_think_then_answer,
    ),
    ProviderOutput(
        name="vllm_400_maximum_context_length",
        provider="vllm",
        source="model/_providers/vllm.py:660-674",
        shape="A 400 mentioning 'maximum context length' becomes the body message "
        "with model_length.",
        expected=Outcome.OVERFLOW,
        build=_vllm_400_maximum_context_length,
    ),
    ProviderOutput(
        name="task_state_never_generated",
        provider="task_state",
        source="solver/_task_state.py:172",
        shape="A TaskState whose solver never generated holds ModelOutput(model="
        "str(ModelName)) with no choices and completion ''.",
        expected=Outcome.NO_OUTPUT,
        build=_task_state_never_generated,
    ),
    ProviderOutput(
        name="agent_state_no_assistant_message",
        provider="agent",
        source="agent/_agent.py:71-73",
        shape="AgentState.output with no assistant message in the history is a bare "
        "ModelOutput() with model '' and no choices.",
        expected=Outcome.NO_OUTPUT,
        build=_agent_state_no_assistant_message,
    ),
    ProviderOutput(
        name="agent_state_synthesized_from_filtered_turn",
        provider="agent",
        source="agent/_agent.py:56-69",
        shape="AgentState.output synthesized from an Azure-filtered empty turn "
        "forces stop_reason stop and drops stop_details: str '' that looks like "
        "silence.",
        expected=Outcome.EMPTY,
        build=_agent_state_synthesized_from_filtered_turn,
    ),
    ProviderOutput(
        name="react_submit_rewrite",
        provider="agent",
        source="agent/_react.py:314-332",
        shape="react() after submit() rewrites completion and the str message text "
        "to the answer, keeping stop_reason tool_calls and the submit ToolCall.",
        expected=Outcome.ANSWERED,
        build=_react_submit_rewrite,
    ),
)

_BY_NAME = {fixture.name: fixture for fixture in PROVIDER_OUTPUTS}


def provider_output(name: str) -> ProviderOutput:
    """Return the fixture called ``name``.

    Raises:
        KeyError: If no fixture has that name; the message lists the known names.
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(
            f"unknown provider output {name!r}; known: {', '.join(sorted(_BY_NAME))}"
        ) from None


OUTCOME_EXAMPLES: dict[Outcome, str] = {
    Outcome.ANSWERED: "openai_chat_answer",
    Outcome.EMPTY: "openai_chat_whitespace_only",
    Outcome.REASONING_ONLY: "openai_chat_reasoning_content_only",
    Outcome.TOOL_CALLS_ONLY: "openai_chat_tool_calls_only",
    Outcome.TRUNCATED: "anthropic_thinking_cut_at_max_tokens",
    Outcome.REFUSED: "openai_chat_refusal_field",
    Outcome.REFUSED_AFTER_PARTIAL: "anthropic_refusal_stop_partial_text",
    Outcome.FILTERED: "azure_content_filter_empty",
    Outcome.OVERFLOW: "openai_chat_400_context_length_exceeded",
    Outcome.NO_OUTPUT: "task_state_never_generated",
}
"""One fixture per outcome class: the matrix of ``audit`` and the emitted tests."""
