"""The campaign tests' repository under real git, and its registry.

`tests.delivery.campaigns.build_campaign_repo` writes it: ``gamma`` (its own
scorer), ``alpha`` and ``beta`` (one shared helper), ``delta`` (manual; it
still calls the preset helper, so the helper's shim gets a branch of its
own), and a pull-request template of its own. ``repo``/``registry`` are a
fresh one; ``campaigned`` a copy of one after a campaign.
"""

import functools
import shutil
from pathlib import Path

import pytest

from empty_migrate.pipeline.migrate import migrate
from tests.delivery.campaigns import build_campaign_repo, campaign
from tests.demo import GIT_IDENTITY, DemoTree


@pytest.fixture(autouse=True)
def identity(monkeypatch):
    """Commits by a fixed person, whatever the machine's git config says."""
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)


@pytest.fixture(autouse=True)
def migrate_in_process(monkeypatch):
    """The campaign computes its migration in this process, not a process pool.

    The branches are the subject here; the pool (forked once per run, a third
    more CPU for these four evals) is checked by tests/pipeline and tests/cli,
    and by the (slow) Ctrl-C campaign test, which runs the campaign as a real
    process.
    """
    in_process = functools.partial(migrate, jobs=1)
    monkeypatch.setattr("empty_migrate.delivery.campaign.migrate", in_process)


@pytest.fixture
def campaign_tree(demo) -> DemoTree:
    """The repository, committed on ``main`` (clean work tree), and its registry."""
    return build_campaign_repo(demo)


@pytest.fixture
def repo(campaign_tree) -> Path:
    return campaign_tree.repo


@pytest.fixture
def registry(campaign_tree) -> Path:
    return campaign_tree.registry


@pytest.fixture
def campaigned(built_once, tmp_path) -> DemoTree:
    """The repository after one campaign (``--all --branch-per-eval``): a copy.

    The campaign runs once in a test run (every test that starts from it
    would run the same one); each test gets a copy to read or change. The
    campaign's state file names where it wrote the PR texts (under the
    original's git folder): a test that compares the state file after
    another run makes a campaign of its own.
    """
    copy = DemoTree(tmp_path / "campaigned")
    shutil.copytree(built_once("campaign", _campaign), copy.root, symlinks=True)
    return copy


def _campaign(root: Path) -> None:
    tree = DemoTree.create(root)
    with pytest.MonkeyPatch.context() as patch:
        for key, value in GIT_IDENTITY.items():
            patch.setenv(key, value)
        build_campaign_repo(tree)
        assert campaign(tree.repo, tree.registry) == 0
