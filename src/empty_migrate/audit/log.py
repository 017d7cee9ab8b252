"""What the migration means on a user's own eval log.

For every non-answer sample of an Inspect log: the score recorded today beside
the one the migrated scorer would give, and every metric as reported beside
the metric with those samples re-routed. The router itself is run, over a
scorer that replays the recorded score, so answered samples keep their scores
and no model or judge is called. The metrics are recomputed by inspect_ai
(`recompute_metrics`) from the log's own metric definitions and epoch reducer.
"""

import asyncio
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, astuple, dataclass, field, replace
from pathlib import Path
from typing import Any

from inspect_ai.log import (
    EvalError,
    EvalLog,
    EvalResults,
    EvalSample,
    recompute_metrics,
    resolve_sample_attachments,
)
from inspect_ai.model import ChatMessageTool
from inspect_ai.scorer import Score, Scorer, Target, value_to_float
from inspect_ai.solver import TaskState

from empty_migrate.audit.locations import Location
from empty_migrate.audit.outcomes import (
    DEFAULT_LOCATION,
    LogCoverage,
    LogProgress,
    SampleOutcome,
    classify_sample,
    first_line,
    generate_limit,
    log_coverage,
    log_order,
    read_each,
    read_header,
    readable_log,
    sample_state,
    shortened,
    visit_samples,
)
from empty_migrate.audit.provenance import NoEvalOfLog, eval_of_log
from empty_migrate.entries.output_locations import locator
from empty_migrate.entries.schema import (
    EvalEntry,
    Resolved,
    ScorerEntry,
    VerdictExpression,
    resolve,
)
from empty_migrate.errors import EmptyMigrateError
from empty_migrate.registry.loader import Registry, RegistryError
from empty_migrate.registry.tasks import eval_named, task_name
from empty_migrate.runtime.policy import Outcome, Route, route_for
from empty_migrate.runtime.router import (
    NonAnswerError,
    replayed_sample,
    route_empty_responses,
)
from empty_migrate.testing.inspect_internals import registry_lookup


class AuditLogError(EmptyMigrateError):
    """The log cannot be audited against the eval: one line says why."""


@dataclass(frozen=True)
class ScoreMatch:
    """The registry scorer a score name of the log stands for.

    Attributes:
        score: The score name in the log.
        scorer: The registry scorer's name.
        assumed: Why it was assumed, when the names differ.
    """

    score: str
    scorer: str
    assumed: str | None = None


@dataclass(frozen=True)
class Rerouted:
    """One non-answer sample epoch under one scorer: recorded and migrated.

    Attributes:
        sample: The sample epoch's classified output.
        score: The score name in the log.
        route: The route the migrated scorer takes.
        recorded: The score in the log.
        migrated: The score the migrated scorer gives; None if it raises.
        raised: The error the migrated scorer raises, by class name.
        needs_code: For a verdict only the eval's code can give, what it means.
    """

    sample: SampleOutcome
    score: str
    route: Route
    recorded: Score
    migrated: Score | None = None
    raised: str | None = None
    needs_code: str | None = None


@dataclass(frozen=True)
class MetricChange:
    """One metric as reported, and as it would be after the migration.

    Attributes:
        score: The score name of the result (a dict metric's key for those).
        metric: The metric's name.
        reducer: The epoch reducer it was reduced by, however the log's
            release names it (`reducer_key`).
        before: The reported value.
        after: The recomputed value; None when not recomputed.
        not_recomputed: Why it was not recomputed.
    """

    score: str
    metric: str
    reducer: str
    before: float | None
    after: float | None
    not_recomputed: str | None = None


@dataclass(frozen=True)
class NonAnswerShare:
    """How much of one scorer's reported number is made of non-answers.

    Every count is of sample epochs: ``samples`` those the log scored,
    ``non_answers`` those of them that are non-answers, ``wrong_today`` those
    recorded as a value that reads as 0, ``unscored`` and ``raised`` those the
    migration leaves unscored or makes errors.
    """

    score: str
    samples: int
    non_answers: int
    wrong_today: int
    unscored: int
    raised: int


