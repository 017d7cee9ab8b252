"""The ``empty-migrate`` command line: parses, prints and sets exit codes.

The parser is declared with the standard library only (`empty_migrate.cli.parser`);
each command's module is imported when that command runs, so a command loads
what it needs and nothing that another command needs (``lint FILE`` is the
pre-commit hook's call: people wait for it).
"""

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.cli.parser import build_parser, migration_options_given
from empty_migrate.errors import EmptyMigrateError
from empty_migrate.pipeline.stops import described, exit_status, signal_of
from empty_migrate.target.cache import refused_cache_setting

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    parser, migration_options = build_parser()
    args = parser.parse_args(argv)
    given = migration_options_given(migration_options, args) if args.command else []
    if given:
        parser.print_usage(sys.stderr)
        print(
            f"empty-migrate: {', '.join(given)} is a migration option and does not "
            f"apply to `{args.command}`; put a command's own options after it",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    refused = refused_cache_setting()  # before a command starts, not midway
    if refused is not None:
        print(f"empty-migrate: {refused}", file=sys.stderr)
        return ExitCode.USAGE
    try:
        return _dispatch(args, parser)
    except EmptyMigrateError as error:
        # imported here: only an error needs the notes (see the module docstring)
        from empty_migrate.cli.common import reported

        return reported(error)
    except BrokenPipeError:
        # the reader closed the pipe early (`| head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitCode.OK
    except KeyboardInterrupt as stop:
        # a migration's writes hold stop signals (see empty_migrate.pipeline.write):
        # any that gets here came before them or after them
        print(f"empty-migrate: {described(signal_of(stop))}", file=sys.stderr)
        return exit_status(signal_of(stop))


def _dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    # each command's module is imported here, when it runs: see the docstring
    if args.command == "policy":
        return _print_policy(args.format)
    if args.command == "outcomes":
        return _print_outcomes(args.logs, args.format, args.registry)
    if args.command == "registry":
        from empty_migrate.cli.registry import run_registry

        return run_registry(args)
    if args.command == "audit":
        from empty_migrate.cli.audit import run_audit_command

        return run_audit_command(args)
    if args.command == "campaign":
        from empty_migrate.cli.campaign import run_campaign_command

        return run_campaign_command(args)
    if args.command == "lint":
        from empty_migrate.cli.lint import run_lint_command

        return run_lint_command(args)
    if args.command == "cache":
        from empty_migrate.cli.cache import run_cache_command

        return run_cache_command(args)
    from empty_migrate.cli.migrate import run_migrate

    return run_migrate(args, parser)


def _print_policy(fmt: str) -> int:
    from empty_migrate.runtime.policy import POLICY, Category

    if fmt == "json":
        import json

        table = {c: dict(POLICY[c]) for c in Category}
        print(json.dumps(table, indent=2))
        return ExitCode.OK
    # imported here: only this command renders the table
    from empty_migrate.cli.policy_table import policy_markdown

    print(policy_markdown(), end="")
    return ExitCode.OK


def _print_outcomes(logs: list[str], fmt: str, registry_dir: Path) -> int:
    # imported here: reading logs needs inspect_ai, which the other commands do not
    import json

    from empty_migrate.cli.common import (
        note,
        outcome_locations,
        progress_bar,
        terminal_safe,
    )
    from empty_migrate.logs.outcomes import outcome_row, read_logs, render_sections

    location_of = outcome_locations(registry_dir)
    with progress_bar(doing="reading logs") as progress:
        found = read_logs(logs, progress, location_of)
    for line in found.skipped + found.unreadable:
        note(line)
    for one in found.read:
        if partial := one.coverage.note():
            note(f"{one.log}: {partial}")
    outcomes = [o for one in found.read for o in one.outcomes]
    if fmt == "json":
        print(json.dumps([outcome_row(o) for o in outcomes], indent=2, default=str))
    else:
        print(terminal_safe(render_sections(found.read)), end="")
    # a log cut short is bad input, as when it is named: the others are reported
    return ExitCode.USAGE if found.unreadable else ExitCode.OK
