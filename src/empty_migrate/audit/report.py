"""The audit as people read it: the grid (one line per eval x scorer) and text.

One grid serves the text and the HTML renderings, of one audit or of two
compared: tasks whose cells are all alike share a line, and in a comparison
each cell holds the row before and the row after. A cell not measured on
either side is not comparable: the scorer's own failure says nothing of what
the migration changed.
"""

import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from empty_migrate.audit.matrix import (
    FAULTS,
    NOT_MEASURED,
    Audit,
    NotRun,
    Row,
)
from empty_migrate.logs.routes import ROUTES
from empty_migrate.runtime.policy import Outcome

OUTCOMES = [str(o) for o in Outcome]
COMPARED = ("route", "value", "reason", "judge_calls", "raised", "faults")
"""What makes a cell changed between two audits."""
SHORT = {
    "answered": "answered",
    "reasoning_only": "reasoning",
    "tool_calls_only": "tools",
    "refused_after_partial": "ref.partial",
}
"""Column headings of the text grid, where the outcome's name is long."""
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
"""An object's address in an error message, which differs between runs."""
NOT_MEASURED_MARK = "n/m"
"""The text grid's mark for a cell not measured (a route name would read as one)."""


@dataclass(frozen=True)
class Cell:
    """One outcome of one line: the row before (when compared) and after."""

    before: Row | None
    after: Row | None
    compared: bool = False

    @property
    def changed(self) -> bool:
        """Whether the two audits disagree here, comparably (False for one audit)."""
        return self.comparable and self._differs()

    @property
    def comparable(self) -> bool:
        """Whether neither side is ``not_measured`` (what a change needs to mean)."""
        rows = (self.before, self.after)
        return not any(row and row.route == "not_measured" for row in rows)

    @property
    def not_comparable(self) -> bool:
        """Whether the audits disagree here but one side was not measured."""
        return not self.comparable and self._differs()

    def _differs(self) -> bool:
        if not self.compared:
            return False
        if self.before is None or self.after is None:
            return self.before is not self.after
        return any(getattr(self.before, f) != getattr(self.after, f) for f in COMPARED)

    def signature(self) -> tuple[object, ...]:
        """What two tasks must share to be shown on one line."""
        return tuple(
            repr([getattr(row, f) for f in COMPARED]) if row else None
            for row in (self.before, self.after)
        )