@dataclass(frozen=True)
class LogAudit:
    """The audit of one log against one registered eval.

    ``samples`` counts the distinct samples the log holds, and ``epochs`` the
    distinct epochs it holds of them (a cancelled run may hold fewer than
    planned: ``coverage.epochs``); ``coverage`` says how many sample epochs
    the log holds (the denominator) and whether the run ended early.
    ``errors`` are the sample epochs that ended in an error: Inspect scored
    none of them, so they are not re-routed. ``model`` is the model the log
    records.
    """

    log: str
    eval: str
    task: str
    category: str
    samples: int
    epochs: int
    matches: list[ScoreMatch]
    rows: list[Rerouted]
    metrics: list[MetricChange]
    shares: list[NonAnswerShare]
    coverage: LogCoverage
    errors: list[SampleOutcome]
    model: str | None = None
    unseen: list["Unseen"] = field(default_factory=list)


@dataclass(frozen=True)
class Unseen:
    """A score whose eval's output location held nothing in any scored sample.

    Its non-answers cannot be read from the log: the router would leave
    every sample to the scorer, as it did.
    """

    score: str
    location: str

    def line(self, unit: str) -> str:
        """The line the audit says of it."""
        return (
            f"score {self.score}: the eval's output location ({self.location}) "
            f"holds nothing in any {unit[:-1]} of this log, so its non-answers "
            "cannot be read from it"
        )


@dataclass(frozen=True)
class ShareTotal:
    """One eval's scorer over several logs: its non-answer shares, summed.

    ``logs`` counts the logs the scorer was audited in; the other counts are
    the sums of their `NonAnswerShare`, in sample epochs.
    """

    eval: str
    score: str
    logs: int
    samples: int
    non_answers: int
    wrong_today: int
    unscored: int
    raised: int


@dataclass(frozen=True)
class MetricTotal:
    """One reported metric over several logs: how often it was recomputed, changed.

    ``reducer`` is the epoch reducer it was reduced by, however each log's
    release names it (`reducer_key`); ``changed`` counts the logs where the
    recomputed value differs from the reported one.
    """

    eval: str
    score: str
    metric: str
    reducer: str
    logs: int
    recomputed: int
    changed: int


@dataclass(frozen=True)
class LogAudits:
    """The audits of every log named by files and folders, and those not audited.

    Attributes:
        audits: One `LogAudit` per log audited, in order.
        unreadable: One line per log found in a folder that is cut short or
            damaged, naming the file.
        not_audited: One line per log with no eval to audit it against (a
            task the registry does not know, another eval's task, a task
            named like an eval in a log that records no inspect_evals, a
            score no scorer matches), naming the file.
        skipped: One note per ``.json`` in a folder that is not an Inspect log.
    """

    audits: list[LogAudit]
    unreadable: list[str]
    not_audited: list[str]
    skipped: list[str]

    def shares(self) -> list[ShareTotal]:
        """The non-answer share of each eval's scorer, summed over the logs."""
        groups: dict[tuple[str, str], list[NonAnswerShare]] = {}
        for audit in self.audits:
            for share in audit.shares:
                groups.setdefault((audit.eval, share.score), []).append(share)
        return [
            ShareTotal(
                eval_name,
                score,
                logs=len(shares),
                samples=sum(s.samples for s in shares),
                non_answers=sum(s.non_answers for s in shares),
                wrong_today=sum(s.wrong_today for s in shares),
                unscored=sum(s.unscored for s in shares),
                raised=sum(s.raised for s in shares),
            )
            for (eval_name, score), shares in groups.items()
        ]

    def metrics(self) -> list[MetricTotal]:
        """Each eval's reported metrics: in how many logs recomputed and changed."""
        groups: dict[tuple[str, str, str, str], list[MetricChange]] = {}
        for audit in self.audits:
            for change in audit.metrics:
                key = (audit.eval, change.score, change.metric, change.reducer)
                groups.setdefault(key, []).append(change)
        return [
            MetricTotal(
                *key,
                logs=len(changes),
                recomputed=sum(1 for c in changes if c.after is not None),
                changed=sum(1 for c in changes if metric_changed(c)),
            )
            for key, changes in groups.items()
        ]


