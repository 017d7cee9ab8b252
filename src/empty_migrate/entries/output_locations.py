"""Where an eval keeps the model's output, and what the router can see there.

A registry ``output`` location (``state.output``, an assistant message, a store
or metadata key) names one of the router's locators. Some locations keep less
than the provider gave: an assistant message drops the stop reason, and a
completion kept as text drops everything but the words. `observable` says
which outcome classes still reach the router through a location, so the tests
and the changelog the migration writes claim only what the eval can see.
"""

from typing import TYPE_CHECKING

from empty_migrate.entries.outcome_data import seen_at
from empty_migrate.entries.schema import output_locator
from empty_migrate.runtime.policy import Outcome

if TYPE_CHECKING:  # imported where used: inspect_ai is slow to import
    from inspect_ai.model import ModelOutput

    from empty_migrate.runtime.router import OutputLocator


def locator(output: str) -> "OutputLocator":
    """The router's `OutputLocator` for a registry ``output`` location."""
    # imported here: inspect_ai is slow to import, and the codemods that ask
    # only `observable` of ``state.output`` evals never need it
    from empty_migrate.runtime import router

    if (found := output_locator(output)) is None:
        return router.state_output
    function, keys = found
    # the locator, or for a keyed location its factory, looked up by name
    named = getattr(router, function)
    located: OutputLocator = named if keys is None else named(*keys)
    return located


def observable(outcome: Outcome, output: str) -> bool:
    """Whether the router still sees `outcome` where the eval keeps its output.

    Decided by placing the outcome's provider fixture where the eval keeps it
    (`probe.task_state`) and classifying what the locator finds there
    (`seen_through`, recorded in `empty_migrate.entries.outcome_data`).
    """
    return seen_as(outcome, output) == outcome


def seen_as(outcome: Outcome, output: str) -> Outcome:
    """The outcome the router sees where the eval keeps its output.

    ``answered`` where the location keeps nothing the router can classify:
    then the scorer decides, as for an answer.
    """
    if output in ("state.output", "none"):
        return outcome
    # what the router sees of each outcome's fixture, at each kind of location,
    # is committed data: a migration needs neither inspect_ai nor the fixtures
    return Outcome(seen_at(str(outcome), output))


def seen_through(model_output: "ModelOutput", output: str) -> Outcome:
    """The outcome the router sees when `model_output` is kept at location `output`.

    The output is placed where the eval keeps it (`probe.place_output`) and what
    the location's locator finds there is classified; ``answered`` if it finds
    nothing (the scorer decides).
    """
    from empty_migrate.runtime import probe
    from empty_migrate.runtime.router import classify_outputs, located_outputs

    state = probe.task_state(model_output, output_at=output)
    outputs = located_outputs(locator(output)(state))
    return classify_outputs(outputs).outcome if outputs else Outcome.ANSWERED
