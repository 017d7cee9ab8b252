"""The lint rules: the scan's findings an eval's routing leaves unaddressed.

One code per rule, one finding per place; `RULES` declares each once (its
code, what it finds, the codemods ``--fix`` clears it with), and the
table in docs/lint.md is generated from it. Evals whose entry says ``none`` or
``manual`` (with its reason) are clean, and so is a finding in a helper the
entry records (its note says why it stays). Which evals ``--fix`` migrates
is not guessed from the findings: the migration is computed, as ``--eval``
would compute it (`fix_plan`), so lint and the migration give one answer.
"""

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from empty_migrate.analysis.findings import Finding
from empty_migrate.analysis.scan import EvalScan, scan_eval
from empty_migrate.entries.in_target import scaffold_command
from empty_migrate.entries.schema import EvalEntry
from empty_migrate.lint.routing import EvalRouting, Span, eval_routing
from empty_migrate.registry.drift import Drift, eval_drift, in_recorded_helper
from empty_migrate.registry.loader import Registry
from empty_migrate.target.layout import PACKAGE_ROOT, package_files

JUDGE_SCORERS = ("model_graded_qa", "model_graded_fact")


@dataclass(frozen=True)
class Rule:
    """One lint rule, declared once.

    Attributes:
        code: Its code, ``EMxxx``.
        finds: What it finds, for the table in docs/lint.md.
        fixed_by: The codemods that clear its findings; ``--fix`` runs those
            an eval's entry lists. None: a person fixes it (the entry).
    """

    code: str
    finds: str
    fixed_by: tuple[str, ...] = ()

    @property
    def fix(self) -> str:
        """What ``--fix`` does about it, for the table in docs/lint.md."""
        if not self.fixed_by:
            return "nothing: a person writes or updates the eval's entry"
        names = " or ".join(f"`{name}`" for name in self.fixed_by)
        return f"migrates the eval, when its entry lists {names}"


RULES = (
    Rule(
        "EM001",
        "a scorer of a new eval, with no registry entry, reads the model's output "
        "and is not routed (the entry `registry scaffold` suggests follows the "
        "findings)",
    ),
    Rule("EM002", "a registered scorer whose wrap was removed", ("wrap_router",)),
    Rule(
        "EM003",
        'an empty check on the output (`not completion`, `== ""`, `.empty`) in a '
        "scorer that is not routed",
        ("wrap_router", "replace_dead_check"),
    ),
    Rule("EM004", "a dead check (`if not state.output:`)", ("replace_dead_check",)),
    Rule("EM005", "a `preset_score_on_no_response` call", ("replace_preset",)),
    Rule(
        "EM006",
        "a judge called in a scorer, or `model_graded_*` in a task, before any routing",
        ("wrap_router", "judge_bypass"),
    ),
    Rule(
        "EM007",
        "code that no longer matches the eval's entry (a new scorer or task, one "
        "moved or gone): the migration leaves the eval as it is until the entry "
        "is updated",
    ),
)
"""Every lint rule, in code order."""
BY_CODE = {rule.code: rule for rule in RULES}


def readme_table() -> str:
    """The table of lint rules in docs/lint.md: code, what it finds, what --fix does."""
    rows = [f"| {r.code} | {r.finds} | {r.fix} |" for r in RULES]
    return "\n".join(["| code | finding | `--fix` |", "|---|---|---|", *rows])


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
    """Every finding, the evals ``--fix`` migrates, entries to suggest."""

    root: Path
    """The checkout linted."""
    findings: list[LintFinding] = field(default_factory=list)
    fixable: list[str] = field(default_factory=list)
    """The evals ``--fix`` migrates: the migration would rewrite them."""
    unfixable: list[str] = field(default_factory=list)
    """Why ``--fix`` leaves a finding: its eval's entry lists no codemod for it."""
    left: dict[str, str] = field(default_factory=dict)
    """Evals with findings the migration would leave as they are, with its reason."""
    joined: list[str] = field(default_factory=list)
    """What the migration ``--fix`` runs says before it runs (evals it brings in)."""
    suggestions: dict[str, str] = field(default_factory=dict)
    """A starting registry entry for each new eval with findings."""
    unknown: list[str] = field(default_factory=list)
    """The evals linted that have no registry entry."""
    unreadable: list[LintFinding] = field(default_factory=list)
    """Files that do not parse or are not UTF-8 (code ""): nothing else of their
    eval is linted, and ``--fix`` leaves it."""

    @property
    def failed(self) -> bool:
        """Whether lint found anything: a finding, or a file it could not read."""
        return bool(self.findings or self.unreadable)


