"""The ``empty-migrate`` command line: parses, prints and sets exit codes."""

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import asdict

from empty_migrate import __version__
from empty_migrate.cli.audit import add_audit_command, run_audit_command
from empty_migrate.cli.campaign import add_campaign_command, run_campaign_command
from empty_migrate.cli.common import add_format_option, progress_bar
from empty_migrate.cli.exit_codes import EPILOG, ExitCode
from empty_migrate.cli.lint import add_lint_command, run_lint_command
from empty_migrate.cli.migrate import (
    add_migrate_arguments,
    migration_options_given,
    run_migrate,
)
from empty_migrate.cli.registry import add_registry_commands, run_registry
from empty_migrate.pipeline.stops import described, exit_status, signal_of
from empty_migrate.runtime.policy import POLICY, Category


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
    try:
        return _dispatch(args, parser)
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
    if args.command == "policy":
        return _print_policy(args.format)
    if args.command == "outcomes":
        return _print_outcomes(args.logs, args.format)
    if args.command == "registry":
        return run_registry(args)
    if args.command == "audit":
        return run_audit_command(args)
    if args.command == "campaign":
        return run_campaign_command(args)
    if args.command == "lint":
        return run_lint_command(args)
    return run_migrate(args, parser)


def build_parser() -> tuple[argparse.ArgumentParser, list[argparse.Action]]:
    """The command line's parser, and the migration options it holds."""
    parser = argparse.ArgumentParser(
        prog="empty-migrate",
        description=(
            "Migrate inspect_evals scorers to one empty-response policy.\n"
            "With --eval or --all and neither --dry-run nor --check, the changes\n"
            "are written into the target tree."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=__version__)
    migration_options = add_migrate_arguments(parser)
    commands = parser.add_subparsers(dest="command")
    policy = commands.add_parser("policy", help="print the category x outcome table")
    add_format_option(
        policy,
        ("text", "json", "markdown"),
        note="text and markdown print the same Markdown table",
    )
    outcomes = commands.add_parser(
        "outcomes", help="classify every sample's final output in eval logs"
    )
    outcomes.add_argument(
        "logs",
        nargs="+",
        metavar="LOG",
        help="an Inspect log (.eval or .json), or a folder: every log under it",
    )
    add_format_option(outcomes, aliases={"table": "text"})
    add_registry_commands(commands)
    add_audit_command(commands)
    add_campaign_command(commands)
    add_lint_command(commands)
    return parser, migration_options


def _print_policy(fmt: str) -> int:
    if fmt == "json":
        table = {c: dict(POLICY[c]) for c in Category}
        print(json.dumps(table, indent=2))
        return ExitCode.OK
    # imported here: only this command renders the table
    from empty_migrate.cli.policy_table import policy_markdown

    print(policy_markdown(), end="")
    return ExitCode.OK


def _print_outcomes(logs: list[str], fmt: str) -> int:
    # imported here: reading logs needs inspect_ai, which the other commands do not
    from empty_migrate.audit.outcomes import LogReadError, read_logs, render_sections

    try:
        with progress_bar(doing="reading logs") as progress:
            found = read_logs(logs, progress)
    except LogReadError as error:
        print(f"empty-migrate: {error}", file=sys.stderr)
        return ExitCode.USAGE
    for line in found.skipped + found.unreadable:
        print(f"empty-migrate: {line}", file=sys.stderr)
    for one in found.read:
        if partial := one.coverage.note():
            print(f"empty-migrate: {one.log}: {partial}", file=sys.stderr)
    outcomes = [o for one in found.read for o in one.outcomes]
    if fmt == "json":
        print(json.dumps([asdict(o) for o in outcomes], indent=2, default=str))
    else:
        print(render_sections(found.read), end="")
    # a log cut short is bad input, as when it is named: the others are reported
    return ExitCode.USAGE if found.unreadable else ExitCode.OK
