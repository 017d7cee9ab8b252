"""The part of a sample that outcomes validates classifies as the whole sample.

`classified_part` leaves unread fields and events out of each streamed sample;
a field it stopped reading that a locator, the transcript replay or
`stopped_by` needs would change a row here, at one of the kinds of output
location or on one release's log shape.
"""

import copy
from pathlib import Path

import pytest
from inspect_ai.log import EvalSample

from empty_migrate.logs.outcomes import (
    classified_part,
    classify_sample,
    log_samples,
    read_header,
    read_log,
)

DATA = Path(__file__).parent / "data"
LOGS = sorted(p for p in DATA.glob("*/*") if p.suffix in {".eval", ".json"})
# every kind of registry location: the slot and transcript, the messages,
# the store (the sub-step runs keep their answers there) and the metadata
LOCATIONS = [
    "state.output",
    "last_assistant",
    "first_assistant",
    "every_assistant",
    "store:answers",
    "metadata:label",
]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_classified_part_gives_the_rows_of_the_whole_sample(path):
    whole = {(s.id, s.epoch): s for s in read_log(path).samples or []}
    header = read_header(path)
    parts = list(log_samples(header, classified_part))
    assert sorted((s.id, s.epoch) for s in parts) == sorted(whole)
    for part in parts:
        sample = whole[part.id, part.epoch]
        for location in LOCATIONS:
            assert classify_sample("log", header, part, location) == classify_sample(
                "log", header, sample, location
            ), (part.id, part.epoch, location)


def test_every_kind_of_location_finds_an_answer_somewhere():
    """Each location is read in some log, so the comparison above can fail."""
    path = DATA / "0.3.285"
    found = {location: 0 for location in LOCATIONS}
    for log in ("xstest_output_unset.eval", "xstest_agent.json", "xstest.eval"):
        header = read_header(path / log)
        for part in log_samples(header, classified_part):
            for location in LOCATIONS:
                if classify_sample(log, header, part, location) is not None:
                    found[location] += 1
    assert all(found.values()), found


def test_a_malformed_event_fails_as_in_a_whole_read():
    """An event that is not an object is kept, so validation refuses it."""
    sample = next(log_samples(read_header(DATA / "0.3.285" / "xstest.eval")))
    data = sample.model_dump(mode="json")
    data["events"].append("not an event")
    with pytest.raises(ValueError):
        classified_part(data)


def test_a_model_call_after_scoring_starts_is_not_the_answer():
    """Scoring events are kept: a judge call of the same model comes after them."""
    path = DATA / "0.3.285" / "xstest_output_unset.eval"
    header = read_header(path)
    data = next(log_samples(header)).model_dump(mode="json")
    kinds = [event["event"] for event in data["events"]]
    assert "score" in kinds and not [
        m for m in data["messages"] if m["role"] == "assistant"
    ]
    judge = copy.deepcopy([e for e in data["events"] if e["event"] == "model"][-1])
    judge["output"]["choices"][0]["message"].update(id="judge", content="")
    data["events"].append(judge)
    whole = classify_sample("log", header, EvalSample.model_validate(data))
    part = classify_sample("log", header, classified_part(copy.deepcopy(data)))
    assert part == whole
    assert whole is not None and whole.outcome == "answered"
