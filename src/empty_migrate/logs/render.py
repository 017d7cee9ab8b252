"""`audit --log` as text and JSON: the tables, the totals, the plain values."""

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, astuple
from typing import Any

from inspect_ai.scorer import Score

from empty_migrate.logs.audited import (
    LogAudit,
    LogAudits,
    MetricChange,
    NonAnswerShare,
    Rerouted,
    ScoreMatch,
)
from empty_migrate.logs.outcomes import (
    LogCoverage,
    SampleOutcome,
    shortened,
)
from empty_migrate.runtime.policy import Route


def render_text(audit: LogAudit) -> str:
    """The audit as a report for a terminal: matches, rows, then metrics."""
    unit = sample_unit(audit.epochs)
    partial = audit.coverage.note()
    lines = [
        f"log {audit.log}",
        f"eval {audit.eval} (category {audit.category}), task {audit.task}: "
        f"{held_text(audit)}",
        *([partial] if partial else []),
        *(match_line(m) for m in audit.matches),
        *(u.line(unit) for u in audit.unseen),
        "",
        f"non-answers: {len(non_answer_samples(audit))} of "
        f"{audit.coverage.held} {unit}",
    ]
    if audit.rows:
        lines += _rows_table(audit.rows)
    if audit.errors:
        lines += ["", errors_line(audit, unit)]
        lines += _aligned(
            [("sample", "epoch", "outcome", "stopped_by")]
            + [_error_cells(e) for e in audit.errors]
        )
    lines += ["", "metrics (reported → migrated):"]
    shares = {s.score: s for s in audit.shares}
    metrics = [_metric_cells(m, shares, unit) for m in audit.metrics]
    lines += _aligned(metrics) if metrics else [no_results(audit.coverage)]
    return "\n".join(lines) + "\n"


def render_texts(found: LogAudits) -> str:
    """One report per log audited (`render_text`), then the total over them all.

    The total sums each eval's non-answer shares over the logs, and counts
    the logs in which each metric was recomputed and changed.
    """
    if not found.audits:
        return ""
    sections = [render_text(audit) for audit in found.audits]
    return "\n".join([*sections, render_total(found)])


def render_total(found: LogAudits) -> str:
    """The total section of several logs' audits."""
    lines = [f"all {len(found.audits)} logs", "", "non-answers, summed over the logs:"]
    lines += _aligned(
        [
            (
                "eval",
                "score",
                "logs",
                "sample epochs",
                "non-answers",
                "wrong today",
                "unscored",
                "raised",
            )
        ]
        + [(t.eval, t.score, *map(str, astuple(t)[2:])) for t in found.shares()]
    )
    metrics = found.metrics()
    lines += ["", "metrics, in how many logs recomputed and changed:"]
    lines += (
        _aligned(
            [("eval", "score", "metric", "logs", "recomputed", "changed")]
            + [
                (
                    t.eval,
                    t.score,
                    f"{t.metric} ({t.reducer})",
                    str(t.logs),
                    str(t.recomputed),
                    str(t.changed),
                )
                for t in metrics
            ]
        )
        if metrics
        else ["none: no log records results"]
    )
    return "\n".join(lines) + "\n"


def _rows_table(rows: Sequence[Rerouted]) -> list[str]:
    # the column appears when a row hit a limit: the model did not end those
    limits = any(r.sample.stopped_by for r in rows)
    header = ("sample", "epoch", "outcome", "signal", "score", "recorded", "migrated")
    table = [header + (("stopped_by",) if limits else ())]
    for row in rows:
        cells = _row_cells(row)
        table.append(cells + ((row.sample.stopped_by or "-",) if limits else ()))
    return _aligned(table)


def errors_line(audit: LogAudit, unit: str) -> str:
    """How many sample epochs errored, and why the audit leaves them as they are."""
    return (
        f"sample errors: {len(audit.errors)} of {audit.coverage.held} {unit}, "
        "left as they are (Inspect scores none of them, and leaves them out "
        "of the metrics)"
    )


def _error_cells(found: SampleOutcome) -> tuple[str, ...]:
    return (
        str(found.sample_id),
        str(found.epoch),
        str(found.outcome),
        shortened(found.stopped_by or "error"),
    )


def no_results(coverage: LogCoverage) -> str:
    """What stands in for the metrics of a log that records none."""
    stopped = coverage.stopped()
    return "none: the log records no results" + (f"; {stopped}" if stopped else "")


def sample_unit(epochs: int) -> str:
    """What a log's counts count: samples, or sample epochs when it holds several."""
    return "samples" if epochs <= 1 else "sample epochs"


def held_text(audit: LogAudit) -> str:
    """What the log holds, as its heading says it: ``112 samples × 1 of 4 epochs``.

    Only what the log holds is counted: the distinct samples and epochs in
    it, the epochs planned beside them when it holds fewer, and the sample
    epochs when not every sample holds every one of those epochs.
    """
    samples, epochs, planned = audit.samples, audit.epochs, audit.coverage.epochs
    text = f"{samples} samples"
    if samples and planned > 1:
        text += f" × {epochs} of {planned} epochs" if epochs < planned else ""
        text += f" × {epochs} epochs" if epochs >= planned else ""
        if samples * epochs != audit.coverage.held:
            text += f", {audit.coverage.held} sample epochs"
    return text
    text += f" × {epochs} of {planned} epochs" if epochs < planned else ""
    text += f" × {epochs} epochs" if epochs == planned else ""
    if samples * epochs != audit.coverage.held:
        text += f", {audit.coverage.held} sample epochs"
    return text


