"""``--branch-per-eval``, ``campaign status`` and ``rebase``: parse, print, exit."""

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from empty_migrate.cli.common import (
    note,
    progress_bar,
)
from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.pipeline.stops import described, exit_status
from empty_migrate.target.corpus import CorpusError, writable_copy
from empty_migrate.target.files import WriteError, error_text
from empty_migrate.target.lock import repository_lock

if TYPE_CHECKING:  # imported when used: only this mode needs GitPython
    from empty_migrate.codemods.kit.declaration import Declaration
    from empty_migrate.delivery.campaign import Delivery, Outcome, Plan
    from empty_migrate.delivery.git import GitRepo
    from empty_migrate.registry.loader import Registry
    from empty_migrate.target.corpus import Target


BRANCH_ONLY = (
    "base",
    "pr_dir",
    "replace_existing",
    "issue",
    "audit",
    "audit_python",
)
"""Options that mean something only with --branch-per-eval."""


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
    target: "Target",
    registry: "Registry",
    evals: list[str],
    codemods: Sequence["Declaration"],
    today: str,
) -> int:
    """Plan the branches, then make them (or, with --dry-run, list them)."""
    # imported here: only this mode needs git, GitPython and the planner
    from empty_migrate.delivery.git import GitRepo

    if target.cached:
        raise CorpusError(
            f"will not make branches in the cached release at {target.path}: "
            f"{writable_copy(target.path)}"
        )
    git = GitRepo(target.path)
    try:
        if args.dry_run:
            return _campaign(git, args, registry, evals, codemods, today)
        with repository_lock(git.root, args.wait, on_wait=note):
            return _campaign(git, args, registry, evals, codemods, today)
    except WriteError as error:  # one that says which file and why
        note(str(error))
        return ExitCode.TOOL_ERROR
    except OSError as error:  # a PR text or the state file: no branch unrecorded
        note(f"cannot write {error_text(error)}")
        return ExitCode.TOOL_ERROR
    finally:
        git.close()


def _campaign(
    git: "GitRepo",
    args: argparse.Namespace,
    registry: "Registry",
    evals: list[str],
    codemods: Sequence["Declaration"],
    today: str,
) -> int:
    from empty_migrate.delivery import campaign

    base = args.base or git.branch()
    if base is None:
        note(
            "HEAD is detached: pass --base BRANCH, the branch the evals' branches "
            "start from and their pull requests go into"
        )
        return ExitCode.USAGE
    base_commit = git.resolve(base)
    pr_dir = (args.pr_dir or git.git_dir / campaign.PR_FOLDER).resolve()
    problem = _not_a_folder(pr_dir)
    if not args.dry_run:
        problem = problem or git.identity_problem() or _dirty(git, pr_dir)
    if problem:
        note(problem)
        return ExitCode.USAGE
    measure = None
    if args.audit:
        measure = campaign.audit_measure(registry, args.audit_python, note)
    with progress_bar(evals) as progress:
        planned = campaign.plan(
            git, registry, evals, codemods, today, base_commit, args.issue, measure,
            progress, args.replace_router, note,
        )  # fmt: skip
    for kept in planned.kept:
        note(kept.note())
    if unknown := planned.run_plan.unknown_note():
        note(unknown)
    for name, reason in planned.failed.items():
        note(f"{name}: failed, no branch: {reason}")
    for name, reason in planned.skipped.items():
        note(f"{name}: skipped: {reason}")
    if args.dry_run:
        _print_plan(git, planned.deliveries, base)
        return ExitCode.TOOL_ERROR if planned.failed else ExitCode.OK
    try:
        outcomes = campaign.deliver(
            git,
            planned,
            base,
            base_commit,
            pr_dir,
            args.replace_existing,
            _report,
        )
    except campaign.CampaignInterrupted as stop:
        note(
            f"{described(stop.signum)}: made {len(stop.outcomes)} of "
            f"{len(stop.outcomes) + len(stop.pending)} branches, each complete; "
            f"{git.current()} is still checked out; run the same command again "
            "to make the rest"
        )
        return exit_status(stop.signum)
    _print_pr_commands(planned.deliveries, outcomes, base)
    _print_review(planned.deliveries, outcomes)
    return _summary(outcomes, planned, len(planned.deliveries))


