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

from empty_migrate.cli.main import build_parser, main
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
    assert "total                                          4\n" in out
    # the non-answer measure: the non-answer rate per model and stop reason
    rates = out.split("\n\n")[-1].splitlines()
    assert rates[0] == "non-answers by model and stop_reason"
    assert "stop                   2            1   50.0%  refused 1" in rates[-2]
    assert rates[-1].split()[1:5] == ["(all)", "4", "3", "75.0%"]


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


def test_outcomes_on_a_log_cut_short_is_one_line_naming_it(log, tmp_path, capsys):
    whole = Path(log).read_bytes()
    cut = tmp_path / "cut.eval"
    cut.write_bytes(whole[: len(whole) // 2])
    assert main(["outcomes", log, str(cut)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"empty-migrate: {cut} is truncated or corrupt: ")
    assert err.count("\n") == 1


def test_outcomes_on_a_json_log_cut_short_is_one_line_naming_it(log, tmp_path, capsys):
    from inspect_ai.log import read_eval_log, write_eval_log

    as_json = tmp_path / "whole.json"
    write_eval_log(read_eval_log(log), str(as_json), format="json")
    whole = as_json.read_bytes()
    cut = tmp_path / "cut.json"
    cut.write_bytes(whole[: len(whole) // 2])
    assert main(["outcomes", str(as_json)]) == 0
    capsys.readouterr()
    assert main(["outcomes", str(cut)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"empty-migrate: {cut} is truncated or corrupt: ")
    assert err.count("\n") == 1


# each command's --format: the names it takes, and the format each stands for
FORMATS = {
    ("policy",): {"text": "text", "json": "json", "markdown": "markdown"},
    ("outcomes", "x.eval"): {"text": "text", "json": "json", "table": "text"},
    ("registry", "list"): {"text": "text", "json": "json", "table": "text"},
    ("registry", "show", "gpqa"): {"text": "text", "json": "json"},
    ("registry", "scan"): {"text": "text", "json": "json"},
    ("campaign", "status"): {"text": "text", "json": "json", "table": "text"},
    ("audit",): {"text": "text", "json": "json", "html": "html"},
}


@pytest.mark.parametrize("command", FORMATS, ids=" ".join)
def test_every_command_takes_text_and_json_and_its_old_names(command):
    parser, _ = build_parser()
    for name, chosen in FORMATS[command].items():
        assert parser.parse_args([*command, "--format", name]).format == chosen
    assert parser.parse_args(list(command)).format == "text"


@pytest.mark.parametrize("command", FORMATS, ids=" ".join)
def test_a_format_a_command_does_not_take_is_a_usage_error(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--format", "yaml"])
    assert exit_.value.code == 2
    assert "invalid choice: 'yaml'" in capsys.readouterr().err


def test_help_names_the_old_format_names(capsys):
    with pytest.raises(SystemExit):
        main(["outcomes", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--format text|json output format, text by default; table is an old " in (
        help_text
    )


@pytest.mark.parametrize(
    ("command", "old"),
    [
        (["outcomes"], "table"),
        (["registry", "list"], "table"),
        (["policy"], "markdown"),
    ],
)
def test_an_old_format_name_prints_what_text_prints(log, capsys, command, old):
    args = [*command, log] if command == ["outcomes"] else command
    assert main([*args, "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert main([*args, "--format", old]) == 0
    assert capsys.readouterr().out == text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["--eval", "mmlu_0_shot", "--dry-run", "--repo", "TREE"],
            "'mmlu_0_shot' is a task of eval mmlu: pass --eval mmlu",
        ),
        (
            ["audit", "--eval", "gpqa_diamond", "--repo", "TREE"],
            "'gpqa_diamond' is a task of eval gpqa: pass --eval gpqa",
        ),
        (
            ["registry", "show", "inspect_evals/gpqa_diamond"],
            "'inspect_evals/gpqa_diamond' is a task of eval gpqa: pass gpqa",
        ),
    ],
)
def test_a_tasks_name_where_an_eval_is_expected_names_its_eval(
    args, said, capsys, tmp_path, monkeypatch
):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    tree = tmp_path / "tree"  # an empty checkout: the registry is this package's
    (tree / "src/inspect_evals").mkdir(parents=True)
    (tree / "src/inspect_evals/__init__.py").write_text("")
    assert main([str(tree) if arg == "TREE" else arg for arg in args]) == 2
    assert capsys.readouterr().err == f"empty-migrate: {said}\n"


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


LOGS = Path(__file__).parents[1] / "logs" / "data" / "0.3.285"


@pytest.fixture
def log_folder(tmp_path):
    """A folder of two tasks' logs (one nested, one .json) and a JSON non-log."""
    (tmp_path / "b").mkdir()
    (tmp_path / "a.eval").write_bytes((LOGS / "gpqa_diamond.eval").read_bytes())
    (tmp_path / "b" / "x.json").write_bytes((LOGS / "xstest.json").read_bytes())
    (tmp_path / "b" / "package.json").write_text('{"name": "not a log"}')
    (tmp_path / "notes.txt").write_text("not read")
    return tmp_path


def test_outcomes_of_a_folder_has_a_section_per_log_and_a_total(log_folder, capsys):
    assert main(["outcomes", str(log_folder)]) == 0
    out, err = capsys.readouterr()
    *sections, rates = out.split("\n\n")
    heads = [section.splitlines()[0] for section in sections]
    assert heads == [
        str(log_folder / "a.eval"),
        str(log_folder / "b" / "x.json"),
        "all 2 logs",
    ]
    assert rates.startswith("non-answers by model and stop_reason")
    totals = [int(section.rstrip().split()[-1]) for section in sections]
    assert totals[2] == totals[0] + totals[1] > 0
    assert err == (
        f"empty-migrate: {log_folder / 'b' / 'package.json'}: "
        "skipped, not an Inspect eval log\n"
    )


def test_outcomes_of_a_folder_names_a_log_cut_short_and_reads_the_rest(
    log_folder, capsys
):
    whole = (log_folder / "a.eval").read_bytes()
    (log_folder / "b" / "cut.eval").write_bytes(whole[: len(whole) // 2])
    assert main(["outcomes", str(log_folder)]) == 2
    out, err = capsys.readouterr()
    heads = [section.splitlines()[0] for section in out.split("\n\n")]
    assert heads[:3] == [
        str(log_folder / "a.eval"),
        str(log_folder / "b" / "x.json"),
        "all 2 logs",
    ]
    skipped, cut = err.splitlines()
    assert skipped.endswith("package.json: skipped, not an Inspect eval log")
    assert cut.startswith(
        f"empty-migrate: {log_folder / 'b' / 'cut.eval'} is truncated or corrupt: "
    )


def test_outcomes_json_of_a_folder_is_one_flat_list_of_rows(log_folder, capsys):
    assert main(["outcomes", str(log_folder), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["log"] for row in rows} == {
        str(log_folder / "a.eval"),
        str(log_folder / "b" / "x.json"),
    }
    assert all(set(row) == set(rows[0]) for row in rows)
    assert set(rows[0]) == {
        "log",
        "sample_id",
        "epoch",
        "outcome",
        "signal",
        "stop_reason",
        "stopped_by",
        "model",
        "flags",
        "excerpt",
    }


def test_outcomes_of_a_non_log_json_named_explicitly_is_still_an_error(
    log_folder, capsys
):
    assert main(["outcomes", str(log_folder / "b" / "package.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an Inspect eval log" in err


def test_outcomes_of_a_folder_without_logs_is_one_line(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("no logs here")
    assert main(["outcomes", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds no .eval or .json log" in err


def test_the_readme_shows_what_outcomes_prints(capsys):
    """The README's example of the non-answer measure is today's real output."""
    repo = Path(__file__).parents[2]
    log = "tests/logs/data/0.3.79/gpqa_diamond.eval"
    assert main(["outcomes", str(repo / log)]) == 0
    out = capsys.readouterr().out
    readme = (repo / "README.md").read_text(encoding="utf-8")
    assert f"$ empty-migrate outcomes {log}\n{out}```" in readme
