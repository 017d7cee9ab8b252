"""Compare the registry with a scanned inspect_evals tree.

Two questions: does every reference in the registry resolve to a real
definition at the recorded file (``registry validate``), and has the target
changed since the registry was written (``registry scan``: evals missing from
the registry, scorers that moved or vanished, new scorers and tasks, helpers
holding an empty check on the output that the registry does not record, and
score fields the eval's metrics read that a routed score would not carry)?
"""

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from empty_migrate import codemods
from empty_migrate.analysis.citations import Citation, cited_symbols, symbol_citations
from empty_migrate.analysis.flow import FlowCheck
from empty_migrate.analysis.metrics import VALUE, FieldRead, MetadataNeed
from empty_migrate.analysis.scan import PACKAGE_ROOT, EvalScan
from empty_migrate.analysis.syntax import (
    Function,
    definition_names,
    imports_of,
    parse_python,
    qualified_definitions,
)
from empty_migrate.entries.schema import (
    EvalEntry,
    Resolved,
    ScorerEntry,
    VerdictExpression,
    prose,
    resolve,
)
from empty_migrate.registry.loader import Registry, close_matches, located
from empty_migrate.runtime.policy import Route
from empty_migrate.target.files import leaves_tree
from empty_migrate.target.text_files import NotUtf8, source_text

_ADVICE = {
    "scorer moved": "set its file in the entry to where it is now",
    "scorer vanished": "remove it from the entry's scorers, or name where it is now",
    "verdict unresolved": "fix the verdict expression in the entry",
    "new scorer": (
        "add it to the entry's scorers (name, file, construct), or with "
        "rewrite: false and a note saying why it is left"
    ),
    "new task": "add it to the entry's tasks",
    "task vanished": "remove it from the entry's tasks",
    "metric input lost": (
        "give routed scores what the metric reads, as said: copy_metadata, "
        "verdict_metadata or a dict verdict, or absent_metadata with a reason"
    ),
}
"""What to change in an eval's entry for each kind of drift a migration stops on."""


@dataclass(frozen=True)
class Drift:
    """One difference between the registry and the target.

    Attributes:
        eval: The eval.
        kind: What differs (``new scorer``, ``task vanished``, ...).
        detail: Which scorer, task or place, and where.
        file: The file of the code that differs (relative to
            ``src/inspect_evals``), when the code holds it; None when only
            the entry does (a scorer gone).
        line: Its line in `file`.
    """

    eval: str
    kind: str
    detail: str
    file: str | None = None
    line: int = 1

    def __str__(self) -> str:
        return f"{self.eval}: {self.kind}: {self.detail}"

    @property
    def advice(self) -> str:
        """What to change in the eval's entry so that it matches the code again."""
        if self.kind.startswith("not covered by "):
            codemod = self.kind.removeprefix("not covered by ")
            return (
                f"add {codemod} to the entry's codemods, or record the function "
                "as a helper with a note"
            )
        return _ADVICE.get(self.kind, "update the entry")


def unresolved_references(
    registry: Registry, scans: dict[str, EvalScan], repo: Path
) -> Iterator[str]:
    """Every reference that does not resolve, as ``file: problem``.

    Scorers, tasks and helpers, and every citation of code in the prose
    (``file:line: key: problem`` for those).
    """
    for name, entry in registry.evals.items():
        try:
            yield from _unresolved(registry, name, scans, repo)
            yield from stale_citations(entry, registry.files[name], repo)
        except NotUtf8 as error:
            yield f"{registry.files[name]}: {error}"


def stale_citations(entry: EvalEntry, source: Path, repo: Path) -> Iterator[str]:
    """Every citation in an entry's prose that does not resolve in the tree at `repo`.

    Each as ``file:line: key: problem``, `source` being the entry's file.

    Raises:
        NotUtf8: If a cited file is not UTF-8.
    """
    for loc, text in prose(entry):
        for citation in symbol_citations(text):
            if problem := citation_problem(citation, repo):
                yield located(source, loc, f"stale citation {citation}: {problem}")


def citation_problem(citation: Citation, repo: Path) -> str | None:
    """Why `citation` does not resolve in the tree at `repo`, or None if it does.

    Raises:
        NotUtf8: If the cited file is not UTF-8.
    """
    if problem := leaves_tree(citation.path):
        return f"{citation.path} {problem}"
    defined = cited_symbols(repo, citation)
    if defined is None:
        return f"no file {citation.path} in {repo / PACKAGE_ROOT} or {repo}"
    if citation.symbol in defined:
        return None
    hint = close_matches(citation.symbol, defined)
    return f"{citation.path} defines no {citation.symbol}{hint}"


