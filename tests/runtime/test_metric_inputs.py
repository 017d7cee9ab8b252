"""Routed samples land in the metadata subset their metric puts them in today.

The subset eval (`tests.metric_evals`) is written into a tree, scanned for the
sample metadata its metric reads from the scores, and then loaded and run
with inspect_ai: the eval's own scorer alone, and wrapped in the router with
the ``copy_metadata`` the scan derived. Its metric, accuracy on the samples
where ``score.metadata["human_solvable"]`` is true, must count each non-answer
in the same subset as before; without the derived keys it would not.
"""

import importlib.util
from types import ModuleType

import pytest
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import SampleScore, Scorer, Target

from empty_migrate.analysis.metrics import read_metrics
from empty_migrate.analysis.workspace import Workspace
from empty_migrate.runtime.probe import task_state
from empty_migrate.runtime.router import Outcome, route_empty_responses
from tests.metric_evals import SUBSET_FILE, SUBSET_PACKAGE, write_subset_eval
from tests.outcomes import OUTCOME_EXAMPLES

pytestmark = pytest.mark.inspect_versions

TARGET = "4"
SAMPLES = [
    # (the model's output, human_solvable, difficulty)
    (lambda: ModelOutput.from_content("mockllm/model", "4"), True, "easy"),
    (lambda: ModelOutput.from_content("mockllm/model", "3"), True, "hard"),
    (lambda: ModelOutput.from_content("mockllm/model", "5"), False, "hard"),
    (OUTCOME_EXAMPLES[Outcome.EMPTY], True, "easy"),
    (OUTCOME_EXAMPLES[Outcome.REFUSED], True, "hard"),
    (OUTCOME_EXAMPLES[Outcome.REASONING_ONLY], False, "easy"),
]


@pytest.fixture(scope="module")
def subset_eval(tmp_path_factory) -> tuple[ModuleType, list[str]]:
    """The subset eval's module, loaded, and the copy_metadata the scan derives."""
    repo = tmp_path_factory.mktemp("tree")
    path = write_subset_eval(repo)
    report = read_metrics(Workspace(repo), SUBSET_PACKAGE)
    needs = report.metadata_needs((SUBSET_FILE, "solvable_match"), True, [None])
    derived = [need.key for need in needs if need.copied_from]
    spec = importlib.util.spec_from_file_location("subset_eval_scorer", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, derived


async def sample_scores(scorer: Scorer) -> list[SampleScore]:
    found = []
    for i, (output, solvable, difficulty) in enumerate(SAMPLES):
        metadata = {"human_solvable": solvable, "difficulty": difficulty}
        state = task_state(output(), metadata=metadata, target=TARGET)
        score = await scorer(state, Target(TARGET))
        found.append(SampleScore(score=score, sample_id=i, sample_metadata=metadata))
    return found


def in_subset(scores: list[SampleScore]) -> list[int]:
    """Which scores the metric counts: those whose metadata says human_solvable."""
    return [int(bool((s.score.metadata or {}).get("human_solvable"))) for s in scores]


async def test_the_scan_derives_the_key_and_routed_samples_keep_their_subset(
    subset_eval,
):
    module, derived = subset_eval
    assert derived == ["human_solvable"]
    subset_accuracy = module.human_solvable_accuracy()

    before = await sample_scores(module.solvable_match())
    routed = route_empty_responses(
        module.solvable_match(), category="qa", copy_metadata=derived
    )
    after = await sample_scores(routed)

    assert [s.score.metadata.get("empty_outcome") for s in after] == [
        None,
        None,
        None,
        "empty",
        "refused",
        "reasoning_only",
    ]
    assert in_subset(after) == in_subset(before) == [1, 1, 0, 1, 1, 0]
    # 1 right of the 4 human-solvable samples, two of them non-answers
    assert subset_accuracy(before) == subset_accuracy(after) == 0.25


async def test_without_the_derived_keys_routed_samples_leave_the_subset(
    subset_eval,
):
    module, _ = subset_eval
    subset_accuracy = module.human_solvable_accuracy()
    routed = route_empty_responses(module.solvable_match(), category="qa")
    after = await sample_scores(routed)
    # the two routed human-solvable samples drop out: 1 right of 2
    assert in_subset(after) == [1, 1, 0, 0, 0, 0]
    assert subset_accuracy(after) == 0.5


async def test_grouped_reads_the_sample_metadata_with_or_without_the_keys(
    subset_eval,
):
    from inspect_ai.scorer import accuracy, grouped

    module, _ = subset_eval
    by_difficulty = grouped(accuracy(), "difficulty")
    before = await sample_scores(module.solvable_match())
    routed = route_empty_responses(module.solvable_match(), category="qa")
    assert by_difficulty(await sample_scores(routed)) == by_difficulty(before)
