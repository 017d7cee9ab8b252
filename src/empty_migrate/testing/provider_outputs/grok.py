"""xAI Grok, as ``model/_providers/grok.py`` shapes it."""

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ContentReasoning,
    ContentText,
    ModelOutput,
    ModelUsage,
    StopDetails,
)

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.provider_outputs.fixture import Shapes

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


def _grok_safety_output(details: str) -> ModelOutput:
    return ModelOutput.from_content(
        model="grok-4",
        content=details,
        stop_reason="content_filter",
        stop_details=StopDetails(type="refusal", explanation=details),
    )


@SHAPES.add(
    name="grok_safety_check",
    provider="grok",
    source="model/_providers/grok.py:556-571",
    shape="gRPC PERMISSION_DENIED with safety_check becomes the details text "
    "with content_filter and StopDetails(type=refusal, explanation=<same text>); "
    "error stays None.",
    expected=Outcome.FILTERED,
)
def _grok_safety_check() -> ModelOutput:
    return _grok_safety_output(
        "Content violates usage guidelines. Failed check: SAFETY_CHECK_TYPE_BIO"
    )


@SHAPES.add(
    name="grok_cant_help_permission_denied",
    provider="grok",
    source="model/_providers/grok.py:558-562",
    shape='PERMISSION_DENIED saying "can\'t help with that request" takes the '
    "same branch: the text is both content and refusal explanation.",
    expected=Outcome.FILTERED,
)
def _grok_cant_help() -> ModelOutput:
    return _grok_safety_output("I'm sorry, but I can't help with that request.")


@SHAPES.add(
    name="grok_answer",
    provider="grok",
    source="model/_providers/grok.py:676-685",
    shape="A reasoning answer gives [encrypted ContentReasoning, ContentText] "
    "with stop and completion passed explicitly from response.content.",
    expected=Outcome.ANSWERED,
)
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
