"""`empty-migrate audit --log`: a real log written by `inspect eval`, re-routed.

One `inspect eval` run (the CLI, in a subprocess, offline) writes one log per
task of a small task file. Every sample's output is a fixture of the provider
library; the scorer is the built-in `includes()`, so a sample is correct when
its output contains its target. The tasks are named for registry tasks: a
`qa` eval (gsm8k), a `safety` eval (xstest, R = INCORRECT) and an eval with
several scorers (math), so the same samples route differently; a qa eval run
for two epochs (boolq); one whose verdict only its code can give (ifeval); and
a task of an eval named otherwise (gpqa_diamond, of gpqa).
"""

import json
import math
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from empty_migrate.cli.main import main
from empty_migrate.logs.audited import AuditLogError
from empty_migrate.logs.replay import match_scores
from empty_migrate.registry.loader import load_registry

# slow: the logs are written by `inspect eval` runs (about 7 s)
pytestmark = [pytest.mark.inspect_versions, pytest.mark.slow]

# fixture, target: the first four answer correctly, the fifth answers wrongly,
# the other seven are non-answers, and includes() records each as INCORRECT
SCRIPT = [
    ("openai_chat_answer", "Canberra"),
    ("openai_chat_answer", "Canberra"),
    ("openai_chat_answer", "Canberra"),
    ("openai_chat_answer", "Canberra"),
    ("openai_chat_answer", "Sydney"),
    ("openai_chat_whitespace_only", "Canberra"),
    ("openai_chat_refusal_field", "Canberra"),
    ("azure_content_filter_empty", "Canberra"),
    ("azure_content_filter_empty", "Canberra"),
    ("anthropic_thinking_cut_at_max_tokens", "Canberra"),
    ("openai_chat_400_context_length_exceeded", "Canberra"),
    ("task_state_never_generated", "Canberra"),
]

# boolq runs two epochs (mean reducer): each sample's fixture per epoch
EPOCHS_SCRIPT = [
    (["openai_chat_answer", "openai_chat_answer"], "Canberra"),
    (["openai_chat_answer", "azure_content_filter_empty"], "Canberra"),
    (["openai_chat_whitespace_only", "openai_chat_answer"], "Sydney"),
    (["openai_chat_400_context_length_exceeded", "openai_chat_answer"], "Canberra"),
]

TASK_FILE = f"""
from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import SampleScore, accuracy, includes, metric, stderr
from inspect_ai.solver import solver

from empty_migrate.testing.provider_outputs import provider_output

SCRIPT = [([name], target) for name, target in {SCRIPT!r}]
EPOCHS_SCRIPT = {EPOCHS_SCRIPT!r}


@solver
def fixture_output():
    async def solve(state, generate):
        fixture = state.metadata["fixtures"][state.epoch - 1]
        state.output = provider_output(fixture).output
        if state.output.choices:
            state.messages.append(state.output.message)
        return state

    return solve


@metric
def count():
    def compute(scores: list[SampleScore]) -> float:
        return float(len(scores))

    return compute


def _task(metrics=None, script=SCRIPT, epochs=None):
    dataset = [
        Sample(id=i, input="Capital of Australia?", target=target,
               metadata={{"fixtures": names}})
        for i, (names, target) in enumerate(script, start=1)
    ]
    return Task(dataset=dataset, solver=fixture_output(), scorer=includes(),
                metrics=metrics, epochs=epochs)


@task
def gsm8k():
    # count is this file's own metric: audit cannot recompute it
    return _task([accuracy(), stderr(), count()])


@task
def xstest():
    return _task()


@task
def math():
    return _task()


@task
def boolq():
    return _task(script=EPOCHS_SCRIPT, epochs=Epochs(2, "mean"))


@task
def ifeval():
    return _task()


@task
def gpqa_diamond():
    # a task of an eval named otherwise (gpqa)
    return _task()
"""


