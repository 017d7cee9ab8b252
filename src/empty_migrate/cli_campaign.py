"""``--branch-per-eval`` and ``campaign status``: parse, print, set exit codes."""

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from empty_migrate.cli_registry import note
from empty_migrate.corpus import CorpusError, resolve_target
from empty_migrate.exit_codes import ExitCode


def add_branch_arguments(group: Any) -> list[argparse.Action]:
    """Add the branch-per-eval options to the migration group; returns them."""
    return [
        group.add_argument(
            "--branch-per-eval",
            action="store_true",
            help="commit each eval's migration on its own branch, empty-policy/<eval>, "
            "with a PR text; the work tree is not touched",
        ),
        group.add_argument(
            "--base",
            metavar="BRANCH",
            help="branch the evals' branches start from (default: the checked-out one)",
        ),
        group.add_argument(
            "--pr-dir",
            type=Path,
            metavar="DIR",
            help="write the PR texts here (default: .git/empty-migrate/pr)",
        ),
        group.add_argument(
            "--replace-existing",
            action="store_true",
            help="rebuild branches this tool made that differ from this run",
        ),
        group.add_argument(
            "--issue",
            type=int,
            metavar="N",
            help="the issue the PRs close (default: none, with the reason)",
        ),
        group.add_argument(
            "--audit",
            action="store_true",
            help="measure each eval's before/after for its PR text "
            "(runs `audit` in the target environment)",
        ),
        group.add_argument(
            "--audit-python",
            metavar="PYTHON",
            help="the target environment's interpreter for --audit",
        ),
    ]


BRANCH_ONLY = (
    "base",
    "pr_dir",
    "replace_existing",
    "issue",
    "audit",
    "audit_python",
)
"""Options that mean something only with --branch-per-eval."""


def add_campaign_command(commands: Any) -> None:
    """Register ``campaign status`` on the top-level parser."""
    campaign = commands.add_parser(
        "campaign", help="the branches a --branch-per-eval run made"
    )
    actions = campaign.add_subparsers(dest="action", required=True)
    show = actions.add_parser("status", help="each branch, its evals and state")
    show.add_argument("--repo", default=".", help="the git checkout (default: .)")
    show.add_argument("--format", choices=["table", "json"], default="table")


def branch_option_misuse(args: argparse.Namespace) -> str | None:
    """Why the branch options given cannot be used together, if they cannot."""
    if args.branch_per_eval:
        if args.check:
            return "--check and --branch-per-eval: check, or make branches"
        if args.audit_python and not args.audit:
            return "--audit-python goes with --audit"
        return None
    given = [f"--{o.replace('_', '-')}" for o in BRANCH_ONLY if getattr(args, o)]
    if given:
        return f"{', '.join(given)} only apply with --branch-per-eval"
    return None


def run_branch_per_eval(
    args: argparse.Namespace,
    registry: Any,
    evals: list[str],
    codemods: Sequence[Any],
    today: str,
) -> int:
    """Plan the branches, then make them (or, with --dry-run, list them)."""
    # imported here: only this mode needs git and the planner
    from empty_migrate.git_repo import GitError, GitRepo

    try:
        target = resolve_target(args.migrate_repo, on_fetch=note)
        if target.cached:
            raise CorpusError(
                f"will not make branches in the cached release at {target.path}: "
                f"`git clone {target.path} COPY` and pass --repo COPY"
            )
        git = GitRepo(target.path)
    except (CorpusError, GitError) as error:
        note(error.args[0])
        return ExitCode.USAGE
    try:
        return _campaign(git, args, registry, evals, codemods, today)
    except GitError as error:
        note(str(error))
        return ExitCode.USAGE
    finally:
        git.close()


