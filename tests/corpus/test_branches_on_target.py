"""``--all --branch-per-eval`` on a git copy of inspect_evals 0.26.0 (issues 11, 22).

One foundation branch with the files the evals share, then one branch per
eval with changes on it, each differing from the foundation only in that
eval's own places (the AIME family's branch also in the scorer module its
evals share); every changed Python file compiles and passes the target's
ruff; a branch checked out on its own imports its scorers and passes its
emitted test (a sample, run for real; the import closure of every branch is
checked statically); the foundation and any five eval branches merge in any
order into the in-place migration's files; the user's checkout is as it was;
a second run changes nothing.
"""

import ast
import contextlib
import io
import random
import shutil
import subprocess
from pathlib import Path, PurePosixPath
from types import SimpleNamespace

import pytest

from empty_migrate.cli.main import main
from empty_migrate.delivery.branches import belongs_to_any, module_paths
from empty_migrate.delivery.git import GitRepo
from empty_migrate.target.own_tests import Comparison, folders_of_tests, run_tests
from tests.corpus.conftest import TODAY, ruff

pytestmark = pytest.mark.corpus

ROUTER = "src/inspect_evals/utils/empty_response.py"
TEST_HELPER = "tests/utils/empty_response.py"
SCORERS = "src/inspect_evals/utils/scorers.py"
IDENTITY = {
    "GIT_AUTHOR_NAME": "Corpus Test",
    "GIT_AUTHOR_EMAIL": "corpus@example.com",
    "GIT_COMMITTER_NAME": "Corpus Test",
    "GIT_COMMITTER_EMAIL": "corpus@example.com",
}
FOUNDATION = "empty-policy/foundation"
PRESET_CALLERS = ["fortress", "frontierscience", "hle", "uccb", "xstest"]
SAMPLE = ["scorers", "aime_common", "mind2web", "gpqa", "bfcl", "foundation"]
"""Branches checked out and tested for real: a judge safety eval, the shared
helper's family, an eval whose own tests were updated, a QA eval, an agentic
eval with overrides, and the foundation."""
REQUIRED = [
    "Related issue",
    "Does this change affect existing eval(s)?",
    "Is this change consequential to users?",
]
"""What the target's "Check PR template" job requires in a PR body."""


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def campaign(inspect_evals_tree, tmp_path_factory):
    """A git copy of the release, its campaign run once, and what it printed."""
    scratch = tmp_path_factory.mktemp("campaign")
    repo = scratch / "inspect_evals"
    ignored = shutil.ignore_patterns(".git", "inspect_evals.egg-info")
    shutil.copytree(inspect_evals_tree, repo, ignore=ignored)
    with pytest.MonkeyPatch.context() as patch:
        for key, value in IDENTITY.items():
            patch.setenv(key, value)
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "inspect-evals 0.26.0")
        status = git(repo, "status", "--porcelain")
        args = ["--all", "--branch-per-eval", "--repo", str(repo), "--today", TODAY]
        code, out, err = run(*args, "--pr-dir", str(scratch / "prs"))
        assert code == 0, err
        refs = branches(repo)
        again = run(*args, "--pr-dir", str(scratch / "prs"))
    return SimpleNamespace(
        repo=repo, prs=scratch / "prs", out=out, err=err, status=status, refs=refs,
        again=again,
    )  # fmt: skip


def branches(repo: Path) -> dict[str, str]:
    refs = git(repo, "for-each-ref", "--format=%(refname:short) %(objectname)")
    pairs = (line.split() for line in refs.splitlines())
    return {name: sha for name, sha in pairs if name.startswith("empty-policy/")}


def changed(repo: Path, branch: str, base: str = "main") -> list[str]:
    return git(repo, "diff", "--name-only", f"{base}...{branch}").split()


def evals_of(repo: Path, branch: str) -> set[str]:
    return {
        PurePosixPath(p).parts[1]
        for p in changed(repo, branch)
        if p.startswith("tests/") and p.endswith("/test_empty_response_policy.py")
    }


def test_one_branch_per_eval_with_changes(campaign, migrated_tree):
    repo, err = campaign.repo, campaign.err
    _, report = migrated_tree
    migrated = {e["eval"] for e in report["evals"] if e["status"] == "rewritten"}
    made = branches(repo)
    covered = set().union(*(evals_of(repo, b) for b in made))
    print(f"{len(made)} branches for {len(migrated)} migrated evals")
    assert covered == migrated
    assert "empty-policy/aime_common" in made
    assert evals_of(repo, "empty-policy/aime_common") == {
        "aime2024",
        "aime2025",
        "aime2026",
    }
    # the last callers of the preset helper are one unit, with its shim
    assert evals_of(repo, "empty-policy/scorers") == set(PRESET_CALLERS)
    assert FOUNDATION in made
    # AIME's three are one branch, the preset's five one; the foundation
    assert len(made) == len(migrated) - 2 - 4 + 1
    assert err.count(": created ") == len(made)


def test_each_eval_branch_differs_from_the_foundation_only_in_its_own_places(
    campaign, migrated_tree
):
    repo = campaign.repo
    migrated, _ = migrated_tree
    assert sorted(changed(repo, FOUNDATION)) == sorted([ROUTER, TEST_HELPER])
    for branch in branches(repo):
        base = "main" if branch == FOUNDATION else FOUNDATION
        paths = changed(repo, branch, base)
        if branch != FOUNDATION:
            names = evals_of(repo, branch)
            rest = [p for p in paths if not belongs_to_any(p, names)]
            helper = {
                "empty-policy/aime_common": ["src/inspect_evals/utils/aime_common.py"],
                "empty-policy/scorers": [SCORERS],
            }.get(branch, [])
            assert rest == helper, branch
            assert f"--base {FOUNDATION} --head {branch} " in campaign.out
        for path in paths:  # the same bytes as the in-place migration
            text = git(repo, "show", f"{branch}:{path}")
            assert text == (migrated / path).read_text(), (branch, path)


