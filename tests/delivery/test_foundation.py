"""The foundation and the eval branches on it, merged as a maintainer would.

A campaign of five evals (gamma and epsilon with scorers of their own, alpha
and beta sharing ``utils/shared.py``, delta left to a person, still calling
the preset helper the foundation turns into a shim) in a real repository;
the branches are merged with real ``git merge`` in scratch clones.
"""

import itertools
import random
import re
import shutil
from pathlib import Path

import pytest

from empty_migrate.cli.main import main
from empty_migrate.delivery.branches import belongs_to_any
from tests.delivery.campaigns import TODAY, build_campaign_repo, campaign
from tests.demo import GIT_IDENTITY, DemoTree, git

FOUNDATION = "empty-policy/foundation"
EVAL_BRANCHES = {
    "empty-policy/gamma": ("gamma",),
    "empty-policy/epsilon": ("epsilon",),
    "empty-policy/shared": ("alpha", "beta"),
}
SHARED_MODULE = "src/inspect_evals/utils/shared.py"


@pytest.fixture
def five(built_once, tmp_path) -> DemoTree:
    """The five evals' repository after a campaign (a copy), with the in-place
    migration's tree id in ``in_place``."""
    copy = DemoTree(tmp_path / "five")
    shutil.copytree(built_once("five", _build), copy.root, symlinks=True)
    return copy


def _build(root: Path) -> None:
    tree = DemoTree.create(root)
    with pytest.MonkeyPatch.context() as patch:
        for key, value in GIT_IDENTITY.items():
            patch.setenv(key, value)
        build_campaign_repo(tree, extra=["epsilon"])
        assert campaign(tree.repo, tree.registry) == 0
        in_place = root / "in_place"
        git(root, "clone", "-q", str(tree.repo), str(in_place))
        assert main(["--all", "--repo", str(in_place), "--registry",
                     str(tree.registry), *TODAY]) == 0  # fmt: skip
        git(in_place, "add", "-A")
        (root / "in_place.tree").write_text(git(in_place, "write-tree").strip())


def in_place_tree(five: DemoTree) -> str:
    return (five.root / "in_place.tree").read_text()


def changed(repo: Path, branch: str, base: str) -> set[str]:
    return set(git(repo, "diff", "--name-only", f"{base}...{branch}").split())


def merged(repo: Path, scratch: Path, branches: list[str]) -> tuple[str, set[str]]:
    """Main after merging `branches` in order, in a scratch clone: its tree id,
    and the paths it changes against main."""
    clone = scratch / f"clone-{len(list(scratch.iterdir()))}"
    git(scratch, "clone", "-q", "--shared", str(repo), str(clone))
    for branch in branches:  # a conflict fails the merge, and the test
        git(clone, "merge", "-q", "--no-edit", f"origin/{branch}")
    tree = git(clone, "rev-parse", "HEAD^{tree}").strip()
    return tree, set(git(clone, "diff", "--name-only", "origin/main", "HEAD").split())


def test_each_eval_branch_changes_only_its_own_places(five):
    repo = five.repo
    listed = git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads")
    assert set(listed.split()) - {"main"} == {FOUNDATION, *EVAL_BRANCHES}
    foundation = changed(repo, FOUNDATION, "main")
    for branch, evals in EVAL_BRANCHES.items():
        paths = changed(repo, branch, FOUNDATION)
        assert (
            git(repo, "rev-parse", f"{branch}^").strip()
            == git(repo, "rev-parse", FOUNDATION).strip()
        )
        others = {p for p in paths if not belongs_to_any(p, evals)}
        # the scorer module alpha and beta share goes with them, nowhere else
        assert others == ({SHARED_MODULE} if len(evals) > 1 else set()), branch
        assert not paths & foundation
    assert SHARED_MODULE not in foundation


def test_the_foundation_then_the_evals_in_any_order_is_the_in_place_migration(
    five, tmp_path
):
    orders = [sorted(EVAL_BRANCHES)]
    shuffler = random.Random(22)
    for _ in range(3):
        orders.append(shuffler.sample(sorted(EVAL_BRANCHES), len(EVAL_BRANCHES)))
    for order in orders:
        tree, _ = merged(five.repo, tmp_path, [FOUNDATION, *order])
        assert tree == in_place_tree(five), order


