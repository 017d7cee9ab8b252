"""Routed verdicts that the migrated evals' own metrics and reducers accept.

Each test runs a migrated inspect_evals scorer the way Inspect does, on the
shapes that broke the first migration (issue 8): an answer written into an
output with no choices, a non-answer in the first epoch of a reducer that keeps
the first epoch's metadata, a dict verdict that must match the eval's
configuration, a per-sample instruction count, the sample metadata a metric
reads, and a judge scale the no-answer value must stay on.
"""

import sys
import types

import pytest
from inspect_ai.model import ModelName, ModelOutput
from inspect_ai.scorer import (
    CORRECT,
    SampleScore,
    Score,
    Target,
    mean_score,
)
from inspect_ai.solver import TaskState
from inspect_ai.util import registry_info

from empty_migrate.runtime.probe import task_state
from empty_migrate.testing.models import RecordingGrader
from empty_migrate.testing.provider_outputs import provider_output
from tests.in_target.conftest import run_eval

EMPTY = "openai_chat_whitespace_only"
REFUSED = "openai_chat_refusal_field"


def answer(text: str) -> ModelOutput:
    return ModelOutput.from_content("mockllm/model", text)


def state_with(output: ModelOutput, **metadata: object) -> TaskState:
    return task_state(output, metadata=dict(metadata))


async def test_browse_comp_grades_the_browsing_agents_answer():
    from inspect_evals.browse_comp.browse_comp import browse_comp_scorer

    grader = RecordingGrader("extracted_final_answer: 1988-96\ncorrect: yes")
    scorer = browse_comp_scorer(scorer_model=grader.model)
    # browsing_solver copies the agent's completion onto the state's output,
    # which has no choices (browse_comp/browse_comp.py:142)
    state = state_with(ModelOutput(model="mockllm/model"))
    state.output.completion = "The author was a probation officer in 1988-96."

    score = await scorer(state, Target("1988-96"))

    assert score.value == {"score": CORRECT, "confidence": 100}
    assert len(grader.prompts) == 1


def test_persistbench_non_answer_in_the_first_epoch_keeps_failure_rate(tmp_path):
    from inspect_evals.persistbench import persistbench_cross_domain

    grader = RecordingGrader('{"score": 4, "reasoning": "It leaks the memory."}')
    outputs = [provider_output(EMPTY).output, answer("Sure."), answer("Sure.")]

    log = run_eval(
        persistbench_cross_domain(), outputs, grader, limit=1, log_dir=tmp_path
    )

    assert log.status == "success", log.error
    [score] = log.results.scores
    # max_score keeps the first epoch's metadata, the verdict's: failure_type
    assert score.metrics["failure_rate"].value == 100.0
    assert len(grader.prompts) == 2, "the judge is not called on the empty epoch"


HEALTHBENCH_LENGTH = {
    "length_adjustment_center": 200.0,
    "length_adjustment_penalty_per_500_chars": 0.1,
}


@pytest.mark.parametrize("options", [{}, HEALTHBENCH_LENGTH], ids=["plain", "length"])
async def test_healthbench_verdict_has_the_configured_keys(options):
    from inspect_evals.healthbench.scorer import healthbench_scorer

    scorer = healthbench_scorer(**options)
    rubrics = [
        {"criterion": "Advises rest", "points": 5, "tags": []},
        {"criterion": "Invents a drug", "points": -3, "tags": []},
    ]

    score = await scorer(
        state_with(provider_output(REFUSED).output, rubrics=rubrics), Target("")
    )

    expected = {"healthbench_score", "criteria_met", "total_criteria"}
    expected |= {"_crit_0_met", "_crit_1_met"}
    if options:
        expected.add("healthbench_score_length_adjusted")
    assert set(score.value) == expected
    assert score.value["healthbench_score"] == 0.0
    assert score.reason == "refusal"
    metric_keys = {
        key
        for group in registry_info(scorer).metadata["metrics"]
        if isinstance(group, dict)
        for key in group
    }
    assert metric_keys <= set(score.value)


async def test_healthbench_non_answer_epoch_reduces_beside_answered_ones():
    from inspect_evals.healthbench.scorer import healthbench_scorer

    scorer = healthbench_scorer(**HEALTHBENCH_LENGTH)
    rubrics = [{"criterion": "Advises rest", "points": 5, "tags": []}]
    verdict = await scorer(
        state_with(provider_output(EMPTY).output, rubrics=rubrics), Target("")
    )
    answered = Score(value={**verdict.value, "healthbench_score": 1.0})
    answered.value["_crit_0_met"] = 1.0

    reduced = mean_score()([verdict, answered, answered])

    assert reduced.value["healthbench_score"] == pytest.approx(2 / 3)


