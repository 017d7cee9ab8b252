"""What an audit of a user's own eval log found: the model of `audit --log`.

The rows (a non-answer sample's score today beside the migrated one), the
metrics as reported beside recomputed, the non-answer shares, and their totals
over many logs. Built by `replay`, shown by `render`.
"""

import math
from dataclasses import dataclass, field

from inspect_ai.scorer import Score

from empty_migrate.errors import EmptyMigrateError
from empty_migrate.logs.outcomes import (
    LogCoverage,
    SampleOutcome,
)
from empty_migrate.runtime.policy import Route


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
