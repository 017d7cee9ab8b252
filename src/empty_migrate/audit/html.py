"""``audit --format html``: the matrix as one self-contained page.

A grid of eval x scorer lines against the outcome classes, each cell colored by
route, with a legend, a category filter (also from the URL: ``#category=qa``),
per-cell details on hover and click, the scorers not measured (grey cells,
their errors listed) and the scorers that could not run. In a comparison a
changed cell shows ``before -> after``, and one not measured on either side is
marked not comparable. One self-contained file (`empty_migrate.logs.page`):
inline CSS and script, no network.
"""

import json
from html import escape

from empty_migrate.audit.matrix import FAULTS, NOT_MEASURED, Audit, Row
from empty_migrate.audit.report import (
    OUTCOMES,
    Cell,
    Line,
    error_of,
    grid,
    not_measured_by_error,
    not_run_by_reason,
    tasks_label,
)
from empty_migrate.logs.page import page, route_chips
from empty_migrate.logs.routes import ROUTES

CATEGORIES = ["qa", "model_graded", "safety", "agentic"]


def render_html(after: Audit, before: Audit | None = None) -> str:
    """The page for one audit, or for `before` compared with `after`."""
    lines = grid(after, before)
    title = "Empty-response audit" + (" (before → after)" if before else "")
    trees = f"{before.tree} → {after.tree}" if before else after.tree
    body = "\n".join(
        [
            f"<h1>{escape(title)}</h1>",
            f'<p class="tree">{escape(trees)}</p>',
            _summary(after, before, lines),
            _legend(),
            _filters(compared=before is not None),
            _table(lines),
            '<aside id="details" hidden></aside>',
            _not_measured(after),
            _not_run(after),
        ]
    )
    return page(title, body, css=_CSS, script=_SCRIPT)


def _summary(after: Audit, before: Audit | None, lines: list[Line]) -> str:
    faulty = sum(1 for row in after.rows if row.faults)
    items = [
        f"{len(after.rows)} rows",
        f"{len({(r.eval, r.scorer) for r in after.rows})} scorers run",
        f"{faulty} rows with a known fault",
        f"{sum(r.route == 'not_measured' for r in after.rows)} rows not measured",
        f"{sum(map(len, not_run_by_reason(after.not_run).values()))} scorers not run",
    ]
    if before is not None:
        was = sum(1 for row in before.rows if row.faults)
        items[2] = f"rows with a known fault: {was} → {faulty}"
        items.append(f"{sum(line.changed for line in lines)} lines changed")
        cells = [c for line in lines for c in line.cells.values()]
        items.append(f"{sum(c.not_comparable for c in cells)} cells not comparable")
    return '<p class="summary">' + " · ".join(escape(i) for i in items) + "</p>"


def _legend() -> str:
    chips = route_chips(ROUTES, titles={"not_measured": NOT_MEASURED})
    faults = "; ".join(f"{escape(k)}: {escape(v)}" for k, v in FAULTS.items())
    return (
        f'<div class="legend">{chips}'
        f'<span class="chip fault" title="{faults}">! known fault</span></div>'
    )


def _filters(compared: bool) -> str:
    links = ['<a href="#category=all" data-category="all">all</a>']
    links += [
        f'<a href="#category={c}" data-category="{c}">{c}</a>' for c in CATEGORIES
    ]
    toggles = '<label><input type="checkbox" id="faults-only"> faults only</label>'
    if compared:
        toggles += (
            '<label><input type="checkbox" id="changed-only"> changed only</label>'
        )
    return f'<nav class="filters">category: {" ".join(links)} {toggles}</nav>'


def _table(lines: list[Line]) -> str:
    head = "".join(f"<th>{escape(o.replace('_', ' '))}</th>" for o in OUTCOMES)
    rows = "\n".join(_line(line) for line in lines)
    return (
        '<table id="matrix"><thead><tr><th>eval</th><th>scorer [tasks]</th>'
        f"<th>category</th>{head}</tr></thead><tbody>\n{rows}\n</tbody></table>"
    )


def _line(line: Line) -> str:
    flags = " faulty" * bool(line.faults) + " changed" * line.changed
    cells = "".join(_cell(line.cells.get(o)) for o in OUTCOMES)
    tasks = ", ".join(t or "-" for t in line.tasks)
    return (
        f'<tr class="line{flags}" data-category="{escape(line.category)}">'
        f"<th>{escape(line.eval)}</th>"
        f'<td title="{escape(tasks)}">{escape(line.scorer)} '
        f'<span class="tasks">[{escape(tasks_label(line.tasks))}]</span></td>'
        f'<td class="cat">{escape(line.category)}</td>{cells}</tr>'
    )


def _cell(cell: Cell | None) -> str:
    if cell is None or (cell.after or cell.before) is None:
        return '<td class="cell empty">–</td>'
    shown = cell.after or cell.before
    assert shown is not None
    classes = f"cell route-{shown.route}" + " fault" * bool(shown.faults)
    text = _route_text(shown)
    if cell.changed or cell.not_comparable:
        classes += " changed" if cell.changed else " not-comparable"
        text = f"{_route_text(cell.before)} → {_route_text(cell.after)}"
        classes += " was-fault" * bool(cell.before and cell.before.faults)
    detail = {"before": _detail(cell.before)} if cell.compared else {}
    detail["after" if cell.compared else "now"] = _detail(cell.after)
    data = escape(json.dumps(detail))
    tip = escape(_tooltip(shown))
    return (
        f'<td class="{classes}" title="{tip}" data-detail="{data}">{escape(text)}</td>'
    )