def non_answer_samples(audit: LogAudit) -> list[SampleOutcome]:
    """The non-answer sample epochs, each once however many scores it has."""
    found = {(r.sample.sample_id, r.sample.epoch): r.sample for r in audit.rows}
    return list(found.values())


def match_line(match: ScoreMatch) -> str:
    """Which registry scorer a score of the log is, and why when assumed."""
    line = f"score {match.score!r} is registry scorer {match.scorer!r}"
    return line + (f" (assumed: {match.assumed})" if match.assumed else "")


def _row_cells(row: Rerouted) -> tuple[str, ...]:
    found = row.sample
    return (
        str(found.sample_id),
        str(found.epoch),
        str(found.outcome),
        found.signal,
        row.score,
        score_text(row.recorded),
        "→ " + migrated_text(row),
    )


_ROUTE_NOTES = {
    Route.NO_ANSWER: "no-answer verdict",
    Route.REFUSAL_VERDICT: "refusal verdict",
    Route.SCORE: "scorer: recorded score kept",
    Route.SCORE_TAGGED: "scorer: recorded score kept",
}


def migrated_text(row: Rerouted) -> str:
    """The score the migrated scorer gives, and by which route, as text."""
    if row.raised:
        return f"raises {row.raised} (sample error)"
    if row.needs_code or row.migrated is None:
        return f"the eval's code decides: {row.needs_code}"
    if row.route == Route.UNSCORED:
        return score_text(row.migrated)
    return f"{score_text(row.migrated)} ({_ROUTE_NOTES[row.route]})"


def score_text(score: Score) -> str:
    """A score's value (NaN as ``unscored``) and its reason, as text."""
    value = _value_text(score.value)
    return f"{value}, {score.reason}" if score.reason else value


def _value_text(value: Any) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "unscored"
    if isinstance(value, dict | list):
        return json.dumps(_plain(value), separators=(",", ":"))
    return str(value)


def _metric_cells(
    change: MetricChange, shares: dict[str, NonAnswerShare], unit: str
) -> tuple[str, ...]:
    name = f"{change.metric} ({change.reducer})"
    after = (
        number_text(change.after) if change.not_recomputed is None else "not recomputed"
    )
    note = f"({change.not_recomputed})" if change.not_recomputed else ""
    share = shares.pop(change.score, None)
    if share is not None and not note:
        note = f"({share_text(share, unit)})"
    return (change.score, name, f"{number_text(change.before)} → {after}", note)


def share_text(share: NonAnswerShare, unit: str) -> str:
    """How much of one scorer's number is non-answers, and where they go."""
    text = (
        f"non-answers: {share.non_answers} of {share.samples} {unit}, "
        f"{share.wrong_today} counted as wrong today"
    )
    routed = [f"{share.unscored} unscored", f"{share.raised} raised"]
    return text + "; " + ", ".join(routed)


def number_text(value: float | None) -> str:
    """A metric value as the reports print it (``-`` for none)."""
    return "-" if value is None else f"{value:.3f}"


def _aligned(table: Sequence[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return [
        "  ".join(
            cell.ljust(width) for cell, width in zip(row, widths, strict=True)
        ).rstrip()
        for row in table
    ]


def audit_json(audit: LogAudit) -> dict[str, Any]:
    """The audit as JSON-ready data: NaN (unscored) becomes None."""
    data: dict[str, Any] = _plain(
        {
            "log": audit.log,
            "eval": audit.eval,
            "task": audit.task,
            "category": audit.category,
            "samples": audit.samples,
            "epochs": audit.epochs,
            "planned_epochs": audit.coverage.epochs,
            "sample_epochs": audit.coverage.held,
            "status": audit.coverage.status,
            "partial": audit.coverage.note(),
            "scores": [asdict(m) for m in audit.matches],
            "rows": [_row_json(r) for r in audit.rows],
            "metrics": [asdict(m) for m in audit.metrics],
            "non_answers": [asdict(s) for s in audit.shares],
            "errors": [_error_json(e) for e in audit.errors],
            "unseen": [asdict(u) for u in audit.unseen],
        }
    )
    return data


def audits_json(found: LogAudits) -> dict[str, Any]:
    """Several logs' audits as JSON-ready data: each log's `audit_json`, the total.

    ``unreadable``, ``not_audited`` and ``skipped`` hold the line said for
    each log that was not audited.
    """
    return {
        "logs": [audit_json(audit) for audit in found.audits],
        "total": {
            "logs": len(found.audits),
            "non_answers": [asdict(t) for t in found.shares()],
            "metrics": [asdict(t) for t in found.metrics()],
        },
        "unreadable": found.unreadable,
        "not_audited": found.not_audited,
        "skipped": found.skipped,
    }


def _row_json(row: Rerouted) -> dict[str, Any]:
    found = row.sample
    return {
        "sample_id": found.sample_id,
        "epoch": found.epoch,
        "outcome": str(found.outcome),
        "signal": found.signal,
        "flags": list(found.flags),
        "excerpt": found.excerpt,
        "stop_reason": found.stop_reason,
        "stopped_by": found.stopped_by,
        "score": row.score,
        "recorded": _score_json(row.recorded),
        "route": str(row.route),
        "migrated": _score_json(row.migrated) if row.migrated else None,
        "raised": row.raised,
        "needs_code": row.needs_code,
    }


def _error_json(found: SampleOutcome) -> dict[str, Any]:
    return {
        "sample_id": found.sample_id,
        "epoch": found.epoch,
        "outcome": str(found.outcome),
        "stopped_by": found.stopped_by,
    }


def _score_json(score: Score) -> dict[str, Any]:
    return {"value": score.value, "reason": score.reason}


def _plain(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
