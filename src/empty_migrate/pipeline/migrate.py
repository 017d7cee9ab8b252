"""Migrate evals: select, check against the registry, run the codemods, write.

The whole run is computed in memory first (a workspace of path -> text), so a
dry run and a write produce the same changes; nothing is written until every
eval has been computed and formatted (see `empty_migrate.pipeline.write`).
"""

import os
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from empty_migrate.analysis.scan import PACKAGE_ROOT, scan_eval
from empty_migrate.analysis.workspace import Workspace
from empty_migrate.codemods import (
    declaration,
    declared,
    eval_target,
    implementation,
    listed_by,
)
from empty_migrate.codemods import names as codemod_names
from empty_migrate.codemods.kit.declaration import Declaration
from empty_migrate.codemods.kit.released import edited_by_maintainers
from empty_migrate.errors import EmptyMigrateError
from empty_migrate.pipeline.comment_review import follow
from empty_migrate.pipeline.formatter import Formatter, FormatterError
from empty_migrate.pipeline.plan import Plan, blocker
from empty_migrate.pipeline.runner import EvalResult, FileResult, migrate_eval
from empty_migrate.pipeline.stops import end_with_parent, ignore_stops
from empty_migrate.pipeline.write import WriteUnit
from empty_migrate.registry.loader import Registry
from empty_migrate.target.files import pause_for_tests
from empty_migrate.target.kept import keep, key_of, recall
from empty_migrate.target.text_files import NotUtf8

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class KeptFile:
    """A generated file the run left as it is: its maintainers edited it.

    Attributes:
        file: What the run would have done to it (``after``: today's text).
    """

    file: FileResult

    @property
    def path(self) -> str:
        """Its path from the repo root."""
        return self.file.path

    def note(self) -> str:
        """The one line that says it was kept, and how to replace it."""
        return (
            f"kept {self.path}: edited by its maintainers (differs from every "
            "text this tool generated); --replace-router to overwrite"
        )

    def diff(self) -> str:
        """What replacing it would change, as a unified diff."""
        return self.file.diff()


@dataclass
class RunResult:
    """The outcome of one migration run, eval by eval."""

    evals: list[EvalResult] = field(default_factory=list)
    groups: list[list[str]] = field(default_factory=list)
    """Evals migrated together because they share a scorer file, in run order."""
    notices: list[str] = field(default_factory=list)
    """What the user should know about how the run was made (a fallback ruff)."""
    kept: list[KeptFile] = field(default_factory=list)
    """Generated files its maintainers edited, left as they are (`keep_edited`)."""

    def count(self, status: str) -> int:
        """How many evals ended with `status`."""
        return sum(1 for result in self.evals if result.status == status)

    def changed_files(self) -> dict[str, str]:
        """Every rewritten file's final text, by path (the last eval's wins)."""
        return {path: file.after for path, file in self._last_rewrites().items()}

    def written_files(self) -> dict[str, str]:
        """`changed_files` as they are output: in each file's own line ends and BOM."""
        return {path: file.written() for path, file in self._last_rewrites().items()}

    def found_texts(self) -> dict[str, str]:
        """The tree's own text of each rewritten file whose line ends or BOM differ.

        Those of every other file are LF and no BOM, as the codemods see them.
        """
        return {
            path: file.found
            for path, file in self._last_rewrites().items()
            if file.found is not None
        }

    def _last_rewrites(self) -> dict[str, FileResult]:
        return {
            f.path: f
            for result in self.evals
            for f in result.files
            if f.status == "rewritten"
        }

    def write_plan(self) -> list[WriteUnit]:
        """The groups with changes, as units to write, each all or nothing.

        They are ordered by their first rewritten eval, so the unit that
        installs the shared router module comes before every unit using it.
        """
        position = {result.eval: index for index, result in enumerate(self.evals)}
        by_name = {result.eval: result for result in self.evals}
        units = []
        for group in self.groups:
            changed = [by_name[n] for n in group if by_name[n].status == "rewritten"]
            if changed:
                first = min(position[result.eval] for result in changed)
                units.append((first, _unit(changed)))
        return [unit for _, unit in sorted(units, key=lambda pair: pair[0])]

    def fail(self, evals: Sequence[str], reason: str) -> None:
        """Mark `evals` failed for `reason`, as if none of their files changed."""
        for result in self.evals:
            if result.eval in evals:
                _fail(result, reason)