def _unresolved(
    registry: Registry, name: str, scans: dict[str, EvalScan], repo: Path
) -> Iterator[str]:
    entry = registry.evals[name]
    scan = scans.get(name)
    source = registry.files[name]
    if scan is None:
        yield f"{source}: eval {name!r} is not a package in {repo / PACKAGE_ROOT}"
        return
    for task in entry.tasks:
        if task not in scan.tasks:
            yield f"{source}: tasks.{task}: no @task {task!r} in {name}/"
    for i, scorer in enumerate(entry.scorers):
        problem = _reference_problem(scorer.name, scorer.file, scan, repo)
        problem = problem or _verdict_problem(entry, scorer, repo)
        if problem:
            yield f"{source}: scorers[{i}] {scorer.name}: {problem}"
    for i, helper in enumerate(entry.helpers):
        last = helper.name.rsplit(".", 1)[-1]
        if problem := _reference_problem(last, helper.file, scan, repo):
            yield f"{source}: helpers[{i}] {helper.name}: {problem}"


def _reference_problem(name: str, file: str, scan: EvalScan, repo: Path) -> str | None:
    path = repo / PACKAGE_ROOT / file
    if not path.is_file():
        return f"{file} does not exist"
    defined = scan.definitions().get(name, [])
    if any(where.file == file for where in defined):
        return None
    if name in _top_level_names(path, path.stat().st_mtime_ns):
        return None
    if defined:
        return f"not in {file}; moved to {defined[0].file}:{defined[0].line}"
    return f"no definition of {name!r} in {file}"


def _verdict_problem(entry: EvalEntry, scorer: ScorerEntry, repo: Path) -> str | None:
    """A verdict expression naming something its scorer's file does not define."""
    settings = [resolve(entry, task, scorer) for task in entry.tasks_of(scorer)]
    expressions = [
        verdict
        for resolved in settings
        for verdict in (resolved.refusal_verdict, resolved.no_answer_verdict)
        if isinstance(verdict, VerdictExpression)
    ]
    if not expressions:
        return None
    path = repo / PACKAGE_ROOT / scorer.file
    defined = _bound_names(path, path.stat().st_mtime_ns)
    for expression in expressions:
        if missing := expression.free_names() - defined:
            names = ", ".join(sorted(missing))
            return f"verdict expression uses {names}, not defined in {scorer.file}"
    return None


@functools.lru_cache(maxsize=64)
def _bound_names(path: Path, mtime_ns: int) -> frozenset[str]:
    """Every name a file binds: definitions, parameters and imported names.

    A verdict expression is written where a scorer is returned, so it may use
    the returning function's parameters too.
    """
    names = set(_top_level_names(path, mtime_ns))
    try:
        tree = parse_python(source_text(path), str(path))
    except SyntaxError:
        return frozenset(names)
    names |= imports_of(tree).locals
    names |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
    return frozenset(names)


@functools.lru_cache(maxsize=256)
def _top_level_names(path: Path, mtime_ns: int) -> frozenset[str]:
    """Functions, classes and assigned names defined anywhere in a file (cached).

    Shared helpers and task-building functions are plain, undecorated
    functions, so the scan's ``@task``/``@scorer`` index does not hold them.
    """
    try:
        tree = parse_python(source_text(path), str(path))
    except SyntaxError:
        return frozenset()
    return frozenset(
        name
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt)
        for name in definition_names(node)
    )


def drift(registry: Registry, scans: dict[str, EvalScan], repo: Path) -> list[Drift]:
    """Everything that differs between the registry and the scanned target."""
    found = [
        Drift(name, "missing from registry", _summary(scans[name]))
        for name in sorted(set(scans) - set(registry.evals))
    ]
    found += [
        Drift(name, "not in target", f"no package {name}/ under {PACKAGE_ROOT}")
        for name in sorted(set(registry.evals) - set(scans))
    ]
    for name in sorted(set(registry.evals) & set(scans)):
        if scans[name].unparsable:  # its code cannot be compared with its entry
            found += [
                Drift(name, "does not parse", f"{f.file}: {f.text}", f.file, f.line)
                for f in scans[name].unparsable
            ]
            continue
        try:
            found += list(eval_drift(registry, name, scans[name], repo))
            found += list(helper_drift(registry.evals[name], name, scans[name], repo))
        except NotUtf8 as error:
            found.append(Drift(name, "not UTF-8", str(error)))
    return found