def _not_a_folder(pr_dir: Path) -> str | None:
    """Why the PR texts cannot be written into `pr_dir`, checked before anything."""
    existing = next(p for p in [pr_dir, *pr_dir.parents] if p.exists())
    if existing.is_dir():
        return None
    return (
        f"--pr-dir {pr_dir}: {existing} is not a folder; pass a folder for the PR "
        "texts (it is made if missing)"
    )


def _dirty(git: "GitRepo", pr_dir: Path) -> str | None:
    files = git.dirty_files(ignore=[pr_dir])
    if not files:
        return None
    more = f" and {len(files) - 5} more" if len(files) > 5 else ""
    return (
        f"the work tree has uncommitted changes ({', '.join(files[:5])}{more}): "
        "commit or stash them, then run again; nothing was changed"
    )


def _print_plan(git: "GitRepo", deliveries: list["Delivery"], base: str) -> None:
    from empty_migrate.delivery.branches import PREFIX
    from empty_migrate.delivery.campaign import OWNERSHIP, State, ownership

    state = State.load(git.git_dir)
    for delivery in deliveries:
        branch = delivery.branch
        owner, _ = ownership(git, state, branch.name)
        if owner == "absent":
            action = "would create"
        elif owner == "ours":
            action = "exists, made by empty-migrate"
        else:
            action = f"exists, {OWNERSHIP[owner]}: would be left untouched"
        evals = ", ".join(branch.evals) or "the files the evals share"
        on = f", on {PREFIX + branch.on}" if branch.on else ""
        print(f"{branch.name} ({evals}{on}): {action}")
        for path in branch.changed_files():
            print(f"  {path}")
        if branch.note:
            print(f"  note: {branch.note}")
        for path, review in branch.review():
            print(f"  review: {review.describe(path)}")
    print(
        f"{len(deliveries)} branch(es) from {base}; nothing was created",
        file=sys.stderr,
    )


def _report(outcome: "Outcome") -> None:
    commit = f" {outcome.commit[:12]}" if outcome.commit else ""
    detail = f": {outcome.detail}" if outcome.detail else ""
    note(f"{outcome.branch}: {outcome.action}{commit}{detail}")


def _print_pr_commands(
    deliveries: list["Delivery"], outcomes: list["Outcome"], base: str
) -> None:
    """One ``gh pr create --draft`` per delivered branch, printed, never run.

    Each goes into the branch it is built on: the foundation's into the base,
    the others' into the foundation (printed first).
    """
    from empty_migrate.delivery.branches import PREFIX
    from empty_migrate.delivery.campaign import DELIVERED

    by_name = {d.branch.name: d for d in deliveries}
    delivered = [o for o in outcomes if o.action in DELIVERED]
    if not delivered:
        return
    print("# push the branches, then open each PR as a draft (printed, not run):")
    print("git push origin 'refs/heads/empty-policy/*:refs/heads/empty-policy/*'")
    for outcome in delivered:
        delivery = by_name[outcome.branch]
        on = PREFIX + delivery.branch.on if delivery.branch.on else base
        command = [
            "gh", "pr", "create", "--draft",
            "--base", on,
            "--head", outcome.branch,
            "--title", delivery.title,
            "--body-file", str(outcome.pr),
        ]  # fmt: skip
        print(shlex.join(command))


def _print_review(deliveries: list["Delivery"], outcomes: list["Outcome"]) -> None:
    """On stderr, each delivered branch's comments to review (its PR lists them)."""
    from empty_migrate.delivery.campaign import DELIVERED

    delivered = {o.branch for o in outcomes if o.action in DELIVERED}
    for delivery in deliveries:
        if delivery.branch.name in delivered:
            for path, review in delivery.branch.review():
                note(f"{delivery.branch.name}: review: {review.describe(path)}")


