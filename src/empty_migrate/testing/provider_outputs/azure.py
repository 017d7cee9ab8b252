"""Azure OpenAI's content filters, through the OpenAI chat adapter.

As ``model/_openai.py`` shapes them.
"""

from inspect_ai.model import (
    ModelOutput,
)

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.provider_outputs.fixture import Shapes
from empty_migrate.testing.provider_outputs.openai import (
    _openai_chat,
    _openai_error,
    _openai_usage,
)

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


_AZURE_GPT4O = "gpt-4o-2024-11-20"


_AZURE_FILTERED_VIOLENCE = {
    "hate": {"filtered": False, "severity": "safe"},
    "self_harm": {"filtered": False, "severity": "safe"},
    "sexual": {"filtered": False, "severity": "safe"},
    "violence": {"filtered": True, "severity": "high"},
}


@SHAPES.add(
    name="azure_content_filter_empty",
    provider="azure",
    source="model/_openai.py:1359-1380",
    shape="Azure finish_reason content_filter with null content gives str '' and "
    "stop_details listing only filtered categories, explanation synthesized.",
    expected=Outcome.FILTERED,
)
def _azure_content_filter_empty() -> ModelOutput:
    return _openai_chat(
        _AZURE_GPT4O,
        "content_filter",
        content=None,
        content_filter_results=_AZURE_FILTERED_VIOLENCE,
        usage=_openai_usage(96, 0),
    )


@SHAPES.add(
    name="azure_stream_filter_partial_text",
    provider="azure",
    source="model/_openai.py:1258-1265",
    shape="A streamed Azure filter returns the snapshot: partial str text, "
    "content_filter, and no content_filter_results so stop_details is None.",
    expected=Outcome.ANSWERED,
    partial="filtered_partial",
)
def _azure_stream_filter_partial_text() -> ModelOutput:
    return _openai_chat(
        _AZURE_GPT4O,
        "content_filter",
        content="Sure. The first thing you would need to do is",
        usage=_openai_usage(96, 11),
    )


@SHAPES.add(
    name="azure_detected_not_filtered_answer",
    provider="azure",
    source="model/_openai.py:1353-1373",
    shape="A normal stop whose content_filter_results only mark protected "
    "material as detected (not filtered) gets no stop_details.",
    expected=Outcome.ANSWERED,
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


@SHAPES.add(
    name="azure_400_content_filter",
    provider="azure",
    source="model/_openai.py:1652-1676",
    shape="Azure 400 with code content_filter becomes the error text with "
    "content_filter and refusal stop_details explaining it verbatim.",
    expected=Outcome.FILTERED,
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
