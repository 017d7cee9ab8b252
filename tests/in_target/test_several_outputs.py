"""Evals whose model answers more than once are routed by all of their answers.

sycophancy is decided by its first answer; mask by every stored response;
scicode by every subproblem's answer; novelty_bench by every forked generation.
A sample is a non-answer only when the deciding outputs all are; otherwise the
eval's own scorer (and its judges) decide, as before the migration.
"""

import importlib

import pytest
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ModelOutput

from empty_migrate.runtime.probe import (
    Scored,
    recording_judge,
    score_output,
    task_state,
)
from empty_migrate.testing.provider_outputs import provider_output

EMPTY = "openai_chat_whitespace_only"
REFUSED = "openai_chat_refusal_field"
ROUTER_ERRORS = {"NonAnswerError", "EmptyResponseError", "ContextOverflowError"}


def answer(text: str) -> ModelOutput:
    return ModelOutput.from_content("mockllm/model", text)


def dialogue(first: ModelOutput, second: ModelOutput):
    """A sycophancy sample: an answer, "are you sure?", and the reply."""
    state = task_state(first, choices=["Paris", "Lyon"])
    state.messages += [ChatMessageUser(content="Are you sure?"), second.message]
    state.output = second
    return state


async def test_sycophancy_non_answer_first_gets_the_verdict_without_a_judge():
    from inspect_evals.sycophancy.scorers import sycophancy_scorer

    with recording_judge("inspect_evals.sycophancy", reply="Y") as judge:
        scorer = sycophancy_scorer(scorer_model="mockllm/model")
        state = dialogue(provider_output(REFUSED).output, answer("Yes, Paris."))
        scored = await score_output(scorer, state, judge)

    assert scored.raised is None
    assert scored.score.value["original_answer"] == "N"
    assert scored.score.reason == "refusal"
    assert scored.judge_calls == 0


async def test_sycophancy_silent_reply_keeps_the_graded_first_answer():
    from inspect_evals.sycophancy.scorers import sycophancy_scorer

    with recording_judge("inspect_evals.sycophancy", reply="N") as judge:
        scorer = sycophancy_scorer(scorer_model="mockllm/model")
        state = dialogue(answer("Paris"), provider_output(EMPTY).output)
        scored = await score_output(scorer, state, judge)

    assert scored.score.value["original_answer"] == "C"
    assert "empty_outcome" not in (scored.score.metadata or {})
    assert scored.judge_calls == 1, "the admit_mistake judge reads the dialogue"


MASK_KEYS = [
    "pressured_responses",
    "belief_elicit_1_responses",
    "belief_elicit_2_and_3_responses",
]


def mask_state(*responses: ModelOutput):
    # the solvers never set state.output (mask/solver.py:53-64)
    state = task_state(ModelOutput(model="mockllm/model"))
    for key, response in zip(MASK_KEYS, responses, strict=True):
        state.store.set(key, [response.model_dump(), response.model_dump()])
    return state


@pytest.fixture
def mask_scorer(monkeypatch):
    # the package exports a function of the module's name, so import the module
    module = importlib.import_module("inspect_evals.mask.mask")
    monkeypatch.setattr(
        module, "get_mask_dataset", lambda archetype: MemoryDataset([Sample(input="q")])
    )
    [scorer] = module.mask().scorer
    return scorer


async def test_mask_every_response_silent_gets_the_eval_own_non_answer_classes(
    mask_scorer,
):
    empty = provider_output(EMPTY).output
    with recording_judge("inspect_evals.mask") as judge:
        scored = await score_output(mask_scorer, mask_state(empty, empty, empty), judge)

    assert scored.score.value == {
        "accuracy": "no-belief",
        "honesty": "evade",
        "honesty@n": "evade",
    }
    assert scored.judge_calls == 0


async def test_mask_with_answered_beliefs_goes_to_its_judges(mask_scorer):
    empty = provider_output(EMPTY).output
    belief = answer("I believe the statement is true.")
    with recording_judge("inspect_evals.mask") as judge:
        scored = await score_output(
            mask_scorer, mask_state(empty, belief, belief), judge
        )

    assert_the_scorer_decided(scored)


async def test_scicode_every_subproblem_silent_scores_each_step_unsolved():
    from inspect_evals.scicode.scorer import verify

    steps = [{"step_number": "7.1"}, {"step_number": "7.2"}]
    state = task_state(provider_output(EMPTY).output, metadata={"sub_steps": steps})
    state.messages += [ChatMessageUser(content="next"), answer("").message]
    with recording_judge("inspect_evals.scicode") as judge:
        scored = await score_output(verify(timeout=10), state, judge)

    assert scored.score.value == {"7.1": 0.0, "7.2": 0.0}
    assert scored.score.reason == "no_response"


async def test_scicode_one_answered_subproblem_goes_to_its_scorer():
    from inspect_evals.scicode.scorer import verify

    steps = [{"step_number": "7.1"}, {"step_number": "7.2"}]
    state = task_state(provider_output(EMPTY).output, metadata={"sub_steps": steps})
    state.messages += [ChatMessageUser(content="next"), answer("def f(): ...").message]
    with recording_judge("inspect_evals.scicode") as judge:
        scored = await score_output(verify(timeout=10), state, judge)

    assert_the_scorer_decided(scored)


async def test_novelty_bench_every_generation_silent_gets_its_own_empty_value():
    from inspect_evals.novelty_bench.novelty_bench import novelty_bench_scorer

    state = task_state(provider_output(EMPTY).output)
    state.metadata["all_completions"] = ["", "  ", "\n"]
    with recording_judge("inspect_evals.novelty_bench") as judge:
        scored = await score_output(novelty_bench_scorer(), state, judge)

    assert scored.score.value == {"distinct_k": 0, "utility_k": 0.0}
    assert scored.score.reason == "no_response"


def assert_the_scorer_decided(scored: Scored) -> None:
    """An answer reached the eval's scorer: its score, unmarked, or its own error."""
    if scored.raised is not None:
        # the installed router's errors, by name: its module is the target's
        assert type(scored.raised).__name__ not in ROUTER_ERRORS, repr(scored.raised)
    else:
        assert scored.empty_outcome is None, scored.score
