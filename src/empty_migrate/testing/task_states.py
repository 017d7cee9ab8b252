"""Real `TaskState`s around a model output, for exercising routed scorers."""

from typing import Any

from inspect_ai.model import ChatMessageUser, ModelName, ModelOutput
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState


def task_state(
    output: ModelOutput,
    *,
    prompt: str = "What is the capital of France?",
    target: str | list[str] = "Paris",
    metadata: dict[str, Any] | None = None,
    sample_id: int | str = 1,
) -> TaskState:
    """Build the task state a scorer sees after the model produced `output`.

    Args:
        output: The model under test's final output.
        prompt: The sample input.
        target: The sample target.
        metadata: Sample metadata (e.g. a per-sample polarity label).
        sample_id: The sample id.

    Returns:
        A `TaskState` whose messages end with the output's message, if any.
    """
    messages = [ChatMessageUser(content=prompt)]
    if not output.empty:
        messages.append(output.message)
    return TaskState(
        model=ModelName("mockllm/model"),
        sample_id=sample_id,
        epoch=1,
        input=prompt,
        messages=list(messages),
        target=Target(target),
        output=output,
        metadata=metadata or {},
    )
