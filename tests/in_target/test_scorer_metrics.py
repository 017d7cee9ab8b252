"""Every routed scorer's own metrics accept its routed verdicts beside answers.

The task-level check (test_metric_check.py) needs the task's dataset; this one
needs only the scorer. Each routed scorer that can be built offline, as its
eval's code builds it, scores answered outputs alone, and then every kind of
non-answer in a first epoch with an answer in the second, through its own
metrics and the mean epoch reducer. Where its metrics work on the answers,
the verdicts must not break them: the run finishes with metrics, the
non-answer epochs end as MIGRATION.md says (a router verdict, an unscored
score, or the router's own error), and nothing else raises.

A scorer that cannot score answers offline (it reads sample metadata this
check cannot invent, or a judge it cannot reach) is skipped with the reason.
"""

import pytest

from empty_migrate.entries.output_locations import seen_through
from empty_migrate.runtime.policy import Outcome, Route
from empty_migrate.testing.offline import network_closed
from empty_migrate.testing.provider_outputs import PROVIDER_OUTPUTS, provider_output
from tests.in_target.constructs import (
    ROUTERS_OWN_ERRORS,
    build_scorer,
    check_routed_score,
    is_nan,
    output_location,
    route_of,
    routed_constructs,
    routed_evals,
    run_scripted,
)

ANSWER = "openai_chat_answer"
NON_ANSWERS = {
    fixture.expected: fixture.name
    for fixture in reversed(PROVIDER_OUTPUTS)
    if fixture.expected != Outcome.ANSWERED
}


@pytest.mark.parametrize(
    ("eval_name", "construct"),
    routed_constructs(),
    ids=lambda v: v if isinstance(v, str) else v.name,
)
def test_verdicts_pass_through_the_scorers_own_metrics(eval_name, construct, tmp_path):
    with network_closed():
        scorer = build_scorer(construct)
        if isinstance(scorer, str):
            pytest.skip(f"{eval_name}/{construct.name}: {scorer}")
        entry = dict(routed_evals())[eval_name]
        output_at = output_location(entry, construct)
        answers = run_scripted(scorer, {ANSWER: [ANSWER]}, tmp_path, output_at)
        if problem := _untestable(answers):
            pytest.skip(f"{eval_name}/{construct.name}: {problem}")

        script = {str(o): [name, ANSWER] for o, name in NON_ANSWERS.items()}
        log = run_scripted(scorer, script, tmp_path, output_at)

    assert log.status == "success", log.error
    assert log.results and log.results.scores, "no metrics were computed"
    for sample in log.samples:
        # where the eval keeps less than the provider gave (an assistant
        # message, text), the router routes what it sees there
        fixture = provider_output(NON_ANSWERS[Outcome(sample.id)]).output
        outcome = seen_through(fixture, output_at)
        expected = route_of(entry, None, construct, outcome)
        where = f"{sample.id} epoch {sample.epoch}"
        if sample.error is not None:
            raised = sample.error.message
            assert sample.epoch == 1 and expected == Route.RAISE, (where, raised)
            assert raised.startswith(ROUTERS_OWN_ERRORS), (where, raised)
            continue
        assert expected != Route.RAISE or sample.epoch == 2, f"{where} should raise"
        if sample.epoch == 1:
            for score in (sample.scores or {}).values():
                check_routed_score(score, expected, outcome, where)


def _untestable(log) -> str | None:
    """Why the scorer's metrics cannot be tested offline, if they cannot."""
    if log.status != "success":
        return f"its metrics fail on answers alone: {_short(log.error)}"
    if not any(scorer.metrics for scorer in log.eval.scorers or []):
        # hle's judges, built from its run configs, which name their metrics
        return "it declares no metrics of its own (its run config names them)"
    if error := next((s.error for s in log.samples if s.error), None):
        return f"it cannot score an answer offline: {_short(error.message)}"
    values = [v.value for s in log.samples for v in (s.scores or {}).values()]
    if all(is_nan(value) for value in values):
        return "it leaves an answer unscored offline, so its metrics never run"
    return None


def _short(error: object) -> str:
    message = getattr(error, "message", error)
    return " ".join(str(message).split())[:160]
