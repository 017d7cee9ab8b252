"""The judge of a model-graded scorer is called only for real answers."""

import pytest
from inspect_ai.scorer import CORRECT, NOANSWER, Target, model_graded_qa

from empty_migrate.runtime.probe import task_state
from empty_migrate.runtime.router import Outcome, route_empty_responses
from empty_migrate.testing.models import RecordingGrader
from tests.outcomes import OUTCOME_EXAMPLES

pytestmark = pytest.mark.inspect_versions

NOT_ANSWERS = [o for o in Outcome if o not in ("answered", "overflow", "no_output")]


@pytest.mark.parametrize("category", ["model_graded", "safety"])
@pytest.mark.parametrize("outcome", NOT_ANSWERS)
async def test_judge_not_called_on_a_non_answer(category, outcome):
    grader = RecordingGrader()
    routed = route_empty_responses(
        model_graded_qa(model=grader.model),
        category=category,
        refusal_verdict=NOANSWER,
    )
    result = await routed(task_state(OUTCOME_EXAMPLES[outcome]()), Target("Paris"))
    assert grader.prompts == []
    assert result.metadata["empty_outcome"] == outcome


async def test_judge_called_once_on_an_answer():
    grader = RecordingGrader()
    routed = route_empty_responses(
        model_graded_qa(model=grader.model), category="model_graded"
    )
    result = await routed(task_state(OUTCOME_EXAMPLES["answered"]()), Target("Paris"))
    assert len(grader.prompts) == 1
    assert "Paris" in grader.prompts[0]
    assert result.value == CORRECT
