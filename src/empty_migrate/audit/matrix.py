"""``empty-migrate audit``: what every registered scorer does with each non-answer.

The behaviour matrix. Every scorer entry of the registry, resolved per task, is
run *as the code of the audited tree stands* on one fixture per outcome class
(``OUTCOME_EXAMPLES``), and each result becomes a row: eval x task x scorer x
outcome, with the value, the reason, how many times a judge was asked, what was
raised, the route it took and today's known faults. The scoring itself happens
in the target's environment (`worker`, started by `run`); this
module plans the jobs, turns their results into rows and compares two audits.
"""

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields
from functools import cache
from pathlib import Path
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from empty_migrate.analysis.findings import Finding
from empty_migrate.analysis.scan import scan_eval
from empty_migrate.entries.output_locations import seen_as
from empty_migrate.entries.schema import Resolved, ScorerEntry, resolve
from empty_migrate.logs.bounds import json_depth
from empty_migrate.logs.routes import ROUTES
from empty_migrate.registry.loader import Registry
from empty_migrate.runtime.policy import Outcome, Route, route_for

NOT_MEASURED = (
    "the scorer fails on the synthetic sample for its own reasons (a missing "
    "sandbox or sample metadata), before asking any judge, and on the answered "
    "sample too: what it does with a non-answer cannot be seen offline, so its "
    "error is shown rather than a route"
)
"""What the ``not_measured`` route means, for the legends."""

FAULTS = {
    "judge_on_non_answer": "a judge was asked to grade a non-answer",
    "preset_without_outcome": (
        "a non-answer got preset_score_on_no_response's verdict, no outcome recorded"
    ),
    "dead_check": "the scorer's empty check never fires: no text reached the judge",
}
"""Today's known faults, by the name rows carry."""

PRESET_EXPLANATION = "assigned preset score without calling the grader"
"""What inspect_evals' ``preset_score_on_no_response`` writes as its explanation."""

NO_TEXT = {
    Outcome.EMPTY,
    Outcome.REASONING_ONLY,
    Outcome.TOOL_CALLS_ONLY,
    Outcome.TRUNCATED,
    Outcome.FILTERED,
    Outcome.NO_OUTPUT,
}
"""Outcome fixtures with no visible text: what an empty check is there to catch."""

SCORED_ROUTES = {Route.SCORE, Route.SCORE_TAGGED}
"""Policy routes under which the eval's own scorer (and its judge) decides."""


@dataclass(frozen=True)
class Planned:
    """One scorer entry in one task, with its settings resolved."""

    eval: str
    task: str | None
    scorer: ScorerEntry
    settings: Resolved

    @property
    def job_key(self) -> str:
        """The worker job that scores it: tasks that share a scorer share a job."""
        return (
            f"{self.eval}:{self.scorer.file}:{self.scorer.name}:{self.settings.output}"
        )

    def job(self) -> dict[str, Any]:
        """The worker's job for this scorer (`empty_migrate.audit.worker`).

        The sample carries the registry's ``probe_metadata``; a per-sample
        polarity eval is audited on its ``refusal_good`` label.
        """
        [(_, metadata), *_] = self.settings.probe_samples()
        return {
            "key": self.job_key,
            "module": self.scorer.module,
            "scorer": self.scorer.name,
            "construct": self.scorer.construct,
            "output_at": self.settings.output,
            "metadata": metadata,
        }


def plan(registry: Registry, evals: Iterable[str]) -> list[Planned]:
    """Every scorer entry of `evals` in every task it scores."""
    return [
        Planned(name, task, scorer, resolve(entry, task, scorer))
        for name in evals
        for entry in [registry.get(name)]
        for scorer in entry.scorers
        for task in entry.tasks_of(scorer)
    ]


