"""The scorers the migration routes, built as their evals' code builds them.

Shared by the checks that run inside the target's environment: the answered
outputs scored on both trees (score_answers.py) and the metric check of every
routed scorer (test_scorer_metrics.py).
"""

import re
from pathlib import Path
from typing import Any

from inspect_ai import Epochs, Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.scorer import Scorer
from inspect_ai.solver import Generate, TaskState, solver

from empty_migrate.codemods import DECLARATIONS
from empty_migrate.entries.schema import resolve
from empty_migrate.registry.loader import load_registry
from empty_migrate.runtime import probe
from empty_migrate.runtime.policy import Outcome, Route, route_for
from empty_migrate.runtime.probe import is_nan
from empty_migrate.testing.models import RecordingGrader, scripted_model
from empty_migrate.testing.provider_outputs import provider_output

ROUTING_CODEMODS = {d.name for d in DECLARATIONS if d.routes}
QUESTION = "What is the capital of France?"
CHOICES = ["Paris", "London", "Berlin", "Madrid"]
"""One synthetic sample, with choices for the multiple-choice scorers."""


def routed_evals() -> list[tuple[str, Any]]:
    """(eval, registry entry) for every eval whose scoring the migration routes."""
    return [
        (name, entry)
        for name, entry in sorted(load_registry().evals.items())
        if isinstance(entry.codemods, list) and set(entry.codemods) & ROUTING_CODEMODS
    ]


def is_routed(entry: Any, task: str | None, scorer: Any) -> bool:
    """Whether the migration routes this scorer construct in this task."""
    if task is not None and scorer.tasks is not None and task not in scorer.tasks:
        return False
    task = task or (scorer.tasks or list(entry.tasks) or [None])[0]
    return scorer.rewrite and resolve(entry, task, scorer).output != "none"


def routed_constructs() -> list[tuple[str, Any]]:
    """(eval, scorer entry) for every construct the migration routes."""
    return [
        (name, scorer)
        for name, entry in routed_evals()
        for scorer in entry.scorers
        if is_routed(entry, None, scorer)
    ]


def build_scorer(entry: Any) -> Scorer | list[Scorer] | str:
    """The scorer as the eval's code builds it by default, or why it cannot be."""
    try:
        return probe.build_scorer(entry.module, entry.name, entry.construct)
    except ValueError as error:
        return str(error)
    except Exception as error:  # a scorer that cannot be built offline
        return f"cannot be built: {type(error).__name__}: {short(error)}"


def short(error: object) -> str:
    # the same error names the same file at another path in each tree
    import inspect_evals

    tree = str(Path(inspect_evals.__file__).parents[2])
    text = _ADDRESS.sub(" at 0x…", str(error).replace(tree, "<tree>"))
    return " ".join(text.split())[:200]


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


@solver
def scripted_outputs(script: dict[str, list[str]], output_at: str = "state.output"):
    """Give each sample the fixture its script names for its epoch, where the eval
    keeps its output (`probe.place_output`)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        output = provider_output(script[str(state.sample_id)][state.epoch - 1]).output
        probe.place_output(state, output, output_at)
        return state

    return solve


def run_scripted(
    scorer: Scorer | list[Scorer],
    script: dict[str, list[str]],
    log_dir: Path,
    output_at: str = "state.output",
) -> EvalLog:
    """One offline eval(): sample id -> the fixture it answers in each epoch.

    Any judge is a scripted ``mockllm`` model; the mean reducer combines epochs.
    The fixture goes where the eval keeps its output (`output_at`).
    """
    epochs = max(len(fixtures) for fixtures in script.values())
    dataset = [
        Sample(id=sample, input=QUESTION, choices=CHOICES, target="A")
        for sample in script
    ]
    solver = scripted_outputs(script, output_at)
    task = Task(dataset=dataset, solver=solver, scorer=scorer)
    [log] = eval(
        task,
        model=scripted_model([]),
        model_roles={"grader": RecordingGrader("GRADE: C").model},
        epochs=Epochs(epochs, "mean"),
        fail_on_error=False,
        display="none",
        log_dir=str(log_dir),
        max_samples=1,
    )
    return log


def route_of(
    entry: Any, task: str | None, scorer: Any, outcome: Outcome, tools: bool = False
) -> Route:
    """The route the registry's settings give one outcome of one scorer."""
    task = task or (scorer.tasks or list(entry.tasks) or [None])[0]
    settings = resolve(entry, task, scorer)
    overrides = {o.outcome: o.route for o in settings.overrides}
    return route_for(settings.category, outcome, overrides, after_trajectory=tools)


def output_location(entry: Any, scorer: Any) -> str:
    """Where the eval keeps the model's output for this scorer construct."""
    task = (scorer.tasks or list(entry.tasks) or [None])[0]
    return resolve(entry, task, scorer).output


ROUTERS_OWN_ERRORS = ("ContextOverflowError(", "EmptyResponseError(")


def check_routed_score(score: Any, route: Route, outcome: Outcome, where: str) -> None:
    """A score the router wrote is what MIGRATION.md says for its route."""
    if route == Route.UNSCORED:
        assert is_nan(score.value), (where, score.value)
    elif route in (Route.NO_ANSWER, Route.REFUSAL_VERDICT):
        assert (score.metadata or {}).get("empty_outcome") == outcome, where
        assert not is_nan(score.value), (where, score.value)
