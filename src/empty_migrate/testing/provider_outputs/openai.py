"""OpenAI chat completions and OpenAI-compatible servers.

As ``model/_openai.py`` shapes them.
"""

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
)

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.inspect_internals import (
    as_stop_reason,
    parse_content_with_reasoning,
    parse_tool_call,
)
from empty_migrate.testing.provider_outputs.fixture import Shapes, collected

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


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
                stop_details=collected(
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


@SHAPES.add(
    name="openai_chat_answer",
    provider="openai",
    source="model/_openai.py:1116-1126",
    shape="Chat completion with plain message.content and finish_reason stop "
    "becomes str content with stop_reason stop and no stop_details.",
    expected=Outcome.ANSWERED,
)
def _openai_chat_answer() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "stop",
        content="The capital of Australia is Canberra.",
        usage=_openai_usage(24, 9),
    )


@SHAPES.add(
    name="openai_chat_refusal_field",
    provider="openai",
    source="model/_openai.py:1095-1117",
    shape="message.refusal replaces content as [ContentText(refusal=True)] with "
    "stop_reason stop; openai_stop_details adds type refusal with the refusal "
    "text as explanation.",
    expected=Outcome.REFUSED,
)
def _openai_chat_refusal_field() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "stop",
        refusal="I'm sorry, I can't assist with that request.",
        usage=_openai_usage(61, 11),
    )


