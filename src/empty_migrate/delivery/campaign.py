"""Deliver a migration as a foundation branch and one branch per eval, resumably.

The campaign's state file, ``<git dir>/empty-migrate/campaign.json``, records
each branch the tool made (its evals, commit and base). It is how a branch the
tool made is told from one it did not: a branch is the tool's only while it
points at the commit recorded for it. A re-run leaves a finished branch alone,
makes what is missing, and never touches a branch it did not make (or one that
has moved since); ``replace`` rebuilds the tool's own out-of-date branches.

A branch is recorded as the tool's before its ref is written (as the commit
it is about to point at, `Record.pending`), so a run stopped or failing right
after the ref still leaves a branch the next run knows as its own. Each change
to the state file re-reads it, changes this run's records only, and writes it
whole (staged, then renamed); runs that write hold the repository's lock
(`empty_migrate.target.lock`), so no two change it at once.

Each branch is made with Ctrl-C held: its commit, its PR text, its ref and the
state file are all written, or none of them, and the run stops after it.

The foundation (`branches.FOUNDATION`) is made first, on the base; every
other branch is made on the commit it holds. Once the foundation has merged
into the base (its files there equal its own, so a squash merge counts), a
re-run, or ``campaign rebase`` without one, moves the eval branches onto the
base: each keeps its own files, now on the base's tree (`rebase`).

An eval whose files are symlinks in the base commit, or lie under a symlinked
folder there, gets no branch (`Plan.skipped`): a branch stores regular files,
never a link where the code should be, and nothing is written through a link.
"""

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from empty_migrate.codemods.kit.declaration import Declaration
from empty_migrate.delivery.branches import (
    FOUNDATION,
    PREFIX,
    Branch,
    plan_branches,
)
from empty_migrate.delivery.git import (
    GitError,
    GitRepo,
    Listing,
    uses_conventional_commits,
)
from empty_migrate.delivery.pull_request import (
    TEMPLATE,
    Behaviour,
    commit_message,
    measured,
    render,
    title,
)
from empty_migrate.errors import EmptyMigrateError
from empty_migrate.pipeline.migrate import KeptFile, Progress, RunResult, migrate
from empty_migrate.pipeline.plan import Plan as RunPlan
from empty_migrate.pipeline.plan import plan_run
from empty_migrate.pipeline.stops import held_stops
from empty_migrate.registry.loader import Registry
from empty_migrate.registry.target import registry_of
from empty_migrate.target.files import WriteError, outside_tree, write_files

STATE_FILE = "empty-migrate/campaign.json"
"""The state file, under the repository's git folder (never in the work tree)."""
PR_FOLDER = "empty-migrate/pr"
"""Where PR texts go by default, under the git folder, for the same reason."""


@dataclass
class Record:
    """One branch in the state file."""

    evals: list[str]
    commit: str | None
    base: str
    status: str
    """``done`` (made by the tool) or ``failed`` (the migration failed)."""
    files: list[str] = field(default_factory=list)
    pr: str | None = None
    detail: str | None = None
    pending: str | None = None
    """The commit the tool was about to point the branch at, until it is recorded
    there: the branch is the tool's at either commit."""
    on: str | None = None
    """The branch it was made on (the foundation), or None: on the base."""


@dataclass
class State:
    """The campaign's state file: base, and branch name -> record."""

    base: str | None = None
    branches: dict[str, Record] = field(default_factory=dict)

    @classmethod
    def load(cls, git_dir: Path) -> "State":
        """The state in `git_dir`, or an empty one when there is none yet."""
        path = git_dir / STATE_FILE
        if not path.is_file():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            records = {k: Record(**v) for k, v in data["branches"].items()}
        except (ValueError, KeyError, TypeError) as error:
            raise GitError(
                f"{path} is not a campaign state file ({error}); move it away to "
                "start a new campaign"
            ) from None
        return cls(data.get("base"), records)

    def save(self, git_dir: Path) -> None:
        """Write the state, staged and renamed (only when it changed)."""
        text = json.dumps(
            {
                "base": self.base,
                "branches": {k: asdict(v) for k, v in sorted(self.branches.items())},
            },
            indent=2,
        )
        path = git_dir / STATE_FILE
        if not path.is_file() or path.read_text(encoding="utf-8") != text + "\n":
            write_files(git_dir, {STATE_FILE: text + "\n"})


def update_state(git_dir: Path, change: Callable[[State], None]) -> State:
    """Re-read the state file, apply `change` to it, write it whole; returns it.

    `change` alters this run's records only, so records another run saved
    since this one started are kept. Call it with the repository's lock held.
    """
    state = State.load(git_dir)
    change(state)
    state.save(git_dir)
    return state


