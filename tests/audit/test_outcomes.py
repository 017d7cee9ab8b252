"""Samples streamed one at a time give the rows of the log read whole."""

from pathlib import Path

import pytest

from empty_migrate.audit.outcomes import (
    classify_sample,
    log_coverage,
    log_outcomes,
    log_samples,
    read_header,
    read_log,
)

DATA = Path(__file__).parent / "logs" / "data"
LOGS = sorted(p for p in DATA.glob("*/*") if p.suffix in {".eval", ".json"})


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_streamed_samples_give_the_rows_of_the_log_read_whole(path):
    whole = read_log(path)
    header = read_header(path)
    assert header.samples is None  # streamed, not read whole
    streamed = list(log_samples(header))
    assert sorted(map(_read_fields, streamed)) == sorted(
        map(_read_fields, whole.samples or [])
    )
    outcomes = log_outcomes(path)
    assert outcomes.outcomes == [
        classify_sample(str(path), s) for s in whole.samples or []
    ]
    assert outcomes.coverage == log_coverage(whole)


def _read_fields(sample):
    """What outcomes reads of a sample (a whole read also rebinds its events)."""
    return (
        str(sample.id),
        sample.epoch,
        sample.output.model_dump_json(),
        repr(sample.error),
        repr(getattr(sample, "limit", None)),
    )


def test_a_json_log_holding_nan_is_read(tmp_path):
    """JSON has no NaN, which Inspect writes (a stderr of one sample, say)."""
    source = DATA / "0.3.285" / "xstest.json"
    text = source.read_text()
    assert '"value": 0.1111111111111111' in text
    with_nan = tmp_path / "nan.json"
    with_nan.write_text(text.replace('"value": 0.1111111111111111', '"value": NaN', 1))
    assert len(log_outcomes(with_nan).outcomes) == len(log_outcomes(source).outcomes)
