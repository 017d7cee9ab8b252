"""The audit as people read it: the grid (one line per eval x scorer) and text.

One grid serves the text and the HTML renderings, of one audit or of two
compared: tasks whose cells are all alike share a line, and in a comparison
each cell holds the row before and the row after.
"""

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from empty_migrate.audit.matrix import FAULTS, ROUTES, Audit, NotRun, Row
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


@dataclass(frozen=True)
class Cell:
    """One outcome of one line: the row before (when compared) and after."""

    before: Row | None
    after: Row | None
    compared: bool = False

    @property
    def changed(self) -> bool:
        """Whether the two audits disagree here (always False for one audit)."""
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
    grouped: dict[str, list[str]] = {}
    for item in not_run:
        names = grouped.setdefault(item.reason, [])
        if f"{item.eval}/{item.scorer}" not in names:
            names.append(f"{item.eval}/{item.scorer}")
    return dict(sorted(grouped.items(), key=lambda kv: (-len(kv[1]), kv[0])))


def render_text(audit: Audit) -> str:
    """The matrix, then the faults per eval, then what was not run."""
    lines = grid(audit)
    width = max([len(_label(line)) for line in lines] + [20])
    heading = "".join(f"{SHORT.get(o, o):>12}" for o in OUTCOMES)
    out = [f"{'eval / scorer [tasks]':<{width}}{heading}"]
    out += [_text_line(line, width) for line in lines]
    out += ["", *faults_summary(audit), "", *not_run_summary(audit.not_run)]
    out += ["", _legend()]
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


def not_run_summary(not_run: list[NotRun]) -> list[str]:
    """What could not run offline, grouped by reason."""
    grouped = not_run_by_reason(not_run)
    count = sum(len(names) for names in grouped.values())
    out = [f"not run ({count} scorers):"]
    for reason, names in grouped.items():
        out.append(f"  {reason}: {', '.join(names)}")
    return out


def _legend() -> str:
    routes = "; ".join(f"{name}: {meaning}" for name, meaning in ROUTES.items())
    faults = "; ".join(f"{name}: {meaning}" for name, meaning in FAULTS.items())
    return f"routes: {routes}\n! marks a fault: {faults}"


def render_compare_text(before: Audit, after: Audit) -> str:
    """Every cell that changed between two audits, then the faults of each."""
    lines = [line for line in grid(after, before) if line.changed]
    out = [f"before: {before.tree}", f"after:  {after.tree}", ""]
    for line in lines:
        out.append(_label(line))
        for outcome, cell in line.cells.items():
            if cell.changed:
                change = f"{describe_row(cell.before)} -> {describe_row(cell.after)}"
                out.append(f"  {outcome:<22}{change}")
    if not lines:
        out.append("no cell changed")
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
