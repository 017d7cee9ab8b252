"""Google Gemini, as ``model/_providers/google.py`` shapes it."""

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
from empty_migrate.testing.inspect_internals import (
    NO_CONTENT,
    malformed_function_apology,
)
from empty_migrate.testing.provider_outputs.fixture import Shapes, collected

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


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
                stop_details=collected("google", details),
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


@SHAPES.add(
    name="google_answer",
    provider="google",
    source="model/_providers/google.py:2188-2215",
    shape="A candidate with one text part and finish STOP gives [ContentText] "
    "with stop.",
    expected=Outcome.ANSWERED,
)
def _google_answer() -> ModelOutput:
    return _google_candidate(
        _GEMINI_FLASH,
        [ContentText(text="Mount Kilimanjaro is 5,895 metres tall.")],
        "STOP",
        usage=_google_usage(14, 12),
        response_id="kX2vaN3hDpKqnvgP8bWm4Qw",
    )


@SHAPES.add(
    name="google_safety_candidate_empty",
    provider="google",
    source="model/_providers/google.py:2203-2215",
    shape="finish SAFETY with candidate.content None gives str '' with "
    "content_filter and stop_details type SAFETY listing the blocked rating.",
    expected=Outcome.FILTERED,
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


@SHAPES.add(
    name="google_recitation_partial_text",
    provider="google",
    source="model/_providers/google.py:2526-2540",
    shape="finish RECITATION keeps partial text with content_filter; with no "
    "blocked ratings or finish_message the details are dropped to None.",
    expected=Outcome.ANSWERED,
    partial="filtered_partial",
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


@SHAPES.add(
    name="google_prompt_blocked",
    provider="google",
    source="model/_providers/google.py:2287-2300",
    shape="No candidates but prompt_feedback SAFETY gives text 'BLOCKED: "
    "BlockedReason.SAFETY' plus rating JSON, content_filter, type SAFETY details.",
    expected=Outcome.FILTERED,
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
                stop_details=collected(
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


@SHAPES.add(
    name="google_no_candidates",
    provider="google",
    source="model/_providers/google.py:2274-2284",
    shape="No candidates and no prompt_feedback gives the NO_CONTENT sentinel "
    "'(no content)' as str content with stop_reason stop.",
    expected=Outcome.EMPTY,
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


@SHAPES.add(
    name="google_max_tokens_no_parts",
    provider="google",
    source="model/_providers/google.py:1967-1969",
    shape="finish MAX_TOKENS with content.parts None (budget spent on thoughts) "
    "gives str '' with max_tokens; only usage.reasoning_tokens shows why.",
    expected=Outcome.TRUNCATED,
)
def _google_max_tokens_no_parts() -> ModelOutput:
    return _google_candidate(
        _GEMINI_PRO,
        [],
        "MAX_TOKENS",
        usage=_google_usage(318, 0, thoughts=8189),
        response_id="xT3eaF6rI9YcpPMP7zBe0Vf",
    )


@SHAPES.add(
    name="google_max_tokens_partial_text",
    provider="google",
    source="model/_providers/google.py:2482-2487",
    shape="finish MAX_TOKENS after some text keeps [ContentText] with max_tokens.",
    expected=Outcome.ANSWERED,
    partial="truncated_partial",
)
def _google_max_tokens_partial_text() -> ModelOutput:
    return _google_candidate(
        _GEMINI_FLASH,
        [ContentText(text="The three main causes of the French Revolution were")],
        "MAX_TOKENS",
        usage=_google_usage(18, 10),
        response_id="yU4faG7sJ0ZdqQNP8aCf1Wg",
    )


@SHAPES.add(
    name="google_malformed_function_call",
    provider="google",
    source="model/_providers/google.py:2193-2201",
    shape="MALFORMED_FUNCTION_CALL after the internal retries injects the "
    "malformed_function_apology text (leading and trailing newline), unknown, no "
    "tool calls.",
    expected=Outcome.EMPTY,
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


@SHAPES.add(
    name="google_function_call_anchor",
    provider="google",
    source="model/_providers/google.py:1993-2011",
    shape="A function_call part adds a redacted ContentReasoning anchor and a "
    "ToolCall while finish STOP maps to stop, never tool_calls.",
    expected=Outcome.TOOL_CALLS_ONLY,
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


@SHAPES.add(
    name="google_400_maximum_number_of_tokens",
    provider="google",
    source="model/_providers/google.py:1124-1137",
    shape="A 400 ClientError mentioning 'maximum number of tokens' becomes its "
    "message as text with model_length and no error.",
    expected=Outcome.OVERFLOW,
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