def _campaign(
    git: Any,
    args: argparse.Namespace,
    registry: Any,
    evals: list[str],
    codemods: Sequence[Any],
    today: str,
) -> int:
    from empty_migrate.campaign import PR_FOLDER, CampaignInterrupted, deliver

    base = args.base or git.current()
    base_commit = git.resolve(base)
    pr_dir = (args.pr_dir or git.git_dir / PR_FOLDER).resolve()
    if not args.dry_run:
        problem = git.identity_problem() or _dirty(git, pr_dir)
        if problem:
            note(problem)
            return ExitCode.USAGE
    planned = _plan(git, args, registry, evals, codemods, today, base_commit)
    if planned is None:
        return ExitCode.USAGE
    deliveries, failed = planned
    if args.dry_run:
        _print_plan(git, deliveries, base)
        return ExitCode.TOOL_ERROR if failed else ExitCode.OK
    if failed:
        from empty_migrate.campaign import record_failures

        record_failures(git, failed, base_commit)
    try:
        outcomes = deliver(
            git, deliveries, base, base_commit, pr_dir, args.replace_existing, _report
        )
    except CampaignInterrupted as stop:
        note(
            f"interrupted: made {len(stop.outcomes)} of "
            f"{len(stop.outcomes) + len(stop.pending)} branches, each complete; "
            f"{git.current()} is still checked out; run the same command again "
            "to make the rest"
        )
        return ExitCode.INTERRUPTED
    _print_pr_commands(deliveries, outcomes, base)
    return _summary(outcomes, failed, len(deliveries))


def _dirty(git: Any, pr_dir: Path) -> str | None:
    files = git.dirty_files(ignore=[pr_dir])
    if not files:
        return None
    shown = ", ".join(files[:5]) + (
        f" and {len(files) - 5} more" if len(files) > 5 else ""
    )
    return (
        f"the work tree has uncommitted changes ({shown}): commit or stash them, "
        "then run again; nothing was changed"
    )


def _plan(
    git: Any,
    args: argparse.Namespace,
    registry: Any,
    evals: list[str],
    codemods: Sequence[Any],
    today: str,
    base_commit: str,
) -> tuple[list[Any], dict[str, str]] | None:
    """The deliveries, and the evals whose migration failed (eval -> reason)."""
    from empty_migrate.branches import plan_branches
    from empty_migrate.campaign import Delivery
    from empty_migrate.cli_migrate import progress_bar
    from empty_migrate.git_repo import uses_conventional_commits
    from empty_migrate.migrate import migrate
    from empty_migrate.pull_request import TEMPLATE, commit_message, render, title

    with git.exported(base_commit) as tree:
        with progress_bar(evals) as progress:
            run = migrate(registry, tree, evals, codemods, today, progress)
        branches = plan_branches(run, tree)
        template_file = tree / TEMPLATE
        template = template_file.read_text("utf-8") if template_file.is_file() else None
        behaviour = None
        if args.audit:
            behaviour = _measure(args, registry, run, tree)
            if behaviour is None:
                return None
    conventional = uses_conventional_commits(git.subjects(base_commit))
    failed = {r.eval: r.reason or "failed" for r in run.evals if r.status == "failed"}
    for name, reason in failed.items():
        note(f"{name}: failed, no branch: {reason}")
    deliveries = [
        Delivery(
            branch,
            commit_message(branch, conventional),
            title(branch),
            render(branch, template, args.issue, behaviour),
        )
        for branch in branches
    ]
    return deliveries, failed


def _measure(
    args: argparse.Namespace, registry: Any, run: Any, tree: Path
) -> list[Any] | None:
    """Audit the base tree, write the run into it, audit again; the changes."""
    from empty_migrate.audit_report import OUTCOMES, describe_row, grid, tasks_label
    from empty_migrate.audit_run import AuditError, choose_python, run_audit
    from empty_migrate.pull_request import Behaviour
    from empty_migrate.write import write_files

    evals = [r.eval for r in run.evals if r.status == "rewritten"]
    try:
        python = choose_python(args.audit_python, tree, note)
        before = run_audit(registry, tree, evals, python)
        write_files(tree, run.changed_files())  # the base's temporary copy
        after = run_audit(registry, tree, evals, python)
    except AuditError as error:
        note(f"--audit: {error}")
        return None
    return [
        Behaviour(
            line.eval,
            line.scorer,
            tasks_label(line.tasks),
            [
                (
                    o,
                    describe_row(line.cells[o].before),
                    describe_row(line.cells[o].after),
                )
                for o in OUTCOMES
                if o in line.cells and line.cells[o].changed
            ],
        )
        for line in grid(after, before)
        if line.changed
    ]


