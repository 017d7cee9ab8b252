"""Real inspect_ai.eval() runs with a scripted model.

The worked example of Inspect's scoring policy: one correct answer, one
incorrect answer, one machinery failure (the prompt overflows the context:
raise) and one instrument failure (a platform content filter on a fixed
prompt: unscored) give accuracy 1/2, with two scored samples, one unscored
sample and one sample error. And agents that run out of context after tool
calls, which are scored from their work: an overflow after a tool result is
scored, not raised (MIGRATION.md, section 9).
"""

import pytest
from inspect_ai import Task, eval
from inspect_ai.agent import react
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageTool, ModelOutput
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    accuracy,
    includes,
    scorer,
)
from inspect_ai.solver import basic_agent

from empty_migrate.runtime.router import route_empty_responses
from empty_migrate.testing.models import scripted_model
from empty_migrate.testing.tools import add
from tests.outcomes import OUTCOME_EXAMPLES

pytestmark = pytest.mark.inspect_versions


def run(task, outputs, tmp_path):
    model = scripted_model(outputs)
    [log] = eval(
        task,
        model=model,
        log_dir=str(tmp_path),
        display="none",
        fail_on_error=False,
        max_samples=1,
    )
    return log


def capital_task(scorer, samples=4):
    dataset = [
        Sample(id=i, input="What is the capital of France?", target="Paris")
        for i in range(1, samples + 1)
    ]
    return Task(dataset=dataset, scorer=scorer)


def test_worked_example_of_the_scoring_policy(tmp_path):
    outputs = [
        ModelOutput.from_content("mockllm/model", "Paris"),
        ModelOutput.from_content("mockllm/model", "London"),
        OUTCOME_EXAMPLES["overflow"](),
        OUTCOME_EXAMPLES["filtered"](),
    ]
    task = capital_task(route_empty_responses(includes(), category="qa"))

    log = run(task, outputs, tmp_path)

    [score] = log.results.scores
    assert score.name == "includes"
    assert score.metrics["accuracy"].value == 0.5
    assert (score.scored_samples, score.unscored_samples) == (2, 1)
    errors = [sample.error for sample in log.samples if sample.error]
    assert len(errors) == 1
    assert errors[0].message.startswith("ContextOverflowError(")
    reasons = sorted(str(s.scores["includes"].reason) for s in log.samples if s.scores)
    assert reasons == ["None", "None", "refusal"]


def test_non_answers_score_zero_with_reasons_in_the_log(tmp_path):
    outputs = [
        ModelOutput.from_content("mockllm/model", "Paris"),
        OUTCOME_EXAMPLES["reasoning_only"](),
        OUTCOME_EXAMPLES["truncated"](),
        OUTCOME_EXAMPLES["refused"](),
    ]
    task = capital_task(route_empty_responses(includes(), category="qa"))

    log = run(task, outputs, tmp_path)

    [score] = log.results.scores
    assert score.metrics["accuracy"].value == 0.25
    assert (score.scored_samples, score.unscored_samples) == (4, 0)
    outcomes = sorted(
        (s.scores["includes"].metadata or {}).get("empty_outcome", "answered")
        for s in log.samples
    )
    assert outcomes == ["answered", "reasoning_only", "refused", "truncated"]
    assert log.eval.scorers[0].name == "includes"


@scorer(metrics=[accuracy()])
def tool_trace_scorer():
    """Scores the work an agent did: CORRECT if `add` returned the target."""

    async def score(state, target):
        results = [m.text for m in state.messages if isinstance(m, ChatMessageTool)]
        value = CORRECT if target.text in results else INCORRECT
        return Score(value=value, explanation=f"tool results: {results}")

    return score


def _add_call(call_id: str) -> ModelOutput:
    return ModelOutput.for_tool_call(
        "mockllm/model", "add", {"x": 2, "y": 3}, tool_call_id=call_id
    )


@pytest.mark.parametrize("agent", [react, basic_agent], ids=["react", "basic_agent"])
@pytest.mark.parametrize("category", ["agentic", "qa"])
def test_agent_out_of_context_after_tool_calls_is_scored(tmp_path, agent, category):
    outputs = [_add_call("call_1"), OUTCOME_EXAMPLES["overflow"]()]
    task = Task(
        dataset=[Sample(input="Add 2 and 3 with the tool.", target="5")],
        solver=agent(tools=[add()]),
        scorer=route_empty_responses(tool_trace_scorer(), category=category),
    )

    log = run(task, outputs, tmp_path)

    [sample] = log.samples
    assert sample.error is None
    assert sample.output.stop_reason == "model_length"
    score = sample.scores["tool_trace_scorer"]
    assert score.value == CORRECT
    assert score.metadata["empty_outcome"] == "overflow"


def test_overflow_before_any_tool_call_still_raises(tmp_path):
    task = Task(
        dataset=[Sample(input="Add 2 and 3 with the tool.", target="5")],
        solver=react(tools=[add()]),
        scorer=route_empty_responses(tool_trace_scorer(), category="agentic"),
    )

    log = run(task, [OUTCOME_EXAMPLES["overflow"]()], tmp_path)

    [sample] = log.samples
    assert sample.error.message.startswith("ContextOverflowError(")