@dataclass(frozen=True)
class Delivery:
    """One branch to deliver: its plan, commit message, PR title and text."""

    branch: Branch
    message: str
    title: str
    pr_text: str


@dataclass(frozen=True)
class Outcome:
    """What the campaign did with one branch."""

    branch: str
    action: str
    """created, replaced, rebased (moved off a merged foundation), unchanged, out
    of date, not ours, blocked (its foundation is not this run's), conflict (not
    moved: the base changed its files), or failed."""
    commit: str | None = None
    detail: str | None = None
    pr: Path | None = None


@dataclass(frozen=True)
class Plan:
    """What a campaign will deliver, and the evals whose migration failed."""

    deliveries: list[Delivery]
    failed: dict[str, str]
    """Eval -> why its migration failed; it gets no branch."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Branch -> why it cannot be made (a file to write is a symlink)."""
    kept: list[KeptFile] = field(default_factory=list)
    """Generated files the base's maintainers edited, left as they are."""
    run_plan: RunPlan = field(default_factory=lambda: RunPlan((), ()))
    """What the migration of the base covered (its units, unregistered evals)."""


Measure = Callable[[Sequence[Branch], Path], list[Behaviour]]
"""Measures the behaviour the branches change, given them and the exported base."""


def audit_measure(
    registry: Registry, python: str | None, notify: Callable[[str], None]
) -> Measure:
    """A `plan` measure: the audit of the base tree, then of the migrated one.

    The audit runs in the target environment, `python` or as `audit` chooses
    (`notify` hears about a first-time build).
    """

    def measure(branches: Sequence[Branch], tree: Path) -> list[Behaviour]:
        # imported here: only --audit runs the audit
        from empty_migrate.audit.run import choose_python, run_audit

        evals = [name for branch in branches for name in branch.evals]
        interpreter = choose_python(python, tree, notify)
        before = run_audit(registry, tree, evals, interpreter)
        files = {path: text for b in branches for path, text in b.files.items()}
        write_files(tree, files)  # never through a link in it
        return measured(before, run_audit(registry, tree, evals, interpreter))

    return measure


def plan(
    git: GitRepo,
    registry: Registry,
    evals: Sequence[str],
    codemods: Sequence[Declaration],
    today: str,
    base_commit: str,
    issue: int | None = None,
    measure: Measure | None = None,
    progress: Progress | None = None,
    replace_edited: bool = False,
    notify: Callable[[str], None] = lambda line: None,
) -> Plan:
    """Migrate the base's files (exported beside the work tree) and split the run.

    The registry is read from the base commit (its own entries in front), and
    `notify` hears what the run covers before it is computed (`plan_run`).

    A branch with a file to write that is not a regular file in the base
    commit (a symlink, or under a symlinked folder) is skipped, with why.

    `measure`, if given, is called with the branches to make and the exported
    base tree for the before/after behaviour the PR texts show; it may write
    the branches' files into that temporary tree.

    Raises:
        GitError: If git cannot make the branches (a branch holds their
            folder's name) or read the base; nothing is computed.
    """
    _folder_free(git)
    with git.exported(base_commit) as tree:
        # the base's own entries, which its evals' branches start from
        registry = registry_of(tree, registry.directory)
        run_plan = plan_run(registry, tree, evals)
        for line in run_plan.notes:
            notify(line)
        run = migrate(
            registry, tree, run_plan, codemods, today, progress,
            replace_edited=replace_edited,
        )  # fmt: skip
        planned = plan_branches(run, tree)
        branches, skipped = _storable(planned, git.listing(base_commit))
        template = _template_text(tree, notify)
        behaviour = measure(branches, tree) if measure else None
    conventional = uses_conventional_commits(git.subjects(base_commit))
    deliveries = [
        Delivery(
            branch,
            commit_message(branch, conventional),
            title(branch),
            render(branch, template, issue, behaviour),
        )
        for branch in branches
    ]
    failed = {r.eval: r.reason or "failed" for r in run.evals if r.status == "failed"}
    return Plan(deliveries, failed, _not_migrated(run) | skipped, run.kept, run_plan)


def _folder_free(git: GitRepo) -> None:
    """Raise `GitError` if a branch is named as the branches' folder (`PREFIX`).

    Git cannot have both: ``a`` and ``a/b`` are not both branches.
    """
    folder = PREFIX.rstrip("/")
    if folder in git.name_conflicts(PREFIX + FOUNDATION):
        raise GitError(
            f"a branch named {folder} exists, and git cannot also make the "
            f"branches under {PREFIX}: rename it (`git branch -m {folder} "
            "NEW-NAME`) and run again; nothing was changed"
        )


