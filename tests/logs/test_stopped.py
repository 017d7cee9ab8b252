"""Samples the run stopped, and logs of runs that ended early, in real logs.

One task, named for the registry's ``gsm8k`` (qa), whose solver gives each
sample a provider fixture's output: two the model finished (an answer and a
whitespace-only reply), one that raises a sandbox error, and two that hit
Inspect's message limit after their output (tool calls only, and no output).
It is run twice: with ``fail_on_error=False`` (a finished log), and as
Inspect runs by default, where the error stops the run (status ``error``).
A ``boolq`` run of three samples in two epochs is copied as a cancelled log
holding epoch 1 only, written by inspect_ai's own ``write_eval_log``.
"""

import json

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_ai.scorer import includes
from inspect_ai.solver import Generate, TaskState, solver

from empty_migrate.cli.main import main
from empty_migrate.logs.outcomes import log_outcomes, sample_outcomes, shortened
from empty_migrate.testing.provider_outputs import provider_output

pytestmark = pytest.mark.inspect_versions

# (fixture or "error", whether the sample then hits the message limit)
SCRIPT = [
    ("openai_chat_answer", False),
    ("openai_chat_whitespace_only", False),
    ("error", False),
    ("openai_chat_tool_calls_only", True),
    ("task_state_never_generated", True),
]


class ServicesError(RuntimeError):
    """A sandbox failure whose message Inspect records (it has ``message``)."""

    message = "No services started\nsee the sandbox's log"


@solver
def scripted():
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        fixture = state.metadata["fixture"]
        if fixture == "error":
            raise ServicesError()
        state.output = provider_output(fixture).output
        if state.output.choices:
            state.messages.append(state.output.message)
        if state.metadata["limit"]:
            # lowering the limit below the conversation is Inspect's own check
            state.message_limit = len(state.messages) - 1
        return state

    return solve


def _task(name: str, script: list[tuple[str, bool]], epochs: int = 1) -> Task:
    dataset = [
        Sample(
            id=i,
            input="Capital of Australia?",
            target="Canberra",
            metadata={"fixture": fixture, "limit": limit},
        )
        for i, (fixture, limit) in enumerate(script, start=1)
    ]
    return Task(
        name=name, dataset=dataset, solver=scripted(), scorer=includes(), epochs=epochs
    )


def write_logs(folder) -> None:
    def run(task: Task, **options) -> str:
        [log] = eval(
            task,
            model="mockllm/model",
            log_dir=str(folder),
            display="none",
            max_samples=1,
            **options,
        )
        return log.location

    finished = run(_task("gsm8k", SCRIPT), fail_on_error=False)
    failed = run(_task("gsm8k", SCRIPT))
    boolq = read_eval_log(run(_task("boolq", SCRIPT[:2] * 2, epochs=2)))
    # a cancelled run: epoch 1 scored, no results (Inspect writes none then)
    boolq.samples = [s for s in boolq.samples or [] if s.epoch == 1]
    boolq.status, boolq.results = "cancelled", None
    write_eval_log(boolq, str(folder / "cancelled.eval"))
    (folder / "names.json").write_text(
        json.dumps({"finished": finished, "failed": failed})
    )


@pytest.fixture(scope="module")
def logs(built_once) -> dict[str, str]:
    """finished, failed and cancelled -> the log's path (read-only)."""
    folder = built_once("stopped_logs", write_logs)
    names = json.loads((folder / "names.json").read_text())
    return names | {"cancelled": str(folder / "cancelled.eval")}


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_each_sample_names_what_stopped_it_beside_its_outputs_class(logs):
    found = [
        (o.sample_id, str(o.outcome), o.stopped_by)
        for o in sample_outcomes(logs["finished"])
    ]
    assert found == [
        (1, "answered", None),
        (2, "empty", None),
        # the error's first line, not the model's silence
        (3, "no_output", "error: No services started"),
        (4, "tool_calls_only", "limit: message"),
        (5, "no_output", "limit: message"),
    ]


def test_outcomes_counts_the_runs_stops_apart_from_the_models_answers(logs, capsys):
    code, out, err = run_cli(capsys, "outcomes", logs["finished"])
    assert (code, err) == (0, "")
    assert out == (
        "outcome                 stop_reason      samples  stopped_by\n"
        "answered                stop                   1\n"
        "empty                   stop                   1\n"
        "no_output               -                      1  error: No services started\n"
        "no_output               -                      1  limit: message\n"
        "tool_calls_only         tool_calls             1  limit: message\n"
        "finished by the model                          2\n"
        "stopped by the run                             3\n"
        "total                                          5\n"
        "\n"
        # the rates leave the run's stops out: 1 of the model's 2 finished samples
        "non-answers by model and stop_reason "
        "(leaving out the 3 samples the run stopped)\n"
        "model          stop_reason      samples  non-answers    rate  classes\n"
        "mockllm/model  stop                   2            1   50.0%  empty 1\n"
        "mockllm/model  (all)                  2            1   50.0%  empty 1\n"
    )


def test_outcomes_json_says_what_stopped_each_sample(logs, capsys):
    code, out, _ = run_cli(capsys, "outcomes", logs["finished"], "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert [row["stopped_by"] for row in rows] == [
        None,
        None,
        "error: No services started",
        "limit: message",
        "limit: message",
    ]


