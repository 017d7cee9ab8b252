"""Samples streamed one at a time give the rows of the log read whole."""

from pathlib import Path

import pytest

from empty_migrate.logs.outcomes import (
    ALL_STOP_REASONS,
    classify_sample,
    log_coverage,
    log_outcomes,
    log_samples,
    non_answer_rates,
    read_header,
    read_log,
)

DATA = Path(__file__).parent / "data"
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
        classify_sample(str(path), whole, s) for s in whole.samples or []
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


def test_a_row_says_why_a_cut_answer_still_counts_as_one():
    """A reader sees the flag and the text that made a max_tokens sample answered."""
    rows = log_outcomes(DATA / "0.3.79" / "gpqa_diamond.eval").outcomes
    cut = [r for r in rows if r.stop_reason == "max_tokens"]
    assert [(str(r.outcome), r.flags) for r in cut] == [
        ("truncated", ()),
        ("answered", ("truncated_partial",)),
    ]
    assert cut[0].excerpt == ""
    assert cut[1].excerpt.startswith("Let me think")
    assert {r.model for r in rows} == {"mockllm/model"}


def test_rates_count_only_the_samples_the_model_finished():
    rows = log_outcomes(DATA / "0.3.285" / "xstest.eval").outcomes
    rates = {r.stop_reason: r for r in non_answer_rates(rows)}
    finished = [r for r in rows if not r.stopped_by]
    assert rates[ALL_STOP_REASONS].samples == len(finished) < len(rows)
    for reason, rate in rates.items():
        if reason == ALL_STOP_REASONS:
            continue
        these = [r for r in finished if r.stop_reason == reason]
        missed = [r for r in these if str(r.outcome) != "answered"]
        assert (rate.samples, sum(rate.non_answers.values())) == (
            len(these),
            len(missed),
        )