def metric_changed(change: MetricChange) -> bool:
    """Whether a recomputed metric differs from the reported one.

    Recomputing the same samples may differ in the last bits of a float, which
    is no change; a metric not recomputed has not changed.
    """
    before, after = change.before, change.after
    if after is None or before is None:
        return after is not None and before is None
    if math.isnan(before) or math.isnan(after):
        return math.isnan(before) != math.isnan(after)
    return not math.isclose(before, after, rel_tol=1e-9, abs_tol=1e-12)


def audit_logs(
    paths: Iterable[Location],
    eval_name: str | None = None,
    registry: Registry | None = None,
    progress: LogProgress | None = None,
) -> LogAudits:
    """Audit every log named by files and folders (``.eval`` and ``.json``).

    Each log is audited as `audit_log` does, against `eval_name` if given,
    else against the eval of the task it records (`eval_of_log`). A log found
    in a folder that is cut short or damaged, and a log with no eval to audit
    it against, is one line of the result; the others are still audited.

    Args:
        paths: Logs, and folders: every log under a folder, recursively.
        eval_name: The registry eval (or task) every log is a run of.
        registry: The registry; the packaged one by default.
        progress: Called before each log is read (`LogProgress`).

    Raises:
        AuditLogError: If `eval_name` names no eval, or one not migrated.
        LogReadError: If a file named explicitly is not a readable log, or a
            folder holds no log.
        RegistryError: If an eval's registry entry has problems.
    """
    registry = registry or Registry()
    if eval_name:
        # checked once, before any log is read
        _entry(registry, _named(registry, eval_name)[0])
    not_audited: list[str] = []

    def audit_one(path: Location) -> LogAudit | None:
        try:
            return audit_log(path, eval_name, registry)
        except AuditLogError as error:
            not_audited.append(f"{path}: {error}")
            return None

    found = read_each(paths, audit_one, progress)
    audits = [audit for audit in found.read if audit is not None]
    return LogAudits(audits, found.unreadable, not_audited, found.skipped)


def audit_log(
    log_path: str | Path, eval_name: str | None = None, registry: Registry | None = None
) -> LogAudit:
    """Audit the non-answers of one Inspect log against one registered eval.

    Args:
        log_path: A ``.eval`` or ``.json`` log written by ``inspect eval``.
        eval_name: The registry eval the log is a run of, or its task; if
            None, the eval of the log's task when the log records that it is
            a run of inspect_evals (`eval_of_log`).
        registry: The registry; the packaged one by default.

    Returns:
        The rows, the metrics before and after, and the non-answer shares.

    Raises:
        AuditLogError: Unknown eval or task, a log of another task, a log
            that records no inspect_evals run and no `eval_name`, or a score
            name that matches no registry scorer.
        LogReadError: If the file is not a readable Inspect log.
        RegistryError: If the eval's registry entry has problems.
    """
    registry = registry or Registry()
    named = _named(registry, eval_name) if eval_name else None
    # an eval named is checked before its log is read, which may take a while
    entry = _entry(registry, named[0]) if named else None
    with readable_log(log_path) as path:
        log = read_header(path)
        eval_name, named_task = named or _found(registry, log)
        entry = entry or _entry(registry, eval_name)
        task, matches, settings = _score_settings(log, entry, eval_name, named_task)
        rerouted = _rerouted_log(path, str(log_path), log, settings)
    log, rows = rerouted.log, rerouted.rows
    after, not_recomputed = recomputed(migrated_log(log, rows))
    return LogAudit(
        log=str(log_path),
        eval=eval_name,
        task=task,
        category=entry.category,
        samples=len({s.id for s in log.samples or []}),
        epochs=len({s.epoch for s in log.samples or []}),
        matches=matches,
        rows=rows,
        metrics=metric_changes(
            log.results, after, not_recomputed, rows, log.eval.config.epochs_reducer
        ),
        shares=[_share(log, m.score, rows) for m in matches],
        coverage=log_coverage(log),
        errors=_error_rows(str(log_path), log),
        model=log.eval.model,
        unseen=[Unseen(name, settings[name].output) for name in rerouted.unseen],
    )