def test_audit_leaves_errors_out_and_reroutes_limits_by_their_output(logs, capsys):
    code, out, err = run_cli(
        capsys, "audit", "--log", logs["finished"], "--eval", "gsm8k"
    )
    assert (code, err) == (0, "")
    body = out.split("\n", 3)[3]
    # before, 1 of the 4 scored samples is correct; after, sample 5 (no output)
    # raises, so 1 of 3; sample 3's error was never scored and stays as it is
    assert body == (
        "\n"
        "non-answers: 3 of 5 samples\n"
        "sample  epoch  outcome          signal           score     recorded        "
        "migrated                                    stopped_by\n"
        "2       1      empty            no_visible_text  includes  I, no_response  "
        "→ N, no_response (no-answer verdict)        -\n"
        "4       1      tool_calls_only  tool_calls       includes  I, no_response  "
        "→ N, no_response (no-answer verdict)        limit: message\n"
        "5       1      no_output        no_choices       includes  I, no_response  "
        "→ raises EmptyResponseError (sample error)  limit: message\n"
        "\n"
        "sample errors: 1 of 5 samples, left as they are (Inspect scores none of "
        "them, and leaves them out of the metrics)\n"
        "sample  epoch  outcome    stopped_by\n"
        "3       1      no_output  error: No services started\n"
        "\n"
        "metrics (reported → migrated):\n"
        "includes  accuracy (mean)  0.250 → 0.333  (non-answers: 3 of 4 samples, "
        "3 counted as wrong today; 0 unscored, 1 raised)\n"
        "includes  stderr (mean)    0.250 → 0.333\n"
    )


def test_audit_json_labels_limits_and_lists_errors(logs, capsys):
    code, out, _ = run_cli(
        capsys,
        "audit",
        "--log",
        logs["finished"],
        "--eval",
        "gsm8k",
        "--format",
        "json",
    )
    assert code == 0
    report = json.loads(out)
    assert [(r["sample_id"], r["stopped_by"]) for r in report["rows"]] == [
        (2, None),
        (4, "limit: message"),
        (5, "limit: message"),
    ]
    assert report["errors"] == [
        {
            "sample_id": 3,
            "epoch": 1,
            "outcome": "no_output",
            "stopped_by": "error: No services started",
        }
    ]
    assert (report["sample_epochs"], report["status"], report["partial"]) == (
        5,
        "success",
        None,
    )


CANCELLED = (
    "the run was cancelled: the log holds 4 of the 8 sample epochs planned; "
    "only these are counted"
)


def test_a_cancelled_log_counts_the_samples_it_holds_in_every_view(logs, capsys):
    code, out, err = run_cli(capsys, "outcomes", logs["cancelled"])
    assert (code, err) == (0, f"empty-migrate: {logs['cancelled']}: {CANCELLED}\n")
    assert f"{'total':<40}{4:>8}\n" in out

    code, text, _ = run_cli(
        capsys, "audit", "--log", logs["cancelled"], "--eval", "boolq"
    )
    assert code == 0
    lines = text.splitlines()
    # it holds epoch 1 of the 2 planned: each sample once
    assert lines[1:3] == [
        "eval boolq (category qa), task boolq: 4 samples × 1 of 2 epochs",
        CANCELLED,
    ]
    assert "non-answers: 2 of 4 samples" in lines
    assert lines[-1] == "none: the log records no results; the run was cancelled"

    code, out, _ = run_cli(
        capsys,
        "audit",
        "--log",
        logs["cancelled"],
        "--eval",
        "boolq",
        "--format",
        "json",
    )
    report = json.loads(out)
    assert (report["samples"], report["epochs"], report["sample_epochs"]) == (4, 1, 4)
    assert report["planned_epochs"] == 2
    assert (report["status"], report["partial"]) == ("cancelled", CANCELLED)

    code, page, _ = run_cli(
        capsys,
        "audit",
        "--log",
        logs["cancelled"],
        "--eval",
        "boolq",
        "--format",
        "html",
    )
    assert code == 0
    assert " · 4 samples × 1 of 2 epochs</p>" in page
    assert "<h3>Non-answers: 2 of 4 samples</h3>" in page


def test_a_run_an_error_stopped_says_so_with_the_errors_first_line(logs, capsys):
    coverage = log_outcomes(logs["failed"]).coverage
    # Inspect stopped at the error: samples 4 and 5 never ran
    assert (coverage.status, coverage.held, coverage.planned) == ("error", 3, 5)
    assert coverage.note() == (
        "the run stopped on an error (No services started): the log holds 3 of "
        "the 5 samples planned; only these are counted"
    )
    code, out, _ = run_cli(capsys, "audit", "--log", logs["failed"], "--eval", "gsm8k")
    assert code == 0
    assert coverage.note() in out.splitlines()
    assert "non-answers: 1 of 3 samples" in out


def test_a_log_without_the_newer_fields_is_read_by_rule(logs, tmp_path):
    # early releases recorded no sample limit, no dataset sample ids and no
    # results total; an error may carry no message
    log = read_eval_log(logs["finished"])
    for sample in log.samples or []:
        sample.limit = None
        if sample.error is not None:
            sample.error.message = ""
    log.eval.dataset.sample_ids = None
    assert log.results is not None
    log.results.total_samples = 0
    old = str(tmp_path / "old.json")
    write_eval_log(log, old, format="json")
    read = log_outcomes(old)
    assert [o.stopped_by for o in read.outcomes] == [None, None, "error", None, None]
    # the planned count falls back to the dataset's sample count
    assert (read.coverage.planned, read.coverage.note()) == (5, None)


def test_a_long_error_line_is_cut_to_fit_the_tables_last_column():
    line = "error: " + "ConnectionError(MaxRetryError(" * 10
    assert len(shortened(line)) == 100 and shortened(line).endswith("…")
    assert shortened("limit: message") == "limit: message"
