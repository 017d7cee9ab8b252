"""Where the model under test left its final answer, found in real eval runs.

One rule (`state_output`): the output slot when it holds an answer; else the
model's last turn in the transcript (its last assistant message, or its last
model call when the solver kept no messages); else nothing was produced. The
same runs are then read back from their logs by `outcomes` and `audit --log`'s
code (`classify_sample`), which must find the same answer with the same class.
"""

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ChatMessageTool,
    ContentReasoning,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.scorer import INCORRECT, Score, accuracy, scorer
from inspect_ai.solver import Generate, TaskState, generate, solver
from inspect_ai.tool import ToolCall

from empty_migrate.logs.outcomes import classify_sample
from empty_migrate.runtime.policy import Outcome
from empty_migrate.runtime.router import (
    classify_outputs,
    located_outputs,
    replayed_sample,
    route_empty_responses,
    state_output,
)
from empty_migrate.testing.models import scripted_model

pytestmark = pytest.mark.inspect_versions

MODEL = "mockllm/model"


@scorer(metrics=[accuracy()])
def classifying():
    """Score 1 for any sample; record what the router found in the metadata."""

    async def score(state: TaskState, target) -> Score:
        found = classify_outputs(located_outputs(state_output(state)))
        return Score(
            value=1,
            metadata={"outcome": str(found.outcome), "flags": sorted(found.flags)},
        )

    return score


@solver
def answers_elsewhere():
    """SciCode's own shape: the model answers, the solver keeps it elsewhere."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        output = await get_model().generate(state.messages)
        state.store.set("answer", output.completion)
        return state

    return solve


@solver
def agent_leaving_the_slot_empty(turns: int):
    """control-arena's shape: tool-calling turns, then the slot is emptied."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        for _turn in range(turns):
            state = await generate(state, tool_calls="none")
            call = state.output.message.tool_calls
            if call:
                state.messages.append(
                    ChatMessageTool(
                        content="3", tool_call_id=call[0].id, function="add"
                    )
                )
        state.output = ModelOutput(model=MODEL)
        return state

    return solve


@solver
def clears_everything():
    """A solver that produced nothing of the model's: the slot and messages empty."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput(model=MODEL)
        return state

    return solve


def tool_turn(index: int) -> ModelOutput:
    call = ToolCall(id=f"call_{index}", function="add", arguments={"x": 1, "y": 2})
    message = ChatMessageAssistant(content="", tool_calls=[call], model=MODEL)
    return ModelOutput(
        model=MODEL,
        choices=[ChatCompletionChoice(message=message, stop_reason="tool_calls")],
    )


def reasoning_at_the_limit(limit: int) -> ModelOutput:
    """gpt-oss through OpenRouter: reasoning only, ``stop``, tokens = max_tokens."""
    message = ChatMessageAssistant(
        content=[ContentReasoning(reasoning="Let me think... " * 40)], model=MODEL
    )
    return ModelOutput(
        model=MODEL,
        choices=[ChatCompletionChoice(message=message, stop_reason="stop")],
        usage=ModelUsage(input_tokens=20, output_tokens=limit, total_tokens=limit + 20),
    )


def run(solver_, outputs, tmp_path, scorer_=None, **config):
    task = Task(
        dataset=[Sample(id=1, input="What is 1 + 2?", target="3")],
        solver=solver_,
        scorer=scorer_ or classifying(),
        config=GenerateConfig(**config),
    )
    [log] = eval(
        task,
        model=scripted_model(outputs),
        log_dir=str(tmp_path),
        display="none",
        fail_on_error=False,
    )
    return log


def found_in_run(log):
    [sample] = log.samples
    assert sample.error is None, sample.error
    [score] = sample.scores.values()
    return score.metadata["outcome"], score.metadata["flags"]


def found_in_log(log, **drop):
    [sample] = log.samples
    sample = sample.model_copy(update=drop)
    row = classify_sample("log", log, sample)
    return str(row.outcome), list(row.flags), row.signal


def test_a_solver_that_keeps_the_answer_elsewhere_answered(tmp_path):
    log = run(answers_elsewhere(), [ModelOutput.from_content(MODEL, "3")], tmp_path)

    assert found_in_run(log) == ("answered", ["from_transcript"])
    # the solver kept no messages: the log's last model call is the answer
    assert found_in_log(log)[:2] == ("answered", ["from_transcript"])
    assert found_in_log(log, messages=[])[:2] == ("answered", ["from_transcript"])


def test_an_agent_that_gave_up_after_tool_turns_is_read_from_its_last_turn(
    tmp_path,
):
    outputs = [tool_turn(1), tool_turn(2), tool_turn(3)]
    log = run(agent_leaving_the_slot_empty(3), outputs, tmp_path)

    assert found_in_run(log) == ("tool_calls_only", ["from_transcript"])
    assert found_in_log(log) == ("tool_calls_only", ["from_transcript"], "tool_calls")


def test_the_agent_that_gave_up_gets_a_verdict_not_an_error(tmp_path):
    """browse_comp's browsing agent: before the router it was judged wrong."""

    @scorer(metrics=[accuracy()])
    def judged():
        async def score(state: TaskState, target) -> Score:
            return Score(value=INCORRECT)

        return score

    routed = route_empty_responses(judged(), category="model_graded")
    outputs = [tool_turn(1), tool_turn(2)]
    log = run(agent_leaving_the_slot_empty(2), outputs, tmp_path, routed)

    [sample] = log.samples
    assert sample.error is None
    [score] = sample.scores.values()
    assert score.metadata["empty_outcome"] == "tool_calls_only"


def test_nothing_produced_is_no_output(tmp_path):
    log = run(clears_everything(), [], tmp_path)

    assert found_in_run(log) == ("no_output", [])
    assert found_in_log(log)[:2] == ("no_output", [])


@pytest.mark.parametrize("where", ["slot", "transcript"])
def test_a_stop_at_max_tokens_mislabelled_stop_is_truncated(where, tmp_path):
    solver_ = agent_leaving_the_slot_empty(1) if where == "transcript" else None
    outputs = [reasoning_at_the_limit(2000)]
    log = run(solver_ or generate(), outputs, tmp_path, max_tokens=2000)

    flags = ["max_tokens_reached"] + (["from_transcript"] if solver_ else [])
    assert found_in_run(log) == ("truncated", sorted(flags))
    assert found_in_log(log) == ("truncated", sorted(flags), "usage:max_tokens")


def test_below_the_limit_reasoning_only_stays_reasoning_only(tmp_path):
    log = run(generate(), [reasoning_at_the_limit(1500)], tmp_path, max_tokens=2000)

    assert found_in_run(log) == ("reasoning_only", [])
    assert found_in_log(log)[:2] == ("reasoning_only", [])


def test_a_log_without_model_events_takes_the_limit_from_its_generate_config(
    tmp_path,
):
    log = run(generate(), [reasoning_at_the_limit(2000)], tmp_path, max_tokens=2000)

    # logs of early releases record no message ids to match a call by
    assert found_in_log(log, events=[])[:2] == ("truncated", ["max_tokens_reached"])


def test_the_rule_outside_a_run_reads_the_replayed_events_only():
    output = reasoning_at_the_limit(10)
    assert classify_outputs([output]).outcome == Outcome.REASONING_ONLY
    with replayed_sample([], max_tokens=10):
        assert classify_outputs([output]).outcome == Outcome.TRUNCATED