def eval_drift(
    registry: Registry, name: str, scan: EvalScan, repo: Path
) -> Iterator[Drift]:
    """What differs between one eval's registry entry and its scanned package."""
    entry = registry.get(name)
    for scorer in entry.scorers:
        problem = _reference_problem(scorer.name, scorer.file, scan, repo)
        if problem:
            kind = "scorer moved" if "moved to" in problem else "scorer vanished"
            yield Drift(name, kind, f"{scorer.name} ({scorer.file}): {problem}")
        elif problem := _verdict_problem(entry, scorer, repo):
            yield Drift(name, "verdict unresolved", f"{scorer.name}: {problem}")
    registered = {(s.name, s.file) for s in entry.scorers}
    for where in scan.scorers.values():
        if (where.text, where.file) not in registered:
            detail = f"@scorer {where.text} at {where.file}:{where.line}"
            yield Drift(name, "new scorer", detail, where.file, where.line)
    yield from _uncovered(name, entry, scan, repo)
    yield from metric_input_drift(entry, name, scan)
    for task, where in scan.tasks.items():
        if task not in entry.tasks:
            detail = f"@task {task} at {where.file}:{where.line}"
            yield Drift(name, "new task", detail, where.file, where.line)
    for task in entry.tasks:
        if task not in scan.tasks:
            yield Drift(name, "task vanished", f"@task {task} is no longer defined")


def metric_input_drift(entry: EvalEntry, name: str, scan: EvalScan) -> Iterator[Drift]:
    """What the eval's metrics and reducers read that a routed score would lack.

    For every scorer the migration routes, in each of its tasks: a key of
    ``score.metadata`` the metrics read that neither ``copy_metadata`` nor
    ``verdict_metadata`` gives a routed score (nor a reducer of the eval
    writes, nor ``absent_metadata`` says it lacks on purpose), and a key of a
    dict value they read that a dict verdict lacks. ``answer`` is always
    carried: the router writes the output's text. One drift per scorer and key.
    """
    for scorer in entry.scorers:
        if not _routed(entry, scorer):
            continue
        function, factory = (scorer.file, scorer.name), scorer.construct == "factory"
        reported: set[str] = set()
        for task in entry.tasks_of(scorer):
            settings = resolve(entry, task, scorer)
            if not settings.routes() & _WRITTEN:
                continue
            problems = [
                *_lost_metadata(
                    scan.metrics.metadata_needs(function, factory, [task]), settings
                ),
                *_lost_values(
                    scan.metrics.reads_for(function, factory, [task]), settings
                ),
            ]
            for problem in problems:
                if problem not in reported:
                    reported.add(problem)
                    yield Drift(name, "metric input lost", f"{scorer.name}: {problem}")


_WRITTEN = {Route.NO_ANSWER, Route.REFUSAL_VERDICT, Route.UNSCORED}
"""The routes on which the router writes the score itself."""


def _routed(entry: EvalEntry, scorer: ScorerEntry) -> bool:
    wraps = isinstance(entry.codemods, list) and "wrap_router" in entry.codemods
    return wraps and entry.reads_model_output(scorer)


def _lost_metadata(needs: list[MetadataNeed], settings: Resolved) -> Iterator[str]:
    """The score metadata keys the metrics read that routed scores would lack."""
    if settings.copy_metadata is True:
        return
    carried = carried_metadata(settings) | set(settings.absent_metadata)
    for need in needs:
        if need.key not in carried:
            yield f"{need.read}, which a routed score lacks: {_fix(need)}"


def _lost_values(reads: list[FieldRead], settings: Resolved) -> Iterator[str]:
    """The keys of a dict value the metrics read that a dict verdict lacks."""
    for read in reads:
        if read.field != VALUE or read.key is None:
            continue
        for argument, verdict in settings.verdicts_written().items():
            if isinstance(verdict, dict) and read.key not in verdict:
                yield (
                    f"{read}, which the dict {argument} {verdict} lacks: add "
                    f"{read.key!r} to it, with the value a non-answer has"
                )


def carried_metadata(settings: Resolved) -> set[str]:
    """The score metadata keys every routed score carries under the settings.

    The keys ``copy_metadata`` lists (``True``, all of the sample's, is not a
    list of keys) and those ``verdict_metadata`` gives: a mapping's keys, or
    the string keys of the dicts an expression builds.
    """
    copied = settings.copy_metadata
    keys = set(copied) if isinstance(copied, list) else set()
    extra = settings.verdict_metadata
    if isinstance(extra, dict):
        keys |= set(extra)
    elif isinstance(extra, VerdictExpression):
        tree = ast.parse(extra.expression, mode="eval")
        keys |= {
            key.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Dict)
            for key in node.keys
            if isinstance(key, ast.Constant) and isinstance(key.value, str)
        }
    return keys


