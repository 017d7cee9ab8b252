"""``--branch-per-eval``: a foundation, then one branch per eval on it, resumable,
in real git repositories."""

import json
import re
import signal
import subprocess
import sys

import pytest

from empty_migrate import __version__
from empty_migrate.cli.main import main
from tests.delivery.campaigns import CLOSES, ROUTER, TODAY, campaign
from tests.demo import git

FOUNDATION = "empty-policy/foundation"
BRANCHES = {FOUNDATION, "empty-policy/gamma", "empty-policy/shared"}
TEST_HELPER = "tests/utils/empty_response.py"
SCORERS = "src/inspect_evals/utils/scorers.py"


def branches(repo):
    listed = git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads")
    return set(listed.split()) - {"main"}


def refs(repo):
    return git(repo, "for-each-ref", "--format=%(refname) %(objectname)")


def changed(repo, branch, base="main"):
    return set(git(repo, "diff", "--name-only", f"{base}...{branch}").split())


def untouched(repo):
    """The user's checkout as the fixture left it: on main, nothing changed."""
    assert git(repo, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_the_foundation_holds_the_shared_files_and_each_eval_branch_its_own(
    campaigned,
):
    repo = campaigned.repo

    untouched(repo)
    assert branches(repo) == BRANCHES
    assert changed(repo, FOUNDATION) == {ROUTER, TEST_HELPER}
    assert changed(repo, "empty-policy/gamma", FOUNDATION) == {
        "src/inspect_evals/gamma/gamma.py",
        "src/inspect_evals/gamma/eval.yaml",
        "src/inspect_evals/gamma/README.md",
        "changelog.d/20261201_empty_migrate_gamma.md",
        "tests/gamma/test_empty_response_policy.py",
        "src/inspect_evals/gamma/empty_response.yaml",
    }
    main_commit = git(repo, "rev-parse", "main").strip()
    foundation = git(repo, "rev-parse", FOUNDATION).strip()
    assert git(repo, "rev-parse", f"{FOUNDATION}^").strip() == main_commit
    for branch in BRANCHES - {FOUNDATION}:
        assert git(repo, "rev-parse", f"{branch}^").strip() == foundation
    for branch in BRANCHES:
        for path in changed(repo, branch):
            if path.endswith(".py"):
                text = git(repo, "show", f"{branch}:{path}")
                compile(text, path, "exec")
    assert "empty-policy/delta" not in branches(repo)  # manual: no diff, no branch


def test_the_foundation_adds_files_and_changes_no_code_an_eval_calls(campaigned):
    repo = campaigned.repo
    # delta, left to a person, still calls the preset helper: it keeps its code
    for branch in branches(repo):
        assert SCORERS not in changed(repo, branch), branch
    pr = (repo / ".git/empty-migrate/pr/foundation.md").read_text()
    assert "`preset_score_on_no_response`" not in pr
    assert "An empty completion can be genuine silence" in pr  # the policy, once
    gamma = (repo / ".git/empty-migrate/pr/gamma.md").read_text()
    assert "An empty completion can be genuine silence" not in gamma
    assert f"built on `{FOUNDATION}`" in gamma


def test_evals_sharing_a_helper_get_one_branch_named_for_it(campaigned):
    repo = campaigned.repo

    files = changed(repo, "empty-policy/shared")
    assert "src/inspect_evals/utils/shared.py" in files
    for name in ("alpha", "beta"):
        eval_yaml = git(
            repo, "show", f"empty-policy/shared:src/inspect_evals/{name}/eval.yaml"
        )
        assert 'version: "3-A"' in eval_yaml
    message = git(repo, "log", "-1", "--format=%B", "empty-policy/shared")
    assert message.startswith("alpha, beta: route non-answers")
    assert "one branch migrates them together" in " ".join(message.split())
    assert message.rstrip().endswith(f"Generated-by: empty-migrate {__version__}")


def test_a_second_run_changes_nothing(repo, registry, capsys):
    index = (repo / ".git/index").read_bytes()
    assert campaign(repo, registry) == 0
    assert (repo / ".git/index").read_bytes() == index  # never written
    before = refs(repo)
    state = (repo / ".git/empty-migrate/campaign.json").read_text()
    capsys.readouterr()

    assert campaign(repo, registry) == 0

    assert refs(repo) == before
    assert (repo / ".git/empty-migrate/campaign.json").read_text() == state
    err = capsys.readouterr().err
    assert err.count(": unchanged ") == 3
    assert "3 branch(es): 3 unchanged" in err
    untouched(repo)
    assert (repo / ".git/index").read_bytes() == index
    assert git(repo, "fsck", "--strict", "--no-dangling", "--no-progress") == ""


def test_a_dirty_work_tree_is_refused_and_left_as_it_is(repo, registry, capsys):
    (repo / "src/inspect_evals/gamma/gamma.py").write_text("# my work\n")
    (repo / "notes.txt").write_text("draft\n")
    (repo / "staged.txt").write_text("staged\n")
    git(repo, "add", "staged.txt")

    assert campaign(repo, registry) == 2

    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "uncommitted changes" in err
    assert "src/inspect_evals/gamma/gamma.py" in err and "notes.txt" in err
    assert "staged.txt" in err
    assert branches(repo) == set()
    assert (repo / "src/inspect_evals/gamma/gamma.py").read_text() == "# my work\n"
    # only the run's lock file: no state, no PR text
    assert [p.name for p in (repo / ".git/empty-migrate").iterdir()] == ["lock"]


def test_a_branch_the_tool_did_not_make_is_never_touched(repo, registry, capsys):
    git(repo, "branch", "empty-policy/gamma", "main")
    theirs = git(repo, "rev-parse", "empty-policy/gamma").strip()

    for flags in ([], ["--replace-existing"]):
        assert campaign(repo, registry, *flags) == 1
        assert git(repo, "rev-parse", "empty-policy/gamma").strip() == theirs
        err = capsys.readouterr().err
        assert "empty-policy/gamma: not ours" in err
        assert "was not made by empty-migrate; left untouched" in err
    assert branches(repo) == BRANCHES
    untouched(repo)
    assert campaign(repo, registry, "--dry-run") == 0
    out = capsys.readouterr().out
    assert (
        "empty-policy/gamma (gamma, on empty-policy/foundation): exists, was not "
        "made by empty-migrate: "
        "would be left untouched"
    ) in out
    assert (
        "empty-policy/shared (alpha, beta, on empty-policy/foundation): exists, "
        "made by empty-migrate"
    ) in out


def test_replace_existing_rebuilds_the_tools_own_branches_only(campaigned, capsys):
    repo, registry = campaigned.repo, campaigned.registry
    git(repo, "checkout", "-q", "empty-policy/gamma")
    (repo / "extra.txt").write_text("a reviewer's fix\n")
    git(repo, "add", "extra.txt")
    git(repo, "commit", "-qm", "Reviewer fix")
    git(repo, "checkout", "-q", "main")
    moved = git(repo, "rev-parse", "empty-policy/gamma").strip()
    shared = git(repo, "rev-parse", "empty-policy/shared").strip()
    later = ["--today", "2026-12-02"]  # a different changelog date: out of date
    capsys.readouterr()

    assert main(["--all", "--branch-per-eval", "--repo", str(repo), "--registry",
                 str(registry), *later]) == 1  # fmt: skip
    err = capsys.readouterr().err
    assert "empty-policy/shared: out of date" in err and "--replace-existing" in err
    assert "empty-policy/gamma: not ours" in err
    assert "has commits since empty-migrate made it" in err
    assert git(repo, "rev-parse", "empty-policy/shared").strip() == shared

    assert main(["--all", "--branch-per-eval", "--repo", str(repo), "--registry",
                 str(registry), *later, "--replace-existing"]) == 1  # fmt: skip
    assert git(repo, "rev-parse", "empty-policy/shared").strip() != shared
    assert "2026-12-02" in git(
        repo, "show", "empty-policy/shared:src/inspect_evals/alpha/README.md"
    )
    assert git(repo, "rev-parse", "empty-policy/gamma").strip() == moved
    untouched(repo)


HOOK = """\
#!/bin/sh
# a stop signal for the campaign, sent as its first branch's ref is committed
[ "$1" = committed ] || exit 0
grep -q " refs/heads/empty-policy/" || exit 0
[ -e {mark} ] && exit 0
: > {mark}
while [ ! -s {pidfile} ]; do sleep 0.05; done
kill -{signal} "$(cat {pidfile})"
"""


@pytest.mark.slow  # two real campaign processes, one stopped by a real signal
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_mid_campaign_keeps_the_checkout_and_a_rerun_finishes(
    repo, registry, tmp_path, stop
):
    mark, pidfile = tmp_path / "interrupted", tmp_path / "pid"
    hook = repo / ".git/hooks/reference-transaction"
    name = signal.Signals(stop).name
    hook.write_text(HOOK.format(mark=mark, pidfile=pidfile, signal=name[3:]))
    hook.chmod(0o755)
    command = [
        sys.executable,
        "-m",
        "empty_migrate",
        "--all",
        "--branch-per-eval",
        "--repo",
        str(repo),
        "--registry",
        str(registry),
        *TODAY,
    ]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    pidfile.write_text(str(process.pid))
    _, err = process.communicate(timeout=120)

    assert process.returncode == 128 + stop, err
    said = "interrupted" if stop == signal.SIGINT else f"interrupted ({name})"
    assert f"{said}: made 1 of 3 branches, each complete" in err
    assert "main is still checked out" in err
    assert branches(repo) == {FOUNDATION}
    untouched(repo)
    state = json.loads((repo / ".git/empty-migrate/campaign.json").read_text())
    assert list(state["branches"]) == [FOUNDATION]
    first = git(repo, "rev-parse", FOUNDATION).strip()

    done = subprocess.run(command, capture_output=True, text=True, timeout=120)

    assert done.returncode == 0, done.stderr
    assert f"{FOUNDATION}: unchanged" in done.stderr
    assert branches(repo) == BRANCHES
    assert git(repo, "rev-parse", FOUNDATION).strip() == first
    untouched(repo)


def test_dry_run_lists_branches_and_files_and_creates_nothing(repo, registry, capsys):
    before = refs(repo)

    assert campaign(repo, registry, "--dry-run") == 0

    out = capsys.readouterr().out
    assert "empty-policy/gamma (gamma, on empty-policy/foundation): would create" in out
    assert "  src/inspect_evals/gamma/gamma.py\n" in out
    assert (
        f"{FOUNDATION} (the files the evals share): would create\n"
        f"  {ROUTER}\n  {TEST_HELPER}\n"
    ) in out
    assert refs(repo) == before
    assert not (repo / ".git/empty-migrate").exists()
    untouched(repo)


def test_pr_text_follows_the_targets_template_section_by_section(
    repo, registry, tmp_path, capsys
):
    pr_dir = tmp_path / "prs"

    assert campaign(repo, registry, "--pr-dir", str(pr_dir)) == 0

    text = (pr_dir / "gamma.md").read_text()
    headings = re.findall(r"^#{1,2} (.+)$", text, re.MULTILINE)
    assert headings == [
        "This PR contains",
        "Description",
        "Related issue",
        "Notes for reviewers",
        "Checklist",
    ]
    assert "A scoring change to Gamma (`gamma`), task version 2-A → 3-A" in text
    assert "_Anything a reviewer should look at first._" in text  # kept as is
    assert CLOSES.search(text)
    assert "- [x] Does this change affect existing eval(s)?" in text
    assert "  - [x] Have the affected task version(s) been incremented?" in text
    assert "  - [x] Have the affected task changelog(s) been updated?" in text
    # only a person can tick this one
    assert "  - [ ] Have you checked your changes against the evaluation" in text
    assert "`tests/gamma/test_empty_response_policy.py`" in text
    assert "uv run pytest tests/gamma" in text
    out = capsys.readouterr().out
    assert f"gh pr create --draft --base main --head {FOUNDATION} " in out
    assert (
        f"gh pr create --draft --base {FOUNDATION} --head empty-policy/gamma --title "
        f"'gamma: route non-answers through the empty-response policy' "
        f"--body-file {pr_dir / 'gamma.md'}"
    ) in out
    assert out.index(f"--head {FOUNDATION}") < out.index("--head empty-policy/gamma")
    untouched(repo)  # the PR folder is outside the repository here


def test_an_issue_number_closes_it(repo, registry, tmp_path):
    assert campaign(repo, registry, "--issue", "1234", "--pr-dir", str(tmp_path)) == 0
    assert "Closes: #1234" in (tmp_path / "gamma.md").read_text()


def test_a_pr_folder_inside_the_work_tree_does_not_make_it_dirty(repo, registry):
    pr_dir = repo / "prs"
    assert campaign(repo, registry, "--pr-dir", str(pr_dir)) == 0
    assert (pr_dir / "gamma.md").is_file()
    assert campaign(repo, registry, "--pr-dir", str(pr_dir)) == 0


def test_commit_subjects_follow_a_conventional_history(repo, registry):
    for number in range(3):
        (repo / f"f{number}.txt").write_text("x\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"feat(x): change {number}")

    assert campaign(repo, registry) == 0

    subject = git(repo, "log", "-1", "--format=%s", "empty-policy/gamma").strip()
    assert subject == "fix(gamma): route non-answers through the empty-response policy"


def test_campaign_status_shows_each_branch_as_it_is_now(campaigned, capsys):
    repo, registry = campaigned.repo, campaigned.registry
    git(repo, "branch", "-D", "empty-policy/gamma")
    capsys.readouterr()

    assert main(["campaign", "status", "--repo", str(repo)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"empty-policy/gamma +missing", out)
    assert re.search(r"empty-policy/shared +done +[0-9a-f]{12} +alpha, beta", out)
    assert re.search(r"foundation +done +[0-9a-f]{12} +\(foundation\)", out)
    assert "3 branch(es) from main: 2 done, 1 missing" in out

    assert main(["campaign", "status", "--repo", str(repo), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["branches"]
    assert {r["branch"]: r["status"] for r in rows}["empty-policy/gamma"] == "missing"

    assert campaign(repo, registry) == 0  # a deleted branch is made again
    assert branches(repo) == BRANCHES


def test_campaign_status_without_a_campaign(repo, capsys):
    assert main(["campaign", "status", "--repo", str(repo)]) == 0
    assert "no campaign" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--check"], "--check and --branch-per-eval"),
        (["--base", "no-such-branch"], "--base no-such-branch: no such branch"),
    ],
)
def test_bad_options_exit_2_with_one_line(repo, registry, capsys, args, message):
    assert campaign(repo, registry, *args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert branches(repo) == set()


def test_branch_options_need_branch_per_eval(repo, registry, capsys):
    code = main(["--all", "--repo", str(repo), "--registry", str(registry), "--base",
                 "main", "--dry-run"])  # fmt: skip
    assert code == 2
    assert "--base only apply with --branch-per-eval" in capsys.readouterr().err


def test_a_tree_that_is_not_a_git_repository(repo, registry, capsys):
    (repo / ".git").rename(repo.parent / "moved.git")

    assert campaign(repo, registry) == 2

    err = capsys.readouterr().err
    assert "is not a git repository" in err and err.count("\n") == 1


def test_an_unknown_committer_is_told_how_to_set_one(
    repo, registry, capsys, monkeypatch, tmp_path
):
    for key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL"):
        monkeypatch.delenv(key)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))

    assert campaign(repo, registry) == 2

    assert "git config user.name" in capsys.readouterr().err
    assert branches(repo) == set()


def test_a_base_other_than_the_checkout(repo, registry):
    git(repo, "checkout", "-q", "-b", "work")
    (repo / "work.txt").write_text("x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Work in progress")

    assert campaign(repo, registry, "--base", "main") == 0

    assert git(repo, "symbolic-ref", "--short", "HEAD").strip() == "work"
    main_commit = git(repo, "rev-parse", "main").strip()
    assert git(repo, "rev-parse", f"{FOUNDATION}^").strip() == main_commit
    assert "work.txt" not in changed(repo, "empty-policy/gamma")
