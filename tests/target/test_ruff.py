"""The formatter follows the ruff the target pins in its pre-commit config."""

import subprocess

import pytest

from empty_migrate.target.ruff import installed_ruff, pinned_version, ruff_for

PRE_COMMIT = """\
repos:
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v6.0.0
    hooks:
      - id: check-yaml
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v{version} # Match ruff version specified in pyproject.toml
    hooks:
      - id: ruff-check
      - id: ruff-format
"""


def pin(tmp_path, version):
    (tmp_path / ".pre-commit-config.yaml").write_text(
        PRE_COMMIT.format(version=version)
    )
    return tmp_path


def test_the_pin_is_read_from_the_ruff_hook(tmp_path):
    assert pinned_version(pin(tmp_path, "0.15.11")) == "0.15.11"


@pytest.mark.parametrize("config", [None, "repos: []\n", "not: [valid", "- a list\n"])
def test_no_pin_means_the_installed_ruff(tmp_path, config):
    if config is not None:
        (tmp_path / ".pre-commit-config.yaml").write_text(config)
    assert pinned_version(tmp_path) is None
    assert ruff_for(tmp_path) == installed_ruff()


def test_the_installed_ruff_serves_a_target_that_pins_it(tmp_path):
    ruff = ruff_for(pin(tmp_path, installed_ruff().version))
    assert ruff == installed_ruff() and ruff.notice is None


def test_a_pin_that_cannot_be_installed_falls_back_with_a_notice(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    (tmp_path / "repo").mkdir()
    ruff = ruff_for(pin(tmp_path / "repo", "0.0.1"))
    assert ruff.command == installed_ruff().command
    assert ruff.notice.startswith("the target pins ruff 0.0.1, which could not be ")
    assert ruff.notice.endswith(
        f"formatting with ruff {installed_ruff().version}; check the result with "
        "the target's own hooks"
    )
    assert "\n" not in ruff.notice
    assert not [p for p in (tmp_path / "cache").iterdir() if p.name.startswith(".")]


@pytest.mark.corpus
def test_another_pinned_version_is_installed_once_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    ruff = ruff_for(pin(tmp_path, "0.15.10"))
    assert ruff.notice is None
    assert ruff.command[0].startswith(str(tmp_path / "cache/ruff-0.15.10"))
    version = subprocess.run(
        [*ruff.command, "--version"], capture_output=True, text=True
    )
    assert version.stdout.strip() == "ruff 0.15.10"
    assert ruff_for(tmp_path) == ruff