def _fix(need: MetadataNeed) -> str:
    """What to add to the entry so routed scores carry a metadata key (or why not)."""
    key = need.key
    absent = (
        f"or, if the metric should leave routed scores out as it leaves out the "
        f"eval's own non-answers, list {key} under absent_metadata with the reason"
    )
    if need.copied_from:
        return f"add {key} to copy_metadata ({need.copied_from}), {absent}"
    if need.sources:
        return (
            f"give it in verdict_metadata with the value a non-answer has "
            f"({need.sources[0]}), {absent}"
        )
    return (
        f"add {key} to copy_metadata if the eval's scores copy it from the "
        f"sample's metadata (the scan finds no Score(metadata=...) that sets it), "
        f"else give it in verdict_metadata, {absent}"
    )


def _uncovered(
    name: str, entry: EvalEntry, scan: EvalScan, repo: Path
) -> Iterator[Drift]:
    """Findings the entry's codemods do not address (none/manual carry a reason).

    A finding inside a recorded helper is addressed: its note says why it stays.
    """
    if not isinstance(entry.codemods, list):
        return
    for declaration in codemods.DECLARATIONS:
        findings = getattr(scan, declaration.finds) if declaration.finds else []
        findings = [
            f for f in findings if not in_recorded_helper(entry, f.file, f.line, repo)
        ]
        if findings and declaration.name not in entry.codemods:
            places = ", ".join(f"{f.file}:{f.line}" for f in findings)
            kind = f"not covered by {declaration.name}"
            yield Drift(name, kind, places, findings[0].file, findings[0].line)


def recorded(entry: EvalEntry, check: FlowCheck) -> bool:
    """Whether the registry records the function holding a check.

    As a helper, or as a scorer construct the function is or is nested in
    (healthbench's ``healthbench_scorer`` holds its ``_scorer``).
    """
    if any((h.name, h.file) == (check.function, check.file) for h in entry.helpers):
        return True
    return any(
        scorer.file == check.file
        and (check.function + ".").startswith(scorer.name + ".")
        for scorer in entry.scorers
    )


def helper_drift(
    entry: EvalEntry, name: str, scan: EvalScan, repo: Path
) -> Iterator[Drift]:
    """Helpers holding a check the registry does not record, and stale records.

    Not part of `eval_drift`, which a migration checks before it rewrites an
    eval: the codemods act on the registered scorers, tasks and findings, never
    on a helper, so an unrecorded helper is registry work, not a reason to
    leave the eval unmigrated.
    """
    for check in scan.helpers:
        if not recorded(entry, check):
            yield Drift(name, "unrecorded helper", str(check))
    found = {(check.function, check.file) for check in scan.helpers}
    by_name = [*scan.empty_checks, *scan.dead_checks]
    for helper in entry.helpers:
        holds = any(
            in_recorded_helper(entry, f.file, f.line, repo, only=helper.name)
            for f in by_name
        )
        if (helper.name, helper.file) not in found and not holds:
            detail = "the scan finds no empty check on the output in it"
            where = f"{helper.name} ({helper.file})"
            yield Drift(name, "helper vanished", f"{where}: {detail}")


def _summary(scan: EvalScan) -> str:
    tasks = ", ".join(scan.tasks) or "no tasks"
    scorers = ", ".join(w.text for w in scan.scorers.values()) or "no @scorer"
    return f"tasks: {tasks}; scorers: {scorers}"


def in_recorded_helper(
    entry: EvalEntry, file: str, line: int, repo: Path, only: str | None = None
) -> bool:
    """Whether `line` of `file` lies in a helper the entry records (or in `only`)."""
    spans = _function_spans(repo / PACKAGE_ROOT / file)
    return any(
        helper.file == file
        and helper.name in spans
        and (only is None or helper.name == only)
        and spans[helper.name][0] <= line <= spans[helper.name][1]
        for helper in entry.helpers
    )


def _function_spans(path: Path) -> dict[str, tuple[int, int]]:
    """Each function's qualified name in a module, with its first and last line."""
    try:
        return _spans(source_text(path))
    except OSError:
        return {}


@functools.cache
def _spans(text: str) -> dict[str, tuple[int, int]]:
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError):
        return {}
    return {
        ".".join(path): (node.lineno, node.end_lineno or node.lineno)
        for path, node in qualified_definitions(tree.body)
        if isinstance(node, Function)
    }