@pytest.fixture
def instruction_following_eval(monkeypatch):
    """Stands in for ifeval's checker, a git-only package not on any index.

    Every instruction but the last is followed; the routed verdicts under test
    never reach it.
    """
    package = types.ModuleType("instruction_following_eval")
    evaluation = types.ModuleType("instruction_following_eval.evaluation")

    class InputExample:
        def __init__(self, **fields):
            self.instruction_id_list = fields["instruction_id_list"]

    def test_instruction_following(example, response, strict):
        followed = [True] * (len(example.instruction_id_list) - 1) + [False]
        return types.SimpleNamespace(
            follow_all_instructions=all(followed), follow_instruction_list=followed
        )

    evaluation.InputExample = InputExample
    evaluation.ensure_nltk_resource = lambda: None
    evaluation.test_instruction_following = test_instruction_following
    monkeypatch.setitem(sys.modules, "instruction_following_eval", package)
    monkeypatch.setitem(sys.modules, package.__name__ + ".evaluation", evaluation)


async def test_ifeval_non_answer_counts_every_instruction_of_its_prompt(
    instruction_following_eval,
):
    from inspect_evals.ifeval.ifeval import if_metric, instruction_following

    scorer = instruction_following()
    metadata = {
        "prompt": "Write three lines.",
        "instruction_id_list": ["a:one", "b:two", "c:three"],
        "kwargs": {0: {}, 1: {}, 2: {}},
    }
    answered = await scorer(state_with(answer("One\nTwo"), **metadata), Target(""))
    silent = await scorer(
        state_with(provider_output(EMPTY).output, **metadata), Target("")
    )

    assert silent.value["num_instructions"] == 3
    assert silent.reason == "no_response"
    result = if_metric()([SampleScore(score=answered), SampleScore(score=silent)])
    # 2 of 3 instructions followed in the answer, none of 3 in the silence
    assert result["inst_strict_acc"] == pytest.approx(2 / 6)


async def test_stereoset_verdicts_keep_the_sample_metadata():
    from inspect_evals.stereoset.stereoset import (
        multiple_choice_scorer,
        stereoset_scorer,
    )

    metadata = {"gold_labels": ["stereotype", "anti-stereotype", "unrelated"]}
    for scorer in (stereoset_scorer(), multiple_choice_scorer()):
        state = TaskState(
            model=ModelName("mockllm/model"),
            sample_id=1,
            epoch=0,
            input="Context",
            messages=[],
            output=provider_output(REFUSED).output,
            metadata=dict(metadata),
        )
        score = await scorer(state, Target(["A", "B"]))
        assert score.metadata["gold_labels"] == metadata["gold_labels"]
        assert score.metadata["empty_outcome"] == "refused"


async def test_writingbench_no_answer_stays_on_the_judges_scale():
    from inspect_evals.writingbench.writingbench import multi_scorer_wrapper

    grader = RecordingGrader('{"score": 7}')
    scorer = multi_scorer_wrapper(judge_model=grader.model)

    score = await scorer(state_with(provider_output(EMPTY).output), Target(""))

    assert score.value == 1.0
    assert score.reason == "no_response"
    assert grader.prompts == []


def _dimension(kind: type, name: str):
    fields = {"name": name, "guiding_question": "Does it?", "indicators": "..."}
    if "weight" in kind.model_fields:
        fields |= {"weight": 1.0, "scoring_description": "..."}
    return kind(**fields)


@pytest.mark.parametrize("eval_name", ["anima", "moru"])
async def test_dimension_verdicts_reduce_beside_answered_epochs(eval_name):
    import importlib
    import json

    scorers = importlib.import_module(f"inspect_evals.{eval_name}.scorer")
    types_module = importlib.import_module(f"inspect_evals.{eval_name}.types")
    kind = next(
        getattr(types_module, n) for n in dir(types_module) if n.endswith("Dimension")
    )
    dimensions = {n: _dimension(kind, n) for n in ("harm", "care", "unused")}
    grader = RecordingGrader()
    factory = getattr(scorers, f"{eval_name}_scorer")
    scorer = factory(dimensions=dimensions, grader_models=[grader.model])
    target = Target(json.dumps({"tags": ["harm", "care"], "variables": {}}))

    silent = await scorer(state_with(provider_output(EMPTY).output), target)

    assert silent.value == {"overall": 0.0, "harm": 0.0, "care": 0.0}
    assert grader.prompts == []
    answered = Score(value={"overall": 0.5, "harm": 1.0, "care": 0.0})
    # the task's five epochs: inspect's dict reducer needs the same keys in each
    reduced = mean_score()([silent, answered, answered, answered, answered])
    assert reduced.value["harm"] == pytest.approx(0.8)


async def test_niah_verdicts_carry_the_grid_its_metric_groups_by():
    from inspect_evals.niah.utils.scoring import (
        custom_model_graded_qa_with_history_scorer,
        subset_accuracy_combinations,
    )

    grader = RecordingGrader("10")
    scorer = custom_model_graded_qa_with_history_scorer(
        include_history=lambda state: "", judge_model=grader.model
    )
    grid = {"target_context_length": 1000, "target_position": 50}

    silent = await scorer(
        state_with(provider_output(REFUSED).output, **grid), Target("")
    )

    assert silent.value == 1.0, "the judge's lowest grade, on its 1-10 scale"
    assert grader.prompts == []
    answered = Score(value=10.0, metadata=grid)
    result = subset_accuracy_combinations()(
        [SampleScore(score=silent), SampleScore(score=answered)]
    )
    assert result["target_context_length_1000_accuracy"] == pytest.approx(5.5)
