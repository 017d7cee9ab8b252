"""vLLM and other OpenAI-compatible servers that write ``<think>`` into the content."""

from inspect_ai.model import (
    ModelOutput,
)

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.provider_outputs.fixture import Shapes
from empty_migrate.testing.provider_outputs.openai import _openai_chat, _openai_usage

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


_QWEN = "Qwen/Qwen3-8B"


def _vllm(content: str, finish_reason: str, completion_tokens: int) -> ModelOutput:
    return _openai_chat(
        _QWEN,
        finish_reason,
        content=content,
        usage=_openai_usage(45, completion_tokens, details=False),
        response_id="chatcmpl-a3f1c9e27b5d4c8e9f0a1b2c3d4e5f60",
    )


@SHAPES.add(
    name="vllm_unterminated_think_max_tokens",
    provider="vllm",
    source="model/_reasoning.py:114-118",
    shape="An unterminated <think> cut by length is not parsed: the raw "
    "'<think>...' stays as str content with max_tokens.",
    expected=Outcome.TRUNCATED,
)
def _vllm_unterminated_think_max_tokens() -> ModelOutput:
    return _vllm(
        "<think>\nOkay, the user wants 17 * 23. Let me break it down: 17 * 20 = 340, "
        "and 17 * 3 = 51, so",
        "length",
        256,
    )


@SHAPES.add(
    name="vllm_closed_think_nothing_after",
    provider="vllm",
    source="model/_openai.py:1109-1114",
    shape="A closed <think> block with nothing after falls back to the raw "
    "content: ContentReasoning(internal=think) next to text starting '<think>'.",
    expected=Outcome.REASONING_ONLY,
)
def _vllm_closed_think_nothing_after() -> ModelOutput:
    return _vllm(
        "<think>\nThe question is ambiguous; I should ask which year they mean.\n"
        "</think>",
        "stop",
        31,
    )


@SHAPES.add(
    name="vllm_orphan_close_think_then_answer",
    provider="vllm",
    source="model/_reasoning.py:114-118",
    shape="A pre-filled <think> leaves an orphan '</think>' that is not parsed: "
    "reasoning, </think> and answer stay in str content with stop.",
    expected=Outcome.ANSWERED,
)
def _vllm_orphan_close_think_then_answer() -> ModelOutput:
    return _vllm(
        "17 * 20 = 340 and 17 * 3 = 51, so 391.\n</think>\n\n17 × 23 = 391.",
        "stop",
        40,
    )


@SHAPES.add(
    name="vllm_orphan_close_think_nothing_after",
    provider="vllm",
    source="model/_reasoning.py:114-118",
    shape="An orphan '</think>' with nothing after it leaves only reasoning text "
    "in str content with stop.",
    expected=Outcome.REASONING_ONLY,
)
def _vllm_orphan_close_think_nothing_after() -> ModelOutput:
    return _vllm("17 * 20 = 340 and 17 * 3 = 51, so 391.\n</think>\n\n", "stop", 32)


@SHAPES.add(
    name="vllm_think_then_answer",
    provider="vllm",
    source="model/_openai.py:1153-1163",
    shape="A closed <think> block followed by an answer is parsed into "
    "[ContentReasoning(internal=think), ContentText(answer)] with stop.",
    expected=Outcome.ANSWERED,
)
def _vllm_think_then_answer() -> ModelOutput:
    return _vllm(
        "<think>\n17 * 20 = 340 and 17 * 3 = 51.\n</think>\n\n17 × 23 = 391.",
        "stop",
        38,
    )


@SHAPES.add(
    name="vllm_400_maximum_context_length",
    provider="vllm",
    source="model/_providers/vllm.py:660-674",
    shape="A 400 mentioning 'maximum context length' becomes the body message "
    "with model_length.",
    expected=Outcome.OVERFLOW,
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