FixPlan = tuple[list[str], dict[str, str], list[str]]
"""What ``--fix`` would do: the evals it rewrites, those it leaves (with the
reason), and what its run says first."""


def lint(
    root: Path,
    registry: Registry,
    evals: Iterable[str],
    fix_plan: Callable[[list[str]], FixPlan] | None = None,
) -> LintReport:
    """Lint the given eval packages of the checkout at `root` against `registry`.

    `fix_plan` computes what ``--fix`` would do for the registered evals with
    findings (the migration's own answer, `empty_migrate.lint.fix`); it runs
    only when there are such findings. Without it, none is fixable.
    """
    report = LintReport(root)
    candidates: list[str] = []
    expected: list[str] = []  # with a finding a codemod of its entry clears
    for name in evals:
        entry = registry.get(name) if name in registry.files else None
        if entry is not None and not isinstance(entry.codemods, list):
            continue  # none or manual: the entry's reason says why
        if entry is None:
            report.unknown.append(name)
        scan = scan_eval(root, name)
        if scan.not_utf8 or scan.unparsable:
            report.unreadable += _unreadable(name, scan)
            continue  # what else it finds would be about code it cannot read
        routing = eval_routing(root, _files(root, name, entry))
        found = _one_per_place(_findings(name, entry, scan, routing, root))
        if entry is not None:
            found += _drifted(registry, name, scan, routing, root)
        report.findings += found
        if not found:
            continue
        if entry is None:
            report.suggestions[name] = _suggestion(scan)
            continue
        candidates.append(name)
        listed = set(entry.codemods)
        fixed_by = [f for f in found if listed & set(BY_CODE[f.code].fixed_by)]
        if fixed_by and fix_plan is not None:
            expected.append(name)
        report.unfixable += [
            _unfixable(f)
            for f in found
            if f not in fixed_by and BY_CODE[f.code].fixed_by
        ]
    if candidates and fix_plan is not None:
        report.fixable, report.left, report.joined = fix_plan(candidates)
    for name in expected:
        if name not in report.fixable and name not in report.left:
            report.left[name] = (
                "the migration finds nothing to change: its entry's codemods "
                "leave these findings; see the entry's scorers and codemods"
            )
    return report


def _unreadable(name: str, scan: EvalScan) -> list[LintFinding]:
    """One line per file of the eval that is not UTF-8 or does not parse."""
    return [LintFinding(name, f.file, f.line, 1, "", f.text) for f in scan.not_utf8] + [
        LintFinding(name, f.file, f.line, 1, "", f"does not parse: {f.text}")
        for f in scan.unparsable
    ]


def _unfixable(found: LintFinding) -> str:
    codemods = " or ".join(BY_CODE[found.code].fixed_by)
    return (
        f"{found.path}:{found.line}: {found.code} is not fixed by --fix: the "
        f"registry entry of {found.eval} lists no {codemods}; add it to its codemods"
    )


def _drifted(
    registry: Registry, name: str, scan: EvalScan, routing: EvalRouting, root: Path
) -> list[LintFinding]:
    """EM007: each way the eval's code no longer matches its entry, where it is.

    A finding the entry lists no codemod for is not repeated: its own rule
    reports it, and says which codemod to add.
    """
    return [
        _drift_finding(registry, drift, routing, root)
        for drift in eval_drift(registry, name, scan, root)
        if not drift.kind.startswith("not covered by ")
    ]


def _drift_finding(
    registry: Registry, drift: Drift, routing: EvalRouting, root: Path
) -> LintFinding:
    """The drift at its place in the code, else at the eval's entry in the target."""
    file, line = drift.file, drift.line
    if file is None:
        entry = registry.files[drift.eval]
        inside = entry.is_relative_to(root / PACKAGE_ROOT)
        file = entry.relative_to(root / PACKAGE_ROOT).as_posix() if inside else None
        line = 1
    if file is None:  # the entry is this package's: point at the eval's folder
        file = next(iter(routing.files), f"{drift.eval}/__init__.py")
    one = routing.files.get(file)
    col = one.column(line, "") if one else 1
    message = (
        f"{drift.kind}: {drift.detail}; {drift.advice} ({registry.files[drift.eval]})"
    )
    return LintFinding(drift.eval, file, line, col, "EM007", message)


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
    hint = f"no registry entry for eval {name} (`{scaffold_command(name)}`)"
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
            "not wrapped in route_empty_responses",
        )
