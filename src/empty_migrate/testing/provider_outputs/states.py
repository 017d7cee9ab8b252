"""Outputs no provider wrote: the state of an agent or a solver.

As ``agent/_agent.py``, ``agent/_react.py`` and ``solver/_task_state.py`` build them.
"""

from inspect_ai.agent import AgentState
from inspect_ai.model import (
    ChatMessageUser,
    ModelName,
    ModelOutput,
)
from inspect_ai.solver import TaskState

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.provider_outputs.azure import _azure_content_filter_empty
from empty_migrate.testing.provider_outputs.fixture import Shapes
from empty_migrate.testing.provider_outputs.openai import (
    _GPT4O,
    _openai_chat,
    _openai_usage,
)

SHAPES = Shapes()
"""This module's outputs, in the order they are declared."""


@SHAPES.add(
    name="task_state_never_generated",
    provider="task_state",
    source="solver/_task_state.py:172",
    shape="A TaskState whose solver never generated holds ModelOutput(model="
    "str(ModelName)) with no choices and completion ''.",
    expected=Outcome.NO_OUTPUT,
)
def _task_state_never_generated() -> ModelOutput:
    state = TaskState(
        model=ModelName("openai/gpt-4o"),
        sample_id=1,
        epoch=1,
        input="What is the boiling point of water in Kelvin?",
        messages=[
            ChatMessageUser(content="What is the boiling point of water in Kelvin?")
        ],
    )
    return state.output


@SHAPES.add(
    name="agent_state_no_assistant_message",
    provider="agent",
    source="agent/_agent.py:71-73",
    shape="AgentState.output with no assistant message in the history is a bare "
    "ModelOutput() with model '' and no choices.",
    expected=Outcome.NO_OUTPUT,
)
def _agent_state_no_assistant_message() -> ModelOutput:
    return AgentState(
        messages=[ChatMessageUser(content="Fix the failing test.")]
    ).output


@SHAPES.add(
    name="agent_state_synthesized_from_filtered_turn",
    provider="agent",
    source="agent/_agent.py:56-69",
    shape="AgentState.output synthesized from an Azure-filtered empty turn "
    "forces stop_reason stop and drops stop_details: str '' that looks like "
    "silence.",
    expected=Outcome.EMPTY,
)
def _agent_state_synthesized_from_filtered_turn() -> ModelOutput:
    filtered = _azure_content_filter_empty().message
    return AgentState(
        messages=[ChatMessageUser(content="Describe the attack in detail."), filtered]
    ).output


@SHAPES.add(
    name="react_submit_rewrite",
    provider="agent",
    source="agent/_react.py:314-332",
    shape="react() after submit() rewrites completion and the str message text "
    "to the answer, keeping stop_reason tool_calls and the submit ToolCall.",
    expected=Outcome.ANSWERED,
)
def _react_submit_rewrite() -> ModelOutput:
    output = _openai_chat(
        _GPT4O,
        "tool_calls",
        tool_calls=[("call_Fs2Kd8Lq4Xw6Zn1Cv9Bm", "submit", '{"answer": "391"}')],
        usage=_openai_usage(2210, 15),
    )
    answer = "391"
    output.completion = f"{output.completion}\n\n{answer}".strip()
    message = output.choices[0].message
    assert isinstance(message.content, str)
    message.content = f"{message.content}\n\n{answer}".strip()
    return output