def _unit(changed: list[EvalResult]) -> WriteUnit:
    """The evals of a group that changed, as one unit to write."""
    files = RunResult(changed).written_files()
    shared = {
        f.path for r in changed for f in r.files if f.path in files and is_shared(f)
    }
    return WriteUnit(tuple(r.eval for r in changed), dict(files), frozenset(shared))


def is_shared(file: FileResult) -> bool:
    """Whether a rewrite is to a file every migrated eval shares (the router module).

    It is when every codemod that changed it declares the file shared; a
    scorer helper some evals share (``utils/aime_common.py``) is not.
    """
    return all(declaration(name).shares(file.path) for name in file.codemods)


class SelectionError(EmptyMigrateError):
    """A choice of codemods that would leave code that cannot run."""


def select_codemods(
    only: Sequence[str] | None = None, skip: Sequence[str] | None = None
) -> list[Declaration]:
    """The codemods to run, in pipeline order (names were checked by the CLI).

    Raises:
        SelectionError: If a chosen codemod needs one that is not chosen (its
            rewrite imports the router another one installs, say).
    """
    chosen = set(only) if only else set(codemod_names())
    chosen -= set(skip or [])
    if not chosen:
        raise SelectionError(
            "--only and --skip leave no codemod to run: skip fewer (see "
            "--list-codemods)"
        )
    for codemod in declared(chosen):
        missing = [need for need in codemod.needs if need not in chosen]
        if missing:
            flags = " ".join(f"--only {need}" for need in missing)
            advice = f"add {flags}" if only else f"do not skip {' or '.join(missing)}"
            raise SelectionError(
                f"{codemod.name} needs {' and '.join(missing)} in the same run: "
                f"{advice}"
            )
    return list(declared(chosen))


def migrate(
    registry: Registry,
    repo: Path,
    plan: Plan,
    codemods: Sequence[Declaration],
    today: str,
    progress: Progress | None = None,
    jobs: int | None = None,
    replace_edited: bool = False,
) -> RunResult:
    """Compute the migration `plan` makes in the tree at `repo`; nothing is written.

    The evals of a unit (`Plan.groups`: they share code the migration
    changes) are migrated in order in one group, so a later one sees the
    earlier one's rewrite, and all or nothing (`_whole_units`); independent
    groups run in parallel processes (`jobs`, default: one per core), each
    formatting what its batch of groups rewrote. A generated file its
    maintainers edited is kept as it is unless `replace_edited` (`keep_edited`).
    """
    evals = plan.evals
    groups = [list(group) for group in plan.groups]
    jobs = min(jobs or os.cpu_count() or 1, len(groups))
    # chosen before any process starts: a pinned ruff is installed once
    formatter = Formatter(repo)
    formatter.ruff  # noqa: B018
    results: dict[str, EvalResult] = {}
    if jobs <= 1:

        def report(done: int, group: list[str]) -> None:
            _report_progress(progress, done, len(evals), group)

        results = _migrate_batch(
            registry, formatter, groups, plan, codemods, today, report
        )
    else:
        # imported here: a run of one group (one eval, say) starts no processes
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        _load_rewrites(registry, evals, codemods)
        context = multiprocessing.get_context("fork")
        pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker)
        try:
            futures = {
                pool.submit(
                    _migrate_batch, registry, formatter, batch, plan, codemods, today
                ): batch
                for batch in _batches(groups, jobs * 2, repo)
            }
            for future in as_completed(futures):
                results |= future.result()
                last = futures[future][-1]
                _report_progress(progress, len(results), len(evals), last)
        finally:
            # on Ctrl-C, stop at once: nothing has been written yet
            pool.shutdown(cancel_futures=True)
    run = RunResult([results[name] for name in evals], groups)
    _whole_units(run)
    _settle_shared_files(run)
    if not replace_edited:
        keep_edited(run)
    if run.changed_files() and formatter.ruff.notice:
        run.notices.append(formatter.ruff.notice)
    return run


