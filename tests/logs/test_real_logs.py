"""`outcomes` and `audit --log` on logs written by every inspect-ai since 0.3.79.

The logs under ``logs/data/<release>/`` were written by that inspect-ai release
(``logs/build_logs.py`` builds them, each release in its own venv): stand-in
tasks named for real inspect_evals tasks, run on a scripted ``mockllm`` model,
in both log formats. What each release records differently (a default reducer
as ``None`` beside ``epochs_reducer: ['mean']``, or named ``'mean'``; no
``reason`` on a limit; no results in a cancelled log) must be read by rule.
They record no inspect_evals (their task file is build_logs.py, their only
package inspect_ai), so they are audited as the eval named with ``--eval``;
``headers.with_eval`` makes copies that record a run of inspect_evals.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from empty_migrate.cli.main import main
from empty_migrate.entries.schema import resolve
from empty_migrate.logs.outcomes import log_outcomes, read_header, read_log
from empty_migrate.logs.provenance import NoEvalOfLog, eval_of_log
from empty_migrate.logs.render import audit_json, render_text
from empty_migrate.logs.replay import audit_log, match_scores, reducer_key
from empty_migrate.registry import EVALS_DIR
from empty_migrate.registry.loader import Registry
from empty_migrate.registry.tasks import task_name
from empty_migrate.runtime.policy import Outcome
from empty_migrate.runtime.router import classify_output
from tests.logs.headers import INSPECT_EVALS_PROVENANCES, provenance, with_eval

pytestmark = pytest.mark.inspect_versions

DATA = Path(__file__).parent / "data"
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
AUDITED_LOGS = [p for p in LOGS if p.name.partition(".")[0] in EVALS]


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
    assert (
        main(["audit", "--log", str(path), "--eval", EVALS[run], "--format", "json"])
        == 0
    )
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
    # each release records it its own way; the audit names it one way
    assert score.reducer in (None, "mean")
    assert [(m.metric, m.reducer) for m in audit.metrics] == [
        ("accuracy", "mean"),
        ("stderr", "mean"),
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
    streamed, whole = audit_log(source, "xstest"), audit_log(with_nan, "xstest")
    assert whole.rows and audit_json(whole)["rows"] == audit_json(streamed)["rows"]
    assert whole.shares == streamed.shares
    assert whole.errors and len(whole.errors) == len(streamed.errors)


def _eval_of(path: Path) -> str | None:
    return EVALS.get(path.stem)


@pytest.mark.parametrize("path", LOGS, ids=log_id)
def test_outcomes_and_audit_give_every_sample_the_same_class(path):
    """One rule, one code: the audit's non-answers are exactly outcomes' ones."""
    eval_name = _eval_of(path)
    if eval_name is None:
        pytest.skip("a log of no registered eval: audit --log does not read it")
    location = resolve_location(eval_name, read_log(path))
    rows = log_outcomes(path, lambda header: location).outcomes
    audit = audit_log(path, eval_name)
    scored = {(s.id, s.epoch) for s in read_log(path).samples or [] if s.error is None}
    expected = {
        (r.sample_id, r.epoch): r.outcome
        for r in rows
        if (r.sample_id, r.epoch) in scored and r.outcome != Outcome.ANSWERED
    }
    audited = {
        (r.sample.sample_id, r.sample.epoch): r.sample.outcome for r in audit.rows
    }
    assert audited == expected


@pytest.mark.parametrize("path", LOGS, ids=log_id)
def test_no_sample_with_a_turn_of_the_model_is_no_output(path):
    log = read_log(path)
    samples = {(s.id, s.epoch): s for s in log.samples or []}
    for row in log_outcomes(path).outcomes:
        if row.outcome != Outcome.NO_OUTPUT:
            continue
        sample = samples[(row.sample_id, row.epoch)]
        assert not any(m.role == "assistant" for m in sample.messages)
        assert not [
            e
            for e in sample.events
            if e.event == "model" and e.output.choices and e.model == log.eval.model
        ]


def resolve_location(eval_name: str, log) -> str:
    """The output location audit_log reads for the log's first score."""
    entry = Registry().get(eval_name)
    task = task_name(log.eval.task)
    names = [s.name for s in log.eval.scorers or []]
    [first, *_] = match_scores(names, entry, task, eval_name)
    scorer = next(s for s in entry.scorers if s.name == first.scorer)
    return resolve(entry, task, scorer).output


