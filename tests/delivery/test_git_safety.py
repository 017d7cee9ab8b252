"""Branch mode leaves the user's git alone and stores only regular files.

The user's index, work tree and checked-out branch are as they were after any
run; a file to write that is a symlink in the base commit, or lies under a
symlinked folder there, gets its eval no branch (and nothing is written
through the link); each branch the tool makes is recorded as its own before
its ref moves; a detached HEAD needs ``--base``; ``--pr-dir`` must be a folder.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from empty_migrate.delivery import campaign as delivery
from empty_migrate.delivery.branches import Branch
from empty_migrate.delivery.git import GitError, GitRepo
from empty_migrate.pipeline.migrate import select_codemods
from empty_migrate.registry.loader import Registry
from empty_migrate.target.files import WriteError, write_files
from tests.delivery.campaigns import campaign
from tests.delivery.test_branch_per_eval import BRANCHES, branches, untouched
from tests.demo import git

GAMMA = "src/inspect_evals/gamma"
STATE = ".git/empty-migrate/campaign.json"


def fsck_clean(repo: Path) -> None:
    assert git(repo, "fsck", "--strict", "--no-dangling", "--no-progress") == ""


def no_link_stored(repo: Path) -> None:
    """No branch changes an entry into a symlink or adds one."""
    for branch in branches(repo):
        diff = git(repo, "diff", "--raw", "--no-abbrev", "main", branch)
        for line in diff.splitlines():
            new_mode = line.split()[1]
            assert new_mode != "120000", (branch, line)


@pytest.fixture
def git_repo(repo):
    opened = GitRepo(repo)
    yield opened
    opened.close()


def test_a_tree_keeps_bytes_and_modes_and_the_index_is_untouched(repo, git_repo):
    (repo / "run.sh").write_text("#!/bin/sh\n")
    (repo / "run.sh").chmod(0o755)
    git(repo, "add", "run.sh")
    git(repo, "commit", "-qm", "An executable")
    index = (repo / ".git/index").read_bytes()
    base = git_repo.resolve("main")

    tree = git_repo.tree_with(
        base, {"run.sh": "#!/bin/sh\necho hi\n", "new.py": b"\xef\xbb\xbfx = 1\r\n"}
    )

    blob = ["git", "cat-file", "blob", f"{tree}:new.py"]
    stored = subprocess.run(blob, cwd=repo, capture_output=True, check=True).stdout
    assert stored == b"\xef\xbb\xbfx = 1\r\n"
    listed = git(repo, "ls-tree", tree, "run.sh", "new.py").splitlines()
    assert [line.split()[0] for line in listed] == ["100644", "100755"]
    assert (repo / ".git/index").read_bytes() == index
    untouched(repo)


def test_the_dirty_check_does_not_refresh_the_index(repo, git_repo):
    gamma = repo / GAMMA / "gamma.py"
    os.utime(gamma, (1_000_000_000, 1_000_000_000))  # stale stat data, same text
    index = (repo / ".git/index").read_bytes()

    assert git_repo.dirty_files() == []

    assert (repo / ".git/index").read_bytes() == index


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        (f"{GAMMA}/gamma.py", f"{GAMMA}/gamma.py is a symlink"),
        ("linked/gamma.py", "linked is a symlink"),
        (GAMMA, f"{GAMMA} is a folder"),
        (f"{GAMMA}/gamma.py/x.py", f"{GAMMA}/gamma.py is a symlink"),
    ],
)
def test_a_tree_never_stores_code_at_a_link(repo, path, problem):
    real = repo / "src/inspect_evals/code.py"
    shutil.move(repo / GAMMA / "gamma.py", real)
    (repo / GAMMA / "gamma.py").symlink_to("../code.py")
    (repo / "linked").symlink_to(GAMMA)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Links")
    opened = GitRepo(repo)
    try:
        with pytest.raises(GitError) as refused:
            opened.tree_with(opened.resolve("main"), {path: "x = 1\n"})
    finally:
        opened.close()
    assert str(refused.value).startswith(problem)


def link_gamma_scorer(repo: Path) -> None:
    """gamma's task module becomes a symlink to the code, kept elsewhere."""
    (repo / "src/inspect_evals/common").mkdir()
    shutil.move(repo / GAMMA / "gamma.py", repo / "src/inspect_evals/common/gamma.py")
    (repo / GAMMA / "gamma.py").symlink_to("../common/gamma.py")


def link_gamma_folder(repo: Path, to: Path | None = None) -> Path:
    """gamma's package folder becomes a symlink to a folder (default: vendor/)."""
    target = to or repo / "vendor/gamma"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(repo / GAMMA, target)
    (repo / GAMMA).symlink_to(target if to else Path("../../vendor/gamma"))
    return target