@dataclass
class Row:
    """One scorer in one task on one outcome fixture."""

    eval: str
    task: str | None
    scorer: str
    category: str
    fixture: str
    outcome: str
    value: Any
    reason: str | None
    explanation: str | None
    judge_calls: int
    raised: str | None
    raised_message: str | None
    empty_outcome: str | None
    unscored: bool
    route: str
    policy_route: str
    faults: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What matches a row of one audit with its row in another."""
        return (self.eval, self.task or "", self.scorer, self.fixture)


@dataclass(frozen=True)
class NotRun:
    """A scorer the audit could not run offline, and why."""

    eval: str
    task: str | None
    scorer: str
    reason: str


@dataclass
class Audit:
    """The behaviour matrix of one tree."""

    tree: str
    rows: list[Row]
    not_run: list[NotRun]

    def to_json(self) -> str:
        """The audit as the JSON ``--format json`` writes."""
        document = {
            "tree": self.tree,
            "routes": ROUTES,
            "not_measured": NOT_MEASURED,
            "faults": FAULTS,
            "rows": [asdict(row) for row in self.rows],
            "not_run": [asdict(n) for n in self.not_run],
        }
        return json.dumps(document, indent=1)

    @classmethod
    def from_json(cls, text: str) -> "Audit":
        """Read what `to_json` wrote, checking every field a report reads.

        Raises:
            ValueError: The text is not an audit; the message names the field
                (``rows[3].route: 'x' is not a route``) and what is wrong.
        """
        if (depth := json_depth(text)) > MAX_SAVED_DEPTH:
            raise ValueError(
                f"nested {depth} deep (an audit is at most {MAX_SAVED_DEPTH})"
            )
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not JSON ({error})") from None
        if not isinstance(document, dict) or "rows" not in document:
            raise ValueError("not an empty-migrate audit (no 'rows')")
        tree = document.get("tree", "?")
        if not isinstance(tree, str):
            raise ValueError(f"tree: {_shown(tree)} is not a text")
        rows = [
            Row(**_fields_of(Row, item, f"rows[{i}]"))
            for i, item in enumerate(_listed(document, "rows"))
        ]
        for index, row in enumerate(rows):
            _check_names(row, f"rows[{index}]")
        # an audit saved before the route existed reads as a new one would
        mark_not_measured(rows)
        not_run = [
            NotRun(**_fields_of(NotRun, item, f"not_run[{i}]"))
            for i, item in enumerate(_listed(document, "not_run"))
        ]
        return cls(tree, rows, not_run)

    def faults_by_eval(self) -> dict[str, dict[str, int]]:
        """Eval -> fault -> how many rows have it."""
        counts: dict[str, dict[str, int]] = {}
        for row in self.rows:
            for fault in row.faults:
                per_eval = counts.setdefault(row.eval, {})
                per_eval[fault] = per_eval.get(fault, 0) + 1
        return counts


MAX_SAVED_BYTES = 256 * 1024 * 1024
"""The largest saved audit read: a full audit of a release is a few MB."""
MAX_SAVED_DEPTH = 64
"""The deepest nesting a saved audit may have (a row's value sits at 4 or 5)."""


def read_audit(path: Path) -> Audit:
    """Read a saved audit (``audit --format json``), bounded in size and depth.

    Raises:
        ValueError: `path` cannot be read as an audit; the message names the
            file, and the field when one is wrong.
    """
    try:
        with path.open("rb") as file:
            data = file.read(MAX_SAVED_BYTES + 1)
        if len(data) > MAX_SAVED_BYTES:
            raise ValueError(f"larger than {MAX_SAVED_BYTES // 2**20} MiB")
        return Audit.from_json(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise ValueError(f"{path}: cannot be read: {error.strerror}") from None
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def _listed(document: dict[str, Any], key: str) -> list[Any]:
    items = document.get(key, [])
    if not isinstance(items, list):
        raise ValueError(f"{key}: {_shown(items)} is not a list")
    return items


def _fields_of(kind: type[Any], item: Any, where: str) -> dict[str, Any]:
    """The fields of dataclass `kind` in `item`, each of its declared type."""
    if not isinstance(item, dict):
        raise ValueError(f"{where}: {_shown(item)} is not an object")
    found: dict[str, Any] = {}
    for name, hint in get_type_hints(kind).items():
        if name not in item:
            if _has_default(kind, name):
                continue
            raise ValueError(f"{where}: no {name!r}")
        if not _fits(item[name], hint):
            raise ValueError(
                f"{where}.{name}: {_shown(item[name])} is not {_described(hint)}"
            )
        found[name] = item[name]
    return found


def _check_names(row: Row, where: str) -> None:
    """A row's route and faults are ones the reports can name."""
    if row.route not in ROUTES:
        raise ValueError(
            f"{where}.route: {_shown(row.route)} is not a route "
            f"(one of {', '.join(ROUTES)})"
        )
    for fault in row.faults:
        if fault not in FAULTS:
            raise ValueError(
                f"{where}.faults: {_shown(fault)} is not a fault "
                f"(one of {', '.join(FAULTS)})"
            )


def _has_default(kind: type[Any], name: str) -> bool:
    declared = next(f for f in fields(kind) if f.name == name)
    return declared.default is not MISSING or declared.default_factory is not MISSING


def _fits(value: Any, hint: Any) -> bool:
    if hint is Any:
        return True
    if get_origin(hint) in (Union, UnionType):
        return any(_fits(value, one) for one in get_args(hint))
    if get_origin(hint) is list:
        [inner] = get_args(hint)
        return isinstance(value, list) and all(_fits(v, inner) for v in value)
    if hint is int:  # JSON's true is no count
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def _described(hint: Any) -> str:
    if get_origin(hint) in (Union, UnionType):
        return " or ".join(_described(one) for one in get_args(hint))
    if get_origin(hint) is list:
        return "a list of texts"  # the one list a row has: its faults
    names = {str: "a text", int: "a count", bool: "true or false", type(None): "null"}
    return names.get(hint, str(hint))


def _shown(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def build_audit(
    tree: Path, planned: Sequence[Planned], results: Mapping[str, dict[str, Any]]
) -> Audit:
    """Rows from the worker's `results` (job key -> line), with routes and faults."""
    dead_checks = {
        name: scan_eval(tree, name).dead_checks for name in {p.eval for p in planned}
    }
    rows: list[Row] = []
    not_run: list[NotRun] = []
    for item in planned:
        result = results.get(item.job_key, {"not_run": "the worker gave no result"})
        if "not_run" in result:
            not_run.append(
                NotRun(item.eval, item.task, item.scorer.name, result["not_run"])
            )
            continue
        names = _scorer_names(item.scorer.name, len(result["scorers"]))
        for name, observed in zip(names, result["scorers"], strict=True):
            rows += make_rows(item, name, observed, dead_checks[item.eval])
    return Audit(str(tree), rows, not_run)


def _scorer_names(name: str, count: int) -> list[str]:
    # a Task(scorer=[a, b]) entry builds several scorers: one row each
    return [name] if count == 1 else [f"{name}[{i}]" for i in range(count)]


def make_rows(
    item: Planned,
    scorer: str,
    observed: Sequence[Mapping[str, Any]],
    dead_checks: Sequence[Finding],
) -> list[Row]:
    """One built scorer's rows, one per fixture the worker observed, with faults."""
    rows = [make_row(item, scorer, seen) for seen in observed]
    mark_not_measured(rows)
    for row in rows:
        row.faults = faults_of(row, item.scorer.file, dead_checks)
    return rows


def make_row(item: Planned, scorer: str, observed: Mapping[str, Any]) -> Row:
    """One row from what the worker observed (`empty_migrate.audit.worker.observe`).

    Its route is what this fixture alone shows; `mark_not_measured` may then
    take a ``raised`` back, and its faults are not filled in yet.
    """
    settings = item.settings
    overrides = {o.outcome: o.route for o in settings.overrides}
    # where the eval keeps less than the provider gave, the router routes what it sees
    seen = seen_as(Outcome(observed["outcome"]), settings.output)
    row = Row(
        eval=item.eval,
        task=item.task,
        scorer=scorer,
        category=settings.category,
        unscored=is_unscored(observed["value"]) and not observed["raised"],
        route="",
        policy_route=str(route_for(settings.category, seen, overrides)),
        **observed,
    )
    row.route = observed_route(row, settings.refusal_verdict)
    return row


def is_unscored(value: Any) -> bool:
    """Whether a score value (as JSON holds it) is ``Score.unscored()``'s NaN."""
    if isinstance(value, dict) and value:
        return all(is_unscored(v) for v in value.values())
    return value == "NaN" or (isinstance(value, float) and math.isnan(value))


def observed_route(row: Row, refusal_verdict: Any) -> str:
    """What the scorer did with the fixture, as one of `ROUTES`."""
    if row.raised:
        return "raised"
    if row.judge_calls:
        return "judge"
    if row.unscored:
        return "unscored"
    if refusal_verdict is not None and _same_value(row.value, refusal_verdict):
        return "refusal"
    if row.empty_outcome:
        # the router's no-answer verdict, in whatever shape the eval's scale needs
        # (niah's 1.0 is the judge's lowest grade)
        return "wrong"
    return "wrong" if as_float(row.value) == 0.0 else "scored"


def mark_not_measured(rows: Iterable[Row]) -> None:
    """Take ``raised`` back, in place, where a scorer failed for its own reasons.

    The rule: a scorer that `fails_on_its_own` on the answered fixture cannot
    run offline on a synthetic sample at all, so each fixture it fails on in
    that way is ``not_measured``. A scorer that fails only on non-answers (an
    IndexError on empty text) keeps ``raised``: that is what its code does with
    a non-answer today. The router's own errors are always ``raised``.
    """
    rows = list(rows)
    cannot_run = {
        row.key[:3]
        for row in rows
        if row.outcome == Outcome.ANSWERED and fails_on_its_own(row)
    }
    for row in rows:
        if row.key[:3] in cannot_run and fails_on_its_own(row):
            row.route = "not_measured"


def fails_on_its_own(row: Row) -> bool:
    """Whether the scorer raised an error of its own before asking any judge.

    Not the router's error (`router_errors`), which is the policy's route; and
    a judge asked before the error means the scorer ran far enough to show
    what it does with the sample.
    """
    return (
        bool(row.raised) and row.raised not in router_errors() and not row.judge_calls
    )


@cache
def router_errors() -> frozenset[str]:
    """The class names of the router's errors: `NonAnswerError` and its subclasses.

    By name, as the worker reports what was raised (``type(error).__name__``).
    """
    # imported here: the router needs inspect_ai, which is slow to import
    from empty_migrate.runtime.router import NonAnswerError

    found: set[str] = set()
    classes: list[type] = [NonAnswerError]
    while classes:
        error = classes.pop()
        found.add(error.__name__)
        classes += error.__subclasses__()
    return frozenset(found)


def _same_value(value: Any, verdict: Any) -> bool:
    if isinstance(verdict, dict) and isinstance(value, dict):
        return all(_same_value(value.get(k), v) for k, v in verdict.items())
    if isinstance(verdict, int | float) and not isinstance(verdict, bool):
        return as_float(value) == float(verdict)
    return bool(value == verdict)


def as_float(value: Any) -> float | None:
    """A score value as a metric reads it (a dict by its ``score`` or first key)."""
    if isinstance(value, dict):
        value = value.get("score", next(iter(value.values()), None))
    if not isinstance(value, str | int | float):
        return None
    # imported here: inspect_ai is slow to import and only rows need it
    from inspect_ai.scorer import value_to_float

    try:
        return value_to_float()(value)
    except (TypeError, ValueError):
        return None


def faults_of(row: Row, file: str, dead_checks: Sequence[Finding]) -> list[str]:
    """Today's known faults in one row (`FAULTS`); a cell not measured has none."""
    if row.outcome == Outcome.ANSWERED or row.route == "not_measured":
        return []
    faults = []
    if row.judge_calls and Route(row.policy_route) not in SCORED_ROUTES:
        faults.append("judge_on_non_answer")
        if row.outcome in NO_TEXT and any(c.file == file for c in dead_checks):
            faults.append("dead_check")
    if PRESET_EXPLANATION in (row.explanation or "") and not row.empty_outcome:
        faults.append("preset_without_outcome")
    return faults
