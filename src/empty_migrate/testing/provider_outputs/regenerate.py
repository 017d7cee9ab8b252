"""Write ``outcome_data.json`` from the fixture library and the router.

Run ``python -m empty_migrate.testing.provider_outputs.regenerate`` after
changing the fixture library (`provider_outputs.OUTCOME_EXAMPLES`), the
probe's placing of an output, or the router's classification; review the diff
of the JSON file.
"""

import json
import sys
from typing import Any

from empty_migrate.entries.outcome_data import DATA
from empty_migrate.entries.output_locations import seen_through
from empty_migrate.testing.provider_outputs import OUTCOME_EXAMPLES, provider_output

SHAPES = (
    "last_assistant",
    "first_assistant",
    "every_assistant",
    "store:KEY",
    "store:KEY,KEY",
    "metadata:KEY",
    "metadata:KEY,KEY",
    "completions:KEY",
)
"""Every kind of output location other than ``state.output`` and ``none``."""

_MESSAGE_IDS = {"choices": {"__all__": {"message": {"id"}}}}


def serialised(fixture: str) -> dict[str, Any]:
    """A fixture library output as JSON-shaped data, without its random message id."""
    output = provider_output(fixture).output
    dump: dict[str, Any] = output.model_dump(
        mode="json", exclude_none=True, exclude=_MESSAGE_IDS
    )
    return dump


def generate() -> dict[str, Any]:
    """The data `outcome_data` reads, computed from the fixture library and router."""
    return {
        "outcomes": {
            str(outcome): {"fixture": fixture, "output": serialised(fixture)}
            for outcome, fixture in OUTCOME_EXAMPLES.items()
        },
        "seen": {
            shape: {
                str(outcome): str(seen_through(provider_output(fixture).output, shape))
                for outcome, fixture in OUTCOME_EXAMPLES.items()
            }
            for shape in SHAPES
        },
    }


def render(data: dict[str, Any]) -> str:
    """The JSON text of the data file."""
    return json.dumps(data, indent=1) + "\n"


def main() -> None:
    """Write the data file and say where."""
    DATA.write_text(render(generate()), encoding="utf-8")
    print(f"wrote {DATA}", file=sys.stderr)


if __name__ == "__main__":
    main()
