"""One plain model output per outcome, built by hand.

The route tests use these rather than the provider fixture library, which they
are checked against elsewhere. ``outcome_output`` (``tests/conftest.py``) is
the fixture form.
"""

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ContentReasoning,
    ContentText,
    ModelOutput,
    StopDetails,
)
from inspect_ai.tool import ToolCall

from empty_migrate.runtime.router import Outcome


def _output(content, stop_reason="stop", tool_calls=None, stop_details=None):
    message = ChatMessageAssistant(
        content=content, tool_calls=tool_calls, model="mockllm/model"
    )
    return ModelOutput(
        model="mockllm/model",
        choices=[
            ChatCompletionChoice(
                message=message, stop_reason=stop_reason, stop_details=stop_details
            )
        ],
    )


def _call():
    return ToolCall(id="call_1", function="bash", arguments={"cmd": "ls"})


OUTCOME_EXAMPLES = {
    Outcome.ANSWERED: lambda: _output("Paris"),
    Outcome.EMPTY: lambda: _output("  \n"),
    Outcome.REASONING_ONLY: lambda: _output(
        [ContentReasoning(reasoning="Let me think."), ContentText(text="")]
    ),
    Outcome.TOOL_CALLS_ONLY: lambda: _output(
        "", stop_reason="tool_calls", tool_calls=[_call()]
    ),
    Outcome.TRUNCATED: lambda: _output(
        [ContentReasoning(reasoning="Step 1...")], stop_reason="max_tokens"
    ),
    Outcome.REFUSED: lambda: _output(
        [ContentText(text="I can't help with that.", refusal=True)]
    ),
    Outcome.REFUSED_AFTER_PARTIAL: lambda: _output(
        [
            ContentText(text="Here is some background."),
            ContentText(text="I can't continue.", refusal=True),
        ]
    ),
    Outcome.FILTERED: lambda: _output(
        "",
        stop_reason="content_filter",
        stop_details=StopDetails(type="content_filter", explanation="hate (high)"),
    ),
    Outcome.OVERFLOW: lambda: ModelOutput.from_content(
        "mockllm/model", "prompt is too long", stop_reason="model_length"
    ),
    Outcome.NO_OUTPUT: lambda: ModelOutput(model="mockllm/model"),
}