@pytest.mark.parametrize(
    ("link", "linked"),
    [(link_gamma_scorer, f"{GAMMA}/gamma.py"), (link_gamma_folder, GAMMA)],
)
def test_an_eval_behind_a_symlink_is_skipped_with_the_link_named(
    repo, registry, capsys, link, linked
):
    link(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Links")

    assert campaign(repo, registry) == 1

    err = capsys.readouterr().err
    (line,) = [ln for ln in err.splitlines() if "empty-policy/gamma" in ln]
    assert line.startswith(f"empty-migrate: empty-policy/gamma: skipped: {GAMMA}/")
    assert line.endswith(
        f": {linked} is a symbolic link: migrate the files where they live"
    )
    assert "2 branch(es): 2 created, 1 skipped; 0 eval(s) failed" in err
    assert branches(repo) == BRANCHES - {"empty-policy/gamma"}
    no_link_stored(repo)
    fsck_clean(repo)
    untouched(repo)


def test_nothing_is_written_through_a_link_into_the_exported_tree(
    repo, registry, tmp_path
):
    outside = link_gamma_folder(repo, to=tmp_path / "outside/gamma")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "A package kept outside")
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    written: list[str] = []

    def measure(planned: list[Branch], tree: Path) -> list:
        files = {p: t for b in planned for p, t in b.files.items()}
        write_files(tree, files)  # as the audit's measure does
        written.extend(files)
        with pytest.raises(WriteError, match=f"^{GAMMA} is a symbolic link"):
            write_files(tree, {f"{GAMMA}/gamma.py": "x = 1\n"})
        return []

    opened = GitRepo(repo)
    try:
        plan = delivery.plan(
            opened,
            Registry(registry),
            Registry(registry).names,
            select_codemods(),
            "2026-12-01",
            opened.resolve("main"),
            measure=measure,
        )
    finally:
        opened.close()

    assert list(plan.skipped) == ["empty-policy/gamma"]
    assert written and not any(p.startswith(GAMMA) for p in written)
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before


def test_a_pr_folder_that_is_a_file_is_refused_before_anything(
    repo, registry, tmp_path, capsys
):
    (tmp_path / "prs").write_text("a file\n")
    for pr_dir in (tmp_path / "prs", tmp_path / "prs/inside"):
        assert campaign(repo, registry, "--pr-dir", str(pr_dir)) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert f"{tmp_path / 'prs'} is not a folder" in err
    assert branches(repo) == set()
    assert not (repo / STATE).exists()


def test_a_pr_text_that_cannot_be_written_leaves_its_branch_unmade(
    repo, registry, tmp_path, capsys
):
    (tmp_path / "prs/gamma.md").mkdir(parents=True)  # in the way of gamma's text
    (tmp_path / "prs/gamma.md/x").write_text("")

    assert campaign(repo, registry, "--pr-dir", str(tmp_path / "prs")) == 3

    err = capsys.readouterr().err
    assert f"empty-migrate: cannot write {tmp_path / 'prs/gamma.md'}: " in err
    assert err.count("\n") == 3  # the first branches' lines, then this one
    recorded = json.loads((repo / STATE).read_text())["branches"]
    made = {"empty-policy/foundation", "empty-policy/shared"}
    assert branches(repo) == set(recorded) == made
    untouched(repo)


def test_a_detached_head_needs_a_base(repo, registry, capsys):
    git(repo, "checkout", "-q", "--detach")

    assert campaign(repo, registry) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "HEAD is detached: pass --base BRANCH" in err
    assert branches(repo) == set()

    assert campaign(repo, registry, "--base", "main") == 0
    out = capsys.readouterr().out
    assert "gh pr create --draft --base main --head empty-policy/foundation" in out
    assert branches(repo) == BRANCHES
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_branch_recorded_only_as_pending_is_still_the_tools(campaigned, capsys):
    """As a run stopped between the ref and its record leaves the state file."""
    repo, registry = campaigned.repo, campaigned.registry
    record_as_pending(repo, "empty-policy/gamma")
    tip = git(repo, "rev-parse", "empty-policy/gamma").strip()
    capsys.readouterr()

    assert campaign(repo, registry) == 0
    assert f"empty-policy/gamma: unchanged {tip[:12]}" in capsys.readouterr().err
    record = json.loads((repo / STATE).read_text())["branches"]["empty-policy/gamma"]
    assert (record["commit"], record["pending"]) == (tip, None)

    record_as_pending(repo, "empty-policy/gamma")
    later = ["--today", "2026-12-02"]  # a later changelog date: out of date
    assert campaign(repo, registry, *later, "--replace-existing") == 0
    assert "empty-policy/gamma: replaced" in capsys.readouterr().err
    assert git(repo, "rev-parse", "empty-policy/gamma").strip() != tip


def record_as_pending(repo: Path, branch: str) -> None:
    state = json.loads((repo / STATE).read_text())
    record = state["branches"][branch]
    record["pending"], record["commit"] = record["commit"], None
    (repo / STATE).write_text(json.dumps(state))


REFUSE_GAMMA = """\
#!/bin/sh
# a ref update git refuses: gamma's
[ "$1" = prepared ] || exit 0
! grep -q " refs/heads/empty-policy/gamma$"
"""


def test_a_ref_that_cannot_move_leaves_no_record_claiming_it(repo, registry, capsys):
    hook = repo / ".git/hooks/reference-transaction"
    hook.write_text(REFUSE_GAMMA)
    hook.chmod(0o755)

    assert campaign(repo, registry) == 2

    err = capsys.readouterr().err
    assert "cannot point empty-policy/gamma at " in err
    assert 'git says "fatal: ref updates aborted by hook"; left as is' in err
    recorded = json.loads((repo / STATE).read_text())["branches"]
    assert "empty-policy/gamma" not in recorded
    made = {"empty-policy/foundation", "empty-policy/shared"}
    assert branches(repo) == set(recorded) == made
    untouched(repo)


def test_each_state_change_keeps_the_records_others_saved(repo):
    git_dir = repo / ".git"
    mine = delivery.Record(["gamma"], "c" * 40, "b" * 40, "done")
    theirs = delivery.Record(["alpha"], "a" * 40, "b" * 40, "done")
    delivery.update_state(git_dir, lambda s: s.branches.update({"mine": mine}))
    seen = delivery.State.load(git_dir)
    delivery.update_state(git_dir, lambda s: s.branches.update({"theirs": theirs}))

    delivery.update_state(git_dir, lambda s: s.branches.update({"mine": mine}))

    assert set(delivery.State.load(git_dir).branches) == {"mine", "theirs"}
    assert set(seen.branches) == {"mine"}  # what this run had read before