def _summary(outcomes: list["Outcome"], planned: "Plan", total: int) -> int:
    from empty_migrate.delivery.campaign import DELIVERED

    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome.action] = counts.get(outcome.action, 0) + 1
    listed = ", ".join(f"{n} {action}" for action, n in counts.items()) or "none"
    skipped = f", {len(planned.skipped)} skipped" if planned.skipped else ""
    note(f"{total} branch(es): {listed}{skipped}; {len(planned.failed)} eval(s) failed")
    if planned.failed:
        return ExitCode.TOOL_ERROR
    if planned.skipped or any(o.action not in DELIVERED for o in outcomes):
        return ExitCode.WORK_REMAINS
    return ExitCode.OK


_CAMPAIGN_CHECKOUT = (
    "run it in the inspect_evals checkout where `empty-migrate --branch-per-eval` "
    "made its branches, or pass --repo with that checkout"
)
"""What to do when ``campaign`` is given a folder that is no repository."""


def run_campaign_command(args: argparse.Namespace) -> int:
    """``campaign status`` or ``campaign rebase``."""
    if args.action == "rebase":
        return _rebase(args)
    return _status(args)


def _rebase(args: argparse.Namespace) -> int:
    """Move the eval branches off a merged foundation onto the base; print how."""
    from empty_migrate.delivery import campaign
    from empty_migrate.delivery.git import GitRepo

    git = GitRepo(Path(args.repo).expanduser().resolve(), _CAMPAIGN_CHECKOUT)
    try:
        onto = args.onto or campaign.State.load(git.git_dir).base
        if onto is None:
            note("no campaign in this repository: nothing to rebase")
            return ExitCode.USAGE
        onto_commit = git.resolve(onto)
        with repository_lock(git.root, args.wait, on_wait=note):
            outcomes = campaign.rebase(git, onto, onto_commit, _report)
    except campaign.CampaignInterrupted as stop:
        note(
            f"{described(stop.signum)}: moved {len(stop.outcomes)} of "
            f"{len(stop.outcomes) + len(stop.pending)} branches, each complete; "
            "run the same command again to move the rest"
        )
        return exit_status(stop.signum)
    except OSError as error:
        note(f"cannot write {error_text(error)}")
        return ExitCode.TOOL_ERROR
    finally:
        git.close()
    return _print_rebased(outcomes, onto)


def _print_rebased(outcomes: list["Outcome"], onto: str) -> int:
    moved = [o.branch for o in outcomes if o.action == "rebased"]
    if moved:
        print("# push the moved branches, then point their PRs at the base:")
        print(shlex.join(["git", "push", "--force-with-lease", "origin", *moved]))
        for name in moved:
            print(shlex.join(["gh", "pr", "edit", name, "--base", onto]))
    total = len(outcomes)
    note(f"{total} branch(es) on the foundation: {len(moved)} moved onto {onto}")
    return ExitCode.OK if len(moved) == len(outcomes) else ExitCode.WORK_REMAINS


def _status(args: argparse.Namespace) -> int:
    """``campaign status``: the recorded branches as they are now."""
    from empty_migrate.delivery.campaign import status
    from empty_migrate.delivery.git import GitRepo

    git = GitRepo(Path(args.repo).expanduser().resolve(), _CAMPAIGN_CHECKOUT)
    try:
        state, rows = status(git)
    finally:
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
        evals = ", ".join(row.evals) or "(foundation)"
        print(f"{row.branch:<{width}}{row.status:<9}{commit:<14}{evals}{detail}")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    listed = ", ".join(f"{n} {label}" for label, n in sorted(counts.items()))
    print(f"{len(rows)} branch(es) from {state.base}: {listed}")
    return ExitCode.OK
