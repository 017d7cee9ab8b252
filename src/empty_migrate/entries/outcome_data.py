"""The fixture library's outputs, as committed data: one per outcome class.

A migration writes one provider-shaped output per outcome class into the
target's test helpers, and says, for every place an eval keeps the model's
output, which outcome classes the router still sees there. Both come from the
fixture library and the router, which need inspect_ai; they are kept here as
JSON (``outcome_data.json``) so that a migration reads them without importing
either. ``python -m empty_migrate.testing.provider_outputs.regenerate``
writes the file again, and ``tests/testing/test_outcome_data.py`` fails when
it is stale.

Standard library only.
"""

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("outcome_data.json")

_KEYS = re.compile(r"^(store|metadata|completions):(\w+)(,\w+)*$")


def location_shape(output: str) -> str:
    """An output location with its keys named alike: ``store:KEY`` or ``store:KEY,KEY``.

    What the router sees at a location depends on its kind and on whether it
    holds one key or several, not on the keys' names.
    """
    match = _KEYS.match(output)
    if match is None:
        return output
    return f"{match.group(1)}:KEY" + (",KEY" if match.group(3) else "")


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def outcome_outputs() -> dict[str, dict[str, Any]]:
    """One output per outcome class (by its value), as ``ModelOutput.model_dump``.

    In the policy's order of outcome classes; each dump has no message id
    (drawn at random on every build) and no ``None`` field.
    """
    return {outcome: entry["output"] for outcome, entry in _data()["outcomes"].items()}


def outcome_fixtures() -> dict[str, str]:
    """The fixture library's name of each outcome class's output."""
    return {outcome: entry["fixture"] for outcome, entry in _data()["outcomes"].items()}


def seen_at(outcome: str, output: str) -> str:
    """The outcome class the router sees when `outcome`'s output is kept at `output`.

    ``answered`` where the location keeps nothing the router can classify
    (then the scorer decides). A location missing from the data is read as
    ``state.output``: the router sees the output itself.
    """
    return str(_data()["seen"].get(location_shape(output), {}).get(outcome, outcome))
