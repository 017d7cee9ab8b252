"""The lint rules: the scan's findings an eval's routing leaves unaddressed.

One code per rule, one finding per place:

- EM001: a ``@scorer`` (or built-in scorer call) of an eval with no registry
  entry reads the model's output and is not routed;
- EM002: a registered scorer whose entry lists ``wrap_router`` is not wrapped;
- EM003: an empty check on the output in a scorer that is not routed;
- EM004: a dead check (``if not state.output:``) in a scorer;
- EM005: a ``preset_score_on_no_response`` call;
- EM006: a judge called in a scorer that is not routed (no guard, no wrap).

Evals whose entry says ``none`` or ``manual`` (with its reason) are clean, and
so is a finding in a helper the entry records (its note says why it stays).
The registry is one object passed in, so entries from elsewhere (the target's
own) can be merged into it before a lint.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from empty_migrate.entries.schema import EvalEntry
from empty_migrate.lint.routing import EvalRouting, Span, eval_routing, package_files
from empty_migrate.registry.drift import in_recorded_helper
from empty_migrate.registry.loader import Registry
from empty_migrate.source.findings import Finding
from empty_migrate.source.scan import PACKAGE_ROOT, EvalScan, scan_eval

JUDGE_SCORERS = ("model_graded_qa", "model_graded_fact")
FIXED_BY = {
    "EM002": ("wrap_router",),
    "EM003": ("wrap_router", "replace_dead_check"),
    "EM004": ("replace_dead_check",),
    "EM005": ("replace_preset",),
    "EM006": ("wrap_router", "judge_bypass"),
}
"""The codemods that clear each finding; ``--fix`` runs the ones an entry lists."""
SCAFFOLD_HINT = "empty-migrate registry scaffold {name}"


@dataclass(frozen=True)
class LintFinding:
    """One place that bypasses the policy."""

    eval: str
    file: str
    """Relative to src/inspect_evals."""
    line: int
    col: int
    code: str
    message: str

    @property
    def path(self) -> str:
        """The file from the checkout's root."""
        return f"{PACKAGE_ROOT.as_posix()}/{self.file}"


@dataclass
class LintReport:
    """Every finding, the evals ``--fix`` can migrate, entries to suggest."""

    root: Path
    """The checkout linted."""
    findings: list[LintFinding] = field(default_factory=list)
    fixable: list[str] = field(default_factory=list)
    unfixable: list[str] = field(default_factory=list)
    """Why ``--fix`` leaves a finding: its eval's entry lists no codemod for it."""
    suggestions: dict[str, str] = field(default_factory=dict)
    """A starting registry entry for each new eval with findings."""


def lint(root: Path, registry: Registry, evals: Iterable[str]) -> LintReport:
    """Lint the given eval packages of the checkout at `root` against `registry`."""
    report = LintReport(root)
    for name in evals:
        entry = registry.get(name) if name in registry.files else None
        if entry is not None and not isinstance(entry.codemods, list):
            continue  # none or manual: the entry's reason says why
        scan = scan_eval(root, name)
        routing = eval_routing(root, _files(root, name, entry))
        found = _one_per_place(_findings(name, entry, scan, routing, root))
        report.findings += found
        if not found:
            continue
        if entry is None:
            report.suggestions[name] = _suggestion(scan)
            continue
        listed = set(entry.codemods)
        fixed = [f for f in found if listed & set(FIXED_BY[f.code])]
        if fixed:
            report.fixable.append(name)
        report.unfixable += [_unfixable(f) for f in found if f not in fixed]
    return report


def _unfixable(found: LintFinding) -> str:
    codemods = " or ".join(FIXED_BY[found.code])
    return (
        f"{found.path}:{found.line}: {found.code} is not fixed by --fix: the "
        f"registry entry of {found.eval} lists no {codemods}; add it to its codemods"
    )


def _one_per_place(findings: Iterable[LintFinding]) -> list[LintFinding]:
    """Sorted, one finding per code and line (a call nested in a call is one)."""
    places: dict[tuple[str, int, str], LintFinding] = {}
    for found in findings:
        places.setdefault((found.file, found.line, found.code), found)
    return sorted(places.values(), key=lambda f: (f.file, f.line, f.col, f.code))


def _files(root: Path, name: str, entry: EvalEntry | None) -> list[str]:
    files = package_files(root, name)
    if entry is not None:
        files += [s.file for s in entry.scorers] + [h.file for h in entry.helpers]
    return list(dict.fromkeys(files))


def _suggestion(scan: EvalScan) -> str:
    # imported here: only a new eval with findings needs it
    from empty_migrate.registry.scaffold import scaffold

    return scaffold(scan)