def _load_rewrites(
    registry: Registry, evals: Sequence[str], codemods: Sequence[Declaration]
) -> None:
    """Load every rewrite the evals can use, here, before the workers fork.

    Each worker would load its own otherwise: the same modules (LibCST among
    them) once per worker. What fails to load here is loaded, or reported, by
    the worker that needs it, as in any run.
    """
    for name in evals:
        try:
            listed = listed_by(registry.get(name))
            for declaration in codemods:
                if declaration.applies(listed):
                    implementation(declaration.name)
        except Exception:  # the eval's worker loads it again and says why
            continue


def _start_worker() -> None:
    # a worker stopped mid-eval would only print a traceback: the parent
    # process handles the stop signals and shuts the pool down
    ignore_stops()
    end_with_parent()


def _report_progress(
    progress: Progress | None, done: int, total: int, group: list[str]
) -> None:
    if progress:
        progress(done, total, group[-1])


def _batches(groups: list[list[str]], count: int, repo: Path) -> list[list[list[str]]]:
    """Deal the groups into `count` batches of about the same work, largest first.

    A group's work is guessed from the size of its packages' Python files
    (plus a constant per eval), and each group, largest first, goes to the
    lightest batch, so that no worker is left with the heavy evals at the
    end. Within a batch, groups keep their run order.
    """
    position = {tuple(group): index for index, group in enumerate(groups)}
    work = {tuple(group): _work(group, repo) for group in groups}
    batches: list[list[list[str]]] = [[] for _ in range(min(count, len(groups)))]
    loads = [0] * len(batches)
    for group in sorted(groups, key=lambda g: work[tuple(g)], reverse=True):
        lightest = loads.index(min(loads))
        batches[lightest].append(group)
        loads[lightest] += work[tuple(group)]
    for batch in batches:
        batch.sort(key=lambda g: position[tuple(g)])
    ordered = sorted(zip(loads, batches, strict=True), key=lambda lb: -lb[0])
    return [batch for _, batch in ordered]


_EVAL_WORK = 40_000
"""An eval's work beside its files' size, in bytes of code (scan, codemods, tests)."""


def _work(group: list[str], repo: Path) -> int:
    """A guess at a group's work: its packages' Python code, in bytes."""
    packages = [repo / PACKAGE_ROOT / name for name in group]
    code = sum(f.stat().st_size for package in packages for f in package.rglob("*.py"))
    return code + _EVAL_WORK * len(group)


def _migrate_batch(
    registry: Registry,
    formatter: Formatter,
    batch: list[list[str]],
    plan: Plan,
    codemods: Sequence[Declaration],
    today: str,
    on_group: Callable[[int, list[str]], None] | None = None,
) -> dict[str, EvalResult]:
    """Migrate and format a batch of groups (in a worker process, or all in one).

    `on_group` hears, after each group, how many evals are done and the group.
    """
    pause_for_tests("migrating")
    results: dict[str, EvalResult] = {}
    workspace = Workspace(formatter.repo)
    for group in batch:
        for name in group:
            results[name] = _migrate_one(
                registry, formatter.repo, name, plan, codemods, today, workspace
            )
        if on_group:
            on_group(len(results), group)
    order = [name for group in batch for name in group]
    _format(RunResult([results[name] for name in order], batch), formatter)
    return results


