"""Every migrated task that builds offline survives its own metrics and reducers.

For each task whose scorers the migration routes, the real task is built (its
own dataset, solver, scorer, metrics and epoch reducer) with the network
closed, and run by eval() on its first sample for three epochs: a non-answer in
the first epoch, an answer in the second, the non-answer again in the third.
This is done once for every kind of non-answer. Nothing may raise but the
router's own errors, the run must finish with metrics, and each non-answer must
be counted as MIGRATION.md says: a verdict or an unscored score from the
router, a sample error for the raising routes, or the scorer's own score.

A task that cannot be built offline (a dataset to download, an optional
dependency, a sandbox to start) is skipped with the reason, so ``-rs`` lists
them all.
"""

import signal
from functools import cache

import pytest
from inspect_ai import Epochs, Task
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelOutput

from empty_migrate.registry.loader import load_registry
from empty_migrate.runtime.policy import Outcome, Route
from empty_migrate.runtime.router import classify
from empty_migrate.testing.models import RecordingGrader, scripted_model
from empty_migrate.testing.offline import network_closed
from empty_migrate.testing.provider_outputs import PROVIDER_OUTPUTS
from tests.in_target.constructs import (
    ROUTERS_OWN_ERRORS,
    check_routed_score,
    is_routed,
    route_of,
    routed_evals,
)

NON_ANSWERS = {
    fixture.expected: fixture.name
    for fixture in reversed(PROVIDER_OUTPUTS)
    if fixture.expected not in (Outcome.ANSWERED, Outcome.NO_OUTPUT)
}
"""One provider-shaped output per kind of non-answer a model can return.

``no_output`` is not among them: generate() appends ``output.message``, which
an output with no choices does not have, so it never reaches a scorer through
a task's solver (the router's tests cover it).
"""

GRADER_REPLIES = {
    "persistbench": '{"score": 2, "rating": 2, "reasoning": "Uses memory well."}',
}
"""A judge reply in the eval's own format, where "GRADE: C" cannot be parsed."""

BUILD_SECONDS = 20


def migrated_tasks() -> list[tuple[str, str]]:
    """(eval, task) for every task whose scorers the migration routes."""
    return [
        (name, task)
        for name, entry in routed_evals()
        for task in entry.tasks
        if any(is_routed(entry, task, scorer) for scorer in entry.scorers)
    ]


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so eval code cannot swallow it."""


@pytest.fixture
def offline():
    """No network and no waiting: a download fails at once, retries do not sleep."""
    with network_closed():
        yield


@cache
def _registry_loaded() -> None:
    import inspect_evals._registry  # noqa: F401  (registers every task)


def build(task_name: str) -> Task:
    """The task as its eval defines it, or a skip saying why it cannot be built."""
    task = _built(task_name)
    if isinstance(task, str):
        pytest.skip(task)
    return task


@cache
def _built(task_name: str) -> Task | str:
    """The task, or why it cannot be built offline (built once per run)."""
    from inspect_ai._util.registry import registry_create

    _registry_loaded()

    def alarm(signum, frame):
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(BUILD_SECONDS)
    try:
        task = registry_create("task", task_name)
    except _Timeout:
        return f"{task_name}: not built in {BUILD_SECONDS} s offline"
    except Exception as error:  # any failure to build is a reason to list
        return f"{task_name}: cannot be built offline: {_reason(error)}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    if len(task.dataset) == 0:
        return f"{task_name}: its dataset is empty offline"
    return task


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split())[:160]
    return f"{type(error).__name__}: {text}"


def answer_for(task: Task) -> ModelOutput:
    sample = next(iter(task.dataset))
    target = sample.target if isinstance(sample.target, str) else sample.target[0]
    return ModelOutput.from_content("mockllm/model", target or "An answer.")


def run_epochs(task: Task, outputs: list[ModelOutput], grade: str, log_dir) -> EvalLog:
    from inspect_ai import eval
    from inspect_ai._util.error import PrerequisiteError

    grader = RecordingGrader(grade)
    epochs = Epochs(len(outputs), task.epochs_reducer)
    try:
        [log] = eval(
            task,
            model=scripted_model(outputs, then=outputs[1]),
            model_roles={"grader": grader.model},
            epochs=epochs,
            limit=1,
            max_samples=1,
            fail_on_error=False,
            display="none",
            log_dir=str(log_dir),
        )
    except PrerequisiteError as error:
        pytest.skip(f"{task.name}: cannot run offline: {_reason(error)}")
    return log


@pytest.mark.parametrize(("eval_name", "task_name"), migrated_tasks())
@pytest.mark.parametrize("outcome", list(NON_ANSWERS), ids=str)
def test_non_answers_survive_the_tasks_metrics(
    eval_name, task_name, outcome, offline, tmp_path
):
    from empty_migrate.testing.provider_outputs import provider_output

    task = build(task_name)
    silence = provider_output(NON_ANSWERS[outcome])
    outputs = [silence.output, answer_for(task), silence.output]

    grade = GRADER_REPLIES.get(eval_name, "GRADE: C")
    log = run_epochs(task, outputs, grade, tmp_path)

    assert log.status == "success", log.error
    for sample in log.samples:
        # the solver may have turned the scripted output into another (a tool
        # loop answers a call): route what the sample ended with
        found = classify(sample.output)
        route = _route(eval_name, task_name, sample, found)
        if sample.error is None:
            assert route != Route.RAISE, f"epoch {sample.epoch}: {found} should raise"
            for name, score in (sample.scores or {}).items():
                check_routed_score(score, route, found, f"{name} epoch {sample.epoch}")
        elif sample.error.message.startswith(ROUTERS_OWN_ERRORS):
            assert route == Route.RAISE, (found, sample.error.message)
        elif route in (Route.SCORE, Route.SCORE_TAGGED):
            reason = " ".join(sample.error.message.split())[:160]
            pytest.skip(f"{task_name}: its scorer cannot run offline: {reason}")
        else:
            pytest.fail(f"epoch {sample.epoch} ({found}): {sample.error.message}")
    assert log.results and log.results.scores, "no metrics were computed"


def _route(eval_name: str, task_name: str, sample, outcome: Outcome) -> Route:
    entry = load_registry().get(eval_name)
    tools = any(m.role == "tool" for m in sample.messages)
    routes = {
        route_of(entry, task_name, scorer, outcome, tools)
        for scorer in entry.scorers
        if is_routed(entry, task_name, scorer)
    }
    if len(routes) != 1:
        pytest.skip(f"{task_name}: its scorers route {outcome} differently: {routes}")
    return routes.pop()
