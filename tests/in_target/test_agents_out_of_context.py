"""An agent that runs out of context after tool calls is scored by its own scorer.

gaia's agent is ``react()``; when the model's context fills up mid-trajectory,
react() stops on a ``model_length`` output and leaves the answer to the scorer.
The migrated gaia scorer must score that, not raise: an overflow after a tool
result is scored (MIGRATION.md, section 9).
"""

from inspect_ai import Task
from inspect_ai.agent import react
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import INCORRECT

from empty_migrate.testing.provider_outputs import provider_output
from empty_migrate.testing.tools import add
from tests.in_target.conftest import run_eval


def test_gaia_scores_an_agent_that_ran_out_of_context(tmp_path):
    from inspect_evals.gaia.scorer import gaia_scorer

    task = Task(
        dataset=[Sample(input="What is 2 + 3? Use the tool.", target="5")],
        solver=react(tools=[add()]),
        scorer=gaia_scorer(),
    )
    outputs = [
        ModelOutput.for_tool_call("mockllm/model", "add", {"x": 2, "y": 3}),
        provider_output("openai_chat_400_context_length_exceeded").output,
    ]

    log = run_eval(task, outputs, log_dir=tmp_path)

    [sample] = log.samples
    assert sample.error is None
    assert sample.output.stop_reason == "model_length"
    score = sample.scores["gaia_scorer"]
    assert score.value == INCORRECT
    assert score.metadata["empty_outcome"] == "overflow"