def test_any_subset_of_evals_merges_cleanly_in_any_order(five, tmp_path):
    repo = five.repo
    for size in (1, 2):
        for subset in itertools.combinations(sorted(EVAL_BRANCHES), size):
            results = [
                merged(repo, tmp_path, [FOUNDATION, *order])
                for order in itertools.permutations(subset)
            ]
            trees = {tree for tree, _ in results}
            assert len(trees) == 1, subset  # one tree, whatever the order
            expected = changed(repo, FOUNDATION, "main").union(
                *(changed(repo, b, FOUNDATION) for b in subset)
            )
            assert results[0][1] == expected, subset


def squash_merge_the_foundation(repo: Path) -> str:
    """Merge the foundation into main as one new commit (a squash); its id."""
    git(repo, "merge", "-q", "--squash", FOUNDATION)
    git(repo, "commit", "-qm", "Empty-response policy: the shared router (#1)")
    return git(repo, "rev-parse", "main").strip()


def test_campaign_rebase_moves_the_eval_branches_onto_a_squash_merged_foundation(
    five, capsys
):
    repo = five.repo
    own = {b: changed(repo, b, FOUNDATION) for b in EVAL_BRANCHES}
    assert main(["campaign", "rebase", "--repo", str(repo)]) == 2
    assert "has not merged into main" in capsys.readouterr().err
    main_commit = squash_merge_the_foundation(repo)

    assert main(["campaign", "rebase", "--repo", str(repo)]) == 0

    out = capsys.readouterr().out
    for branch, files in own.items():
        assert git(repo, "rev-parse", f"{branch}^").strip() == main_commit
        assert changed(repo, branch, "main") == files
        assert f"gh pr edit {branch} --base main" in out
    assert git(repo, "status", "--porcelain") == ""
    assert campaign(five.repo, five.registry) == 0  # nothing left to make
    err = capsys.readouterr().err
    assert err.count(": unchanged ") == len(EVAL_BRANCHES)
    assert "foundation" not in err


def test_a_rerun_notices_the_merged_foundation_and_moves_the_branches(five, capsys):
    repo = five.repo
    main_commit = squash_merge_the_foundation(repo)

    assert campaign(repo, five.registry) == 0

    err = capsys.readouterr().err
    assert err.count(": rebased ") == len(EVAL_BRANCHES)
    for branch in EVAL_BRANCHES:
        assert git(repo, "rev-parse", f"{branch}^").strip() == main_commit
    assert main(["campaign", "rebase", "--repo", str(repo)]) == 0
    assert "0 branch(es) on the foundation" in capsys.readouterr().err
    assert main(["campaign", "status", "--repo", str(repo)]) == 0
    assert re.search(f"{FOUNDATION} +merged", capsys.readouterr().out)


def test_a_branch_whose_files_the_base_changed_is_left_on_the_foundation(five, capsys):
    repo = five.repo
    squash_merge_the_foundation(repo)
    readme = repo / "src/inspect_evals/gamma/README.md"
    readme.write_text(readme.read_text() + "\nA maintainer's note.\n")
    git(repo, "commit", "-qam", "gamma: a note")
    tip = git(repo, "rev-parse", "empty-policy/gamma").strip()

    assert main(["campaign", "rebase", "--repo", str(repo)]) == 1

    err = capsys.readouterr().err
    assert "empty-policy/gamma: conflict" in err
    assert "src/inspect_evals/gamma/README.md" in err
    assert git(repo, "rev-parse", "empty-policy/gamma").strip() == tip
    assert "2 moved onto main" in err


def test_no_eval_branch_is_made_on_a_foundation_the_tool_did_not_make(
    repo, registry, capsys
):
    git(repo, "branch", FOUNDATION, "main")  # someone's branch of that name
    theirs = git(repo, "rev-parse", FOUNDATION).strip()

    assert campaign(repo, registry) == 1

    err = capsys.readouterr().err
    assert f"{FOUNDATION}: not ours" in err
    assert f"empty-policy/gamma: blocked: {FOUNDATION} is not ours" in err
    listed = git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads")
    assert set(listed.split()) == {"main", FOUNDATION}
    assert git(repo, "rev-parse", FOUNDATION).strip() == theirs