def _findings(
    name: str,
    entry: EvalEntry | None,
    scan: EvalScan,
    routing: EvalRouting,
    root: Path,
) -> Iterator[LintFinding]:
    excused = _excused(entry, routing)

    def kept(found: Finding) -> bool:
        if any(span.holds(found.line) for span in excused.get(found.file, [])):
            return False
        return entry is None or not in_recorded_helper(
            entry, found.file, found.line, root
        )

    def at(found: Finding, code: str, message: str) -> LintFinding:
        one = routing.files.get(found.file)
        col = one.column(found.line, found.text) if one else 1
        return LintFinding(name, found.file, found.line, col, code, message)

    def unrouted_scorer(found: Finding) -> bool:
        return routing.in_scorer(found.file, found.line) is not None and not (
            routing.routed(found.file, found.line)
        )

    if entry is None:
        yield from _new_eval(name, routing)
    else:
        yield from _missing_wraps(name, entry, routing)
    for found in filter(kept, scan.empty_checks):
        if unrouted_scorer(found):
            yield at(
                found,
                "EM003",
                f"empty check on the output `{found.text}` in "
                "a scorer that is not routed: the policy scores empty answers",
            )
    for found in filter(kept, scan.dead_checks):
        if routing.in_scorer(found.file, found.line):
            yield at(
                found,
                "EM004",
                f"dead check `{found.text}`: the output is a "
                "model object, always truthy; the router scores empty answers",
            )
    for found in filter(kept, scan.preset_calls):
        yield at(
            found,
            "EM005",
            "preset_score_on_no_response: use "
            "route_empty_responses (the policy) instead",
        )
    for found in filter(kept, scan.judge_calls):
        builtin = found.text.startswith(JUDGE_SCORERS) or routing.calls_builtin(
            found.file, found.line, JUDGE_SCORERS
        )
        in_task = builtin and routing.in_task(found.file, found.line)
        if unrouted_scorer(found) or (
            in_task and not routing.routed(found.file, found.line)
        ):
            yield at(
                found,
                "EM006",
                f"judge `{found.text}` is called on the output "
                "before any routing: wrap the scorer or guard with classify",
            )


def _excused(entry: EvalEntry | None, routing: EvalRouting) -> dict[str, list[Span]]:
    """The registered scorers left unrewritten on purpose (each with its note)."""
    excused: dict[str, list[Span]] = {}
    for scorer in entry.scorers if entry else []:
        one = routing.files.get(scorer.file)
        if not scorer.rewrite and one:
            spans = [s for s in one.functions if s.name == scorer.name]
            excused.setdefault(scorer.file, []).extend(spans)
    return excused


def _new_eval(name: str, routing: EvalRouting) -> Iterator[LintFinding]:
    hint = f"no registry entry for eval {name} (`{SCAFFOLD_HINT.format(name=name)}`)"
    for file, one in routing.files.items():
        for span in one.scorers:
            if one.reads_output(span) and not routing.routed(file, span.start):
                yield LintFinding(
                    name,
                    file,
                    span.start,
                    span.col,
                    "EM001",
                    f"@scorer {span.name} reads the model's output "
                    f"and is not routed; {hint}",
                )
        for call in one.builtin_calls:
            if call.name in JUDGE_SCORERS or routing.routed(file, call.start):
                continue  # a judge's own finding (EM006) says it
            yield LintFinding(
                name,
                file,
                call.start,
                call.col,
                "EM001",
                f"{call.name}() scores the model's output and is not routed; {hint}",
            )


def _missing_wraps(
    name: str, entry: EvalEntry, routing: EvalRouting
) -> Iterator[LintFinding]:
    if not isinstance(entry.codemods, list) or "wrap_router" not in entry.codemods:
        return
    unrouted = set(entry.unrouted_tasks())
    for scorer in entry.scorers:
        tasks = scorer.tasks or list(entry.tasks)
        if (
            not scorer.rewrite
            or scorer.covered_by
            or (tasks and set(tasks) <= unrouted)
        ):
            continue
        if routing.defines_routed(scorer.file, scorer.name):
            continue
        one = routing.files.get(scorer.file)
        spans = [s for s in one.functions if s.name == scorer.name] if one else []
        line, col = (spans[0].start, spans[0].col) if spans else (1, 1)
        yield LintFinding(
            name,
            scorer.file,
            line,
            col,
            "EM002",
            f"scorer {scorer.name} is registered with wrap_router but "
            "not wrapped in route_empty_responses: run lint --fix",
        )
