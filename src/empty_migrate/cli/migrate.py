"""``empty-migrate --eval X [--dry-run | --check]``: parse, print, set exit codes."""

import argparse
import datetime
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from empty_migrate import codemods
from empty_migrate.cli.campaign import (
    branch_option_misuse,
    run_branch_per_eval,
)
from empty_migrate.cli.common import (
    check_or_report,
    note,
    open_registry,
    progress_bar,
    selected_evals,
    usage_error,
)
from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.cli.parser import add_migrate_arguments
from empty_migrate.entries.in_target import scaffold_command
from empty_migrate.pipeline.migrate import (
    KeptFile,
    RunResult,
    is_shared,
    migrate,
    select_codemods,
)
from empty_migrate.pipeline.plan import Plan, plan_run
from empty_migrate.pipeline.runner import FileResult
from empty_migrate.pipeline.stops import described, exit_status, signal_of
from empty_migrate.pipeline.summary import (
    Mode,
    detailed_lines,
    failed_lines,
    short_lines,
)
from empty_migrate.registry.loader import Registry
from empty_migrate.target.corpus import (
    CorpusError,
    Target,
    resolve_target,
    writable_copy,
)
from empty_migrate.target.files import Journal, WriteError, recover
from empty_migrate.target.lock import repository_lock

if TYPE_CHECKING:  # imported when used: only a color terminal needs rich
    from rich.console import Console

    from empty_migrate.codemods.kit.declaration import Declaration
    from empty_migrate.pipeline.write import WriteReport

_STYLES = {"+": "green", "-": "red", "@": "cyan", "#": "dim", "h": "bold"}
_HEADERS = ("diff ", "---", "+++", "new file")


def run_migrate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run a migration, a dry run or a check, from parsed arguments."""
    if args.list_codemods:
        return _list_codemods()
    if not args.evals and not args.all:
        parser.print_usage(sys.stderr)
        print("empty-migrate: name --eval EVAL (repeatable) or --all", file=sys.stderr)
        return ExitCode.USAGE
    misuse = branch_option_misuse(args)
    if misuse:
        return usage_error(misuse)
    writes = not (args.dry_run or args.check)
    if args.wait and not writes:
        return usage_error(
            "--wait is for a run that writes: not with --dry-run or --check"
        )
    today = (args.today or datetime.date.today()).isoformat()
    codemods = select_codemods(args.only, args.skip)
    target = resolve_target(args.migrate_repo, on_fetch=_teller(args))
    registry = open_registry(args.migrate_registry, target.path)
    evals = selected_evals(registry, args.evals, args.all, target.path)
    if target.notice:
        _teller(args)(target.notice)
    if not check_or_report(registry, evals):
        return ExitCode.USAGE
    if args.branch_per_eval:
        return run_branch_per_eval(args, target, registry, evals, codemods, today)
    _refuse_cached_write(target, writes)
    if not writes:
        return _migrate(registry, target.path, evals, codemods, today, args, None)
    return _migrate_under_lock(registry, target.path, evals, codemods, today, args)


def migrate_in_place(registry: Registry, repo: Path, evals: list[str]) -> int:
    """Migrate `evals` in the checkout `repo` as ``--eval`` does, dated today.

    Every codemod of their entries, under the repository lock (exit 2 at once
    if another run holds it), the summary on stderr: ``lint --fix``'s run.
    """
    if not check_or_report(registry, evals):
        return ExitCode.USAGE
    return _migrate_under_lock(
        registry, repo, evals, select_codemods(None, None), _today(), default_options()
    )


def _today() -> str:
    return datetime.date.today().isoformat()


def default_options() -> argparse.Namespace:
    """The migration options as the command line leaves them: an in-place text run.

    Read from the parser itself, so that a new option has one default.
    """
    parser = argparse.ArgumentParser(add_help=False)
    add_migrate_arguments(parser)
    return parser.parse_args([])


def _migrate_under_lock(
    registry: Registry,
    repo: Path,
    evals: list[str],
    codemods: Sequence["Declaration"],
    today: str,
    args: argparse.Namespace,
) -> int:
    try:
        # held from before the tree is read until the last file is written
        with repository_lock(repo, args.wait, on_wait=_teller(args)) as lock:
            journal = Journal(lock.with_suffix(".journal"))
            if cleared := recover(journal, repo):
                _teller(args)(cleared)  # before the tree is read: the run sees it whole
            return _migrate(registry, repo, evals, codemods, today, args, journal)
    except WriteError as error:
        return usage_error(str(error))


def _migrate(
    registry: Registry,
    repo: Path,
    evals: list[str],
    codemods: Sequence["Declaration"],
    today: str,
    args: argparse.Namespace,
    journal: Journal | None,
) -> int:
    """Plan the run and say what it covers, compute it, print, write, summarise.

    It is written when a `journal` is given, to record the staging files in.
    """
    plan = plan_run(registry, repo, evals)
    for line in plan.notes:
        _teller(args)(line)
    try:
        with progress_bar(() if args.quiet else plan.evals) as progress:
            run = migrate(
                registry,
                repo,
                plan,
                codemods,
                today,
                progress,
                replace_edited=args.replace_router,
            )
    except KeyboardInterrupt as stop:
        note(f"{described(signal_of(stop))}; nothing was written")
        return exit_status(signal_of(stop))
    if journal and run.changed_files():
        stopped = _write(run, repo, journal)
        if stopped is not None:
            return exit_status(stopped)
    return _report(registry, plan, run, args, journal is not None)


def _summary(
    registry: Registry,
    plan: Plan,
    run: RunResult,
    args: argparse.Namespace,
    writes: bool,
) -> list[str]:
    """The summary's lines at the level of detail asked for (`summary`)."""
    mode: Mode = "write" if writes else "check" if args.check else "dry-run"
    if args.quiet:
        return failed_lines(run)
    if args.verbose:
        return detailed_lines(run, plan, mode)
    return short_lines(run, plan, registry, mode)


