"""Every path the target names stays inside the repository, and no link leads out.

One rule (`empty_migrate.target.files.outside_tree`) decides: a path is taken
from the tree's root, may not be absolute nor go up through ``..``
(`leaves_tree`, which the registry's schema applies to an entry's ``file``
and ``test``), and no part of it may be a symbolic link (`linked_part`).
Each case here is a real git repository in ``tmp_path`` with the hostile part
committed as a repository could publish it: a ``.git`` file pointing
nowhere, a PR template linked to a file outside, an entry naming a file
outside.
"""

import functools
import os
from pathlib import Path

import pytest

from empty_migrate.analysis.citations import Citation, cited_file
from empty_migrate.cli.main import main
from empty_migrate.delivery import campaign as delivery
from empty_migrate.delivery.git import GitRepo
from empty_migrate.delivery.pull_request import TEMPLATE
from empty_migrate.entries.in_target import entry_path
from empty_migrate.pipeline.migrate import migrate, select_codemods
from empty_migrate.registry.drift import citation_problem
from empty_migrate.registry.loader import Registry
from empty_migrate.target.files import outside_tree
from empty_migrate.target.lock import lock_path
from empty_migrate.target.ruff import PRE_COMMIT_CONFIG, installed_ruff, ruff_for
from tests.demo import GIT_IDENTITY, choice_entry, choice_task, entry, git
from tests.lint.test_lint import (  # noqa: F401 (tree: the fixture, asked for below)
    PRESETS_INCORRECT,
    lint,
    tree,
)