def _error_rows(log_name: str, log: EvalLog) -> list[SampleOutcome]:
    """The sample epochs that ended in an error, classified as `outcomes` does."""
    rows = []
    for sample in log.samples or []:
        if _errored(sample):
            found = classify_sample(log_name, log, sample)
            assert found is not None  # the router's rule always finds the slot
            rows.append(found)
    return rows


def answer_location(registry: Registry) -> Callable[[EvalLog], str]:
    """Where each log's eval keeps the model's answer, for `outcomes`.

    The registry output location `audit_log` reads for the log's first score,
    found by the same matching; the router's own rule (``state.output``) for
    a log of no registered, migrated eval.
    """

    def location(log: EvalLog) -> str:
        try:
            eval_name, _ = _found(registry, log)
            entry = _entry(registry, eval_name)
            _, _, settings = _score_settings(log, entry, eval_name, None)
        except (AuditLogError, RegistryError):
            return DEFAULT_LOCATION
        first = next(iter(settings.values()), None)
        return first.output if first else DEFAULT_LOCATION

    return location


def _score_settings(
    log: EvalLog, entry: EvalEntry, eval_name: str, named_task: str | None
) -> tuple[str, list[ScoreMatch], dict[str, Resolved]]:
    """The log's task, its scores matched to registry scorers, and their settings."""
    task = _task_of(log, entry, eval_name, named_task)
    matches = match_scores(_score_names(log), entry, task, eval_name)
    scorers = {s.name: s for s in entry.scorers}
    settings = {m.score: resolve(entry, task, scorers[m.scorer]) for m in matches}
    return task, matches, settings


def _named(registry: Registry, name: str) -> tuple[str, str | None]:
    try:
        return eval_named(registry, name)
    except KeyError as error:
        raise AuditLogError(error.args[0]) from None


def _found(registry: Registry, log: EvalLog) -> tuple[str, str]:
    try:
        return eval_of_log(registry, log)
    except NoEvalOfLog as error:
        raise AuditLogError(error.args[0]) from None


def _entry(registry: Registry, eval_name: str) -> EvalEntry:
    try:
        entry = registry.get(eval_name)
    except KeyError as error:
        raise AuditLogError(error.args[0]) from None
    if not isinstance(entry.codemods, list):
        raise AuditLogError(
            f"{eval_name} is not migrated (codemods: {entry.codemods}); "
            "its scores would not change"
        )
    return entry


def _task_of(
    log: EvalLog, entry: EvalEntry, eval_name: str, named_task: str | None
) -> str:
    # a task run from the installed package is recorded as inspect_evals/<task>
    task = task_name(log.eval.task)
    known = list(entry.tasks) or [eval_name]
    if task not in known or named_task not in (None, task):
        raise AuditLogError(
            f"the log is a run of task {log.eval.task!r}, not of "
            f"{named_task or eval_name} (the tasks of {eval_name}: {', '.join(known)})"
        )
    return task


def _score_names(log: EvalLog) -> list[str]:
    if log.eval.scorers:
        return [s.name for s in log.eval.scorers]
    names = (name for s in log.samples or [] for name in (s.scores or {}))
    return list(dict.fromkeys(names))


