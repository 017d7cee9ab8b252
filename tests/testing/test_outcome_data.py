"""The committed outcome data is what the fixture library and the router give today."""

from empty_migrate.entries.outcome_data import DATA, location_shape, seen_at
from empty_migrate.testing.provider_outputs.regenerate import generate, render


def test_the_committed_data_is_current():
    expected = render(generate())
    assert DATA.read_text(encoding="utf-8") == expected, (
        "outcome_data.json is stale: run "
        "`python -m empty_migrate.testing.provider_outputs.regenerate` "
        "and review the diff"
    )


def test_locations_are_read_by_their_shape():
    assert location_shape("store:mut_output") == "store:KEY"
    assert location_shape("metadata:a,b,c") == "metadata:KEY,KEY"
    assert location_shape("last_assistant") == "last_assistant"
    # an assistant message keeps no stop reason: a length cut reads as reasoning
    assert seen_at("truncated", "last_assistant") == "reasoning_only"
    assert seen_at("truncated", "store:whatever") == "truncated"
    assert seen_at("filtered", "state.output") == "filtered"