def test_the_foundation_then_five_eval_branches_in_random_order_merge_cleanly(
    campaign, migrated_tree, tmp_path
):
    """Each merge is clean, and the files are the in-place migration's."""
    repo = campaign.repo
    migrated, _ = migrated_tree
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--shared", str(repo), str(clone))
    evals = sorted(set(branches(repo)) - {FOUNDATION})
    picked = random.Random(22).sample(evals, 5)
    for branch in [FOUNDATION, *picked]:
        git(clone, "merge", "-q", "--no-edit", f"origin/{branch}")
    paths = git(clone, "diff", "--name-only", "origin/main", "HEAD").split()
    assert sorted(paths) == sorted(
        set(changed(repo, FOUNDATION)).union(
            *(changed(repo, b, FOUNDATION) for b in picked)
        )
    )
    for path in paths:
        assert (clone / path).read_text() == (migrated / path).read_text(), path


def test_every_changed_python_file_compiles_and_passes_the_targets_ruff(
    campaign, tmp_path
):
    repo = campaign.repo
    files: dict[str, str] = {}
    for branch in branches(repo):
        for path in (p for p in changed(repo, branch) if p.endswith(".py")):
            text = git(repo, "show", f"{branch}:{path}")
            compile(text, f"{branch}:{path}", "exec")
            # a path two branches change holds the same bytes in both
            assert files.setdefault(path, text) == text, path
    git_repo = GitRepo(repo)
    try:
        with git_repo.exported("main") as tree:  # the base, as ruff sees a project
            for path, text in files.items():
                (tree / path).parent.mkdir(parents=True, exist_ok=True)
                (tree / path).write_text(text)
            for args in (["check"], ["format", "--check"]):
                done = ruff(*args, *files, cwd=tree)
                assert done.returncode == 0, done.stdout + done.stderr
    finally:
        git_repo.close()
    print(f"{len(files)} changed Python files across the branches pass ruff")


def test_every_branch_imports_only_what_it_holds(campaign):
    """Each branch's changed code imports modules its own tree has."""
    repo = campaign.repo
    base = set(git(repo, "ls-files").split())
    for branch in branches(repo):
        tree = base | set(changed(repo, branch))
        for path in (p for p in changed(repo, branch) if p.endswith(".py")):
            text = git(repo, "show", f"{branch}:{path}")
            for module in _project_imports(text):
                assert any(p in tree for p in module_paths(module)), (
                    branch,
                    path,
                    module,
                )


def _project_imports(text: str) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
        elif isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
    return {m for m in modules if m.split(".")[0] in ("inspect_evals", "tests")}


@pytest.mark.parametrize("key", SAMPLE)
def test_a_branch_on_its_own_passes_its_emitted_tests(campaign, target_env, key):
    """Checked out alone, a branch's emitted tests pass and no test regresses."""
    repo = campaign.repo
    branch = f"empty-policy/{key}"
    names = sorted(evals_of(repo, branch)) or ["utils"]
    paths = [f"tests/{name}" for name in names]
    git_repo = GitRepo(repo)
    try:
        with git_repo.exported("main") as base, git_repo.exported(branch) as tree:
            comparison = Comparison(
                run_tests(target_env, base, paths), run_tests(target_env, tree, paths)
            )
            regressions = comparison.regressions
            if regressions:  # confirm serially, as the do-no-harm gate does
                again = folders_of_tests(regressions)
                rerun = Comparison(
                    run_tests(target_env, base, again, workers=1),
                    run_tests(target_env, tree, again, workers=1),
                )
                regressions = {
                    t: o for t, o in regressions.items() if t in rerun.regressions
                }
    finally:
        git_repo.close()
    after = comparison.after
    emitted = [t for t in after if "test_empty_response_policy" in t]
    failed = [t for t in emitted if after[t] == "failed"]
    print(f"{branch}: {len(after)} tests, {len(emitted)} emitted, {len(failed)} of "
          f"them failed, {len(regressions)} regressed")  # fmt: skip
    assert key == "foundation" or emitted
    assert failed == []
    assert regressions == {}


def test_the_checkout_is_as_it_was(campaign):
    repo = campaign.repo
    assert git(repo, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git(repo, "status", "--porcelain") == campaign.status == ""


def test_pr_text_passes_the_targets_template_check(campaign):
    repo, prs, out = campaign.repo, campaign.prs, campaign.out
    texts = {path.stem: path.read_text() for path in prs.glob("*.md")}
    assert set(texts) == {b.removeprefix("empty-policy/") for b in branches(repo)}
    for key, text in texts.items():
        assert all(item in text for item in REQUIRED), key
        assert "Closes: no linked issue as this" in text, key
    assert out.count(f"gh pr create --draft --base main --head {FOUNDATION} ") == 1
    assert out.count(f"gh pr create --draft --base {FOUNDATION} --head ") == (
        len(texts) - 1
    )
    print("\n--- the PR text of empty-policy/foundation ---\n" + texts["foundation"])
    print("\n--- the PR text of empty-policy/scorers ---\n" + texts["scorers"])


def test_a_second_run_changes_nothing(campaign):
    code, _, err = campaign.again
    assert code == 0, err
    made = branches(campaign.repo)
    assert made == campaign.refs
    assert err.count(": unchanged ") == len(made)
    assert ": created " not in err and ": replaced " not in err