def match_scores(
    names: Sequence[str], entry: EvalEntry, task: str, eval_name: str
) -> list[ScoreMatch]:
    """Match each score name of a log to a routed registry scorer of its task.

    A name matches a scorer of the same name. Otherwise, when the task has
    exactly one routed scorer, that one is assumed (a ``task_scorer`` entry is
    named for its task function, not for the scorer the log records).

    Raises:
        AuditLogError: If a name matches nothing and no scorer can be assumed.
    """
    routed = [
        s
        for s in entry.scorers
        if s.rewrite and (s.tasks is None or task in s.tasks)
        if resolve(entry, task, s).output != "none"
    ]
    by_name = {s.name: s for s in routed}
    return [_match(name, by_name, task, eval_name) for name in names]


def _match(
    name: str, by_name: dict[str, ScorerEntry], task: str, eval_name: str
) -> ScoreMatch:
    if name in by_name:
        return ScoreMatch(name, name)
    if len(by_name) == 1:
        [only] = by_name
        why = f"no registry scorer is named {name!r}; {only!r} is the only routed "
        return ScoreMatch(name, only, why + f"scorer of task {task}")
    known = ", ".join(by_name) or "none"
    raise AuditLogError(
        f"score {name!r} in the log matches no routed scorer of {eval_name} "
        f"task {task} (routed scorers: {known})"
    )


@dataclass(frozen=True)
class _Rerouted:
    log: EvalLog
    rows: list[Rerouted]
    unseen: list[str]


def _rerouted_log(
    log_path: Location, name: str, header: EvalLog, settings: dict[str, Resolved]
) -> _Rerouted:
    """The log with its samples cut to what metrics read, and the re-routed rows.

    The samples are streamed: each is re-routed whole (its attachments
    resolved, as its scorer saw it), then only its scores, output, error and
    limit are kept, so memory does not grow with a log's messages and events.
    ``unseen`` names the scores whose output location held nothing in any
    scored sample.
    """
    loop = asyncio.new_event_loop()
    limit = generate_limit(header)
    located: set[str] = set()
    scored: set[str] = set()

    def reroute(sample: EvalSample) -> tuple[EvalSample, list[Rerouted]]:
        # a sample that errored was never scored: the migration cannot change it;
        # one that hit a limit was scored on its last state, and is re-routed
        if _errored(sample):
            return _scored_part(sample), []
        sample = resolve_sample_attachments(sample)
        scored.update(name for name in settings if name in (sample.scores or {}))
        with replayed_sample(sample.events or [], limit):
            rows, found_in = loop.run_until_complete(
                _reroute_sample(name, header, sample, settings)
            )
        located.update(found_in)
        return _scored_part(sample), rows

    try:
        visited = visit_samples(log_path, header, reroute)
    finally:
        loop.close()
    # the order a whole read gives, which the rows and counts follow
    visited.sort(key=lambda visit: log_order(visit[0].id, visit[0].epoch))
    samples = [sample for sample, _ in visited]
    rows = [row for _, sample_rows in visited for row in sample_rows]
    unseen = [name for name in settings if name in scored - located]
    return _Rerouted(header.model_copy(update={"samples": samples}), rows, unseen)


def _scored_part(sample: EvalSample) -> EvalSample:
    """What recomputing metrics and counting reads of a sample, and no more."""
    return sample.model_copy(
        update={
            "input": "",
            "messages": [],
            "events": [],
            "attachments": {},
            "store": {},
            "metadata": {},
        }
    )


def _errored(sample: EvalSample) -> bool:
    return getattr(sample, "error", None) is not None


async def _reroute_sample(
    log_name: str, log: EvalLog, sample: EvalSample, settings: dict[str, Resolved]
) -> tuple[list[Rerouted], set[str]]:
    """The sample's re-routed rows, and the scores whose output location held one.

    Run inside the sample's replayed transcript (`replayed_sample`): its
    answer is found and classified by `classify_sample`, the code `outcomes`
    uses, and routed by the router itself.
    """
    rows, located = [], set()
    state = sample_state(log, sample)
    for name, resolved in settings.items():
        recorded = (sample.scores or {}).get(name)
        if recorded is None:
            continue
        # the router leaves a sample with nothing at the location to the
        # scorer, and one answered in any of several outputs (classify_outputs)
        found = classify_sample(log_name, log, sample, resolved.output)
        if found is None:
            continue
        located.add(name)
        if found.outcome != Outcome.ANSWERED:
            rows.append(await _rerouted(found, name, recorded, resolved, state))
    return rows, located