def _whole_units(run: RunResult) -> None:
    """Leave a unit as it is when one of its evals is: its evals share code.

    A unit's evals are migrated together because the code they share changes
    with them; if one is skipped or fails, the shared change would score it
    without its version bump, so the others are left as they were too.
    """
    by_name = {result.eval: result for result in run.evals}
    for group in run.groups:
        stopped = [n for n in group if by_name[n].status in ("skipped", "failed")]
        if not stopped or len(group) < 2:
            continue
        first = by_name[stopped[0]]
        reason = (
            f"migrated together with {', '.join(n for n in group if n != first.eval)}"
            f", and {first.eval} is {first.status}: {first.reason}"
        )
        for name in group:
            if by_name[name].status == "rewritten":
                _leave(by_name[name], reason)


def _settle_shared_files(run: RunResult) -> None:
    """Keep one rewrite per file, by the first eval in run order that changes it.

    Groups start from the pristine tree, so each rewrites the router module
    and the preset shim: a later identical rewrite becomes a no-op. When the
    eval that first changed a shared file failed, the next eval holding the
    file (whose workspace already had the change) takes the change over.
    """
    final: dict[str, str] = {}
    orphaned: dict[str, FileResult] = {}
    for result in run.evals:
        files = []
        for file in result.files:
            if file.status == "failed" and file.path not in final:
                orphaned.setdefault(file.path, file)
            elif file.status == "rewritten" and file.path in final:
                if final[file.path] != file.after:
                    raise RuntimeError(f"conflicting rewrites of {file.path}")
                # as if it had found the file done: the same for any batching
                file = replace(
                    file, status="unchanged", before=file.after, codemods=(), review=()
                )
            elif file.status == "unchanged" and file.path in orphaned:
                first = orphaned.pop(file.path)
                if first.before != file.after and result.status != "failed":
                    file = replace(
                        file,
                        status="rewritten",
                        before=first.before,
                        codemods=first.codemods,
                    )
            if file.status == "rewritten":
                final.setdefault(file.path, file.after)
                orphaned.pop(file.path, None)
            files.append(file)
        result.files = files


def keep_edited(run: RunResult) -> None:
    """Leave each generated file its maintainers edited as it is, and record it.

    The router module and the emitted tests' helpers are the target's own
    once installed: a text this package never generated (see
    `empty_migrate.codemods.kit.released`) is a maintainer's, and replacing
    it would silently revert their fix. A text it generated is replaced
    (an upgrade). Run after `_settle_shared_files`, which leaves one rewrite
    per file.
    """
    for result in run.evals:
        files = []
        for file in result.files:
            if file.status == "rewritten" and edited_by_maintainers(
                file.path, file.before
            ):
                run.kept.append(KeptFile(file))
                file = replace(
                    file, status="unchanged", after=file.before, codemods=(), review=()
                )
            files.append(file)
        result.files = files


def _format(run: RunResult, formatter: Formatter) -> None:
    """Format every rewritten Python file in one batch, then check it compiles.

    Formatting a batch of evals at once (two ruff processes) rather than per
    file keeps a 130-eval run fast. An eval whose formatted file no longer
    compiles fails, and so does the rest of its group (their rewrites build on
    each other): their files are left as they were. If the formatter itself
    fails, every eval with a rewritten Python file fails.
    """
    texts = {
        path: text for path, text in run.changed_files().items() if path.endswith(".py")
    }
    try:
        formatted = formatter.format_all(texts)
    except FormatterError as error:
        for result in run.evals:
            if any(f.status == "rewritten" and f.path in texts for f in result.files):
                _fail(result, str(error))
        return
    failed: set[str] = set()
    for result in run.evals:
        result.files = [_formatted(f, formatted) for f in result.files]
        broken = [f for f in result.files if f.status == "failed"]
        if broken:
            failed.add(result.eval)
            _fail(result, "; ".join(f"{f.path}: {f.reason}" for f in broken))
    by_name = {result.eval: result for result in run.evals}
    for group in run.groups:
        blamed = [name for name in group if name in failed]
        for name in group if blamed else []:
            if name not in failed and by_name[name].status == "rewritten":
                _fail(by_name[name], f"shares a scorer file with {', '.join(blamed)}")


