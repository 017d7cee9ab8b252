"""`outcomes` and `audit --log` where the model's answer is not in the output slot.

The logs were written by each inspect-ai release (``logs/build_logs.py``): a
solver that keeps its generated answers elsewhere (SciCode's own), an agent
loop that never writes the output slot (control-arena's), a reasoning-only
stop at exactly ``max_tokens`` reported as ``stop`` (gpt-oss through
OpenRouter), and another package's task named like an inspect_evals eval.
The first tests pin what each log holds; the others what both commands must
make of it, which lands with the router's rule of issue 29 (hence ``xfail``).
"""

import json
from pathlib import Path

import pytest

from empty_migrate.cli.main import main
from empty_migrate.logs.outcomes import read_log

pytestmark = pytest.mark.inspect_versions

DATA = Path(__file__).parent / "data"
RELEASES = ["0.3.79", "0.3.120", "0.3.159", "0.3.200", "0.3.285"]
LOGS = [(release, fmt) for release in RELEASES for fmt in ("eval", "json")]
MAX_TOKENS = 2000


def log_path(run: str, release: str, fmt: str) -> Path:
    return DATA / release / f"{run}.{fmt}"


def outcome_rows(path: Path, capsys) -> dict[int, dict]:
    assert main(["outcomes", str(path), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return {row["sample_id"]: row for row in json.loads(out)}


def audit_rows(path: Path, capsys) -> dict[int, dict]:
    assert (
        main(["audit", "--log", str(path), "--eval", "xstest", "--format", "json"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    return {row["sample_id"]: row for row in report["rows"]}


def assert_both_commands_read(path: Path, capsys, expected: dict[int, str]) -> dict:
    """`outcomes` gives each sample its expected class; the audit the same ones."""
    rows = outcome_rows(path, capsys)
    assert {i: row["outcome"] for i, row in rows.items()} == expected
    # the audit re-routes exactly the non-answers, each of the same class
    rerouted = audit_rows(path, capsys)
    assert {i: row["outcome"] for i, row in rerouted.items()} == {
        i: outcome for i, outcome in expected.items() if outcome != "answered"
    }
    return rows


def model_turns(sample) -> list:
    return [e.output for e in sample.events if e.event == "model"]


def ids(param) -> str:
    return "/".join(param) if isinstance(param, tuple) else str(param)


# What the logs hold: each release wrote the run the script asked for.


@pytest.mark.parametrize("release", RELEASES)
def test_the_kept_elsewhere_run_generated_and_left_the_slot_empty(release):
    log = read_log(log_path("xstest_output_unset", release, "eval"))
    for sample in log.samples or []:
        assert sample.output.empty and not sample.output.choices
        assert [m.role for m in sample.messages] == ["user"]
        turns = model_turns(sample)
        assert len(turns) == 2
        assert all(t.usage and t.usage.output_tokens == 5 for t in turns)
        assert sample.store["answers"] == [t.completion for t in turns]


@pytest.mark.parametrize("release", RELEASES)
def test_the_agent_run_has_tool_calling_turns_and_no_output(release):
    log = read_log(log_path("xstest_agent", release, "eval"))
    last_turns = {}
    for sample in log.samples or []:
        assert sample.output.empty
        roles = [m.role for m in sample.messages]
        assert roles.count("tool") >= 1 and roles[1:3] == ["assistant", "tool"]
        last = [m for m in sample.messages if m.role == "assistant"][-1]
        last_turns[sample.id] = (bool(last.tool_calls), last.text)
    assert last_turns == {1: (True, ""), 2: (False, ""), 3: (False, "ANSWER: A")}


@pytest.mark.parametrize("release", RELEASES)
def test_the_reasoning_run_stops_at_its_max_tokens_saying_stop(release):
    log = read_log(log_path("xstest_reasoning_cut", release, "eval"))
    assert log.plan.config.max_tokens == MAX_TOKENS
    stops = {}
    for sample in log.samples or []:
        output = sample.output
        reasoning = [c for c in output.message.content if c.type == "reasoning"]
        assert reasoning and output.stop_reason == "stop"
        assert output.usage is not None
        stops[sample.id] = (output.usage.output_tokens, output.completion)
    assert stops == {
        1: (MAX_TOKENS, ""),
        2: (MAX_TOKENS - 800, ""),
        3: (MAX_TOKENS, "ANSWER: A"),
    }


@pytest.mark.parametrize("release", RELEASES)
def test_the_foreign_scicode_records_no_inspect_evals(release):
    log = read_log(log_path("scicode", release, "eval"))
    assert log.eval.task == "scicode"
    assert log.eval.packages == {"inspect_ai": release}
    assert log.eval.task_file and "inspect_evals" not in log.eval.task_file
    assert getattr(log.eval, "task_registry_name", None) in (None, "scicode")


# What `outcomes` and `audit --log` make of them (issue 29's rule).


@pytest.mark.parametrize(("release", "fmt"), LOGS, ids=ids)
def test_an_answer_kept_elsewhere_is_read_from_the_transcript(release, fmt, capsys):
    path = log_path("xstest_output_unset", release, fmt)
    expected = {1: "answered", 2: "answered", 3: "empty"}
    rows = assert_both_commands_read(path, capsys, expected)
    assert all("from_transcript" in row["flags"] for row in rows.values())


@pytest.mark.parametrize(("release", "fmt"), LOGS, ids=ids)
def test_an_agent_that_never_wrote_its_output_is_its_last_turn(release, fmt, capsys):
    path = log_path("xstest_agent", release, fmt)
    expected = {1: "tool_calls_only", 2: "empty", 3: "answered"}
    rows = assert_both_commands_read(path, capsys, expected)
    assert all("from_transcript" in row["flags"] for row in rows.values())


@pytest.mark.parametrize(("release", "fmt"), LOGS, ids=ids)
def test_reasoning_only_at_max_tokens_is_truncated_whatever_the_stop_reason(
    release, fmt, capsys
):
    path = log_path("xstest_reasoning_cut", release, fmt)
    expected = {1: "truncated", 2: "reasoning_only", 3: "answered"}
    rows = assert_both_commands_read(path, capsys, expected)
    cut = rows[1]
    assert (cut["signal"], cut["stop_reason"]) == ("usage:max_tokens", "stop")
    assert "max_tokens_reached" in cut["flags"]
    assert "max_tokens_reached" not in rows[2]["flags"]


@pytest.mark.parametrize(("release", "fmt"), LOGS, ids=ids)
def test_a_foreign_task_named_like_an_eval_is_not_audited_without_eval(
    release, fmt, capsys
):
    path = log_path("scicode", release, fmt)
    code = main(["audit", "--log", str(path)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert (
        "looks like inspect_evals' scicode, but the log records no inspect_evals; "
        "pass `--eval scicode` to audit it as one"
    ) in err
