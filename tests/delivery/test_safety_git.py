"""Branch mode on a hostile checkout: line-end settings, a tag named like the
branch, a missing object, a branch named like the branches' folder.

Each branch stores only the migration's changes, whatever ``core.autocrlf``
or ``.gitattributes`` ask a checkout to convert; the branches start from the
branch the user named, never from a tag of that name; a damaged repository or
a ref git cannot make ends in one line that says what to do, with nothing
written; a partial clone fetches the base's files first, as a checkout would.
"""

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from empty_migrate.delivery.git import GitError, GitRepo
from tests.delivery.campaigns import campaign
from tests.delivery.test_branch_per_eval import BRANCHES, branches, refs, untouched
from tests.delivery.test_git_safety import STATE
from tests.demo import DemoTree, choice_task, git

GAMMA = "src/inspect_evals/gamma/gamma.py"


def autocrlf(repo: Path) -> None:
    """The user's git converts line ends: LF in the store, CRLF in a checkout."""
    git(repo, "config", "core.autocrlf", "true")


def crlf_attribute(repo: Path) -> None:
    """The repository asks for CRLF in a checkout of its Python files."""
    (repo / ".gitattributes").write_text("*.py text eol=crlf\n")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-qm", "CRLF in checkouts")


CONVERSIONS = pytest.mark.parametrize(
    "convert", [autocrlf, crlf_attribute], ids=["autocrlf", "eol-attribute"]
)


def blob(repo: Path, revision: str) -> bytes:
    shown = ["git", "cat-file", "blob", revision]
    return subprocess.run(shown, cwd=repo, capture_output=True, check=True).stdout


@pytest.fixture
def small(tmp_path) -> Path:
    """A repository of one committed eval module, on ``main``."""
    repo = tmp_path / "small"
    (repo / GAMMA).parent.mkdir(parents=True)
    (repo / GAMMA).write_text(choice_task("gamma"))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Gamma")
    return repo


@pytest.fixture
def opened(small):
    opened = GitRepo(small)
    yield opened
    opened.close()


@CONVERSIONS
def test_the_base_is_read_as_git_stores_it(small, convert):
    convert(small)
    index = (small / ".git/index").read_bytes()
    opened = GitRepo(small)
    try:
        with opened.exported("main") as tree:
            exported = (tree / GAMMA).read_bytes()
    finally:
        opened.close()

    assert exported == blob(small, f"main:{GAMMA}")
    assert b"\r" not in exported
    assert (small / ".git/index").read_bytes() == index
    untouched(small)


@pytest.mark.slow
@CONVERSIONS
def test_each_branch_changes_only_the_migrations_lines(
    campaign_tree, tmp_path, convert
):
    converted = DemoTree(tmp_path / "converted")
    shutil.copytree(campaign_tree.root, converted.root, symlinks=True)
    convert(converted.repo)

    assert campaign(campaign_tree.repo, campaign_tree.registry) == 0
    assert campaign(converted.repo, converted.registry) == 0

    assert branches(converted.repo) == branches(campaign_tree.repo) == BRANCHES
    for branch in BRANCHES:
        plain = git(campaign_tree.repo, "diff", "main", branch)
        assert git(converted.repo, "diff", "main", branch) == plain, branch
        assert "\r" not in plain
    untouched(converted.repo)


def tag_main_at_an_older_commit(repo: Path) -> tuple[str, str]:
    """A tag ``main`` on the first commit, the branch ``main`` one later."""
    older = git(repo, "rev-parse", "HEAD").strip()
    (repo / "NOTES.md").write_text("later\n")
    git(repo, "add", "NOTES.md")
    git(repo, "commit", "-qm", "Later")
    git(repo, "tag", "main", older)
    return older, git(repo, "rev-parse", "refs/heads/main").strip()


def test_a_branch_name_resolves_to_the_branch_not_a_tag_of_that_name(small, opened):
    older, branch = tag_main_at_an_older_commit(small)

    assert opened.resolve("main") == branch != older
    assert opened.resolve("main~1") == older
    assert opened.resolve("tags/main") == older


@pytest.mark.slow
def test_the_foundation_starts_from_the_branch_not_a_tag_of_its_name(repo, registry):
    _, branch = tag_main_at_an_older_commit(repo)

    assert campaign(repo, registry) == 0

    parent = git(repo, "rev-parse", "refs/heads/empty-policy/foundation^")
    assert parent.strip() == branch


def lose(repo: Path, revision: str) -> str:
    """The object `revision` names, removed from the store; its id."""
    lost = git(repo, "rev-parse", revision).strip()
    (repo / ".git/objects" / lost[:2] / lost[2:]).unlink()
    return lost


@pytest.mark.parametrize("revision", ["main:src", f"main:{GAMMA}"])
def test_a_missing_tree_or_file_of_the_base_is_named(small, opened, revision):
    base = opened.resolve("main")
    lost = lose(small, revision)

    with pytest.raises(GitError) as refused, opened.exported(base):
        pass

    assert str(refused.value).startswith(
        f"the repository is missing object {lost}, which commit {base[:12]} needs: "
        "run `git fsck`"
    )


