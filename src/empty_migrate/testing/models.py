"""A scripted ``mockllm/model`` that runs offline."""

import itertools
from collections.abc import Iterable

from inspect_ai.model import (
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)

from empty_migrate.runtime.probe import RecordingJudge


def scripted_model(
    outputs: Iterable[ModelOutput], then: ModelOutput | None = None
) -> Model:
    """Return a ``mockllm/model`` that answers with `outputs`, in order.

    With `then`, every call after the last output answers a copy of it (an
    agent's further turns); without it, a call past the end raises.

    Outputs without usage get a small one: mockllm otherwise estimates usage
    with tiktoken, whose encoding file is downloaded on first use, and the
    test machines have no network beyond the package registries. An output
    that stands for an API error turned into text (a ``model_length`` or
    ``content_filter`` stop with no usage) reports no generated tokens, as
    the real adapters' error outputs report none.

    Args:
        outputs: The model outputs to return, one per generate call.
        then: What every later call answers, if anything.

    Returns:
        The model, to pass to ``eval(model=...)`` or use as a grader.
    """
    scripted = [_with_usage(o) for o in outputs]
    if then is None:
        return get_model("mockllm/model", custom_outputs=scripted)
    rest = (_with_usage(then.model_copy(deep=True)) for _ in itertools.count())
    return get_model("mockllm/model", custom_outputs=itertools.chain(scripted, rest))


def _with_usage(output: ModelOutput) -> ModelOutput:
    if output.usage is None:
        error_as_text = bool(output.choices) and output.stop_reason in (
            "model_length",
            "content_filter",
        )
        tokens = 0 if error_as_text else len(output.completion.split())
        output.usage = ModelUsage(
            input_tokens=10, output_tokens=tokens, total_tokens=10 + tokens
        )
    return output


RecordingGrader = RecordingJudge
"""A ``mockllm/model`` grader that records every prompt (see `probe.RecordingJudge`)."""