def _print_notes(plan: Plan, run: RunResult) -> None:
    for kept in run.kept:
        note(kept.note())
    for notice in run.notices:
        note(f"note: {notice}")
    if unknown := plan.unknown_note():
        note(unknown)


def _teller(args: argparse.Namespace) -> Callable[[str], None]:
    """`note`, or nothing under ``--quiet``, which prints errors only."""
    return _ignored if args.quiet else note


def _ignored(message: str) -> None:
    """Hears a note and says nothing (``--quiet``)."""


def _refuse_cached_write(target: Target, writes: bool) -> None:
    if writes and target.cached:
        raise CorpusError(
            f"will not write into the cached release at {target.path}: "
            f"{writable_copy(target.path)}, or pass --dry-run to see the diff"
        )


def _list_codemods() -> int:
    width = max(len(name) for name in codemods.names()) + 2
    for codemod in codemods.DECLARATIONS:
        print(f"{codemod.name:<{width}}{codemod.safety:<8}{codemod.description}")
    return ExitCode.OK


def _write(run: RunResult, repo: Path, journal: Journal) -> int | None:
    """Write the run's changes, marking evals that could not be written failed.

    Returns the stop signal that ended the writing early, if one did.
    """
    # imported here: a dry run or a check writes nothing
    from empty_migrate.pipeline.write import WriteInterrupted, write_units

    try:
        report = write_units(repo, run.write_plan(), journal)
    except WriteInterrupted as stop:
        _mark_failed(run, stop.report)
        total = len(stop.written) + len(stop.pending)
        rest = (
            "; run the same command again to migrate the rest" if stop.pending else ""
        )
        note(
            f"{described(stop.signum)}: wrote {len(stop.written)} of {total} "
            f"changed evals, each in full{rest}"
        )
        return stop.signum
    _mark_failed(run, report)
    return None


def _mark_failed(run: RunResult, report: "WriteReport") -> None:
    for evals, reason in report.failed.items():
        run.fail(evals, f"not written: {reason}")


def _report(
    registry: Registry,
    plan: Plan,
    run: RunResult,
    args: argparse.Namespace,
    writes: bool,
) -> int:
    """Print the diff or JSON on stdout, and the summary and notes on stderr."""
    changed = run.changed_files()
    if args.output_format == "json":
        print(json.dumps(_as_json(run, plan), indent=2))
    elif args.dry_run:
        _print_diff(run, sys.stdout, args.show_shared)
    if args.output_format == "text":
        for line in _summary(registry, plan, run, args, writes):
            print(line, file=sys.stderr)
    if not args.quiet:
        _print_notes(plan, run)
    if run.count("failed"):
        return ExitCode.TOOL_ERROR
    if args.check and changed:
        return ExitCode.WORK_REMAINS
    return ExitCode.OK


