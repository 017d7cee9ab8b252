"""`outcomes` and `audit --log` on logs written by every inspect-ai since 0.3.79.

The logs under ``logs/data/<release>/`` were written by that inspect-ai release
(``logs/build_logs.py`` builds them, each release in its own venv): stand-in
tasks named for real inspect_evals tasks, run on a scripted ``mockllm`` model,
in both log formats. What each release records differently (a default reducer
as ``None`` beside ``epochs_reducer: ['mean']``, or named ``'mean'``; no
``reason`` on a limit; no results in a cancelled log) must be read by rule.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from empty_migrate.audit.log import audit_json, audit_log, reducer_key
from empty_migrate.audit.outcomes import read_log
from empty_migrate.cli.main import main
from empty_migrate.runtime.router import classify_output

pytestmark = pytest.mark.inspect_versions

DATA = Path(__file__).parent / "logs" / "data"
RELEASES = ["0.3.79", "0.3.120", "0.3.159", "0.3.200", "0.3.285"]
LOGS = sorted(DATA.glob("*/*.*"))
EVALS = {
    "gpqa_diamond": "gpqa",
    "mmlu_0_shot": "mmlu",
    "xstest": "xstest",
    "xstest_cancelled": "xstest",
    "xstest_output_unset": "xstest",
    "xstest_agent": "xstest",
    "xstest_reasoning_cut": "xstest",
}
# a run of another package's task named like an eval (test_transcript_logs.py)
FOREIGN = ["scicode"]
# runs whose answers the output slot does not hold: until the router reads the
# transcript, their audit re-routes answers to a raise, and nothing recomputes
SLOT_EMPTY = {"xstest_output_unset", "xstest_agent"}
LANDS_WITH_THE_RULE = pytest.mark.xfail(
    reason="issue 29: lands with the router rule", strict=True, raises=AssertionError
)
AUDITED_LOGS = [
    pytest.param(p, marks=LANDS_WITH_THE_RULE) if run in SLOT_EMPTY else p
    for p in LOGS
    if (run := p.name.partition(".")[0]) in EVALS
]


def log_id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_every_release_wrote_every_run_in_both_formats():
    assert sorted(p.name for p in DATA.iterdir()) == sorted(RELEASES)
    runs = {f"{run}.{ext}" for run in [*EVALS, *FOREIGN] for ext in ("eval", "json")}
    for release in RELEASES:
        assert {p.name for p in (DATA / release).iterdir()} == runs


@pytest.mark.parametrize("path", LOGS, ids=log_id)
def test_outcomes_reads_every_log_and_names_what_stopped_each_sample(path, capsys):
    assert main(["outcomes", str(path), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    log = read_log(path)
    if log.status == "cancelled":
        held = len(log.samples or [])
        assert err == (
            f"empty-migrate: {path}: the run was cancelled: the log holds {held} of "
            "the 6 sample epochs planned; only these are counted\n"
        )
    else:
        assert err == ""
    rows = {(row["sample_id"], row["epoch"]): row for row in json.loads(out)}
    assert len(rows) == len(log.samples or [])
    for sample in log.samples or []:
        stopped = rows[(sample.id, sample.epoch)]["stopped_by"]
        if sample.error is not None:
            assert stopped.startswith("error"), stopped
        elif getattr(sample, "limit", None) is not None:
            assert stopped == f"limit: {sample.limit.type}"
        else:
            assert stopped is None


@pytest.mark.parametrize("path", AUDITED_LOGS, ids=log_id)
def test_audit_recomputes_every_metric_the_log_reports(path, capsys):
    run = path.name.partition(".")[0]
    # the eval is found from the task the log records
    assert main(["audit", "--log", str(path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["eval"] == EVALS[run]
    reported = read_log(path).results
    # every metric here is inspect_ai's own: nothing excuses one not recomputed
    assert len(report["metrics"]) == sum(
        len(s.metrics) for s in (reported.scores if reported else [])
    )
    for metric in report["metrics"]:
        assert metric["not_recomputed"] is None, metric
        assert metric["after"] is not None


@pytest.mark.parametrize("release", RELEASES)
def test_the_stand_ins_hold_each_non_answer_error_and_limit(release):
    path = DATA / release / "xstest.eval"
    samples = read_log(path).samples or []
    outcomes = Counter(str(classify_output(s.output).outcome) for s in samples)
    assert outcomes == {
        "answered": 3,
        "empty": 1,
        "truncated": 1,
        "filtered": 1,
        "tool_calls_only": 2,
        "no_output": 2,
    }
    errors = [s.id for s in samples if s.error]
    limits = {s.id: s.limit.type for s in samples if s.limit}
    assert (errors, limits) == ([8], {9: "message", 10: "token"})
    cancelled = read_log(DATA / release / "xstest_cancelled.json")
    assert (cancelled.status, cancelled.eval.config.epochs) == ("cancelled", 2)


@pytest.mark.parametrize("release", RELEASES)
def test_a_default_mean_is_one_reducer_whatever_the_release_records(release):
    path = DATA / release / "gpqa_diamond.json"
    [score] = read_log(path).results.scores
    audit = audit_log(path, "gpqa")
    assert [(m.metric, m.reducer) for m in audit.metrics] == [
        ("accuracy", score.reducer),
        ("stderr", score.reducer),
    ]
    assert all(m.after is not None for m in audit.metrics)


@pytest.mark.parametrize("release", RELEASES)
def test_several_reducers_are_each_recomputed(release, capsys):
    path = DATA / release / "mmlu_0_shot.eval"
    assert main(["audit", "--log", str(path), "--eval", "mmlu"]) == 0
    out = capsys.readouterr().out
    assert "choice  accuracy (mean)  0.400 → " in out
    assert "choice  accuracy (max)   0.600 → " in out
    assert "not recomputed" not in out


@pytest.mark.parametrize(
    ("reducer", "epochs_reducer", "key"),
    [
        (None, ["mean"], "mean"),
        (None, None, "mean"),
        (None, [], "mean"),
        ("mean", None, "mean"),
        (None, ["max"], "max"),
        ("max", ["mean", "max"], "max"),
        ("pass_at_2", ["pass_at_2"], "pass_at_2"),
    ],
)
def test_a_score_with_no_reducer_was_reduced_by_the_configured_one(
    reducer, epochs_reducer, key
):
    assert reducer_key(reducer, epochs_reducer) == key


def test_a_streamed_audit_equals_the_audit_of_the_log_read_again_whole(tmp_path):
    """JSON has no NaN: a log holding one is read whole, from its start, once."""
    source = DATA / "0.3.285" / "xstest.json"
    text = source.read_text()
    with_nan = tmp_path / "xstest.json"
    with_nan.write_text(text.replace('"value": 0.1111111111111111', '"value": NaN', 1))
    streamed, whole = audit_log(source), audit_log(with_nan)
    assert whole.rows and audit_json(whole)["rows"] == audit_json(streamed)["rows"]
    assert whole.shares == streamed.shares
    assert whole.errors and len(whole.errors) == len(streamed.errors)
