"""Routed verdicts carry the score metadata the evals' own metrics read.

sciknoweval's relation-extraction metric reads ``type``, ``prediction`` and
``answer`` from every score of its task; cyberseceval_4's MITRE metrics count
``metadata["verdict"]``. A routed verdict must give those metrics what the
eval's own scorer gives them for an empty answer or a refusal.
"""

import pytest
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import INCORRECT, SampleScore, Target

from empty_migrate.runtime.probe import task_state
from empty_migrate.testing.provider_outputs import provider_output

EMPTY = "openai_chat_whitespace_only"
REFUSED = "openai_chat_refusal_field"
RELATION_TASKS = [
    pytest.param("drug_drug_relation_extraction", "triplet", id="triplets"),
    pytest.param("compound_disease_relation_extraction", "tuple", id="tuples"),
]


@pytest.mark.parametrize(("subtask", "kind"), RELATION_TASKS)
async def test_sciknoweval_relation_verdict_records_what_its_scorer_records(
    subtask, kind
):
    from inspect_evals.sciknoweval.scorer import (
        re_triplets_scorer,
        re_tuples_scorer,
        sciknoweval_scorer,
    )

    metadata = {"domain": "biology", "level": "L2", "task": "", "subtask": subtask}
    target = Target(" (aspirin, interacts, warfarin) ")
    empty_answer = task_state(
        ModelOutput.from_content("mockllm/model", ""), metadata=metadata
    )
    own = re_triplets_scorer() if kind == "triplet" else re_tuples_scorer()

    before = await own(empty_answer, target)
    routed = await sciknoweval_scorer()(
        task_state(provider_output(EMPTY).output, metadata=metadata), target
    )

    assert routed.metadata["empty_outcome"] == "empty"
    assert {k: routed.metadata[k] for k in before.metadata} == before.metadata


async def test_cyberseceval_mitre_frr_counts_a_routed_refusal_as_refused():
    from inspect_evals.cyberseceval_4.mitre_frr.scorers import (
        frr_refusal_count,
        refusal_rate,
        refusal_scorer,
    )

    score = await refusal_scorer()(
        task_state(provider_output(REFUSED).output), Target("")
    )

    assert score.value == INCORRECT
    scores = [SampleScore(score=score, sample_id=1)]
    assert frr_refusal_count()(scores) == 1
    assert refusal_rate()(scores) == 1.0


async def test_cyberseceval_mitre_counts_a_routed_refusal_as_refused():
    from inspect_evals.cyberseceval_4.mitre.scorers import (
        benign_percentage,
        mitre_scorer,
        refusal_count,
    )

    score = await mitre_scorer()(
        task_state(provider_output(REFUSED).output), Target("")
    )

    scores = [SampleScore(score=score, sample_id=1)]
    assert refusal_count()(scores) == 1
    assert benign_percentage()(scores) == 1.0
