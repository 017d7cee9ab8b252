"""Amazon Bedrock Converse, through the adapter's own ``model_output_from_response``."""

from typing import Any

from inspect_ai.model import (
    ModelOutput,
)

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.inspect_internals import (
    ConverseResponse,
    model_output_from_response,
)
from empty_migrate.testing.provider_outputs.fixture import Shapes

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


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


@SHAPES.add(
    name="bedrock_answer_tool_calls_empty_list",
    provider="bedrock",
    source="model/_providers/bedrock.py:1451-1454",
    shape="Converse end_turn text gives [ContentText] with tool_calls=[] (not "
    "None) and stop.",
    expected=Outcome.ANSWERED,
)
def _bedrock_answer_tool_calls_empty_list() -> ModelOutput:
    return _bedrock(
        [{"text": "Photosynthesis turns light, water and CO2 into glucose and O2."}],
        "end_turn",
    )


@SHAPES.add(
    name="bedrock_guardrail_intervened",
    provider="bedrock",
    source="model/_providers/bedrock.py:1540-1577",
    shape="guardrail_intervened returns the guardrail's blocked message as text "
    "with content_filter and traced VIOLENCE (HIGH) stop_details.",
    expected=Outcome.FILTERED,
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


@SHAPES.add(
    name="bedrock_guardrail_intervened_untraced",
    provider="bedrock",
    source="model/_providers/bedrock.py:1573-1577",
    shape="guardrail_intervened without guardrail tracing keeps the "
    "refusal-like blocked message with content_filter and stop_details None.",
    expected=Outcome.FILTERED,
)
def _bedrock_guardrail_intervened_untraced() -> ModelOutput:
    return _bedrock(
        [{"text": "Sorry, the model cannot answer this question."}],
        "guardrail_intervened",
        output_tokens=0,
    )


@SHAPES.add(
    name="bedrock_content_filtered",
    provider="bedrock",
    source="model/_providers/bedrock.py:1499-1502",
    shape="stopReason content_filtered with no content blocks gives content [] "
    "with content_filter and stop_details None.",
    expected=Outcome.FILTERED,
)
def _bedrock_content_filtered() -> ModelOutput:
    return _bedrock(
        [], "content_filtered", model="amazon.nova-pro-v1:0", output_tokens=0
    )


@SHAPES.add(
    name="bedrock_context_window_exceeded",
    provider="bedrock",
    source="model/_providers/bedrock.py:1505-1506",
    shape="stopReason model_context_window_exceeded maps to model_length even "
    "with partial text.",
    expected=Outcome.ANSWERED,
    partial="truncated_partial",
)
def _bedrock_context_window_exceeded() -> ModelOutput:
    return _bedrock(
        [{"text": "The report covers three quarters of"}],
        "model_context_window_exceeded",
        input_tokens=199870,
        output_tokens=130,
    )


@SHAPES.add(
    name="bedrock_validation_too_long",
    provider="bedrock",
    source="model/_providers/bedrock.py:934-947",
    shape="A ValidationException saying the input is too long becomes "
    "from_content(<lower-cased message>, model_length).",
    expected=Outcome.OVERFLOW,
)
def _bedrock_validation_too_long() -> ModelOutput:
    return ModelOutput.from_content(
        model=_BEDROCK_CLAUDE,
        content="Input is too long for requested model.".lower(),
        stop_reason="model_length",
    )


@SHAPES.add(
    name="bedrock_reasoning_cut_at_max_tokens",
    provider="bedrock",
    source="model/_providers/bedrock.py:1411-1438",
    shape="Only a reasoningText block cut at max_tokens gives ContentReasoning "
    "with the text in .reasoning (not .summary) and tool_calls=[].",
    expected=Outcome.TRUNCATED,
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