def test_a_branch_whose_commit_is_missing_is_named(small, opened):
    lost = lose(small, "main")

    with pytest.raises(GitError) as refused:
        opened.resolve("main")

    assert str(refused.value).startswith(
        f"the repository is missing commit {lost}, which branch main points at: "
        "run `git fsck`"
    )


@pytest.mark.parametrize("dry_run", [False, True], ids=["run", "dry-run"])
def test_a_missing_object_is_named_in_one_line(repo, registry, capsys, dry_run):
    lost = lose(repo, f"main:{GAMMA}")
    before = refs(repo)

    assert campaign(repo, registry, *(["--dry-run"] if dry_run else [])) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"empty-migrate: the repository is missing object {lost}, which commit "
        f"{git(repo, 'rev-parse', 'main').strip()[:12]} needs: run `git fsck` to see "
        "what is damaged, and restore it (from a clone that has it, say); "
        "nothing was changed"
    ]
    assert refs(repo) == before
    assert not (repo / STATE).exists()


@pytest.mark.parametrize("dry_run", [False, True], ids=["run", "dry-run"])
def test_a_branch_named_like_the_branches_folder_is_named_as_such(
    repo, registry, capsys, dry_run
):
    git(repo, "branch", "empty-policy")
    before = refs(repo)

    assert campaign(repo, registry, *(["--dry-run"] if dry_run else [])) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "empty-migrate: a branch named empty-policy exists, and git cannot also "
        "make the branches under empty-policy/: rename it (`git branch -m "
        "empty-policy NEW-NAME`) and run again; nothing was changed"
    ]
    assert refs(repo) == before
    assert not (repo / STATE).exists()
    untouched(repo)


@pytest.mark.parametrize(
    ("existing", "said"),
    [
        (
            "empty-policy/gamma/old",
            "cannot make branch empty-policy/gamma: branch empty-policy/gamma/old "
            "exists, and git cannot have a branch inside another's name: rename it "
            "(`git branch -m empty-policy/gamma/old NEW-NAME`) and run again",
        ),
        (
            "empty-policy/gamma",
            "empty-policy/gamma changed while the campaign ran; left as is",
        ),
    ],
)
def test_a_ref_that_cannot_be_set_says_why(small, opened, existing, said):
    git(small, "branch", existing)
    head = opened.resolve("main")

    with pytest.raises(GitError) as refused:
        opened.set_branch("empty-policy/gamma", head, None)

    assert str(refused.value) == said


def refuse_every_ref(repo: Path) -> Callable[[], None]:
    hook = repo / ".git/hooks/reference-transaction"
    hook.write_text('#!/bin/sh\n[ "$1" = prepared ] || exit 0\nexit 1\n')
    hook.chmod(0o755)
    return hook.unlink


def test_a_ref_git_refuses_for_another_reason_says_what_git_said(small, opened):
    refuse_every_ref(small)
    head = opened.resolve("main")

    with pytest.raises(GitError) as refused:
        opened.set_branch("empty-policy/gamma", head, None)

    assert str(refused.value) == (
        f"cannot point empty-policy/gamma at {head[:12]}: git says "
        '"fatal: ref updates aborted by hook"; left as is'
    )


def partial_clone(small: Path, tmp_path: Path) -> tuple[Path, str]:
    """A clone of `small` without file contents; the commit of a branch not there."""
    git(small, "config", "uploadpack.allowFilter", "true")
    git(small, "switch", "-qc", "other")
    (small / "NOTES.md").write_text("on other\r\n")
    git(small, "add", "NOTES.md")
    git(small, "commit", "-qm", "Other")
    git(small, "switch", "-q", "main")
    clone = tmp_path / "partial"
    url = f"file://{small}"
    git(tmp_path, "clone", "-q", "--no-local", "--filter=blob:none", url, str(clone))
    return clone, git(small, "rev-parse", "other").strip()


@pytest.mark.slow
def test_a_partial_clone_fetches_the_files_of_the_base(small, tmp_path):
    clone, other = partial_clone(small, tmp_path)
    autocrlf(clone)
    opened = GitRepo(clone)
    try:
        with opened.exported(other) as tree:
            assert (tree / "NOTES.md").read_bytes() == b"on other\r\n"
            assert (tree / GAMMA).read_bytes() == blob(small, f"main:{GAMMA}")
    finally:
        opened.close()


@pytest.mark.slow
def test_a_partial_clone_that_cannot_fetch_says_so(small, tmp_path):
    clone, other = partial_clone(small, tmp_path)
    lost = git(small, "rev-parse", "other:NOTES.md").strip()
    shutil.rmtree(small)
    opened = GitRepo(clone)

    with pytest.raises(GitError) as refused, opened.exported(other):
        pass
    opened.close()

    assert str(refused.value).startswith(
        f"the repository is a partial clone without object {lost}, which commit "
        f"{other[:12]} needs, and fetching it from origin failed (git says "
    )
    assert str(refused.value).endswith(
        "): fetch it, then run again; nothing was changed"
    )
