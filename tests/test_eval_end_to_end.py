"""A real inspect_ai.eval() run: the worked example of Inspect's scoring policy.

One correct answer, one incorrect answer, one machinery failure (the prompt
overflows the context: raise) and one instrument failure (a platform content
filter on a fixed prompt: unscored) give accuracy 1/2, with two scored samples,
one unscored sample and one sample error.
"""

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import includes

from empty_migrate.router import route_empty_responses
from empty_migrate.testing.models import scripted_model

from .conftest import OUTCOME_EXAMPLES


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