class _VerdictNeedsCode(Exception):
    def __init__(self, verdict: VerdictExpression) -> None:
        super().__init__(verdict.meaning)
        self.meaning = verdict.meaning


async def _rerouted(
    found: SampleOutcome,
    name: str,
    recorded: Score,
    settings: Resolved,
    state: TaskState,
) -> Rerouted:
    overrides = {o.outcome: o.route for o in settings.overrides}
    ran_tools = any(isinstance(m, ChatMessageTool) for m in state.messages)
    route = route_for(
        settings.category, found.outcome, overrides, after_trajectory=ran_tools
    )
    row = Rerouted(found, name, route, recorded)
    try:
        score = await _routed(recorded, settings)(state, state.target)
    except NonAnswerError as error:
        return replace(row, raised=type(error).__name__)
    except _VerdictNeedsCode as error:
        return replace(row, needs_code=error.meaning)
    return replace(row, migrated=score)


def _routed(recorded: Score, settings: Resolved) -> Scorer:
    async def replay(state: TaskState, target: Target) -> Score:
        return recorded.model_copy(deep=True)

    verdicts = {
        key: _verdict(value)
        for key in ("refusal_verdict", "no_answer_verdict")
        if (value := getattr(settings, key)) is not None
    }
    return route_empty_responses(
        replay,
        category=settings.category,
        output=locator(settings.output),
        overrides={o.outcome: o.route for o in settings.overrides},
        copy_metadata=settings.copy_metadata,
        verdict_metadata=_verdict(settings.verdict_metadata),
        **verdicts,
    )


def _verdict(value: Any) -> Any:
    if not isinstance(value, VerdictExpression):
        return value

    def needs_code(state: TaskState, target: Target) -> Any:
        raise _VerdictNeedsCode(value)

    return needs_code


def migrated_log(log: EvalLog, rows: Iterable[Rerouted]) -> EvalLog:
    """A copy of the log with every non-answer re-routed as the migration would.

    A verdict or unscored score replaces the recorded one. A raise makes the
    whole sample epoch an error, with no scores, as a raising scorer does.
    """
    migrated = log.model_copy(deep=True)
    samples = {(s.id, s.epoch): s for s in migrated.samples or []}
    for row in rows:
        sample = samples[(row.sample.sample_id, row.sample.epoch)]
        if row.raised:
            sample.scores = None
            sample.error = EvalError(
                message=f"{row.raised}: {row.sample.outcome} ({row.sample.signal})",
                traceback="",
                traceback_ansi="",
            )
        elif row.migrated is not None and sample.scores is not None:
            sample.scores[row.score] = row.migrated
    return migrated


def recomputed(log: EvalLog) -> tuple[EvalResults | None, dict[str, str]]:
    """Recompute a log's metrics with its own definitions and epoch reducer.

    Metrics that are not registered in this environment (an eval's own metric
    without the eval installed) are left out, each with the reason.

    Returns:
        The new results (None if nothing could be recomputed), and the reason
        per metric name (unqualified, as results name them) left out.
    """
    missing = _drop_unregistered_metrics(log)
    try:
        recompute_metrics(log)
    except Exception as error:
        reason = f"recomputing failed: {first_line(error)}"
        return None, {"*": reason}
    return log.results, missing


def _drop_unregistered_metrics(log: EvalLog) -> dict[str, str]:
    missing: dict[str, str] = {}

    def keep(definitions: list[Any]) -> list[Any]:
        kept = []
        for item in definitions:
            if isinstance(item, dict):
                kept.append({key: keep(group) for key, group in item.items()})
            elif registry_lookup("metric", item.name) is not None:
                kept.append(item)
            else:
                missing[item.name.rpartition("/")[2]] = _unregistered(item.name)
        return kept

    for scorer in log.eval.scorers or []:
        scorer.metrics = _kept(scorer.metrics, keep)
    log.eval.metrics = _kept(log.eval.metrics, keep) if log.eval.metrics else None
    return missing


