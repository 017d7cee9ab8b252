"""``audit --log --format html``: what the migration does to eval logs, as one page.

One section per log: what it is a run of (eval, task, model) and, for a run
that ended early, how much of it the log holds; every metric as reported
beside the metric with the non-answers re-routed; how much of each score is
non-answers; the non-answers by class, the samples the run stopped (an error
or a limit) on rows of their own; then every re-routed sample epoch. Several
logs get a total first. No script: the page reads the same with JavaScript
off. Everything read from a log is escaped, as a log's text is untrusted.
"""

from collections.abc import Sequence
from html import escape

from empty_migrate.logs.audited import (
    LogAudit,
    MetricChange,
    NonAnswerShare,
    Rerouted,
    metric_changed,
)
from empty_migrate.logs.outcomes import SampleOutcome, shortened, table_counts
from empty_migrate.logs.page import page, route_chips
from empty_migrate.logs.render import (
    errors_line,
    held_text,
    match_line,
    migrated_text,
    no_results,
    non_answer_samples,
    number_text,
    sample_unit,
    score_text,
)
from empty_migrate.runtime.policy import Route

TITLE = "Non-answers in eval logs: reported → migrated"

SHOWN_AS = {
    Route.SCORE: "scored",
    Route.SCORE_TAGGED: "scored",
    Route.NO_ANSWER: "wrong",
    Route.REFUSAL_VERDICT: "refusal",
    Route.UNSCORED: "unscored",
    Route.RAISE: "raised",
}
"""Each migrated route as the audit grid colors it (a no-answer verdict reads as 0)."""


def render_log_html(audits: Sequence[LogAudit]) -> str:
    """One self-contained page for the audits of one or more logs."""
    parts = [
        f"<h1>{escape(TITLE)}</h1>",
        '<div class="legend">migrated route: '
        f"{route_chips(dict.fromkeys(SHOWN_AS.values()))}</div>",
    ]
    if len(audits) > 1:
        parts.append(_total(audits))
    parts += [_section(audit, f"log-{n}") for n, audit in enumerate(audits, 1)]
    return page(TITLE, "\n".join(parts), css=_CSS)


def _total(audits: Sequence[LogAudit]) -> str:
    metrics = [m for a in audits for m in a.metrics]
    items = [
        f"{len(audits)} logs",
        f"{sum(a.coverage.held for a in audits)} sample epochs",
        f"{sum(len(non_answer_samples(a)) for a in audits)} non-answers re-routed",
        f"{sum(len(a.errors) for a in audits)} sample errors",
        f"{sum(map(metric_changed, metrics))} of {len(metrics)} metrics changed",
        f"{sum(m.not_recomputed is not None for m in metrics)} not recomputed",
    ]
    head = _head(
        "log", "eval", "task", "model", "sample epochs", "non-answers",
        "sample errors", "metrics changed", "note",
    )  # fmt: skip
    rows = "\n".join(_total_row(a, f"log-{n}") for n, a in enumerate(audits, 1))
    return (
        '<section id="total"><p class="summary">'
        + " · ".join(escape(i) for i in items)
        + f'</p><table class="total">{head}<tbody>\n{rows}\n</tbody></table></section>'
    )


def _total_row(audit: LogAudit, anchor: str) -> str:
    changed = f"{sum(map(metric_changed, audit.metrics))} of {len(audit.metrics)}"
    link = f'<a href="#{anchor}">{escape(audit.log)}</a>'
    return (
        f'<tr class="{"partial" * audit.coverage.partial}"><th>{link}</th>'
        + _cells(audit.eval, audit.task, audit.model or "-")
        + _cells(audit.coverage.held, len(non_answer_samples(audit)))
        + _cells(len(audit.errors), changed)
        + f'<td class="note">{escape(audit.coverage.note() or "")}</td></tr>'
    )


def _section(audit: LogAudit, anchor: str) -> str:
    unit = sample_unit(audit.epochs)
    parts = [
        f'<section class="log" id="{anchor}">',
        f'<h2 class="path">{escape(audit.log)}</h2>',
        _about(audit),
        _partial(audit),
        *(f'<p class="match">{escape(match_line(m))}</p>' for m in audit.matches),
        "<h3>Metrics, reported → migrated</h3>",
        _metrics(audit),
        f"<h3>Non-answers: {len(non_answer_samples(audit))} of "
        f"{audit.coverage.held} {escape(unit)}</h3>",
        _shares(audit.shares, unit),
        _classes(audit, unit),
        _rerouted(audit.rows),
        _errors(audit, unit),
        "</section>",
    ]
    return "\n".join(parts)