def _print_diff(run: RunResult, stream: TextIO, show_shared: bool) -> None:
    """Each eval's own changes first; files every eval shares summarised, or last.

    A generated file kept for its maintainers is named in a comment with the
    size of the change a replacement would make; with ``--show-shared`` that
    change follows, commented out, so the output still applies as a write.
    """
    own, shared = _final_diffs(run)
    text = "".join(diff for _, diff in own)
    if shared and not show_shared:
        text = _shared_summary(shared) + text
    elif shared:
        text += "".join(diff for _, diff in shared)
    if run.kept:
        text = _kept_summary(run.kept) + text
    if run.kept and show_shared:
        text += "".join(_commented(kept.diff()) for kept in run.kept)
    _write_diff(text, stream)


def _kept_summary(kept: list[KeptFile]) -> str:
    lines = ["# empty-migrate keeps generated files their maintainers edited"]
    lines.append("# (--replace-router replaces them; --show-shared prints the change):")
    lines += [f"#   {k.path}: would change {_change_size(k.file)}" for k in kept]
    return "\n".join(lines) + "\n"


def _commented(diff: str) -> str:
    return "".join(f"# {line}" for line in diff.splitlines(keepends=True))


def _final_diffs(
    run: RunResult,
) -> tuple[list[tuple[FileResult, str]], list[tuple[FileResult, str]]]:
    final = run.changed_files()
    own: list[tuple[FileResult, str]] = []
    shared: list[tuple[FileResult, str]] = []
    seen: set[str] = set()
    for result in run.evals:
        for file in result.files:
            if file.status != "rewritten" or file.path in seen:
                continue
            # the first rewrite of a path holds its original text
            seen.add(file.path)
            file = replace(file, after=final[file.path])
            (shared if is_shared(file) else own).append((file, file.diff()))
    return own, shared


def _shared_summary(shared: list[tuple[FileResult, str]]) -> str:
    lines = ["# empty-migrate also changes files every migrated eval shares"]
    lines.append("# (--show-shared prints them; the evals' changes import them):")
    lines += [f"#   {file.path}: {_change_size(file)}" for file, _ in shared]
    return "\n".join(lines) + "\n"


def _change_size(file: FileResult) -> str:
    """``new file, N lines`` or ``+added -removed``: the size of a file's diff."""
    body = [line for line in file.diff().splitlines() if line[:1] in "+-"]
    added = sum(1 for line in body if line[:1] == "+") - 1
    removed = sum(1 for line in body if line[:1] == "-") - 1
    return f"new file, {added} lines" if not file.before else f"+{added} -{removed}"


def _write_diff(text: str, stream: TextIO) -> None:
    """Write the diff as is; on a color terminal, with rich's colors."""
    console = _color_console(stream)
    if console is None:
        stream.write(text)
        return
    for line in text.splitlines():
        key = "h" if line.startswith(_HEADERS) else line[:1]
        console.print(line, style=_STYLES.get(key), markup=False, highlight=False)


def _color_console(stream: TextIO) -> "Console | None":
    if not stream.isatty():
        return None
    from rich.console import Console  # only a terminal needs rich (slow to import)

    console = Console(file=stream, soft_wrap=True, emoji=False)
    return console if console.color_system and not console.no_color else None


def _as_json(run: RunResult, plan: Plan) -> dict[str, Any]:
    return {
        "evals": [
            {
                "eval": result.eval,
                "status": result.status,
                "reason": result.reason,
                "scoring": result.scoring,
                "tests_updated": result.tests_updated,
                "files": [
                    {
                        "path": f.path,
                        "status": f.status,
                        "codemods": list(f.codemods),
                        "reason": f.reason,
                        "review": [note.as_json() for note in f.review],
                    }
                    for f in result.files
                ],
            }
            for result in run.evals
        ],
        "summary": {
            **{
                s: run.count(s) for s in ("rewritten", "unchanged", "skipped", "failed")
            },
            "not_in_registry": len(plan.unknown),
        },
        "not_in_registry": [
            {"eval": name, "write_entry": scaffold_command(name)}
            for name in plan.unknown
        ],
        "plan": list(plan.notes),
        "notices": run.notices,
        "kept": [
            {
                "path": kept.path,
                "reason": "edited by its maintainers",
                "note": kept.note(),
                "diff": kept.diff(),
            }
            for kept in run.kept
        ],
    }