def _kept(metrics: Any, keep: Callable[[list[Any]], list[Any]]) -> Any:
    if isinstance(metrics, dict):
        return {key: keep(group) for key, group in metrics.items()}
    return keep(list(metrics or []))


def _unregistered(name: str) -> str:
    package, slash, _ = name.partition("/")
    where = (
        f"install {package} here to recompute it"
        if slash
        else "it is defined in the task's own file, which audit does not run"
    )
    return f"metric {name!r} is not registered: {where}"


def metric_changes(
    before: EvalResults | None,
    after: EvalResults | None,
    not_recomputed: dict[str, str],
    rows: Sequence[Rerouted],
    epochs_reducer: Sequence[str] | None = None,
) -> list[MetricChange]:
    """Pair every reported metric with its recomputed value, or the reason not.

    Args:
        before: The results the log reports.
        after: The recomputed results.
        not_recomputed: The reason per metric name left out of `after`.
        rows: The re-routed non-answers (a verdict only code gives stops a score).
        epochs_reducer: The log's configured epoch reducers, which say what a
            score recorded with no reducer was reduced by.
    """
    needs_code = {r.score: r.needs_code for r in rows if r.needs_code}
    recomputed_values = {
        (s.name, reducer_key(s.reducer, epochs_reducer), m): metric.value
        for s in (after.scores if after else [])
        for m, metric in s.metrics.items()
    }
    changes = []
    for score in before.scores if before else []:
        reducer = reducer_key(score.reducer, epochs_reducer)
        for name, metric in score.metrics.items():
            reason = _why_not(score.scorer, name, not_recomputed, needs_code)
            key = (score.name, reducer, name)
            value = None if reason else recomputed_values.get(key)
            if reason is None and value is None:
                reason = "absent from the recomputed results"
            changes.append(
                MetricChange(score.name, name, reducer, metric.value, value, reason)
            )
    return changes


def reducer_key(reducer: str | None, epochs_reducer: Sequence[str] | None) -> str:
    """The epoch reducer a result was reduced by, however its release names it.

    A result reduced by the default records ``reducer: None``: beside
    ``epochs_reducer: ['mean']`` in logs of inspect-ai 0.3.79 to 0.3.200, with
    no ``epochs_reducer`` in 0.3.285; ``recompute_metrics`` may name the same
    reduction ``'mean'``. So a result with no reducer was reduced by the log's
    one configured reducer, or by the default mean, and both sides of a
    comparison take this key.
    """
    if reducer is not None:
        return reducer
    if epochs_reducer and len(epochs_reducer) == 1:
        return epochs_reducer[0]
    return "mean"


def _why_not(
    scorer: str, metric: str, not_recomputed: dict[str, str], needs_code: dict[str, str]
) -> str | None:
    if scorer in needs_code:
        return f"a verdict needs the eval's code: {needs_code[scorer]}"
    return not_recomputed.get(metric) or not_recomputed.get("*")


def _share(log: EvalLog, score: str, rows: Sequence[Rerouted]) -> NonAnswerShare:
    mine = [r for r in rows if r.score == score]
    return NonAnswerShare(
        score=score,
        samples=sum(1 for s in log.samples or [] if score in (s.scores or {})),
        non_answers=len(mine),
        wrong_today=sum(1 for r in mine if _reads_as_zero(r.recorded.value)),
        unscored=sum(1 for r in mine if r.route == Route.UNSCORED),
        raised=sum(1 for r in mine if r.raised),
    )


def _reads_as_zero(value: Any) -> bool:
    if isinstance(value, dict | list):
        return False
    number = value_to_float()(value)
    return not math.isnan(number) and number == 0


# Rendering


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