@SHAPES.add(
    name="openai_chat_refusal_with_reasoning_content",
    provider="openai",
    source="model/_openai.py:1099-1114",
    shape="OpenAI-compatible server returns reasoning_content and a refusal: "
    "[ContentReasoning(internal=reasoning_content), ContentText(refusal=True)], "
    "stop, refusal stop_details.",
    expected=Outcome.REFUSED,
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


@SHAPES.add(
    name="openai_chat_whitespace_only",
    provider="openai",
    source="model/_openai.py:1116-1126",
    shape="message.content of only newlines and spaces is kept verbatim as str "
    "content with stop_reason stop.",
    expected=Outcome.EMPTY,
)
def _openai_chat_whitespace_only() -> ModelOutput:
    return _openai_chat(_GPT4O, "stop", content="\n\n  \n", usage=_openai_usage(40, 3))


@SHAPES.add(
    name="openai_chat_length_empty_content",
    provider="openai",
    source="model/_openai.py:1394-1401",
    shape="Reasoning model spends max_completion_tokens on hidden reasoning: "
    "content '' and finish_reason length map to str '' with max_tokens.",
    expected=Outcome.TRUNCATED,
)
def _openai_chat_length_empty_content() -> ModelOutput:
    return _openai_chat(
        "o3-2025-04-16",
        "length",
        content="",
        usage=_openai_usage(312, 256, reasoning=256),
    )


@SHAPES.add(
    name="openai_chat_reasoning_content_only",
    provider="openai",
    source="model/_openai.py:1129-1146",
    shape="DeepSeek-style reasoning_content with empty content gives "
    "[ContentReasoning, ContentText('')] with stop_reason stop.",
    expected=Outcome.REASONING_ONLY,
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


@SHAPES.add(
    name="openai_chat_reasoning_then_answer",
    provider="openai",
    source="model/_openai.py:1099-1114",
    shape="reasoning_content plus a real answer gives [ContentReasoning, "
    "ContentText(answer)] with stop_reason stop.",
    expected=Outcome.ANSWERED,
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


@SHAPES.add(
    name="openai_chat_tool_calls_only",
    provider="openai",
    source="model/_openai.py:792-803",
    shape="content null with one function tool call gives str '' content, "
    "parsed ToolCall list and stop_reason tool_calls.",
    expected=Outcome.TOOL_CALLS_ONLY,
)
def _openai_chat_tool_calls_only() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "tool_calls",
        tool_calls=[("call_Qm3vX8bNf2LkR7pT1sYd", "bash", '{"cmd": "ls -la /srv"}')],
        usage=_openai_usage(410, 19),
    )


@SHAPES.add(
    name="openai_chat_text_and_tool_calls",
    provider="openai",
    source="model/_openai.py:1116-1126",
    shape="Preamble text plus a tool call gives str content and a ToolCall list "
    "with stop_reason tool_calls.",
    expected=Outcome.ANSWERED,
)
def _openai_chat_text_and_tool_calls() -> ModelOutput:
    return _openai_chat(
        _GPT4O,
        "tool_calls",
        content="Let me check the directory listing first.",
        tool_calls=[("call_H7kLp2Wq9zXc4VbN0mJr", "bash", '{"cmd": "ls /srv"}')],
        usage=_openai_usage(410, 28),
    )


@SHAPES.add(
    name="openai_chat_sorry_but_answers",
    provider="openai",
    source="model/_openai.py:1116-1126",
    shape='An unflagged answer that opens with "I\'m sorry, but" and then answers '
    "is plain str content with stop and no stop_details.",
    expected=Outcome.ANSWERED,
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


@SHAPES.add(
    name="openai_chat_partial_answer_max_tokens",
    provider="openai",
    source="model/_model_output.py:459-471",
    shape="A partial answer cut by finish_reason length keeps its text with "
    "stop_reason max_tokens.",
    expected=Outcome.ANSWERED,
    partial="truncated_partial",
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


@SHAPES.add(
    name="openai_chat_400_invalid_prompt",
    provider="openai",
    source="model/_openai.py:1632-1679",
    shape="400 invalid_prompt becomes from_content(<error.message>, "
    "content_filter) with stop_details type refusal whose explanation is the text.",
    expected=Outcome.FILTERED,
)
def _openai_chat_400_invalid_prompt() -> ModelOutput:
    return _openai_error(
        "o3",
        "invalid_prompt",
        "Invalid prompt: your prompt was flagged as potentially violating our usage "
        "policy. Please try again with a different prompt: "
        "https://platform.openai.com/docs/guides/reasoning#advice-on-prompting",
    )


@SHAPES.add(
    name="openai_chat_400_content_policy_violation",
    provider="openai",
    source="model/_openai.py:1652-1676",
    shape="400 content_policy_violation becomes the API error text with "
    "content_filter and refusal stop_details explaining it verbatim.",
    expected=Outcome.FILTERED,
)
def _openai_chat_400_content_policy_violation() -> ModelOutput:
    return _openai_error(
        "gpt-4o",
        "content_policy_violation",
        "Your request was rejected as a result of our safety system. Your prompt may "
        "contain text that is not allowed by our safety system.",
    )


@SHAPES.add(
    name="openai_chat_400_cyber_policy",
    provider="openai",
    source="model/_openai.py:1661-1667",
    shape="400 cyber_policy becomes the API error text with content_filter and "
    "stop_details type refusal, category cyber, explanation equal to the text.",
    expected=Outcome.FILTERED,
)
def _openai_chat_400_cyber_policy() -> ModelOutput:
    return _openai_error(
        "gpt-5.4",
        "cyber_policy",
        "This content was flagged for possible cybersecurity risk. If this seems "
        "wrong, try rephrasing your request.",
    )


@SHAPES.add(
    name="openai_chat_400_context_length_exceeded",
    provider="openai",
    source="model/_openai.py:1650-1651",
    shape="400 context_length_exceeded becomes the API error text with "
    "stop_reason model_length and no stop_details.",
    expected=Outcome.OVERFLOW,
)
def _openai_chat_400_context_length_exceeded() -> ModelOutput:
    return _openai_error(
        "gpt-4o",
        "context_length_exceeded",
        "This model's maximum context length is 128000 tokens. However, your "
        "messages resulted in 131072 tokens. Please reduce the length of the "
        "messages.",
    )


@SHAPES.add(
    name="openai_compatible_empty_choices",
    provider="openai",
    source="model/_openai.py:1383-1410",
    shape="An OpenAI-compatible server answers choices: [] so the output has no "
    "choices at all (output.empty).",
    expected=Outcome.NO_OUTPUT,
)
def _openai_compatible_empty_choices() -> ModelOutput:
    return ModelOutput(
        model="Qwen/Qwen2.5-72B-Instruct",
        choices=[],
        usage=_openai_usage(1830, 0, details=False),
        response_id="chatcmpl-5b0f0d8e2c7a4f19a3e6",
    )