def _print_plan(git: Any, deliveries: list[Any], base: str) -> None:
    from empty_migrate.campaign import State

    state = State.load(git.git_dir)
    for delivery in deliveries:
        branch = delivery.branch
        tip = git.tip(branch.name)
        record = state.branches.get(branch.name)
        if tip is None:
            action = "would create"
        elif record is not None and record.commit == tip:
            action = "exists, made by empty-migrate"
        else:
            action = "exists, not made by empty-migrate: would be left untouched"
        evals = ", ".join(branch.evals) or "(shared module)"
        print(f"{branch.name} ({evals}): {action}")
        for path in branch.changed_files():
            print(f"  {path}{'  (shared)' if path in branch.shared else ''}")
        if branch.note:
            print(f"  note: {branch.note}")
    print(
        f"{len(deliveries)} branch(es) from {base}; nothing was created",
        file=sys.stderr,
    )


def _report(outcome: Any) -> None:
    commit = f" {outcome.commit[:12]}" if outcome.commit else ""
    detail = f": {outcome.detail}" if outcome.detail else ""
    note(f"{outcome.branch}: {outcome.action}{commit}{detail}")


def _print_pr_commands(deliveries: list[Any], outcomes: list[Any], base: str) -> None:
    """One ``gh pr create --draft`` per delivered branch, printed, never run."""
    by_name = {d.branch.name: d for d in deliveries}
    delivered = [
        o for o in outcomes if o.action in ("created", "replaced", "unchanged")
    ]
    if not delivered:
        return
    print("# push the branches, then open each PR as a draft (printed, not run):")
    print("git push origin 'refs/heads/empty-policy/*:refs/heads/empty-policy/*'")
    for outcome in delivered:
        delivery = by_name[outcome.branch]
        command = [
            "gh", "pr", "create", "--draft",
            "--base", base,
            "--head", outcome.branch,
            "--title", delivery.title,
            "--body-file", str(outcome.pr),
        ]  # fmt: skip
        print(shlex.join(command))


def _summary(outcomes: list[Any], failed: dict[str, str], total: int) -> int:
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome.action] = counts.get(outcome.action, 0) + 1
    listed = ", ".join(f"{n} {action}" for action, n in counts.items()) or "none"
    note(f"{total} branch(es): {listed}; {len(failed)} eval(s) failed")
    if failed:
        return ExitCode.TOOL_ERROR
    if any(o.action not in ("created", "replaced", "unchanged") for o in outcomes):
        return ExitCode.WORK_REMAINS
    return ExitCode.OK


def run_campaign_command(args: argparse.Namespace) -> int:
    """``campaign status``: the recorded branches as they are now."""
    from empty_migrate.campaign import status
    from empty_migrate.git_repo import GitError, GitRepo

    try:
        git = GitRepo(Path(args.repo).expanduser().resolve())
        state, rows = status(git)
    except GitError as error:
        note(str(error))
        return ExitCode.USAGE
    git.close()
    if args.format == "json":
        print(
            json.dumps(
                {"base": state.base, "branches": [asdict(r) for r in rows]}, indent=2
            )
        )
        return ExitCode.OK
    if not rows:
        print(
            "no campaign in this repository: run empty-migrate --all --branch-per-eval"
        )
        return ExitCode.OK
    width = max(len(row.branch) for row in rows) + 2
    for row in rows:
        commit = (row.commit or "-")[:12]
        detail = f"  {row.detail}" if row.detail else ""
        evals = ", ".join(row.evals) or "(shared module)"
        print(f"{row.branch:<{width}}{row.status:<9}{commit:<14}{evals}{detail}")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    listed = ", ".join(f"{n} {label}" for label, n in sorted(counts.items()))
    print(f"{len(rows)} branch(es) from {state.base}: {listed}")
    return ExitCode.OK
