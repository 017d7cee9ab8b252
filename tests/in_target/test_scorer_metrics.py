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

import math

import pytest

from empty_migrate.policy import Outcome, Route, route_for
from empty_migrate.registry.schema import resolve
from empty_migrate.testing.offline import network_closed
from empty_migrate.testing.provider_outputs import PROVIDER_OUTPUTS

from .constructs import build_scorer, routed_constructs, routed_evals, run_scripted

ANSWER = "openai_chat_answer"
NON_ANSWERS = {
    fixture.expected: fixture.name
    for fixture in reversed(PROVIDER_OUTPUTS)
    if fixture.expected != Outcome.ANSWERED
}
ROUTERS_OWN = ("ContextOverflowError(", "EmptyResponseError(")


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
        answers = run_scripted(scorer, {ANSWER: [ANSWER]}, tmp_path)
        if problem := _untestable(answers):
            pytest.skip(f"{eval_name}/{construct.name}: {problem}")

        script = {str(o): [name, ANSWER] for o, name in NON_ANSWERS.items()}
        log = run_scripted(scorer, script, tmp_path)

    assert log.status == "success", log.error
    assert log.results and log.results.scores, "no metrics were computed"
    route = _route(eval_name, construct)
    for sample in log.samples:
        outcome = Outcome(sample.id)
        expected = route(outcome)
        where = f"{sample.id} epoch {sample.epoch}"
        if sample.error is not None:
            raised = sample.error.message
            assert sample.epoch == 1 and expected == Route.RAISE, (where, raised)
            assert raised.startswith(ROUTERS_OWN), (where, raised)
            continue
        assert expected != Route.RAISE or sample.epoch == 2, f"{where} should raise"
        if sample.epoch == 1:
            for score in (sample.scores or {}).values():
                _check(score, expected, outcome, where)


def _check(score, route: Route, outcome: Outcome, where: str) -> None:
    if route == Route.UNSCORED:
        assert _is_nan(score.value), (where, score.value)
    elif route in (Route.NO_ANSWER, Route.REFUSAL_VERDICT):
        assert (score.metadata or {}).get("empty_outcome") == outcome, where
        assert not _is_nan(score.value), (where, score.value)


def _route(eval_name: str, construct):
    entry = dict(routed_evals())[eval_name]
    tasks = construct.tasks or list(entry.tasks) or [None]
    settings = resolve(entry, tasks[0], construct)
    overrides = {o.outcome: o.route for o in settings.overrides}
    return lambda outcome: route_for(settings.category, outcome, overrides)


def _untestable(log) -> str | None:
    """Why the scorer's metrics cannot be tested offline, if they cannot."""
    if log.status != "success":
        return f"its metrics fail on answers alone: {_short(log.error)}"
    if error := next((s.error for s in log.samples if s.error), None):
        return f"it cannot score an answer offline: {_short(error.message)}"
    values = [v.value for s in log.samples for v in (s.scores or {}).values()]
    if all(_is_nan(value) for value in values):
        return "it leaves an answer unscored offline, so its metrics never run"
    return None


def _short(error: object) -> str:
    message = getattr(error, "message", error)
    return " ".join(str(message).split())[:160]


def _is_nan(value) -> bool:
    return isinstance(value, float) and math.isnan(value)
