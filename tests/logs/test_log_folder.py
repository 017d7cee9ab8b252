"""`empty-migrate audit --log LOG…`: several logs and folders of real logs.

A folder of committed logs (tests/logs/data: written by several
inspect-ai releases), each copy recording a run of inspect_evals in one of
the ways a log may say so, with a subfolder, a log cut short, a JSON document
that is no log, a log of a task no eval lists and a log that records no
inspect_evals: one report per log, then a total. The folder is audited once
per format (``built_once``); each test reads that.
"""

import contextlib
import io
import json
import math
import os
import pty
import sys
from collections import Counter
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from empty_migrate.cli.main import main
from empty_migrate.logs.audited import MetricChange, metric_changed
from empty_migrate.logs.outcomes import LogReadError, read_each
from tests.logs.headers import provenance, with_eval
from tests.logs.test_audit_log import LOG_AUDIT_KEYS

pytestmark = pytest.mark.inspect_versions

DATA = Path(__file__).parent / "data"
# (path in the folder, committed log, what records a run of inspect_evals):
# two runs of gpqa from releases that record the default reducer differently,
# mmlu's several reducers, and xstest
LOGS = {
    "a.eval": ("0.3.285/gpqa_diamond.eval", "task name"),
    "sub/b.json": ("0.3.79/gpqa_diamond.json", "package"),
    "sub/c.eval": ("0.3.120/mmlu_0_shot.eval", "task file"),
    "x.json": ("0.3.159/xstest.json", "task name"),
}
AUDITED = list(LOGS)