def _not_migrated(run: RunResult) -> dict[str, str]:
    """The branch of each eval a codemod could not migrate, and why it gets none.

    Such an eval (a file reached through a link, a construct a codemod cannot
    rewrite) is skipped by the migration; an eval that needs nothing is not.
    """
    return {
        PREFIX + r.eval: r.reason or "skipped"
        for r in run.evals
        if r.status == "skipped" and any(f.status == "skipped" for f in r.files)
    }


def _storable(
    branches: list[Branch], base: Listing
) -> tuple[list[Branch], dict[str, str]]:
    """The branches whose files the base can hold, and why each other cannot.

    A branch on a foundation that cannot be made cannot be made either.
    """
    kept: list[Branch] = []
    skipped: dict[str, str] = {}
    for branch in branches:
        problems = [base.obstacle(path) for path in branch.changed_files()]
        problem = next((p for p in problems if p), None)
        if problem is None and branch.on and PREFIX + branch.on in skipped:
            skipped[branch.name] = f"it is built on {PREFIX + branch.on}, skipped"
            continue
        if problem is None:
            kept.append(branch)
            continue
        evals = ", ".join(branch.evals) or "the shared files"
        skipped[branch.name] = (
            f"{problem} in the base commit, and a branch stores files, not links: "
            f"no branch for {evals}"
        )
    return kept, skipped


def _template_text(tree: Path, notify: Callable[[str], None]) -> str | None:
    """The PR template of `tree`, as prose: a byte that is not UTF-8 is replaced.

    None if there is none, or if it is reached through a symbolic link (which
    could copy any file into every PR text): `notify` hears that the PR texts
    use the default layout.
    """
    if problem := outside_tree(tree, TEMPLATE):
        notify(f"{problem}; the PR texts use the default layout")
        return None
    path = tree / TEMPLATE
    return path.read_text("utf-8-sig", errors="replace") if path.is_file() else None


class CampaignInterrupted(Exception):
    """A stop signal (Ctrl-C, SIGTERM, SIGHUP) ended the campaign after a branch."""

    def __init__(
        self, outcomes: list[Outcome], pending: list[str], signum: int
    ) -> None:
        super().__init__(f"{len(outcomes)} branch(es) done, {len(pending)} left")
        self.outcomes = outcomes
        self.pending = pending
        self.signum = signum