def _partial(audit: LogAudit) -> str:
    note = audit.coverage.note()
    return f'<p class="partial">{escape(note)}</p>' if note else ""


def _about(audit: LogAudit) -> str:
    facts = [
        f"eval <b>{escape(audit.eval)}</b> ({escape(audit.category)})",
        f"task <b>{escape(audit.task)}</b>",
        f"model <b>{escape(audit.model or '-')}</b>",
        escape(held_text(audit)),
    ]
    return f'<p class="about">{" · ".join(facts)}</p>'


def _metrics(audit: LogAudit) -> str:
    if not audit.metrics:
        return f'<p class="none">{escape(no_results(audit.coverage))}</p>'
    head = _head(
        "score", "metric", "reducer", "reported", "migrated", "change",
        "not recomputed because",
    )  # fmt: skip
    rows = "\n".join(map(_metric, audit.metrics))
    return f'<table class="metrics">{head}<tbody>\n{rows}\n</tbody></table>'


def _metric(change: MetricChange) -> str:
    state = "same"
    if change.not_recomputed:
        state = "not-recomputed"
    elif metric_changed(change):
        state = "changed"
    after = (
        number_text(change.after) if change.not_recomputed is None else "not recomputed"
    )
    keys = (("score", change.score), ("metric", change.metric))
    data = "".join(f' data-{key}="{escape(value)}"' for key, value in keys)
    return (
        f'<tr class="metric {state}"{data}>'
        + _cells(change.score, change.metric, change.reducer)
        + f'<td class="num before">{escape(number_text(change.before))}</td>'
        + f'<td class="num after">{escape(after)}</td>'
        + f'<td class="num delta">{escape(_delta(change))}</td>'
        + _cells(change.not_recomputed or "")
        + "</tr>"
    )


def _delta(change: MetricChange) -> str:
    if change.after is None or change.before is None:
        return ""
    if not metric_changed(change):
        return "no change"
    return f"{change.after - change.before:+.3f}"


def _shares(shares: Sequence[NonAnswerShare], unit: str) -> str:
    if not shares:
        return ""
    head = _head(
        "score", f"{unit} scored", "non-answers", "share",
        "counted as wrong today", "unscored after", "raised after",
    )  # fmt: skip
    rows = "\n".join(map(_share, shares))
    return f'<table class="shares">{head}<tbody>\n{rows}\n</tbody></table>'


def _share(share: NonAnswerShare) -> str:
    percent = 100 * share.non_answers / share.samples if share.samples else 0.0
    bar = f'<span class="bar"><span style="width: {percent:.0f}%"></span></span>'
    return (
        f'<tr data-score="{escape(share.score)}">'
        + _cells(share.score, share.samples, share.non_answers)
        + f'<td class="num">{bar} {percent:.0f}%</td>'
        + _cells(share.wrong_today, share.unscored, share.raised)
        + "</tr>"
    )


def _classes(audit: LogAudit, unit: str) -> str:
    counted = table_counts([*non_answer_samples(audit), *audit.errors])
    if not counted:
        return ""
    stopped = sum(count for (_, _, by), count in counted if by)
    # the column appears when the run stopped a sample, as in the text views
    rows = [_class_row(*key, count, stopped > 0) for key, count in counted]
    total = sum(count for _, count in counted)
    if stopped:
        rows.append(_total_line("finished by the model", total - stopped))
        rows.append(_total_line("stopped by the run", stopped))
    rows.append(_total_line("total", total))
    head = _head("class", "stop_reason", unit, *["stopped_by"] * bool(stopped))
    body = "\n".join(rows)
    return (
        "<h3>By class</h3>"
        f'<table class="classes">{head}<tbody>\n{body}\n</tbody></table>'
    )


def _class_row(
    outcome: str, stop_reason: str, by: str | None, count: int, limits: bool
) -> str:
    stopped = [shortened(by) if by else ""] * limits
    return (
        f'<tr class="class{" stopped" * bool(by)}" data-outcome="{escape(outcome)}">'
        + _cells(outcome, stop_reason, count, *stopped)
        + "</tr>"
    )


def _total_line(label: str, count: int) -> str:
    return (
        f'<tr class="sum"><th colspan="2">{escape(label)}</th>'
        f'<td class="num">{count}</td></tr>'
    )


