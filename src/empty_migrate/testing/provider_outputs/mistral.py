"""Mistral, as ``model/_providers/mistral.py`` shapes it."""

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ModelOutput,
    ModelUsage,
    StopReason,
)

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.provider_outputs.fixture import Shapes

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


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


@SHAPES.add(
    name="mistral_finish_none_answer",
    provider="mistral",
    source="model/_providers/mistral.py:947-951",
    shape="A non-streamed choice with finish_reason None keeps its str answer "
    "with stop_reason unknown.",
    expected=Outcome.ANSWERED,
)
def _mistral_finish_none_answer() -> ModelOutput:
    return _mistral_output([("Lyon is the third-largest city in France.", None)])


@SHAPES.add(
    name="mistral_empty_choices",
    provider="mistral",
    source="model/_providers/mistral.py:1012-1021",
    shape="A response whose choices list is empty gives an output with no "
    "choices (output.empty).",
    expected=Outcome.NO_OUTPUT,
)
def _mistral_empty_choices() -> ModelOutput:
    return _mistral_output([], completion_tokens=0)


@SHAPES.add(
    name="mistral_400_maximum_context_length",
    provider="mistral",
    source="model/_providers/mistral.py:433-444",
    shape="A 400 whose body mentions 'maximum context length' becomes the body "
    "message as text with model_length.",
    expected=Outcome.OVERFLOW,
)
def _mistral_400_maximum_context_length() -> ModelOutput:
    return ModelOutput.from_content(
        model="mistral-large-latest",
        content=(
            "Prompt contains 140012 tokens and 0 draft tokens, too large for "
            "model with 131072 maximum context length"
        ),
        stop_reason="model_length",
    )