def build_folder(folder: Path) -> None:
    logs = folder / "logs"
    for name, (committed, kind) in LOGS.items():
        task = Path(committed).stem
        with_eval(DATA / committed, logs / name, **provenance(kind, task))
    # as committed: a stand-in task named xstest, run from a file of its own
    (logs / "own.eval").write_bytes((DATA / "0.3.200" / "xstest.eval").read_bytes())
    whole = (DATA / "0.3.200" / "xstest.eval").read_bytes()
    (logs / "sub" / "cut.eval").write_bytes(whole[: len(whole) // 2])
    (logs / "sub" / "package.json").write_text('{"name": "not a log"}')
    (logs / "notes.txt").write_text("not read")
    typo = read_eval_log(str(DATA / "0.3.285" / "xstest.eval"))
    typo.eval.task = "inspect_evals/xstestt"
    write_eval_log(typo, str(logs / "typo.eval"))
    for fmt in ("text", "json"):
        code, out, err = run_main("audit", "--log", str(logs), "--format", fmt)
        (folder / f"{fmt}.out").write_text(out)
        (folder / f"{fmt}.err").write_text(f"{code}\n{err}")


def run_main(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def audited(built_once) -> Path:
    """The folder (``logs/``), and its audit in each format (read-only)."""
    return built_once("audit_log_folder", build_folder)


def result(audited: Path, fmt: str) -> tuple[int, str, str]:
    code, err = (audited / f"{fmt}.err").read_text().split("\n", 1)
    return int(code), (audited / f"{fmt}.out").read_text(), err


def sections(text: str) -> list[str]:
    """A report of several logs cut into its sections: one per log, the total."""
    parts = text.replace("\nlog ", "\n\x00log ").replace("\nall ", "\n\x00all ")
    return [part.rstrip("\n") for part in parts.split("\x00")]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_every_log_that_cannot_be_audited_is_one_line_and_exit_2(audited, fmt):
    code, _, err = result(audited, fmt)
    logs = audited / "logs"
    skipped, cut, own, typo = err.splitlines()
    assert code == 2
    assert skipped == (
        f"empty-migrate: {logs / 'sub' / 'package.json'}: "
        "skipped, not an Inspect eval log"
    )
    assert cut.startswith(f"empty-migrate: {logs / 'sub' / 'cut.eval'} is truncated")
    assert own == (
        f"empty-migrate: {logs / 'own.eval'}: 'xstest' looks like inspect_evals' "
        "xstest, but the log records no inspect_evals; pass `--eval xstest` to "
        "audit it as one"
    )
    assert typo == (
        f"empty-migrate: {logs / 'typo.eval'}: the log is a run of unknown task "
        "'xstestt'; did you mean 'xstest'?"
    )


def test_a_folder_has_each_logs_report_then_a_total(audited, capsys):
    _, out, _ = result(audited, "text")
    found = sections(out)
    logs = audited / "logs"
    assert [s.splitlines()[0] for s in found] == [
        *(f"log {logs / name}" for name in AUDITED),
        "all 4 logs",
    ]
    # each log's section is the report it gets alone
    assert main(["audit", "--log", str(logs / "x.json")]) == 0
    assert found[3] + "\n" == capsys.readouterr().out


def test_the_total_sums_the_non_answers_of_each_evals_score(audited):
    report = json.loads(result(audited, "json")[1])
    summed: dict[tuple[str, str], Counter[str]] = {}
    for log in report["logs"]:
        for share in log["non_answers"]:
            counts = summed.setdefault((log["eval"], share.pop("score")), Counter())
            counts.update({**share, "logs": 1})
    total = {(t.pop("eval"), t.pop("score")): t for t in report["total"]["non_answers"]}
    assert total == {key: dict(counts) for key, counts in summed.items()}
    # both gpqa logs are in one row, whatever their release records
    assert total[("gpqa", "choice")]["logs"] == 2
    assert total[("xstest", "includes")]["non_answers"] > 0


def test_the_total_counts_the_logs_each_metric_was_recomputed_and_changed_in(
    audited,
):
    report = json.loads(result(audited, "json")[1])
    counted: Counter[tuple[str, str, str, str]] = Counter()
    for log in report["logs"]:
        for m in log["metrics"]:
            key = (log["eval"], m["score"], m["metric"])
            counted[(*key, "logs")] += 1
            counted[(*key, "recomputed")] += m["after"] is not None
            changed = m["after"] is not None and not math.isclose(
                m["before"], m["after"]
            )
            counted[(*key, "changed")] += changed
    totals: Counter[tuple[str, str, str, str]] = Counter()
    for t in report["total"]["metrics"]:
        for count in ("logs", "recomputed", "changed"):
            totals[(t["eval"], t["score"], t["metric"], count)] += t[count]
    assert totals == counted
    gpqa = [t for t in report["total"]["metrics"] if t["eval"] == "gpqa"]
    assert [(t["metric"], t["reducer"], t["logs"]) for t in gpqa] == [
        ("accuracy", "mean", 2),
        ("stderr", "mean", 2),
    ]
    # xstest's non-answers move its accuracy
    assert totals[("xstest", "includes", "accuracy", "changed")] == 1


def test_the_text_total_shows_the_json_total(audited):
    total = sections(result(audited, "text")[1])[-1].splitlines()
    report = json.loads(result(audited, "json")[1])["total"]
    at = total.index("non-answers, summed over the logs:") + 2
    rows = [line.split() for line in total[at : at + len(report["non_answers"])]]
    assert rows == [[str(v) for v in t.values()] for t in report["non_answers"]]
    at = total.index("metrics, in how many logs recomputed and changed:") + 2
    rows = [line.split() for line in total[at:]]
    assert rows == [
        [t["eval"], t["score"], t["metric"], f"({t['reducer']})"]
        + [str(t[count]) for count in ("logs", "recomputed", "changed")]
        for t in report["metrics"]
    ]


def test_json_of_several_logs_holds_each_logs_audit_and_what_was_not_audited(
    audited,
):
    report = json.loads(result(audited, "json")[1])
    logs = audited / "logs"
    assert list(report) == ["logs", "total", "unreadable", "not_audited", "skipped"]
    assert [log["log"] for log in report["logs"]] == [
        str(logs / name) for name in AUDITED
    ]
    # each log's object is the one `audit --log LOG --format json` gives
    assert set(report["logs"][0]) == LOG_AUDIT_KEYS
    assert report["total"]["logs"] == 4
    [cut] = report["unreadable"]
    assert cut.startswith(f"{logs / 'sub' / 'cut.eval'} is truncated or corrupt: ")
    own, typo = report["not_audited"]
    assert own.startswith(f"{logs / 'own.eval'}: 'xstest' looks like inspect_evals'")
    assert typo.startswith(f"{logs / 'typo.eval'}: the log is a run of unknown task")
    assert report["skipped"] == [
        f"{logs / 'sub' / 'package.json'}: skipped, not an Inspect eval log"
    ]


def test_several_logs_named_are_audited_and_exit_0(audited, capsys):
    logs = audited / "logs"
    named = [str(logs / "x.json"), str(logs / "a.eval")]
    # the option takes several paths, and may be repeated
    args = ["audit", "--log", named[0], "--log", named[1], "--format", "json"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert err == ""
    assert [log["log"] for log in report["logs"]] == named
    assert (report["unreadable"], report["not_audited"]) == ([], [])


def test_several_logs_make_one_page_with_a_total(audited, capsys):
    logs = audited / "logs"
    named = [str(logs / "a.eval"), str(logs / "sub" / "b.json")]
    assert main(["audit", "--log", *named, "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.count('<section id="total">') == 1
    assert page.count('<section class="log"') == 2
    assert all(f'<h2 class="path">{name}</h2>' in page for name in named)


def test_eval_applies_to_every_log_and_names_those_of_other_tasks(audited, capsys):
    logs = audited / "logs"
    args = ["--log", str(logs / "a.eval"), str(logs / "x.json"), "--eval", "xstest"]
    assert main(["audit", *args]) == 2
    out, err = capsys.readouterr()
    assert [s.splitlines()[0] for s in sections(out)] == [
        f"log {logs / 'x.json'}",
        "all 1 logs",
    ]
    assert err == (
        f"empty-migrate: {logs / 'a.eval'}: the log is a run of task "
        "'inspect_evals/gpqa_diamond', not of xstest (the tasks of xstest: xstest)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{logs}", "--eval", "xstestt"], "unknown eval or task 'xstestt'; did you"),
        (["{logs}/nope.eval", "{logs}"], "nope.eval: no such file"),
        (["{logs}/sub/package.json", "{logs}"], "package.json is not an Inspect eval"),
        (["{logs}/notes.txt", "{logs}"], "notes.txt is not an Inspect eval log"),
    ],
    ids=["unknown eval", "missing log named", "non-log named", "other file named"],
)
def test_bad_input_before_any_log_is_audited_is_one_line_and_exit_2(
    audited, capsys, args, message
):
    # a file named explicitly must be a log (it comes first: nothing is audited)
    logs = audited / "logs"
    assert main(["audit", "--log", *(a.format(logs=logs) for a in args)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and message in err


def test_a_folder_without_logs_is_one_line(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("no logs here")
    assert main(["audit", "--log", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "holds no .eval or .json log" in err


# The reading rule `outcomes` and `audit --log` share, with a reader that
# reads nothing: which files are read, which skipped or named, and progress.


def fake_reader(path: Path) -> str:
    if path.name == "notes.json":
        raise LogReadError(f"{path} is not a log", not_a_log=True)
    if path.name.startswith("cut"):
        raise LogReadError(f"{path} is truncated or corrupt")
    return path.name


def test_each_log_under_the_folders_is_read_in_order_and_progress_reported(
    tmp_path,
):
    for name in ["b.eval", "sub/a.json", "sub/cut.eval", "notes.json", "c.txt"]:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    reports: list[tuple[int, int, str]] = []
    found = read_each(
        [tmp_path, tmp_path / "c.txt"],
        fake_reader,
        lambda *report: reports.append(report),
    )
    assert found.read == ["b.eval", "a.json", "c.txt"]
    assert found.skipped == [
        f"{tmp_path / 'notes.json'}: skipped, not an Inspect eval log"
    ]
    assert found.unreadable == [
        f"{tmp_path / 'sub' / 'cut.eval'} is truncated or corrupt"
    ]
    assert reports == [
        (0, 5, "b.eval"),
        (1, 5, "notes.json"),
        (2, 5, "a.json"),
        (3, 5, "cut.eval"),
        (4, 5, "c.txt"),
        (5, 5, ""),
    ]


def test_a_file_named_explicitly_must_be_a_log(tmp_path):
    (tmp_path / "cut.eval").write_text("")
    with pytest.raises(LogReadError, match="truncated"):
        read_each([tmp_path / "cut.eval"], fake_reader)


@pytest.mark.parametrize(
    ("before", "after", "changed"),
    [
        (0.4, 0.4, False),
        (0.1 + 0.2, 0.3, False),
        (0.4, 0.5, True),
        (0.4, None, False),
        (math.nan, math.nan, False),
        (math.nan, 0.5, True),
    ],
)
def test_a_metric_changed_when_its_recomputed_value_differs(before, after, changed):
    change = MetricChange("s", "accuracy", "mean", before, after)
    assert metric_changed(change) is changed


# The progress bar: on a terminal's stderr only (every test above reads a
# stderr that is not one, and finds no bar in it).


def on_a_terminal(monkeypatch, *args: str) -> tuple[int, str, str]:
    """Run the command line with stderr a pseudo-terminal: exit, stdout, terminal."""
    controller, terminal = pty.openpty()
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("COLUMNS", "100")
    out = io.StringIO()
    with open(terminal, "w", closefd=True) as stderr:
        monkeypatch.setattr(sys, "stderr", stderr)
        with contextlib.redirect_stdout(out):
            code = main(list(args))
        stderr.flush()
    monkeypatch.undo()
    shown = b""
    os.set_blocking(controller, False)
    with contextlib.suppress(BlockingIOError, OSError):
        while chunk := os.read(controller, 65536):
            shown += chunk
    os.close(controller)
    return code, out.getvalue(), shown.decode(errors="replace")


@pytest.mark.parametrize(
    ("command", "doing", "names"),
    [
        (["outcomes"], "reading logs", ["a.eval", "x.json"]),
        (["audit", "--log"], "auditing logs", ["a.eval", "sub/c.eval"]),
    ],
)
def test_several_logs_show_a_progress_bar_on_a_terminal(
    audited, monkeypatch, capsys, command, doing, names
):
    paths = [str(audited / "logs" / name) for name in names]
    with capsys.disabled():
        code, out, shown = on_a_terminal(monkeypatch, *command, *paths)
    assert code == 0
    # the bar's last state: every log read
    assert "━" in shown and f"{doing} " in shown and "100%" in shown
    # the report is the one printed without a terminal
    assert main([*command, *paths]) == 0
    assert capsys.readouterr() == (out, "")