def _rerouted(rows: Sequence[Rerouted]) -> str:
    if not rows:
        return ""
    # the column appears when a row hit a limit, as in the text view
    limits = any(row.sample.stopped_by for row in rows)
    # a refusal's words, or a flag, say why a sample is the class it is
    texts = any(row.sample.excerpt or row.sample.flags for row in rows)
    head = _head(
        "sample", "epoch", "class", "signal", *["visible text"] * texts,
        *["stopped_by"] * limits, "score", "recorded", "migrated", "route",
    )  # fmt: skip
    body = "\n".join(_rerouted_row(row, limits, texts) for row in rows)
    return (
        f"<details open><summary>Re-routed sample epochs ({len(rows)})</summary>"
        f'<table class="rerouted">{head}<tbody>\n{body}\n</tbody></table></details>'
    )


def _rerouted_row(row: Rerouted, limits: bool, texts: bool) -> str:
    found = row.sample
    shown = SHOWN_AS[row.route]
    flags = "".join(f"[{flag}] " for flag in found.flags)
    text = [flags + found.excerpt] * texts
    stopped = [shortened(found.stopped_by or "-")] * limits
    return (
        "<tr>"
        + _cells(found.sample_id, found.epoch, found.outcome, found.signal, *text)
        + _cells(*stopped)
        + _cells(row.score)
        + _cells(score_text(row.recorded), "→ " + migrated_text(row))
        + f'<td class="route route-{shown}" title="route {escape(row.route)}">'
        + f"{escape(shown)}</td></tr>"
    )


def _errors(audit: LogAudit, unit: str) -> str:
    if not audit.errors:
        return ""
    head = _head("sample", "epoch", "class", "stopped_by")
    body = "\n".join(map(_error_row, audit.errors))
    return (
        f"<details open><summary>Sample errors ({len(audit.errors)})</summary>"
        f'<p class="note">{escape(errors_line(audit, unit))}</p>'
        f'<table class="errors">{head}<tbody>\n{body}\n</tbody></table></details>'
    )


def _error_row(found: SampleOutcome) -> str:
    stopped = shortened(found.stopped_by or "error")
    return (
        "<tr>" + _cells(found.sample_id, found.epoch, found.outcome, stopped) + "</tr>"
    )


def _head(*names: str) -> str:
    return (
        "<thead><tr>"
        + "".join(f"<th>{escape(n)}</th>" for n in names)
        + "</tr></thead>"
    )


def _cells(*values: object) -> str:
    # every value a log holds is escaped; counts (and integer ids) align right
    return "".join(
        f'<td class="num">{v}</td>'
        if isinstance(v, int)
        else f"<td>{escape(str(v))}</td>"
        for v in values
    )


_CSS = """
h2.path { font-family: monospace; font-size: 14px; word-break: break-all;
  margin: 0 0 4px; }
h3 { font-size: 13px; margin: 16px 0 4px; }
section.log { border-top: 2px solid #ccc; margin-top: 24px; padding-top: 8px; }
.about { color: #444; margin: 2px 0 6px; }
.about b { color: #222; }
p.partial { background: #fff3cd; border-left: 4px solid #e0a800; padding: 6px 10px;
  margin: 6px 0; font-weight: 600; }
td.note { white-space: normal; min-width: 240px; color: #7a5b00; }
.match, .note { color: #666; margin: 2px 0; font-size: 12px; }
.none { color: #666; font-style: italic; }
thead th { text-align: left; border-bottom: 1px solid #999; }
tbody tr:nth-child(even) { background: #f5f5f5; }
tbody tr.partial { background: #fff3cd; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.metric.changed td { font-weight: 700; }
tr.metric.changed td.delta { color: #0a5; }
tr.metric.not-recomputed td.after { color: #777; font-style: italic; }
tr.stopped td { color: #8a1c1c; }
tbody tr.sum { background: #fff; }
tr.sum th, tr.sum td { border-top: 1px solid #999; }
td.route { border-radius: 3px; text-align: center; }
.bar { display: inline-block; width: 80px; height: 8px; background: #eee;
  border-radius: 4px; vertical-align: middle; overflow: hidden; }
.bar span { display: block; height: 100%; background: #e8590c; }
details { margin: 10px 0; }
summary { font-weight: 600; cursor: pointer; }
#total table th a { font-family: monospace; }
"""
