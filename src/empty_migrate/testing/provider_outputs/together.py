"""Together AI, as ``model/_providers/together.py`` shapes it."""

from inspect_ai.model import (
    ModelOutput,
)

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.provider_outputs.fixture import Shapes
from empty_migrate.testing.provider_outputs.openai import _openai_chat, _openai_usage

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


@SHAPES.add(
    name="together_content_filter",
    provider="together",
    source="model/_providers/together.py:82-93",
    shape="TogetherAIAPI passes finish_reason content_filter through "
    "as_stop_reason; openai_stop_details finds no refusal or filter results, so "
    "None.",
    expected=Outcome.FILTERED,
)
def _together_content_filter() -> ModelOutput:
    return _openai_chat(
        "meta-llama/Llama-3.3-70B-Instruct-Turbo",
        "content_filter",
        content="",
        usage=_openai_usage(73, 0, details=False),
        response_id="oFq3Hk9-2j9zxn-97c5a1f2e8d4b3a6",
        provider="together",
    )
