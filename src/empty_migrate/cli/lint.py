"""``empty-migrate lint``: parse, print ``path:line:col: EMxxx``, set exit codes."""

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from empty_migrate.cli.common import (
    UsageError,
    note,
    open_registry,
    report_problems,
    usage_error,
)
from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.entries.in_target import entry_path, scaffold_command
from empty_migrate.lint.checkout import (
    CheckoutError,
    evals_of,
    find_root,
    shared_files,
)
from empty_migrate.lint.fix import fix_plan
from empty_migrate.lint.rules import LintReport, lint
from empty_migrate.registry.loader import RegistryError

if TYPE_CHECKING:
    from empty_migrate.registry.loader import Registry


def run_lint_command(args: argparse.Namespace) -> int:
    """Lint, print the findings, and with --fix migrate what can be and lint again."""
    cwd = Path.cwd()
    try:
        root = find_root(args.paths, args.repo, cwd)
        registry = open_registry(args.registry, root)
        shared = shared_files(registry) if args.paths else {}
        evals = evals_of(root, args.paths, cwd, shared)
        report = lint(root, registry, evals, fix_plan(registry, root))
        if args.fix and report.fixable:
            status = _fix(root, registry, report.fixable)
            if status != ExitCode.OK:
                return status
            report = lint(root, registry, evals, fix_plan(registry, root))
    except (UsageError, CheckoutError) as error:
        return usage_error(str(error))
    except RegistryError as error:
        report_problems(error)
        return ExitCode.USAGE
    _print(report, args.format, cwd)
    return ExitCode.WORK_REMAINS if report.findings else ExitCode.OK


def _fix(root: Path, registry: "Registry", evals: list[str]) -> int:
    # imported here: only --fix migrates
    from empty_migrate.cli.migrate import migrate_in_place

    note(f"--fix: migrating {', '.join(evals)}")
    return migrate_in_place(registry, root, evals)


def _print(report: LintReport, fmt: str, cwd: Path) -> None:
    if fmt == "json":
        findings = [
            {
                "path": _shown(finding.path, report, cwd),
                "line": finding.line,
                "col": finding.col,
                "code": finding.code,
                "message": finding.message,
                "eval": finding.eval,
            }
            for finding in report.findings
        ]
        data = {
            "findings": findings,
            "fixable": report.fixable,
            "unfixable": report.unfixable,
            "not_fixed": report.left,
            "suggested_entries": report.suggestions,
            "not_in_registry": report.unknown,
        }
        print(json.dumps(data, indent=2))
        return
    for finding in report.findings:
        where = _shown(finding.path, report, cwd)
        print(f"{where}:{finding.line}:{finding.col}: {finding.code} {finding.message}")
    for name, text in report.suggestions.items():
        print(f"\n# suggested registry entry: {entry_path(name)}")
        print(text, end="")
    for line in report.unfixable:
        note(line)
    for name, reason in report.left.items():
        note(f"{name}: --fix leaves it as it is: {reason}")
    quiet = [name for name in report.unknown if name not in report.suggestions]
    if quiet:
        commands = "; ".join(scaffold_command(name) for name in quiet)
        note(
            f"not in the registry: {', '.join(quiet)}; write an entry with `{commands}`"
        )
    if report.findings:
        fixable = (
            f"; --fix migrates {', '.join(report.fixable)}" if report.fixable else ""
        )
        note(f"{len(report.findings)} finding(s){fixable}")
    for line in report.joined if report.fixable else []:
        note(line)


def _shown(path: str, report: LintReport, cwd: Path) -> str:
    """A finding's path as the user's tools open it: from the current folder."""
    return os.path.relpath(report.root / path, cwd)