SECRET = "SECRET-TEXT-OF-A-FILE-OUTSIDE"


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder beside the repository, which nothing may read or change."""
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def everything_under(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


# -- a .git file that points nowhere -----------------------------------------


@pytest.fixture
def pointed(demo):
    """The demo tree with one eval, not (yet) a git repository."""
    demo.add_eval("alpha", {"alpha.py": choice_task("alpha")}, choice_entry("alpha"))
    return demo


@pytest.mark.parametrize("pointer", ["absolute", "../nowhere", "../plain"])
def test_a_git_file_naming_no_git_folder_is_one_line_and_creates_nothing(
    pointed, tmp_path, capsys, pointer
):
    nowhere = tmp_path / "nowhere"
    (tmp_path / "plain").mkdir()  # a folder, but not a git folder
    named = str(nowhere) if pointer == "absolute" else pointer
    (pointed.repo / ".git").write_text(f"gitdir: {named}\n")
    before = everything_under(tmp_path)

    code = main(["--repo", str(pointed.repo), "--registry", str(pointed.registry),
                 "--eval", "alpha"])  # fmt: skip

    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert "is not a git folder: repair the checkout" in line
    assert "Traceback" not in err
    assert not nowhere.exists()
    assert everything_under(tmp_path) == before  # not even the eval was written


def test_a_worktree_keeps_its_lock_in_the_git_folder_it_shares(demo, tmp_path):
    demo.commit()
    worktree = tmp_path / "worktree"
    git(demo.repo, "worktree", "add", "-q", str(worktree))
    common = (demo.repo / ".git").resolve()

    assert lock_path(worktree) == common / "empty-migrate/lock"


# -- a PR template linked to a file outside ----------------------------------


@pytest.fixture
def campaign_repo(demo, monkeypatch):
    """One eval committed on ``main``, whose PR template the test chooses."""
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)
    in_process = functools.partial(migrate, jobs=1)
    monkeypatch.setattr("empty_migrate.delivery.campaign.migrate", in_process)
    demo.add_eval("gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma"))
    return demo


def planned_texts(demo) -> tuple[list[str], list[str]]:
    """The PR texts a branch-mode run would publish, and the notes it heard."""
    heard: list[str] = []
    opened = GitRepo(demo.repo)
    try:
        plan = delivery.plan(
            opened, Registry(demo.registry), ["gamma"], select_codemods(),
            "2026-12-01", opened.resolve("main"), notify=heard.append,
        )  # fmt: skip
    finally:
        opened.close()
    return [d.pr_text for d in plan.deliveries], heard


@pytest.mark.parametrize(
    "linked", ["file", pytest.param("folder", marks=pytest.mark.slow)]
)
def test_a_pr_template_linked_outside_is_not_read(campaign_repo, outside, linked):
    (outside / "PULL_REQUEST_TEMPLATE.md").write_text(f"## {SECRET}\n\n{SECRET}\n")
    github = campaign_repo.repo / ".github"
    if linked == "folder":
        github.symlink_to(outside)
    else:
        github.mkdir()
        (github / "PULL_REQUEST_TEMPLATE.md").symlink_to(
            outside / "PULL_REQUEST_TEMPLATE.md"
        )
    campaign_repo.commit()

    texts, heard = planned_texts(campaign_repo)

    assert texts and not any(SECRET in text for text in texts)
    link = ".github" if linked == "folder" else TEMPLATE
    assert f"{link} is a symbolic link: nothing is read or written through it; " \
        "the PR texts use the default layout" in heard  # fmt: skip


# -- an entry naming a file outside ------------------------------------------


def outside_entries(outside: Path) -> dict[str, tuple[str, str]]:
    """Each hostile entry, by case: its text and the key its problem is at."""
    absolute = str(outside / "x.py")
    today = "x (fresh/scorer.py::fresh_scorer)"
    return {
        "absolute file": (
            entry("fresh", file=absolute, scorer="fresh_scorer", tasks=[],
                  today=today),
            f"scorers[0].file: {absolute} is absolute",
        ),
        "file up through ..": (
            entry("fresh", file="../../../outside/x.py", scorer="fresh_scorer",
                  tasks=[], today=today),
            "scorers[0].file: ../../../outside/x.py goes up through '..'",
        ),
        "test up through ..": (
            entry("fresh", file="fresh/scorer.py", scorer="fresh_scorer", tasks=[],
                  today=today, codemods=["wrap_router", "update_tests"])
            + "test_updates:\n"
            "  - test: tests/../../outside/x.py::t\n"
            "    why: the test pins the old behaviour\n"
            "    edits:\n      - old: a\n        new: b\n",
            "test_updates[0].test: tests/../../outside/x.py goes up through '..'",
        ),
    }  # fmt: skip


@pytest.mark.parametrize(
    ("case", "fix"),
    [
        ("absolute file", False),
        ("absolute file", True),  # was exit 3 (a made-up path to write)
        ("file up through ..", False),
        ("test up through ..", False),
    ],
)
def test_an_entry_naming_a_file_outside_is_a_problem_at_its_line(
    request, outside, capsys, case, fix
):
    demo = request.getfixturevalue("tree")  # test_lint's demo tree, migrated
    (outside / "x.py").write_text(PRESETS_INCORRECT)
    text, problem = outside_entries(outside)[case]
    demo.add_eval("fresh", {"scorer.py": PRESETS_INCORRECT})
    demo.write({entry_path("fresh"): text})
    demo.commit()
    line = 1 + next(i for i, ln in enumerate(text.splitlines()) if "outside/x.py" in ln)

    code, out, err = lint(demo, *(["--fix"] if fix else []), capsys=capsys)

    assert (code, out) == (2, [])
    assert err.splitlines() == [
        f"{demo.repo / entry_path('fresh')}:{line}: {problem}: name it "
        + ("relative, inside the repository" if case == "absolute file"
           else "inside the repository, without '..'")
    ]  # fmt: skip
    assert (outside / "x.py").read_text() == PRESETS_INCORRECT


# -- the one rule -------------------------------------------------------------


def test_the_one_rule_names_what_leads_out(tmp_path, outside):
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/a.py").write_text("")
    (root / "linked").symlink_to(outside)
    os.symlink(outside / "b.py", root / "pkg/b.py")

    assert outside_tree(root, "pkg/a.py") is None
    assert outside_tree(root, "pkg/new/c.py") is None
    assert outside_tree(root, "linked/x.py") == (
        "linked is a symbolic link: nothing is read or written through it"
    )
    assert outside_tree(root, "pkg/b.py").startswith("pkg/b.py is a symbolic link")
    assert outside_tree(root, "/etc/passwd").startswith("/etc/passwd is absolute")
    assert outside_tree(root, "pkg/../../x").startswith("pkg/../../x goes up")
    assert outside_tree(root, "").startswith(" is empty")


# -- configurations linked to files outside ----------------------------------


def test_a_linked_pre_commit_config_is_not_read_for_its_ruff_pin(tmp_path, outside):
    (outside / "config.yaml").write_text(
        "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n"
        "    rev: not-a-version\n"
    )
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / PRE_COMMIT_CONFIG).symlink_to(outside / "config.yaml")

    ruff = ruff_for(repo)

    assert ruff.command == installed_ruff().command
    assert ruff.notice == (
        f"{PRE_COMMIT_CONFIG} is a symbolic link: nothing is read or written "
        "through it, so its ruff pin is not read: formatting with ruff "
        f"{installed_ruff().version}; check the result with the target's own hooks"
    )


def test_a_linked_ruff_configuration_fails_the_evals_and_writes_nothing(
    pointed, outside, capsys
):
    pyproject = pointed.repo / "pyproject.toml"
    (outside / "pyproject.toml").write_bytes(pyproject.read_bytes())
    pyproject.unlink()
    pyproject.symlink_to(outside / "pyproject.toml")
    before = everything_under(pointed.root)
    module = pointed.repo / "src/inspect_evals/alpha/alpha.py"
    text = module.read_text()

    code = main(["--repo", str(pointed.repo), "--registry", str(pointed.registry),
                 "--eval", "alpha"])  # fmt: skip

    err = capsys.readouterr().err
    assert code == 3
    assert (
        "pyproject.toml is a symbolic link: nothing is read or written through "
        "it; ruff reads the target's own pyproject.toml"
    ) in err
    assert "Traceback" not in err
    assert module.read_text() == text
    assert everything_under(pointed.root) == before


def test_a_citation_up_through_dots_is_named_not_read(tmp_path, outside):
    (outside / "x.py").write_text(PRESETS_INCORRECT)  # defines fresh_scorer
    repo = tmp_path / "repo"
    (repo / "src/inspect_evals").mkdir(parents=True)
    cited = Citation("../../../outside/x.py", "fresh_scorer")

    assert cited_file(repo, cited.path) is None
    assert citation_problem(cited, repo) == (
        "../../../outside/x.py goes up through '..': name it inside the "
        "repository, without '..'"
    )
