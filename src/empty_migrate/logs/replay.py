"""What the migration means on a user's own eval log.

For every non-answer sample of an Inspect log: the score recorded today beside
the one the migrated scorer would give, and every metric as reported beside
the metric with those samples re-routed. The router itself is run, over a
scorer that replays the recorded score, so answered samples keep their scores
and no model or judge is called. The metrics are recomputed by inspect_ai
(`recompute_metrics`) from the log's own metric definitions and epoch reducer.
"""

import asyncio
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
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

from empty_migrate.entries.output_locations import locator
from empty_migrate.entries.schema import (
    EvalEntry,
    Resolved,
    ScorerEntry,
    VerdictExpression,
    resolve,
)
from empty_migrate.logs.audited import (
    AuditLogError,
    LogAudit,
    LogAudits,
    MetricChange,
    NonAnswerShare,
    Rerouted,
    ScoreMatch,
    Unseen,
)
from empty_migrate.logs.locations import Location
from empty_migrate.logs.outcomes import (
    DEFAULT_LOCATION,
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
    visit_samples,
)
from empty_migrate.logs.provenance import NoEvalOfLog, eval_of_log
from empty_migrate.registry.loader import Registry, RegistryError
from empty_migrate.registry.tasks import eval_named, task_name
from empty_migrate.runtime.policy import Outcome, Route, route_for
from empty_migrate.runtime.router import (
    NonAnswerError,
    replayed_sample,
    route_empty_responses,
)
from empty_migrate.testing.inspect_internals import registry_lookup


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