def _route_text(row: Row | None) -> str:
    if row is None:
        return "absent"
    if row.route == "not_measured":
        return "not measured"
    return row.route + (" !" if row.faults else "")


def _detail(row: Row | None) -> dict[str, object] | None:
    if row is None:
        return None
    keys: tuple[str, ...] = ("eval", "task", "scorer", "fixture", "outcome", "route")
    keys += ("policy_route", "value", "reason", "judge_calls", "raised")
    keys += ("raised_message", "empty_outcome", "explanation", "faults")
    return {key: getattr(row, key) for key in keys}


def _tooltip(row: Row) -> str:
    parts = [f"{row.outcome} ({row.fixture}): {ROUTES[row.route]}"]
    parts.append(
        f"value {row.value!r}, reason {row.reason}, judge calls {row.judge_calls}"
    )
    if row.route == "not_measured":
        parts.append(f"not measured: {error_of(row)}")
    elif row.raised:
        parts.append(f"raised {error_of(row)}")
    parts += [f"fault: {FAULTS[f]}" for f in row.faults]
    return "\n".join(parts)


def _not_measured(audit: Audit) -> str:
    grouped = not_measured_by_error(audit.rows)
    intro = f"<p>{escape(NOT_MEASURED)}.</p>"
    return _grouped_section("not-measured", "Not measured", grouped, intro)


def _not_run(audit: Audit) -> str:
    grouped = not_run_by_reason(audit.not_run)
    return _grouped_section("not-run", "Not run offline", grouped)


def _grouped_section(
    anchor: str, title: str, grouped: dict[str, list[str]], intro: str = ""
) -> str:
    """A list of scorers by the reason they share, under a title with their count."""
    items = "".join(
        f"<li><code>{escape(reason)}</code> ({len(names)}): "
        f"{escape(', '.join(names))}</li>"
        for reason, names in grouped.items()
    )
    count = sum(len(names) for names in grouped.values())
    return (
        f'<section id="{anchor}"><h2>{title} ({count} scorers)</h2>'
        f"{intro}<ul>{items or '<li>none</li>'}</ul></section>"
    )


_CSS = """
.tree { color: #666; margin: 0 0 6px; font-family: monospace; }
.filters a { padding: 2px 10px; border-radius: 10px; background: #eee; color: #222;
  text-decoration: none; }
.filters a.active { background: #333; color: #fff; }
.filters label { margin-left: 12px; }
td.changed.was-fault:not(.fault) {
  background-image: linear-gradient(90deg, #ffe5e5 0 30%, transparent 30%); }
td.cat { color: #666; font-size: 11px; }
.tasks { color: #888; font-size: 11px; }
td.cell { text-align: center; border-radius: 3px; cursor: pointer; min-width: 56px;
  font-size: 11px; white-space: normal; }
td.fault, .chip.fault { outline: 2px solid #d00; outline-offset: -2px; font-weight: 700;
  color: #a00; }
td.changed { box-shadow: inset 0 0 0 2px #222; font-weight: 600; }
td.not-comparable { font-style: italic; }
tr.line:hover td, tr.line:hover th { filter: brightness(0.95); }
#details { position: fixed; right: 16px; bottom: 16px; max-width: 480px;
  max-height: 60vh; overflow: auto; background: #fff; border: 1px solid #999;
  border-radius: 6px;
  padding: 10px 12px; box-shadow: 0 4px 16px #0003; font-size: 12px; }
#details pre { white-space: pre-wrap; margin: 4px 0; }
#not-run li, #not-measured li { margin: 4px 0; }
"""

_SCRIPT = """
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.line'));
  var faultsOnly = document.getElementById('faults-only');
  var changedOnly = document.getElementById('changed-only');
  function category() {
    var m = /category=([a-z_]+)/.exec(location.hash + location.search);
    return m ? m[1] : 'all';
  }
  function apply() {
    var c = category();
    rows.forEach(function (r) {
      var show = (c === 'all' || r.dataset.category === c)
        && (!faultsOnly.checked || r.classList.contains('faulty'))
        && (!changedOnly || !changedOnly.checked || r.classList.contains('changed'));
      r.hidden = !show;
    });
    document.querySelectorAll('.filters a').forEach(function (a) {
      a.classList.toggle('active', a.dataset.category === c);
    });
    document.body.dataset.category = c;
  }
  function show(cell) {
    var box = document.getElementById('details');
    var detail = JSON.parse(cell.dataset.detail);
    box.innerHTML = '';
    Object.keys(detail).forEach(function (side) {
      var h = document.createElement('strong');
      h.textContent = side;
      var pre = document.createElement('pre');
      pre.textContent = JSON.stringify(detail[side], null, 1);
      box.appendChild(h);
      box.appendChild(pre);
    });
    box.hidden = false;
  }
  document.getElementById('matrix').addEventListener('click', function (e) {
    var cell = e.target.closest('td.cell');
    if (cell && cell.dataset.detail) { show(cell); }
  });
  document.getElementById('details').addEventListener('click', function () {
    this.hidden = true;
  });
  window.addEventListener('hashchange', apply);
  faultsOnly.addEventListener('change', apply);
  if (changedOnly) { changedOnly.addEventListener('change', apply); }
  apply();
})();
"""
