"""``empty-migrate lint``: parse, print ``path:line:col: EMxxx``, set exit codes."""

import argparse
import os
from pathlib import Path

from empty_migrate import TYPE_CHECKING
from empty_migrate.cli.common import (
    note,
    open_registry,
)
from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.entries.in_target import entry_path, scaffold_command
from empty_migrate.lint import clean
from empty_migrate.lint.checkout import (
    evals_of,
    find_root,
    shared_files,
)
from empty_migrate.registry import folder_problem
from empty_migrate.registry.target import registered_files

if TYPE_CHECKING:
    from empty_migrate.lint.rules import LintReport
    from empty_migrate.registry.loader import Registry


def run_lint_command(args: argparse.Namespace) -> int:
    """Lint, print the findings, and with --fix migrate what can be and lint again.

    When every eval the paths cover was found clean before, in the state it
    is in now (`empty_migrate.lint.clean`), that is the answer: nothing that
    lints is loaded.
    """
    cwd = Path.cwd()
    root = find_root(args.paths, args.repo, cwd)
    if _known_clean(args, root, cwd):
        _print_clean(root, args.format, cwd)
        return ExitCode.OK
    return _lint(args, root, cwd)


def _known_clean(args: argparse.Namespace, root: Path, cwd: Path) -> bool:
    """Whether every eval the lint covers is kept as clean in its present state."""
    if folder_problem(args.registry):
        return False  # the lint says what is wrong with --registry
    files = registered_files(root, args.registry)
    shared = clean.recalled_shared(files) if args.paths else {}
    if shared is None:
        return False
    evals = evals_of(root, args.paths, cwd, shared)
    return all(
        name in files and clean.is_clean(root, name, files[name]) for name in evals
    )


def _print_clean(root: Path, fmt: str, cwd: Path) -> None:
    """Print a lint with no finding: nothing in text, the empty report in JSON."""
    if fmt == "json":
        from empty_migrate.lint.rules import LintReport  # only JSON prints one

        _print(LintReport(root), fmt, cwd)


def _lint(args: argparse.Namespace, root: Path, cwd: Path) -> int:
    registry = open_registry(args.registry, root)
    shared = _shared_files(registry) if args.paths else {}
    evals = evals_of(root, args.paths, cwd, shared)
    report = _linted(root, registry, evals)
    if args.fix and report.fixable:
        status = _fix(root, registry, report.fixable)
        if status != ExitCode.OK:
            return status
        report = _linted(root, registry, evals)
    _print(report, args.format, cwd)
    return ExitCode.WORK_REMAINS if report.failed else ExitCode.OK


def _linted(root: Path, registry: "Registry", evals: list[str]) -> "LintReport":
    """Lint `evals`; those found clean are kept as such (`empty_migrate.lint.clean`)."""
    # imported here: an answer kept from before needs none of them
    from empty_migrate.lint.fix import fix_plan
    from empty_migrate.lint.rules import lint

    before = clean.snapshot(root, registry, evals)
    report = lint(root, registry, evals, fix_plan(registry, root))
    found = [*report.findings, *report.unreadable]
    clean.keep_clean(root, registry, before, (f.eval for f in found))
    return report


def _shared_files(registry: "Registry") -> dict[str, list[str]]:
    """`shared_files`, kept for `_known_clean` under the entries it read."""
    before = clean.entries_key(registry.files)
    shared = shared_files(registry)
    clean.keep_shared(registry.files, shared, before)
    return shared


def _fix(root: Path, registry: "Registry", evals: list[str]) -> int:
    # imported here: only --fix migrates
    from empty_migrate.cli.migrate import migrate_in_place

    note(f"--fix: migrating {', '.join(evals)}")
    return migrate_in_place(registry, root, evals)


def _print(report: "LintReport", fmt: str, cwd: Path) -> None:
    if fmt == "json":
        import json  # only this format needs it

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
        unreadable = [
            {
                "path": _shown(one.path, report, cwd),
                "line": one.line,
                "message": one.message,
                "eval": one.eval,
            }
            for one in report.unreadable
        ]
        data = {
            "findings": findings,
            "fixable": report.fixable,
            "unfixable": report.unfixable,
            "not_fixed": report.left,
            "suggested_entries": report.suggestions,
            "not_in_registry": report.unknown,
            "unreadable": unreadable,
        }
        print(json.dumps(data, indent=2))
        return
    for finding in report.findings:
        where = _shown(finding.path, report, cwd)
        print(f"{where}:{finding.line}:{finding.col}: {finding.code} {finding.message}")
    for one in report.unreadable:
        where = _shown(one.path, report, cwd)
        print(f"{where}:{one.line}:{one.col}: {one.message}")
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
    if report.unreadable:
        evals = ", ".join(dict.fromkeys(one.eval for one in report.unreadable))
        note(f"not linted: {evals}, as a file of it cannot be read; fix it, then lint")
    for line in report.joined if report.fixable else []:
        note(line)


def _shown(path: str, report: "LintReport", cwd: Path) -> str:
    """A finding's path as the user's tools open it: from the current folder."""
    return os.path.relpath(report.root / path, cwd)
