"""`audit --log --format html`: the page of real logs, read in a real browser.

The logs are those inspect-ai releases wrote (``logs/data/``): what the page
shows is checked against `audit_json` of the same audits, from the DOM the
browser built. A log's text is untrusted: markup in it must show as text.
"""

import re
from collections import Counter
from html import unescape
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_ai.model import ContentText, ModelOutput

from empty_migrate.cli.main import main
from empty_migrate.logs.audited import LogAudit
from empty_migrate.logs.html import render_log_html
from empty_migrate.logs.render import audit_json
from empty_migrate.logs.replay import audit_log
from tests.audit.browser import dump_dom, needs_chromium

pytestmark = pytest.mark.inspect_versions

DATA = Path(__file__).parent / "data"
LOGS = [
    "0.3.79/gpqa_diamond.json",
    "0.3.79/xstest_cancelled.eval",
    "0.3.285/xstest.eval",
    "0.3.285/xstest_cancelled.json",
]
PAYLOAD = "<script>document.body.dataset.pwned = '{}'</script>"


@pytest.fixture(scope="module")
def audits() -> list[LogAudit]:
    # the stand-ins record no inspect_evals: each is audited as its eval named
    return [
        audit_log(DATA / log, "gpqa" if "gpqa" in log else "xstest") for log in LOGS
    ]


def sections(dom: str) -> list[str]:
    return dom.split('<section class="log"')[1:]


def cells(row: str) -> list[str]:
    return [unescape(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)]


def metric_rows(section: str) -> list[list[str]]:
    return [cells(row) for row in re.findall(r'<tr class="metric .*?</tr>', section)]


def class_counts(section: str) -> Counter[tuple[str, str | None]]:
    counts: Counter[tuple[str, str | None]] = Counter()
    for row in re.findall(r'<tr class="class.*?</tr>', section):
        outcome, _, count, *stopped = cells(row)
        counts[(outcome, (stopped or [""])[0][:60] or None)] += int(count)
    return counts


def expected_counts(report: dict) -> Counter[tuple[str, str | None]]:
    # a sample epoch is one non-answer however many scores re-route it
    samples = {(r["sample_id"], r["epoch"]): r for r in report["rows"]}
    found = [*samples.values(), *report["errors"]]
    return Counter((r["outcome"], (r["stopped_by"] or "")[:60] or None) for r in found)


def test_the_page_is_self_contained_and_runs_no_script(audits):
    page = render_log_html(audits)

    assert "<script" not in page and "<link" not in page and "http" not in page
    assert page.count('<section class="log"') == len(LOGS)


@needs_chromium
def test_the_browser_shows_each_logs_metrics_notes_and_non_answers(audits, tmp_path):
    page = tmp_path / "logs.html"
    page.write_text(render_log_html(audits))

    dom = dump_dom(page)

    summary = re.search(r'<section id="total"><p class="summary">(.*?)</p>', dom)
    assert summary and unescape(summary[1]).startswith(f"{len(LOGS)} logs · ")
    for section, audit in zip(sections(dom), audits, strict=True):
        report = audit_json(audit)
        assert f'<h2 class="path">{audit.log}</h2>' in section
        shown = [(m[0], m[1], m[2], m[3], m[4]) for m in metric_rows(section)]
        assert shown == [
            (m["score"], m["metric"], m["reducer"])
            + (f"{m['before']:.3f}", f"{m['after']:.3f}")
            for m in report["metrics"]
        ]
        notes = re.findall(r'<p class="partial">(.*?)</p>', section)
        assert notes == ([report["partial"]] if report["partial"] else [])
        assert class_counts(section) == expected_counts(report)
    gpqa, cancelled_079, xstest, cancelled_285 = sections(dom)
    assert "none: the log records no results; the run was cancelled" in cancelled_079
    assert "the run was cancelled: the log holds 3 of the 6" in cancelled_285
    # each is headed by what it holds: epoch 1 of the 2 planned
    assert " · 2 samples × 1 of 2 epochs</p>" in cancelled_079
    assert " · 3 samples × 1 of 2 epochs</p>" in cancelled_285
    assert " · 5 samples × 2 epochs</p>" in gpqa
    assert class_counts(xstest)[("tool_calls_only", "limit: message")] == 1
    assert len(metric_rows(gpqa)) == 2


@needs_chromium
def test_markup_in_a_log_shows_as_text_and_never_runs(tmp_path):
    log = read_eval_log(str(DATA / "0.3.285" / "xstest.json"))
    samples = {sample.id: sample for sample in log.samples or []}
    samples[3].id = PAYLOAD.format("id")
    samples[3].scores["includes"].reason = PAYLOAD.format("reason")
    samples[8].error.message = PAYLOAD.format("error")
    # a refusal after a partial answer keeps its words: the page shows them
    samples[4].output = ModelOutput.from_content(
        "mockllm/model", PAYLOAD.format("text"), stop_reason="content_filter"
    )
    samples[4].output.choices[0].message.content = [
        ContentText(text=PAYLOAD.format("text")),
        ContentText(text="", refusal=True),
    ]
    log.eval.model = "mockllm/" + PAYLOAD.format("model")
    write_eval_log(log, str(tmp_path / "xstest.json"))
    page = tmp_path / "page.html"
    page.write_text(render_log_html([audit_log(tmp_path / "xstest.json", "xstest")]))
    unescaped = tmp_path / "unescaped.html"
    unescaped.write_text(f"<html><body>{PAYLOAD.format('control')}</body></html>")

    dom = dump_dom(page)

    # the check can fail: the same markup written unescaped does run
    assert 'data-pwned="control"' in dump_dom(unescaped)
    assert "data-pwned" not in re.search(r"<body[^>]*>", dom)[0]
    for where in ("id", "reason", "error", "model", "text"):
        assert PAYLOAD.format(where).replace("<", "&lt;").replace(">", "&gt;") in dom


def test_audit_log_writes_the_page_with_format_html(tmp_path, capsys):
    out = tmp_path / "audit.html"
    log = DATA / "0.3.285" / "xstest_cancelled.json"

    args = ["--log", str(log), "--eval", "xstest", "--format", "html"]
    code = main(["audit", *args, "--output", str(out)])

    assert code == 0 and capsys.readouterr().out == ""
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and f">{log}</h2>" in page
    assert '<p class="partial">the run was cancelled: ' in page
    # headed by what it holds, and the reducer named as the total names it
    assert " · 3 samples × 1 of 2 epochs</p>" in page
    assert "<td>includes</td><td>accuracy</td><td>mean</td>" in page
