"""A scripted ``mockllm/model`` that runs offline."""

from collections.abc import Iterable

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolChoice, ToolInfo


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


class RecordingGrader:
    """A ``mockllm/model`` grader that records every prompt it is asked to grade.

    Use it to prove that a routed model-graded scorer did, or did not, call its
    judge: ``grader.prompts`` holds one entry per grading request.

    Args:
        grade: The grader's reply to every request, e.g. ``"GRADE: C"``.
    """

    def __init__(self, grade: str = "GRADE: C") -> None:
        self.grade = grade
        self.prompts: list[str] = []
        self.model = get_model("mockllm/model", custom_outputs=self._reply)

    def _reply(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        self.prompts.append(input[-1].text if input else "")
        return _with_usage(ModelOutput.from_content("mockllm/model", self.grade))
