"""The command line: policy, outcomes of real eval logs, and usage errors."""

import importlib.metadata
import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import includes

from empty_migrate.cli.main import main
from empty_migrate.runtime.router import Outcome, route_empty_responses
from empty_migrate.testing.models import scripted_model
from empty_migrate.testing.provider_outputs import provider_output

LOG_OUTPUTS = [
    "openai_chat_answer",
    "anthropic_thinking_cut_at_max_tokens",
    "google_safety_candidate_empty",
    "openai_chat_refusal_field",
]


def write_log(folder):
    task = Task(
        dataset=[
            Sample(id=i, input="Capital of France?", target="Paris") for i in range(4)
        ],
        scorer=route_empty_responses(includes(), category="qa"),
    )
    outputs = [provider_output(name).output for name in LOG_OUTPUTS]
    [log] = eval(
        task,
        model=scripted_model(outputs),
        log_dir=str(folder),
        display="none",
        max_samples=1,
    )
    return log.location


@pytest.fixture(scope="module")
def log(built_once) -> str:
    """A real log of four samples, one for each of LOG_OUTPUTS (read-only)."""
    [path] = built_once("outcomes_log", write_log).glob("*.eval")
    return str(path)


def test_policy_prints_the_table_migration_md_documents(capsys):
    assert main(["policy"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "| outcome | qa | model_graded | safety | agentic |"
    assert [line.split(" | ")[0] for line in lines[2:]] == [
        f"| `{outcome}`" for outcome in Outcome
    ]
    # a cut-off: a verdict in qa, unscored in safety, an agent's scorer decides
    assert (
        "| `truncated` | `NOANSWER`, `no_response` | `NOANSWER`, `no_response` | "
        "unscored, `no_response` | scorer, tagged `no_response` |"
    ) in lines
    migration = (Path(__file__).parents[2] / "MIGRATION.md").read_text()
    assert f"-->\n{out}<!-- policy-table:end -->" in migration


def test_policy_json(capsys):
    assert main(["policy", "--format", "json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["safety"]["truncated"] == "unscored"
    assert table["qa"]["no_output"] == "raise"


def test_outcomes_counts_a_real_log_by_stop_reason(log, capsys):
    assert main(["outcomes", log]) == 0
    out = capsys.readouterr().out
    assert "answered                stop                   1" in out
    assert "truncated               max_tokens             1" in out
    assert "filtered                content_filter         1" in out
    assert "refused                 stop                   1" in out
    assert out.rstrip().endswith("4")


def test_outcomes_json(log, capsys):
    assert main(["outcomes", log, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert sorted(row["outcome"] for row in rows) == [
        "answered",
        "filtered",
        "refused",
        "truncated",
    ]


def test_outcomes_on_a_missing_log_is_one_line(tmp_path, capsys):
    assert main(["outcomes", str(tmp_path / "nope.eval")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


def test_outcomes_on_a_file_that_is_not_a_log(tmp_path, capsys):
    bogus = tmp_path / "notes.json"
    bogus.write_text("{}")
    assert main(["outcomes", str(bogus)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an Inspect eval log" in err


def test_console_script_is_installed():
    exe = Path(sysconfig.get_path("scripts")) / "empty-migrate"
    assert exe.exists(), "pip install -e . should install the empty-migrate script"
    run = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert run.returncode == 0
    assert run.stdout.split()[-1] == importlib.metadata.version("empty-migrate")


def _cli_raising(monkeypatch, error: BaseException) -> None:
    import types

    def main():
        raise error

    monkeypatch.setitem(
        sys.modules, "empty_migrate.cli.main", types.SimpleNamespace(main=main)
    )


def test_ctrl_c_while_a_class_is_created_is_one_line_and_130(monkeypatch, capsys):
    from empty_migrate.__main__ import run

    # what Python raises when Ctrl-C lands in a dataclass field's __set_name__
    wrapped = RuntimeError("Error calling __set_name__ on 'Field' instance")
    wrapped.__cause__ = KeyboardInterrupt()
    _cli_raising(monkeypatch, wrapped)

    with pytest.raises(SystemExit) as exit_:
        run()

    assert exit_.value.code == 130
    assert capsys.readouterr().err == "empty-migrate: interrupted\n"


def test_any_other_runtime_error_is_not_taken_for_ctrl_c(monkeypatch):
    from empty_migrate.__main__ import run

    _cli_raising(monkeypatch, RuntimeError("a real bug"))

    with pytest.raises(RuntimeError, match="a real bug"):
        run()