def test_an_output_location_empty_in_every_sample_is_said(tmp_path, capsys):
    """The registry names a place the log's samples never filled."""
    registry = tmp_path / "evals"
    registry.mkdir()
    entry = (EVALS_DIR / "xstest.yaml").read_text()
    assert "output: state.output\n" in entry
    (registry / "xstest.yaml").write_text(
        entry.replace("output: state.output\n", "output: store:answer\n")
    )
    log = DATA / "0.3.285" / "xstest.eval"

    audit = audit_log(log, "xstest", Registry(registry))

    assert audit.rows == []
    [unseen] = audit.unseen
    assert (unseen.score, unseen.location) == ("includes", "store:answer")
    text = render_text(audit)
    assert "score includes: the eval's output location (store:answer) holds " in text
    assert audit_json(audit)["unseen"] == [
        {"score": "includes", "location": "store:answer"}
    ]
    # outcomes reads the router's own rule there, and says so on every row
    rows = log_outcomes(log, lambda header: "store:answer").outcomes
    assert rows and all("location_empty" in r.flags for r in rows)


@pytest.mark.parametrize("path", LOGS, ids=log_id)
def test_a_log_that_records_no_inspect_evals_is_not_matched_by_its_task_name(
    path, capsys
):
    run = path.name.partition(".")[0]
    eval_name = EVALS.get(run, run)  # a foreign run is named for the eval
    task = read_header(path).eval.task
    with pytest.raises(NoEvalOfLog) as error:
        eval_of_log(Registry(), read_header(path))
    assert error.value.looks_like == (eval_name, task)
    assert main(["audit", "--log", str(path)]) == 2
    out, err = capsys.readouterr()
    of_eval = f" (a task of eval {eval_name})" if eval_name != task else ""
    assert (out, err) == (
        "",
        f"empty-migrate: {task!r} looks like inspect_evals' {task}{of_eval}, but "
        f"the log records no inspect_evals; pass `--eval {task}` to audit it as "
        "one\n",
    )


@pytest.mark.parametrize("kind", INSPECT_EVALS_PROVENANCES)
@pytest.mark.parametrize(
    "path",
    [DATA / "0.3.79" / "gpqa_diamond.json", DATA / "0.3.285" / "xstest.eval"],
    ids=log_id,
)
def test_a_log_that_records_inspect_evals_is_audited_as_its_eval(path, kind, tmp_path):
    run = path.name.partition(".")[0]
    task = read_header(path).eval.task
    copy = with_eval(path, tmp_path / path.name, **provenance(kind, task))
    assert eval_of_log(Registry(), read_header(copy)) == (EVALS[run], task)
    # the copy differs from the log in its provenance alone
    found, named = audit_json(audit_log(copy)), audit_json(audit_log(path, task))
    assert {**found, "log": None} == {**named, "log": None}


def test_outcomes_reads_a_known_evals_answer_where_its_entry_says(
    tmp_path, capsys, monkeypatch
):
    """outcomes and audit --log read one location: the registry's, by provenance."""
    registry = tmp_path / "evals"
    registry.mkdir()
    entry = (EVALS_DIR / "xstest.yaml").read_text()
    (registry / "xstest.yaml").write_text(
        entry.replace("output: state.output\n", "output: store:answer\n")
    )
    source = DATA / "0.3.285" / "xstest.eval"
    known = with_eval(source, tmp_path / "known.eval", **provenance("package", "x"))
    monkeypatch.chdir(tmp_path)  # no checkout around: the registry given is read

    def flags(log: Path) -> set[bool]:
        args = ["outcomes", str(log), "--registry", str(registry), "--format", "json"]
        assert main(args) == 0
        rows = json.loads(capsys.readouterr().out)
        return {"location_empty" in row["flags"] for row in rows}

    assert flags(known) == {True}
    assert flags(source) == {False}  # no provenance: the router's own rule


def test_a_model_named_without_its_provider_is_read(tmp_path, capsys):
    """Hand-made logs and other tools' name the model alone: no traceback."""
    source = DATA / "0.3.285" / "xstest_output_unset.eval"
    bare = with_eval(source, tmp_path / "bare.eval", model="model")

    assert main(["outcomes", str(bare), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["model"] for row in rows} == {"model"}
    assert main(["audit", "--log", str(bare), "--eval", "xstest"]) == 0
    assert "log " in capsys.readouterr().out
