"""A scripted ``mockllm/model`` that runs offline."""

from collections.abc import Iterable

from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model


def scripted_model(outputs: Iterable[ModelOutput]) -> Model:
    """Return a ``mockllm/model`` that answers with `outputs`, in order.

    Outputs without usage get a small one: mockllm otherwise estimates usage
    with tiktoken, whose encoding file is downloaded on first use, and the
    test machines have no network beyond the package registries.

    Args:
        outputs: The model outputs to return, one per generate call.

    Returns:
        The model, to pass to ``eval(model=...)`` or use as a grader.
    """
    return get_model("mockllm/model", custom_outputs=[_with_usage(o) for o in outputs])


def _with_usage(output: ModelOutput) -> ModelOutput:
    if output.usage is None:
        tokens = len(output.completion.split())
        output.usage = ModelUsage(
            input_tokens=10, output_tokens=tokens, total_tokens=10 + tokens
        )
    return output
