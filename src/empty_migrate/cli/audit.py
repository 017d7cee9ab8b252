"""``empty-migrate audit``: the behaviour matrix (parse, print, exit)."""

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from empty_migrate.cli.common import (
    UsageError,
    check_or_report,
    note,
    open_registry,
    progress_bar,
    selected_evals,
    terminal_safe,
)
from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.logs.locations import is_folder
from empty_migrate.registry.loader import Registry
from empty_migrate.target.corpus import resolve_target
from empty_migrate.target.files import error_text, unwritable, write_files
from empty_migrate.target.layout import enclosing_checkout

if TYPE_CHECKING:  # imported when used: running an audit needs inspect_ai
    from empty_migrate.audit.matrix import Audit


def run_audit_command(args: argparse.Namespace) -> int:
    """Run ``audit`` from parsed arguments."""
    if args.output is not None:
        _check_output(args.output)
    if args.log:
        return _audit_log(args)
    before: Audit | None
    after: Audit | None
    if args.compare:
        before, after = (_read_audit(Path(p)) for p in args.compare)
    else:
        before, after = _run(args)
    if after is None:
        return ExitCode.USAGE
    _write(_render(after, before, args.format), args.output)
    return ExitCode.OK


def _audit_log(args: argparse.Namespace) -> int:
    if len(args.audit_evals) > 1 or args.audit_all:
        raise UsageError(
            "audit --log LOG… takes at most one --eval EVAL (without it, each log's "
            "task names its eval)"
        )
    # a log's task is looked up in the registry of the checkout we are in
    # (or --repo), whose own entries name its new evals
    root = _tree(args.repo) if args.repo else enclosing_checkout(Path.cwd())
    registry = open_registry(args.registry, root)
    eval_name = next(iter(args.audit_evals), None)
    # one log file keeps its own report; several, or a folder, get a total
    if len(args.log) > 1 or is_folder(args.log[0]):
        return _audit_many_logs(args.log, eval_name, registry, args)
    return _audit_one_log(args.log[0], eval_name, registry, args)


def _audit_one_log(
    log: str, eval_name: str | None, registry: Registry, args: argparse.Namespace
) -> int:
    # imported here: reading logs needs inspect_ai, which the other commands do not
    from empty_migrate.logs.render import audit_json, render_text
    from empty_migrate.logs.replay import audit_log

    audit = audit_log(log, eval_name, registry)
    if args.format == "json":
        text = json.dumps(audit_json(audit), indent=2, default=str) + "\n"
    elif args.format == "html":
        from empty_migrate.logs.html import render_log_html

        text = render_log_html([audit])
    else:
        text = render_text(audit)
    _write(text, args.output)
    return ExitCode.OK


def _audit_many_logs(
    logs: list[str],
    eval_name: str | None,
    registry: Registry,
    args: argparse.Namespace,
) -> int:
    from empty_migrate.logs.render import audits_json, render_texts
    from empty_migrate.logs.replay import audit_logs

    with progress_bar(doing="auditing logs") as progress:
        found = audit_logs(logs, eval_name, registry, progress)
    for line in found.skipped + found.unreadable + found.not_audited:
        note(line)
    if args.format == "json":
        text = json.dumps(audits_json(found), indent=2, default=str) + "\n"
    elif args.format == "html":
        from empty_migrate.logs.html import render_log_html

        text = render_log_html(found.audits)
    else:
        text = render_texts(found)
    _write(text, args.output)
    # as outcomes: a log that could not be read (or here audited) is bad input,
    # and the others are still reported
    failed = found.unreadable or found.not_audited
    return ExitCode.USAGE if failed else ExitCode.OK


def _read_audit(path: Path) -> "Audit":
    from empty_migrate.audit.matrix import read_audit

    try:
        return read_audit(path)
    except ValueError as error:
        raise UsageError(
            f"{error}; --compare takes two audits saved with --format json"
        ) from None


def _run(args: argparse.Namespace) -> tuple["Audit | None", "Audit | None"]:
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.audit_all and args.audit_evals:
        raise UsageError("--eval and --all together: name evals or take them all")
    from empty_migrate.audit.run import choose_python, run_audit

    trees = (
        [_tree(args.before), _tree(args.repo)] if args.before else [_tree(args.repo)]
    )
    # the audited tree's registry (the migrated one's, with --before)
    registry = open_registry(args.registry, trees[-1])
    evals = selected_evals(registry, args.audit_evals, args.audit_all, trees[-1])
    if not check_or_report(registry, evals):
        return None, None
    python = choose_python(args.python, trees[-1], note)
    audits = [run_audit(registry, t, evals, python, args.workers) for t in trees]
    return (audits[0] if args.before else None), audits[-1]


def _tree(spec: str | None) -> Path:
    target = resolve_target(spec, on_fetch=note)
    if target.notice:
        note(target.notice)
    return target.path


def _render(after: "Audit", before: "Audit | None", fmt: str) -> str:
    from empty_migrate.audit import report as audit_report

    if fmt == "html":
        from empty_migrate.audit.html import render_html

        return render_html(after, before)
    if fmt == "json":
        if before is None:
            return after.to_json() + "\n"
        return audit_report.compare_json(before, after) + "\n"
    if before is None:
        return audit_report.render_text(after)
    return audit_report.render_compare_text(before, after)


def _check_output(output: Path) -> None:
    """Refuse an ``--output`` that cannot be written, before any work is done."""
    problem = (
        "names a folder"
        if output.name in ("", ".", "..")
        else unwritable(output.parent, output.name)
    )
    if problem:
        raise UsageError(
            f"--output {output}: {problem}; pass the path of a file to write "
            "(a new one, or a file to replace)"
        )


def _write(text: str, output: Path | None) -> None:
    text = terminal_safe(text)
    if output is None:
        sys.stdout.write(text)
        return
    try:
        # staged and renamed: an error leaves no half-written report
        write_files(output.parent, {output.name: text})
    except OSError as error:
        raise UsageError(
            f"--output {output}: {error_text(error)}; pass a file you can write"
        ) from None
    note(f"wrote {output}")