def inspect_eval(folder: Path) -> None:
    """Run `inspect eval` on the task file; its logs go to ``folder/logs``."""
    (folder / "tasks.py").write_text(TASK_FILE)
    run = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", "tasks.py"]
        + ["--model", "mockllm/model", "--log-dir", "logs", "--display", "none"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr


LOG_AUDIT_KEYS = {
    "log",
    "eval",
    "task",
    "category",
    "samples",
    "epochs",
    "planned_epochs",
    "sample_epochs",
    "status",
    "partial",
    "scores",
    "rows",
    "metrics",
    "non_answers",
    "errors",
    "unseen",
}
"""The keys of one log's `audit --log --format json` object."""


@pytest.fixture(scope="module")
def logs(built_once) -> dict[str, str]:
    """Task name -> the .eval log `inspect eval` wrote for it (read-only)."""
    written = sorted((built_once("audit_log", inspect_eval) / "logs").glob("*.eval"))
    return {path.name.split("_")[1]: str(path) for path in written}


def stderr_of(correct: int, n: int) -> float:
    # inspect's stderr of 0/1 values: sample standard deviation / sqrt(n)
    p = correct / n
    return math.sqrt(p * (1 - p) / (n - 1))


def audit(capsys, log: str, *extra: str) -> tuple[int, str, str]:
    code = main(["audit", "--log", log, *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_qa_eval_reroutes_non_answers_to_noanswer_unscored_and_errors(logs, capsys):
    code, out, err = audit(capsys, logs["gsm8k"], "--eval", "gsm8k")
    assert (code, err) == (0, "")
    # qa: filters unscored (8, 9), overflow and no output raise (11, 12), so
    # 8 samples are scored after the migration and 4 of them are correct
    assert out == textwrap.dedent(
        f"""\
        log {logs["gsm8k"]}
        eval gsm8k (category qa), task gsm8k: 12 samples
        score 'includes' is registry scorer 'gsm8k' (assumed: no registry scorer is named 'includes'; 'gsm8k' is the only routed scorer of task gsm8k)

        non-answers: 7 of 12 samples
        sample  epoch  outcome    signal                      score     recorded        migrated
        6       1      empty      no_visible_text             includes  I, no_response  → N, no_response (no-answer verdict)
        7       1      refused    refusal_block               includes  I               → N, refusal (no-answer verdict)
        8       1      filtered   stop_reason:content_filter  includes  I, no_response  → unscored, refusal
        9       1      filtered   stop_reason:content_filter  includes  I, no_response  → unscored, refusal
        10      1      truncated  stop_reason:max_tokens      includes  I, no_response  → N, no_response (no-answer verdict)
        11      1      overflow   stop_reason:model_length    includes  I               → raises ContextOverflowError (sample error)
        12      1      no_output  no_choices                  includes  I, no_response  → raises EmptyResponseError (sample error)

        metrics (reported → migrated):
        includes  accuracy (mean)  {4 / 12:.3f} → {4 / 8:.3f}            (non-answers: 7 of 12 samples, 7 counted as wrong today; 2 unscored, 2 raised)
        includes  stderr (mean)    {stderr_of(4, 12):.3f} → {stderr_of(4, 8):.3f}
        includes  count (mean)     12.000 → not recomputed  (metric 'count' is not registered: it is defined in the task's own file, which audit does not run)
        """  # noqa: E501
    )


def test_safety_eval_gives_its_refusal_verdict_and_leaves_truncation_unscored(
    logs, capsys
):
    code, out, _ = audit(capsys, logs["xstest"], "--eval", "xstest")
    assert code == 0
    migrated = [line.split("→ ")[1] for line in out.splitlines() if "→ " in line][:7]
    assert migrated == [
        "I, no_response (refusal verdict)",
        "I, refusal (refusal verdict)",
        "I, refusal (refusal verdict)",
        "I, refusal (refusal verdict)",
        "unscored, no_response",
        "raises ContextOverflowError (sample error)",
        "raises EmptyResponseError (sample error)",
    ]
    # safety: only the truncation is unscored and two raise: 9 scored, 4 correct
    assert (
        f"includes  accuracy (mean)  {4 / 12:.3f} → {4 / 9:.3f}  (non-answers: 7 "
        "of 12 samples, 7 counted as wrong today; 1 unscored, 2 raised)"
    ) in out
    assert (
        f"includes  stderr (mean)    {stderr_of(4, 12):.3f} → {stderr_of(4, 9):.3f}"
        in out
    )


def test_epochs_are_reduced_with_the_logs_reducer_after_rerouting(logs, capsys):
    code, out, _ = audit(capsys, logs["boolq"], "--eval", "boolq")
    assert code == 0
    assert "task boolq: 4 samples × 2 epochs" in out
    assert "non-answers: 3 of 8 sample epochs" in out
    rows = [line.split() for line in out.splitlines() if "→ " in line][:3]
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("3", "1", "empty"),
        ("4", "1", "overflow"),
        ("2", "2", "filtered"),
    ]
    # mean of epochs, before: 1, (1+0)/2, 0, (0+1)/2; after, the unscored and
    # the errored epoch drop out of their samples: 1, 1, (0+0)/2, 1
    before, after = [1, 0.5, 0, 0.5], [1, 1, 0, 1]
    assert (
        f"includes  accuracy (mean)  {sum(before) / 4:.3f} → {sum(after) / 4:.3f}  "
        "(non-answers: 3 of 8 sample epochs, 3 counted as wrong today; "
        "1 unscored, 1 raised)"
    ) in out
    stderr_before, stderr_after = (statistics.stdev(v) / 2 for v in (before, after))
    assert f"stderr (mean)    {stderr_before:.3f} → {stderr_after:.3f}" in out


def test_a_verdict_only_the_evals_code_gives_is_named_and_not_guessed(logs, capsys):
    code, out, _ = audit(capsys, logs["ifeval"], "--eval", "ifeval")
    assert code == 0
    decided = "→ the eval's code decides: no instruction followed, out of the "
    # the empty, refused and truncated samples; filters are unscored, and
    # overflow and no output raise, whatever the verdict
    assert out.count(decided + "sample's own instruction count") == 3
    assert "includes  accuracy (mean)  0.333 → not recomputed  (a verdict needs" in out


def test_a_json_log_audits_as_its_eval_log_does(logs, tmp_path, capsys):
    as_json = str(tmp_path / "gsm8k.json")
    write_eval_log(read_eval_log(logs["gsm8k"]), as_json, format="json")
    _, from_eval, _ = audit(capsys, logs["gsm8k"], "--eval", "gsm8k")
    code, from_json, _ = audit(capsys, as_json, "--eval", "gsm8k")
    assert code == 0
    assert from_json.split("\n", 1)[1] == from_eval.split("\n", 1)[1]


def test_json_shape(logs, capsys):
    code, out, _ = audit(capsys, logs["gsm8k"], "--eval", "gsm8k", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert set(report) == LOG_AUDIT_KEYS
    assert (report["sample_epochs"], report["status"], report["partial"]) == (
        12,
        "success",
        None,
    )
    assert report["errors"] == []
    assert (report["eval"], report["task"], report["category"]) == ("gsm8k",) * 2 + (
        "qa",
    )
    assert [r["sample_id"] for r in report["rows"]] == [6, 7, 8, 9, 10, 11, 12]
    assert report["rows"][2] == {
        "sample_id": 8,
        "epoch": 1,
        "outcome": "filtered",
        "signal": "stop_reason:content_filter",
        "flags": [],
        "excerpt": "",
        "stop_reason": "content_filter",
        "stopped_by": None,
        "score": "includes",
        "recorded": {"value": "I", "reason": "no_response"},
        "route": "unscored",
        "migrated": {"value": None, "reason": "refusal"},
        "raised": None,
        "needs_code": None,
    }
    assert report["rows"][5]["raised"] == "ContextOverflowError"
    assert report["rows"][5]["migrated"] is None
    accuracy = report["metrics"][0]
    assert accuracy == {
        "score": "includes",
        "metric": "accuracy",
        "reducer": "mean",
        "before": pytest.approx(4 / 12),
        "after": pytest.approx(4 / 8),
        "not_recomputed": None,
    }
    assert report["metrics"][2]["after"] is None
    assert "not registered" in report["metrics"][2]["not_recomputed"]
    assert report["non_answers"] == [
        {
            "score": "includes",
            "samples": 12,
            "non_answers": 7,
            "wrong_today": 7,
            "unscored": 2,
            "raised": 2,
        }
    ]


@pytest.mark.parametrize("task", ["gsm8k", "xstest", "boolq", "ifeval"])
def test_the_eval_is_found_from_the_task_of_a_log_of_inspect_evals(
    logs, tmp_path, capsys, task
):
    packaged = relabelled(logs[task], f"inspect_evals/{task}", tmp_path / "p.eval")
    code, found, err = audit(capsys, packaged)
    assert (code, err) == (0, "")
    assert found == audit(capsys, packaged, "--eval", task)[1]


@pytest.mark.parametrize("task", ["gsm8k", "boolq"])
def test_a_task_file_of_its_own_named_like_an_eval_is_audited_only_as_named(
    logs, capsys, task
):
    # tasks.py is no inspect_evals: its gsm8k is not inspect_evals' gsm8k
    code, out, err = audit(capsys, logs[task])
    assert (code, out) == (2, "")
    assert err == (
        f"empty-migrate: {task!r} looks like inspect_evals' {task}, but the log "
        f"records no inspect_evals; pass `--eval {task}` to audit it as one\n"
    )
    code, out, err = audit(capsys, logs[task], "--eval", task)
    assert (code, err) == (0, "")
    assert out.splitlines()[1].startswith(f"eval {task} (category qa), task {task}:")


def relabelled(log: str, task: str, path: Path) -> str:
    """A copy of `log` as if it had run task `task` (as `inspect eval` records it)."""
    copy = read_eval_log(log)
    copy.eval.task = task
    write_eval_log(copy, str(path), format="json" if path.suffix == ".json" else "eval")
    return str(path)


@pytest.mark.parametrize("suffix", [".eval", ".json"])
def test_a_task_of_an_eval_named_otherwise_finds_its_eval(
    logs, tmp_path, capsys, suffix
):
    # run from the installed package, inspect records inspect_evals/<task>
    packaged = relabelled(
        logs["gpqa-diamond"], "inspect_evals/gpqa_diamond", tmp_path / f"g{suffix}"
    )
    code, found, err = audit(capsys, packaged)
    assert (code, err) == (0, "")
    assert found.splitlines()[1] == (
        "eval gpqa (category qa), task gpqa_diamond: 12 samples"
    )
    # --eval names the eval, or the task the log is a run of
    assert audit(capsys, packaged, "--eval", "gpqa")[1] == found
    assert audit(capsys, packaged, "--eval", "gpqa_diamond")[1] == found
    assert audit(capsys, packaged, "--eval", "inspect_evals/gpqa_diamond")[1] == found
    # the same log run from a task file of its own is audited only as named
    own = logs["gpqa-diamond"]
    code, _, err = audit(capsys, own)
    assert code == 2 and "(a task of eval gpqa), but the log records no" in err
    for named in ("gpqa", "gpqa_diamond"):
        code, out, _ = audit(capsys, own, "--eval", named)
        assert (code, out.split("\n", 1)[1]) == (0, found.split("\n", 1)[1])


def test_a_log_of_a_task_no_eval_lists_names_close_matches(logs, tmp_path, capsys):
    log = relabelled(logs["gsm8k"], "inspect_evals/gsm8kk", tmp_path / "typo.eval")
    code, out, err = audit(capsys, log)
    assert (code, out) == (2, "")
    assert err == (
        "empty-migrate: the log is a run of unknown task 'gsm8kk'; "
        "did you mean 'gsm8k'?\n"
    )


def cut_short(log: str, path: Path) -> str:
    """`log`'s first half, as a copy cut short or a run still writing it leaves it."""
    data = Path(log).read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return str(path)


@pytest.mark.parametrize(
    ("log", "eval_name", "message"),
    [
        ("missing", "gsm8k", "nope.eval: no such file"),
        ("not_a_log", "gsm8k", "tasks.py is not an Inspect eval log"),
        ("truncated", "gsm8k", "cut.eval is truncated or corrupt: "),
        ("truncated_json", "gsm8k", "cut.json is truncated or corrupt: "),
        ("json_not_a_log", "gsm8k", "notes.json is not an Inspect eval log (eval: "),
        ("truncated", None, "cut.eval is truncated or corrupt: "),
        (
            "gsm8k",
            "gsm8k_typo",
            "unknown eval or task 'gsm8k_typo'; did you mean 'gsm8k'?",
        ),
        ("gsm8k", "xstest", "the log is a run of task 'gsm8k', not of xstest"),
        (
            "gsm8k",
            "gpqa_diamond",
            "the log is a run of task 'gsm8k', not of gpqa_diamond (the tasks of "
            "gpqa: gpqa_diamond)",
        ),
        ("math", "math", "score 'includes' in the log matches no routed scorer"),
        ("math", None, "'math' looks like inspect_evals' math, but the log records"),
    ],
)
def test_errors_are_one_line_and_exit_2(
    logs, tmp_path, capsys, log, eval_name, message
):
    as_json = relabelled(logs["gsm8k"], "gsm8k", tmp_path / "whole.json")
    (tmp_path / "notes.json").write_text('{"notes": []}')
    paths = {
        "missing": str(tmp_path / "nope.eval"),
        "not_a_log": str(Path(logs["gsm8k"]).parent.parent / "tasks.py"),
        "truncated": cut_short(logs["gsm8k"], tmp_path / "cut.eval"),
        "truncated_json": cut_short(as_json, tmp_path / "cut.json"),
        "json_not_a_log": str(tmp_path / "notes.json"),
    }
    named = ["--eval", eval_name] if eval_name else []
    code, out, err = audit(capsys, paths.get(log) or logs[log], *named)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err


def test_the_found_evals_registry_problems_are_each_named(logs, tmp_path, capsys):
    registry = tmp_path / "registry"
    registry.mkdir()
    text = (load_registry().files["gsm8k"]).read_text()
    (registry / "gsm8k.yaml").write_text(text.replace("category: qa", "category: q"))
    log = relabelled(logs["gsm8k"], "inspect_evals/gsm8k", tmp_path / "p.eval")
    code, out, err = audit(capsys, log, "--registry", str(registry))
    assert (code, out) == (2, "")
    [problem] = err.splitlines()
    assert problem.startswith(f"{registry / 'gsm8k.yaml'}:") and "category" in problem


@pytest.mark.parametrize(
    "extra",
    [
        ["--eval", "gsm8k", "--eval", "math"],
        ["--all"],
    ],
    ids=["two evals", "all"],
)
def test_audit_log_takes_at_most_one_eval(capsys, logs, extra):
    assert main(["audit", "--log", logs["gsm8k"], *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "at most one --eval EVAL" in err


def test_a_score_named_for_a_registry_scorer_matches_it_without_assuming():
    entry = load_registry().get("math")
    [found] = match_scores(["expression_exact_match"], entry, "math", "math")
    assert (found.scorer, found.assumed) == ("expression_exact_match", None)
    with pytest.raises(AuditLogError, match="expression_equivalance"):
        match_scores(["includes"], entry, "math", "math")