def deliver(
    git: GitRepo,
    plan: Plan,
    base: str,
    base_commit: str,
    pr_dir: Path,
    replace: bool = False,
    report: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Make each delivery's branch (and PR text) unless it is done; in order.

    The plan's failed evals are recorded first; they get no branch. The
    foundation is made first; each other branch on the commit the foundation's
    branch then holds. If the foundation's branch does not hold this run's
    (not the tool's, or out of date), the others are not made (`blocked`).
    Call it with the repository's lock held (`empty_migrate.target.lock`).

    Raises:
        CampaignInterrupted: If a stop signal arrived; the branches before it are
            complete and recorded.
    """

    def record_failures(state: State) -> None:
        state.base = base
        for name, reason in plan.failed.items():
            recorded = state.branches.get(PREFIX + name)
            if recorded is None or recorded.status != "done":
                state.branches[PREFIX + name] = Record(
                    [name], None, base_commit, "failed", detail=reason
                )

    update_state(git.git_dir, record_failures)
    deliveries = plan.deliveries
    outcomes: list[Outcome] = []
    on: dict[str, Outcome] = {}
    with held_stops() as stopped:
        for index, delivery in enumerate(deliveries):
            under = on.get(delivery.branch.on or "")
            if delivery.branch.on is None:
                outcome = _deliver_one(git, delivery, base_commit, pr_dir, replace)
            elif under is not None and under.action in DELIVERED and under.commit:
                outcome = _deliver_one(git, delivery, under.commit, pr_dir, replace)
            else:
                why = under.action if under else "not made"
                detail = f"{PREFIX}{delivery.branch.on} is {why}: not made on it"
                outcome = Outcome(delivery.branch.name, "blocked", detail=detail)
            on[delivery.branch.key] = outcome
            outcomes.append(outcome)
            if report:
                report(outcome)
            signum = stopped()
            if signum is not None:
                pending = [d.branch.name for d in deliveries[index + 1 :]]
                raise CampaignInterrupted(outcomes, pending, signum)
    return outcomes


DELIVERED = ("created", "replaced", "rebased", "unchanged")
"""What a campaign did to a branch that holds this run's migration."""


def _deliver_one(
    git: GitRepo,
    delivery: Delivery,
    base_commit: str,
    pr_dir: Path,
    replace: bool,
) -> Outcome:
    """Make one branch on `base_commit`, unless it is done or not the tool's."""
    branch = delivery.branch
    state = State.load(git.git_dir)
    owner, tip = ownership(git, state, branch.name)
    ours = owner == "ours"
    if owner in ("moved", "foreign"):
        why = OWNERSHIP[owner]
        return Outcome(branch.name, "not ours", tip, f"{why}; left untouched")
    tree = git.tree_with(base_commit, branch.contents())
    made = "replaced" if ours else "created"
    if ours and tip is not None:  # always, when ours: said for the type checker
        if git.tree_of(tip) == tree and git.parents(tip) == [base_commit]:
            pr = _write_pr(pr_dir, branch, delivery.pr_text)
            done = _record(branch, tip, base_commit, pr)
            update_state(git.git_dir, _setting(branch.name, done))
            return Outcome(branch.name, "unchanged", tip, pr=pr)
        if _off_a_merged_foundation(git, state, branch, tip, tree, base_commit):
            made = "rebased"
        elif not replace:
            detail = "differs from this run's migration; --replace-existing rebuilds it"
            return Outcome(branch.name, "out of date", tip, detail)
    commit = git.commit(tree, base_commit, delivery.message)
    # written before the ref: a PR folder that cannot be written changes no branch
    pr = _write_pr(pr_dir, branch, delivery.pr_text)
    _point(git, branch.name, tip, commit, _record(branch, commit, base_commit, pr))
    return Outcome(branch.name, made, commit, pr=pr)


def _off_a_merged_foundation(
    git: GitRepo, state: State, branch: Branch, tip: str, tree: str, base: str
) -> bool:
    """Whether the tool's branch sits on a foundation merged into `base` since.

    Then it moves onto `base` as it is: this run plans it on `base`, and its
    own files at `tip` are the ones this run would make.
    """
    record = state.branches.get(branch.name)
    if record is None or record.on is None or branch.on is not None:
        return False
    files = branch.changed_files()
    return merged_into(git, state, record.on, base) and git.blobs(
        tip, files
    ) == git.blobs(tree, files)


def merged_into(git: GitRepo, state: State, name: str, commit: str) -> bool:
    """Whether the tool's branch `name` has merged into `commit`, by content.

    It has when each file it changed holds, at `commit`, the text the
    branch's recorded commit gives it, however it was merged (a squash too).
    """
    record = state.branches.get(name)
    if record is None or record.commit is None or not record.files:
        return False
    return git.blobs(record.commit, record.files) == git.blobs(commit, record.files)


def _point(git: GitRepo, name: str, tip: str | None, commit: str, done: Record) -> None:
    """Point branch `name` from `tip` at `commit`, recorded as the tool's throughout.

    The record names the new commit as pending before the ref moves, and as
    the branch's once it has: a stop between the two still leaves the branch
    known as the tool's. If the ref cannot move, the record is put back.
    """
    before = State.load(git.git_dir).branches.get(name)
    pending = dataclasses.replace(done, commit=tip, pending=commit)
    update_state(git.git_dir, _setting(name, pending))
    try:
        git.set_branch(name, commit, tip)
    except GitError:
        update_state(git.git_dir, _setting(name, before))
        raise
    update_state(git.git_dir, _setting(name, done))


def _setting(name: str, record: Record | None) -> Callable[[State], None]:
    """A change to the state: branch `name`'s record set (None: removed)."""

    def change(state: State) -> None:
        if record is None:
            state.branches.pop(name, None)
        else:
            state.branches[name] = record

    return change


OWNERSHIP = {
    "absent": "no such branch",
    "ours": "made by empty-migrate",
    "moved": "has commits since empty-migrate made it",
    "foreign": "was not made by empty-migrate",
}
"""Whose a branch is, and what that means."""


def ownership(git: GitRepo, state: State, branch: str) -> tuple[str, str | None]:
    """Whose `branch` is (a key of `OWNERSHIP`), and the commit it points at.

    It is the tool's only while it points at the commit the state file
    records for it; any other existing branch is never touched.
    """
    tip = git.tip(branch)
    record = state.branches.get(branch)
    if tip is None:
        return "absent", None
    if record is not None and tip in (record.commit, record.pending):
        return "ours", tip
    return ("moved" if record is not None and record.commit else "foreign"), tip


def _write_pr(pr_dir: Path, branch: Branch, text: str) -> Path:
    path = pr_dir / f"{branch.key}.md"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        try:
            write_files(pr_dir, {path.name: text})
        except WriteError as error:
            raise WriteError(f"cannot write {path}: {error}") from None
    return path


def _record(branch: Branch, commit: str, base: str, pr: Path) -> Record:
    """The record of a branch the tool made: `commit`, on `base`."""
    files = branch.changed_files()
    on = PREFIX + branch.on if branch.on else None
    return Record(list(branch.evals), commit, base, "done", files, str(pr), on=on)


@dataclass(frozen=True)
class BranchStatus:
    """A recorded branch as it is now."""

    branch: str
    evals: list[str]
    status: str
    commit: str | None
    base: str
    detail: str | None


def status(git: GitRepo) -> tuple[State, list[BranchStatus]]:
    """The state file's branches, each checked against the repository now.

    The foundation is ``merged`` once the campaign's base holds its files.
    """
    state = State.load(git.git_dir)
    base = git.tip(state.base) if state.base else None
    rows = []
    for name, record in sorted(state.branches.items()):
        owner, tip = ownership(git, state, name)
        if record.status == "failed":
            label, detail = "failed", record.detail
        elif (
            name == PREFIX + FOUNDATION and base and merged_into(git, state, name, base)
        ):
            label, detail = "merged", f"its files are in {state.base}"
        elif owner == "absent":
            label, detail = "missing", "deleted since; the next run makes it again"
        elif owner == "moved":
            label, detail = "moved", OWNERSHIP[owner]
        else:
            label, detail = "done", None
        commit = tip if owner == "ours" else record.commit
        rows.append(
            BranchStatus(name, record.evals, label, commit, record.base, detail)
        )
    return state, rows


class NotMerged(EmptyMigrateError):
    """``campaign rebase`` found no merged foundation; the message says why."""


def rebase(
    git: GitRepo,
    onto: str,
    onto_commit: str,
    report: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Move the tool's branches made on the foundation onto `onto_commit`.

    The foundation must have merged into `onto_commit` (`merged_into`). Each
    branch keeps its own files and commit message, on `onto_commit`'s tree; a
    branch whose files `onto` changed since it was made is left (a conflict:
    a re-run migrates it anew). Call it with the repository's lock held.

    Raises:
        NotMerged: If the foundation has not merged into `onto_commit`.
        CampaignInterrupted: If a stop signal arrived; the branches before it
            are moved and recorded.
    """
    foundation = PREFIX + FOUNDATION
    state = State.load(git.git_dir)
    if not merged_into(git, state, foundation, onto_commit):
        raise NotMerged(
            f"{foundation} has not merged into {onto} (its files there differ from "
            "its own, or the campaign made none): nothing was moved"
        )
    names = sorted(n for n, r in state.branches.items() if r.on == foundation)
    outcomes: list[Outcome] = []
    with held_stops() as stopped:
        for index, name in enumerate(names):
            outcome = _rebase_one(git, name, onto_commit)
            outcomes.append(outcome)
            if report:
                report(outcome)
            signum = stopped()
            if signum is not None:
                raise CampaignInterrupted(outcomes, names[index + 1 :], signum)
    return outcomes


def _rebase_one(git: GitRepo, name: str, onto_commit: str) -> Outcome:
    state = State.load(git.git_dir)
    record = state.branches[name]
    owner, tip = ownership(git, state, name)
    if owner != "ours" or tip is None:
        why = OWNERSHIP[owner]
        return Outcome(name, "not ours", tip, f"{why}; left untouched")
    files = record.files
    if git.blobs(onto_commit, files) != git.blobs(record.base, files):
        changed = sorted(
            p
            for p in files
            if git.blobs(onto_commit, [p]) != git.blobs(record.base, [p])
        )
        detail = (
            f"the base changed {', '.join(changed)} since it was made; left on the "
            "foundation: run the campaign with --replace-existing to migrate it anew"
        )
        return Outcome(name, "conflict", tip, detail)
    tree = git.tree_from(onto_commit, tip, files)
    commit = git.commit(tree, onto_commit, git.message(tip))
    moved = dataclasses.replace(
        record, commit=commit, base=onto_commit, on=None, pending=None
    )
    _point(git, name, tip, commit, moved)
    return Outcome(name, "rebased", commit, pr=Path(record.pr) if record.pr else None)