def _leave(result: EvalResult, reason: str) -> None:
    """Mark an eval skipped for `reason`, leaving every file it rewrote as it was."""
    result.reason = reason
    result.files = [
        replace(f, status="skipped", after=f.before, reason=reason, review=())
        if f.status == "rewritten"
        else f
        for f in result.files
    ]


def _fail(result: EvalResult, reason: str) -> None:
    """Mark an eval failed, leaving every file it rewrote as it was."""
    result.reason = reason
    result.files = [
        replace(
            f, status="failed", after=f.before, reason=f.reason or reason, review=()
        )
        if f.status in ("rewritten", "failed")
        else f
        for f in result.files
    ]


def _formatted(file: FileResult, formatted: dict[str, str]) -> FileResult:
    if file.status != "rewritten" or file.path not in formatted:
        return file
    text = formatted[file.path]
    if error := _compile_error(text, file.path):
        reason = f"does not compile after formatting: {error}"
        return replace(
            file, status="failed", after=file.before, reason=reason, review=()
        )
    return replace(file, after=text, review=follow(file.review, file.after, text))


@lru_cache(maxsize=16)
def _compile_error(text: str, path: str) -> SyntaxError | None:
    """Why `text` does not byte-compile, if it does not.

    Kept for the last few texts: every batch of a run formats the same shared
    files (the router module, the emitted tests' helpers). A text that
    compiles is kept in the user cache too, under its path and the Python
    that compiled it: a run's texts are mostly the last run's again.
    """
    key = key_of(sys.version, path, text)
    if recall("compiled", key) is True:
        return None
    if _compiles_quietly(text, path):
        keep("compiled", key, True)
        return None
    try:  # again, as any compile: its warnings shown, its error returned
        compile(text, path, "exec")
    except SyntaxError as error:
        return error
    return None


def _compiles_quietly(text: str, path: str) -> bool:
    """Whether `text` byte-compiles with no warning: only such a text is kept."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning is then a SyntaxError
        try:
            compile(text, path, "exec")
        except SyntaxError:
            return False
    return True


def _migrate_one(
    registry: Registry,
    repo: Path,
    name: str,
    plan: Plan,
    codemods: Sequence[Declaration],
    today: str,
    workspace: Workspace,
) -> EvalResult:
    """Migrate one eval; one that needs a file that is not UTF-8 is skipped.

    Any other error on the way is the tool's: the eval fails with it, on one
    line, and the run goes on with the others.
    """
    try:
        return _migrated(registry, repo, name, plan, codemods, today, workspace)
    except NotUtf8 as error:  # a file outside its package: a helper, its README
        return EvalResult(name, reason=str(error))
    except Exception as error:  # one eval's odd shape must not stop the run
        reason = f"{type(error).__name__}: {error}".splitlines()[0]
        return EvalResult(name, reason=f"tool error: {reason}", crashed=True)


def _migrated(
    registry: Registry,
    repo: Path,
    name: str,
    plan: Plan,
    codemods: Sequence[Declaration],
    today: str,
    workspace: Workspace,
) -> EvalResult:
    entry = registry.get(name)
    scan = None if isinstance(entry.codemods, str) else scan_eval(workspace, name)
    reason = plan.blocked.get(name) or blocker(registry, name, scan, repo)
    if reason is not None or scan is None:
        return EvalResult(name, reason=reason)
    target = eval_target(
        name, entry, scan, repo, today, workspace=workspace, unit=plan.unit(name)
    )
    # only the rewrites this eval can use are loaded
    chosen = [implementation(d.name) for d in codemods if d.applies(target.listed)]
    return migrate_eval(target, chosen, workspace)
