"""The formatter follows the ruff the target pins in its pre-commit config."""

import io
import subprocess
import tarfile

import pytest

from empty_migrate.cli.main import main
from empty_migrate.target.ruff import installed_ruff, pinned_version, ruff_for
from tests.demo import choice_entry, choice_task
from tests.target.test_release_download import backend

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


def test_the_pin_is_read_through_crlf_and_a_bom_and_not_from_latin_1(tmp_path):
    config = tmp_path / ".pre-commit-config.yaml"
    text = PRE_COMMIT.format(version="0.15.11")
    config.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    assert pinned_version(tmp_path) == "0.15.11"
    config.write_bytes(("# café\n" + text).encode("latin-1"))
    assert pinned_version(tmp_path) is None  # YAML is UTF-8: as for invalid YAML


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


def test_a_pinned_ruff_is_never_built_from_its_source_archive(tmp_path, monkeypatch):
    """Only a wheel is installed: a source archive of the pin would run its backend."""
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "links"))
    marker = tmp_path / "built"
    files = {
        "PKG-INFO": "Metadata-Version: 2.1\nName: ruff\nVersion: 0.0.2\n",
        "pyproject.toml": "[build-system]\nrequires = []\n"
        'build-backend = "marker_backend"\nbackend-path = ["."]\n',
        "marker_backend.py": backend(marker),
    }
    (tmp_path / "links").mkdir()
    with tarfile.open(tmp_path / "links" / "ruff-0.0.2.tar.gz", "w:gz") as tar:
        for name, text in files.items():
            info = tarfile.TarInfo(f"ruff-0.0.2/{name}")
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
    (tmp_path / "repo").mkdir()

    ruff = ruff_for(pin(tmp_path / "repo", "0.0.2"))

    assert not marker.exists()
    assert ruff.command == installed_ruff().command


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


FAKE_RUFF = """\
#!/bin/sh
touch {marker}
"""


def fake_ruff(folder, marker):
    """A `ruff` in `folder/bin` that leaves `marker` behind if it is ever run."""
    binary = folder / "bin" / "ruff"
    binary.parent.mkdir(parents=True)
    binary.write_text(FAKE_RUFF.format(marker=marker))
    binary.chmod(0o755)
    return binary


def snapshot(root, leave_out):
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if leave_out not in p.parents and p != leave_out
    )


def test_a_path_like_rev_runs_nothing_from_the_repo(demo, monkeypatch, capsys):
    cache = demo.root / "cache"
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(cache))
    demo.add_eval("gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma"))
    marker = demo.root / "ran"
    fake_ruff(demo.repo / "tools/fake", marker)
    # from <cache>/ruff-<rev>: up to / and down into the repository's tools
    rev = "/.." * len(cache.parts) + str(demo.repo / "tools/fake")
    pin(demo.repo, rev)
    before = snapshot(demo.root, cache)
    args = ["--eval", "gamma", "--dry-run", "--repo", str(demo.repo)]
    args += ["--registry", str(demo.registry)]
    version = installed_ruff().version
    for _ in range(2):
        assert main(args) == 0
        out, err = capsys.readouterr()
        assert "+    return Task(dataset=[], scorer=route_empty_responses(" in out
        assert (
            "empty-migrate: note: the target's .pre-commit-config.yaml pins ruff at "
            f"{rev!r}, not a version: formatting with ruff {version}; check the "
            "result with the target's own hooks\n"
        ) in err
    assert not marker.exists()
    assert snapshot(demo.root, cache) == before
    assert not [p.name for p in cache.iterdir() if p.name.startswith(("ruff", ".ruff"))]


@pytest.mark.parametrize("rev", ["main", "../../bin", "0.15.10 --index-url x"])
def test_a_rev_that_is_not_a_version_is_ignored_with_a_notice(tmp_path, rev):
    (tmp_path / "repo").mkdir()
    ruff = ruff_for(pin(tmp_path / "repo", rev))
    assert ruff.command == installed_ruff().command
    assert ruff.notice == (
        f"the target's .pre-commit-config.yaml pins ruff at {rev!r}, not a version: "
        f"formatting with ruff {installed_ruff().version}; check the result with "
        "the target's own hooks"
    )


def cached_install(cache, version, marker, record):
    """What the cache holds after installing ruff `version`, its binary tampered."""
    folder = cache / f"ruff-{version}"
    fake_ruff(folder, marker)
    if record:
        (folder / "empty-migrate.sha256").write_text(f"{'0' * 64}\n")
    return folder / "bin" / "ruff"


@pytest.mark.parametrize(
    "record",
    # each tries pip once (a second, offline); an install of an older
    # empty-migrate, without a record, is the slow case
    [True, pytest.param(False, marks=pytest.mark.slow)],
    ids=["mismatch", "no record"],
)
def test_an_unverified_cached_ruff_is_never_run(tmp_path, monkeypatch, capsys, record):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "links"))
    marker = tmp_path / "ran"
    binary = cached_install(tmp_path / "cache", "0.15.10", marker, record)
    (tmp_path / "repo").mkdir()
    ruff = ruff_for(pin(tmp_path / "repo", "0.15.10"))
    problem = "does not match" if record else "has no record of"
    assert capsys.readouterr().err == (
        f"empty-migrate: note: the cached ruff 0.15.10 at {binary} {problem} the "
        "sha256 taken when it was installed: installing it again\n"
    )
    assert ruff.command == installed_ruff().command
    assert ruff.notice.startswith("the target pins ruff 0.15.10, which could not be")
    assert not marker.exists()


@pytest.mark.slow
def test_a_tampered_cached_ruff_is_installed_again(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    (tmp_path / "repo").mkdir()
    repo = pin(tmp_path / "repo", "0.15.10")
    ruff = ruff_for(repo)
    assert ruff.notice is None and capsys.readouterr().err == ""
    binary = tmp_path / "cache/ruff-0.15.10/bin/ruff"
    assert ruff.command == (str(binary),)
    marker = tmp_path / "ran"
    binary.write_text(FAKE_RUFF.format(marker=marker))
    assert ruff_for(repo) == ruff
    assert "does not match the sha256" in capsys.readouterr().err
    version = subprocess.run([*ruff.command, "--version"], capture_output=True)
    assert version.stdout.decode().strip() == "ruff 0.15.10"
    assert not marker.exists()
    assert ruff_for(repo) == ruff and capsys.readouterr().err == ""


def test_the_installed_ruffs_version_is_read_once_then_kept(tmp_path, monkeypatch):
    from importlib import metadata

    from empty_migrate.target.ruff import _version_of

    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path))
    binary = installed_ruff().command[0]
    assert _version_of(binary) == metadata.version("ruff")  # read, then kept
    assert len(list((tmp_path / "ruff-version").glob("*.kept"))) == 1
    assert _version_of(binary) == metadata.version("ruff")  # from the cache