@dataclass
class Line:
    """One scorer of one eval, for one or more tasks that it scores alike."""

    eval: str
    scorer: str
    category: str
    tasks: list[str]
    cells: dict[str, Cell]
    faults: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether any of its cells changed."""
        return any(cell.changed for cell in self.cells.values())

    @property
    def not_comparable(self) -> bool:
        """Whether any of its cells differs with one side not measured."""
        return any(cell.not_comparable for cell in self.cells.values())


def grid(after: Audit, before: Audit | None = None) -> list[Line]:
    """The lines of the matrix of `after`, compared with `before` if given."""
    earlier = {row.key: row for row in before.rows} if before else {}
    later = {row.key: row for row in after.rows}
    groups: dict[tuple[str, str, str], dict[str, Cell]] = {}
    for key in sorted(set(later) | set(earlier)):
        row = later.get(key) or earlier[key]
        cell = Cell(earlier.get(key), later.get(key), compared=before is not None)
        groups.setdefault((row.eval, key[1], row.scorer), {})[row.outcome] = cell
    return _merge_tasks(groups)


def _merge_tasks(groups: dict[tuple[str, str, str], dict[str, Cell]]) -> list[Line]:
    lines: dict[tuple[object, ...], Line] = {}
    for (eval_name, task, scorer), cells in groups.items():
        signature = (eval_name, scorer, *(cells[o].signature() for o in sorted(cells)))
        if signature in lines:
            lines[signature].tasks.append(task)
            continue
        some = next(c.after or c.before for c in cells.values())
        assert some is not None
        faults = sorted({f for c in cells.values() if c.after for f in c.after.faults})
        line = Line(eval_name, scorer, some.category, [task], cells, faults)
        lines[signature] = line
    return sorted(lines.values(), key=lambda ln: (ln.eval, ln.scorer, ln.tasks))


def tasks_label(tasks: list[str], limit: int = 2) -> str:
    """``a, b (+3)``: the tasks a line stands for, shortened."""
    named = [t for t in tasks if t] or ["-"]
    more = f" (+{len(named) - limit})" if len(named) > limit else ""
    return ", ".join(named[:limit]) + more


def not_run_by_reason(not_run: Iterable[NotRun]) -> dict[str, list[str]]:
    """Reason -> the ``eval/scorer`` entries it kept from running, each once."""
    return _grouped((item.reason, f"{item.eval}/{item.scorer}") for item in not_run)


def not_measured_by_error(rows: Iterable[Row]) -> dict[str, list[str]]:
    """``Type: message`` -> the ``eval/scorer`` entries not measured for it."""
    return _grouped(
        (error_of(row), f"{row.eval}/{row.scorer}")
        for row in rows
        if row.route == "not_measured"
    )


def error_of(row: Row, limit: int = 120) -> str:
    """What a row raised, as ``Type: message``, short and alike across runs.

    An object's address (``<ast.Name object at 0x7f86...>``) is dropped, so the
    same error of one scorer on several fixtures groups as one.
    """
    message = ADDRESS.sub("", row.raised_message or "")
    if len(message) > limit:
        message = message[: limit - 1] + "…"
    return f"{row.raised}: {message}" if message else f"{row.raised}"


def _grouped(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    # key -> names, each once, the largest groups first
    grouped: dict[str, list[str]] = {}
    for key, name in pairs:
        names = grouped.setdefault(key, [])
        if name not in names:
            names.append(name)
    return dict(sorted(grouped.items(), key=lambda kv: (-len(kv[1]), kv[0])))


def render_text(audit: Audit) -> str:
    """The matrix, then the faults per eval, then what was not run."""
    lines = grid(audit)
    width = max([len(_label(line)) for line in lines] + [20])
    heading = "".join(f"{SHORT.get(o, o):>12}" for o in OUTCOMES)
    out = [f"{'eval / scorer [tasks]':<{width}}{heading}"]
    out += [_text_line(line, width) for line in lines]
    out += ["", *faults_summary(audit), "", *not_measured_summary(audit.rows)]
    out += ["", *not_run_summary(audit.not_run), "", _legend()]
    return "\n".join(out) + "\n"


def _label(line: Line) -> str:
    return f"{line.eval} / {line.scorer} [{tasks_label(line.tasks)}]"


def _text_line(line: Line, width: int) -> str:
    cells = "".join(f"{_text_cell(line.cells.get(o)):>12}" for o in OUTCOMES)
    return f"{_label(line):<{width}}{cells}"


def _text_cell(cell: Cell | None) -> str:
    row = cell.after if cell else None
    if row is None:
        return "-"
    if row.route == "not_measured":
        return NOT_MEASURED_MARK
    return row.route + ("!" if row.faults else "")


def faults_summary(audit: Audit) -> list[str]:
    """One line per eval with faults, and a total."""
    by_eval = audit.faults_by_eval()
    out = [f"faults ({sum(len(v) > 0 for v in by_eval.values())} evals):"]
    for name, counts in sorted(by_eval.items()):
        listed = ", ".join(f"{fault} x{n}" for fault, n in sorted(counts.items()))
        out.append(f"  {name}: {listed}")
    if not by_eval:
        out.append("  none")
    return out


def not_measured_summary(rows: Iterable[Row]) -> list[str]:
    """The scorers with cells not measured, grouped by the error they raised."""
    return _grouped_lines("not measured", not_measured_by_error(rows))


def not_run_summary(not_run: list[NotRun]) -> list[str]:
    """What could not run offline, grouped by reason."""
    return _grouped_lines("not run", not_run_by_reason(not_run))


def _grouped_lines(title: str, grouped: dict[str, list[str]]) -> list[str]:
    count = sum(len(names) for names in grouped.values())
    out = [f"{title} ({count} scorers):"]
    for reason, names in grouped.items():
        out.append(f"  {reason}: {', '.join(names)}")
    return out


def _legend() -> str:
    routes = "; ".join(f"{name}: {meaning}" for name, meaning in ROUTES.items())
    faults = "; ".join(f"{name}: {meaning}" for name, meaning in FAULTS.items())
    return (
        f"routes: {routes}\n! marks a fault: {faults}\n"
        f"{NOT_MEASURED_MARK} marks a cell not measured: {NOT_MEASURED}"
    )


def render_compare_text(before: Audit, after: Audit) -> str:
    """Every cell that changed between two audits, then the faults of each.

    A cell that differs with one side not measured is listed too, marked
    ``not comparable``: it is no change the migration can be credited with.
    """
    lines = [ln for ln in grid(after, before) if ln.changed or ln.not_comparable]
    out = [f"before: {before.tree}", f"after:  {after.tree}", ""]
    for line in lines:
        out.append(_label(line))
        for outcome, cell in line.cells.items():
            if cell.changed or cell.not_comparable:
                change = f"{describe_row(cell.before)} -> {describe_row(cell.after)}"
                mark = "" if cell.changed else "  (not comparable)"
                out.append(f"  {outcome:<22}{change}{mark}")
    cells = [cell for line in lines for cell in line.cells.values()]
    if not any(cell.changed for cell in cells):
        out.append("no cell changed")
    if any(cell.not_comparable for cell in cells):
        count = sum(cell.not_comparable for cell in cells)
        out.append(f"{count} cells not comparable: not measured before or after")
    out += [
        "",
        "before:",
        *faults_summary(before),
        "",
        "after:",
        *faults_summary(after),
    ]
    return "\n".join(out) + "\n"


def describe_row(row: Row | None) -> str:
    """One audit row in words: route, value, reason, judge calls and faults."""
    if row is None:
        return "(absent)"
    if row.route == "not_measured":
        return f"not measured ({row.raised})"
    if row.raised:
        return f"raised {row.raised}"
    judge = f", judge x{row.judge_calls}" if row.judge_calls else ""
    faults = f" !{','.join(row.faults)}" if row.faults else ""
    return f"{row.route} ({row.value!r}, reason {row.reason}{judge}){faults}"


def compare_json(before: Audit, after: Audit) -> str:
    """Both audits' rows matched by eval, task, scorer and fixture, as JSON."""
    earlier = {row.key: row for row in before.rows}
    later = {row.key: row for row in after.rows}
    matched = []
    for key in sorted(set(earlier) | set(later)):
        cell = Cell(earlier.get(key), later.get(key), compared=True)
        matched.append(
            {
                **dict(zip(("eval", "task", "scorer", "fixture"), key, strict=True)),
                "changed": cell.changed,
                "comparable": cell.comparable,
                "before": asdict(cell.before) if cell.before else None,
                "after": asdict(cell.after) if cell.after else None,
            }
        )
    document = {
        "before": before.tree,
        "after": after.tree,
        "rows": matched,
        "not_run": {"before": _plain(before.not_run), "after": _plain(after.not_run)},
    }
    return json.dumps(document, indent=1)


def _plain(not_run: list[NotRun]) -> list[dict[str, object]]:
    return [asdict(item) for item in not_run]
