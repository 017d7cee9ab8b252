"""Runs that write take the repository's lock; a second one is told, at once.

The other run is `held_by` (a real ``flock`` on the real lock file); real
processes against each other are in tests/delivery/test_concurrent_runs.py.
"""

import pytest

from empty_migrate.cli.main import main
from empty_migrate.target.lock import lock_path
from tests.delivery.campaigns import TODAY
from tests.demo import choice_entry, choice_task, git
from tests.target.locks import held_by

GAMMA = "src/inspect_evals/gamma/gamma.py"


@pytest.fixture
def demo_repo(demo):
    demo.add_eval("gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma"))
    demo.commit()
    return demo


def run(demo, *args: str) -> int:
    return main(
        [
            "--eval",
            "gamma",
            "--repo",
            str(demo.repo),
            "--registry",
            str(demo.registry),
            *TODAY,
            *args,
        ]
    )


def test_a_write_while_another_run_writes_exits_2_with_one_line(demo_repo, capsys):
    before = (demo_repo.repo / GAMMA).read_text()
    with held_by(lock_path(demo_repo.repo)):
        assert run(demo_repo) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "another empty-migrate run (pid 4242) is writing to" in err
    assert "--wait" in err
    assert (demo_repo.repo / GAMMA).read_text() == before


def test_the_lock_is_released_when_the_run_is_done(demo_repo, capsys):
    assert run(demo_repo) == 0
    assert "route_empty_responses" in (demo_repo.repo / GAMMA).read_text()
    with held_by(lock_path(demo_repo.repo)):  # free again: taken at once
        pass


@pytest.mark.parametrize("mode", ["--dry-run", "--check"])
def test_dry_runs_and_checks_take_no_lock(demo_repo, capsys, mode):
    with held_by(lock_path(demo_repo.repo)):
        assert run(demo_repo, mode) in (0, 1)
    assert "another empty-migrate run" not in capsys.readouterr().err


def test_branch_mode_takes_the_lock_and_its_dry_run_does_not(
    demo_repo, capsys, monkeypatch
):
    for key, value in (("GIT_AUTHOR_NAME", "T"), ("GIT_AUTHOR_EMAIL", "t@e")):
        monkeypatch.setenv(key, value)
    with held_by(lock_path(demo_repo.repo)):
        assert run(demo_repo, "--branch-per-eval") == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "(pid 4242)" in err
        assert run(demo_repo, "--branch-per-eval", "--dry-run") == 0
        assert main(["campaign", "status", "--repo", str(demo_repo.repo)]) == 0
    assert git(demo_repo.repo, "branch", "--list", "empty-policy/*") == ""


@pytest.mark.parametrize("mode", ["--dry-run", "--check"])
def test_wait_is_refused_where_nothing_is_written(demo_repo, capsys, mode):
    assert run(demo_repo, "--wait", mode) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--wait is for a run that writes" in err
