"""Resolving --repo: checkouts, the pinned release, the cache, and clear errors."""

import hashlib
from pathlib import Path

import pytest

from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.cli.main import main
from empty_migrate.target.corpus import (
    SOURCE_MARKER,
    CorpusError,
    _extract,
    resolve_target,
)
from tests.demo import fake_cached_release


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(root))
    return root


@pytest.fixture
def offline(monkeypatch):
    """pip sees one index, on a loopback port where nothing listens."""
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    monkeypatch.delenv("PIP_NO_INDEX", raising=False)


def leftovers(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir()) if cache.exists() else []


def test_a_checkout_path(tmp_path):
    (tmp_path / "src/inspect_evals").mkdir(parents=True)
    (tmp_path / "src/inspect_evals/__init__.py").write_text("")
    target = resolve_target(str(tmp_path))
    assert (target.path, target.notice) == (tmp_path, None)


def test_a_path_that_is_not_inspect_evals(tmp_path):
    with pytest.raises(CorpusError, match="is not an inspect_evals tree"):
        resolve_target(str(tmp_path))


@pytest.mark.parametrize("spec", ["pypi:inspect-evals", "pypi:numpy==1.26.0"])
def test_a_malformed_pypi_spec(spec):
    with pytest.raises(CorpusError, match="expected pypi:inspect-evals==VERSION"):
        resolve_target(spec)


def test_without_repo_inside_a_checkout_uses_it(tmp_path):
    (tmp_path / "src/inspect_evals").mkdir(parents=True)
    (tmp_path / "src/inspect_evals/__init__.py").write_text("")
    nested = tmp_path / "src/inspect_evals"
    target = resolve_target(None, cwd=nested)
    assert (target.path, target.notice) == (tmp_path, None)


def test_without_repo_elsewhere_uses_the_pinned_release(tmp_path, cache, offline):
    fake_cached_release(cache, "0.26.0")
    target = resolve_target(None, cwd=tmp_path)
    assert target.spec == "pypi:inspect-evals==0.26.0"
    assert "using pypi:inspect-evals==0.26.0" in target.notice


def test_cached_release_is_reused_without_the_network(cache, offline):
    tree = fake_cached_release(cache, "0.26.0")
    assert resolve_target("pypi:inspect-evals==0.26.0").path == tree


def test_offline_is_one_clear_error_and_leaves_no_cache(cache, offline):
    with pytest.raises(CorpusError) as raised:
        resolve_target("pypi:inspect-evals==0.26.0")
    assert str(raised.value) == (
        "cannot download inspect-evals==0.26.0: the package index is unreachable; "
        "check the network, or pass --repo PATH to a local checkout"
    )
    assert leftovers(cache) == []


def test_a_half_fetched_cache_is_not_reused(cache, offline):
    tree = fake_cached_release(cache, "0.26.0")
    (tree / SOURCE_MARKER).unlink()
    with pytest.raises(CorpusError, match="unreachable"):
        resolve_target("pypi:inspect-evals==0.26.0")


def test_corrupt_download_is_one_clear_error(tmp_path, cache, monkeypatch):
    corrupt = b"\x1f\x8b not really gzip"
    page = tmp_path / "simple/inspect-evals"
    page.mkdir(parents=True)
    (page / "inspect_evals-0.26.0.tar.gz").write_bytes(corrupt)
    sha256 = hashlib.sha256(corrupt).hexdigest()
    link = f'<a href="inspect_evals-0.26.0.tar.gz#sha256={sha256}">archive</a>'
    (page / "index.html").write_text(link)
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_INDEX_URL", (tmp_path / "simple").as_uri())
    with pytest.raises(CorpusError) as raised:
        resolve_target("pypi:inspect-evals==0.26.0")
    assert str(raised.value) == (
        "inspect_evals-0.26.0.tar.gz is corrupt (not a readable .tar.gz); run again "
        "to re-download"
    )
    assert leftovers(cache) == []


def test_corrupt_archive_is_caught_when_extracting(tmp_path):
    archive = tmp_path / "inspect_evals-0.26.0.tar.gz"
    archive.write_bytes(b"truncated")
    with pytest.raises(CorpusError, match="inspect_evals-0.26.0.tar.gz is corrupt"):
        _extract(archive, tmp_path / "out")


BAD_VERSIONS = ["/../../outside/tree", "0.26.0/../../outside", "..", "main", "1.0\n2"]


def outside(tmp_path, cache):
    """Everything under `tmp_path` but the cache."""
    return sorted(
        p.relative_to(tmp_path).as_posix()
        for p in tmp_path.rglob("*")
        if cache not in [p, *p.parents]
    )


@pytest.mark.parametrize("version", BAD_VERSIONS)
def test_a_pypi_spec_that_is_not_a_version(tmp_path, cache, offline, version):
    spec = f"pypi:inspect-evals=={version}"
    before = outside(tmp_path, cache)
    with pytest.raises(CorpusError) as raised:
        resolve_target(spec)
    assert str(raised.value) == (
        f"--repo {spec!r}: {version!r} is not a version; expected "
        "pypi:inspect-evals==VERSION, e.g. pypi:inspect-evals==0.26.0"
    )
    assert outside(tmp_path, cache) == before
    assert leftovers(cache) == []


@pytest.mark.parametrize(
    "command",
    [["--eval", "demo", "--dry-run"], ["registry", "validate"], ["audit", "--all"]],
)
def test_a_bad_pypi_spec_is_one_line_and_exit_2(demo, cache, capsys, command):
    demo.add_demo_eval()
    before = outside(demo.root, cache)
    spec = "pypi:inspect-evals==/../../outside/tree"
    command += ["--registry", str(demo.registry), "--repo", spec]
    assert main(command) == ExitCode.USAGE
    out, err = capsys.readouterr()
    assert (out, err.count("\n")) == ("", 1)
    assert err.startswith(f"empty-migrate: --repo {spec!r}: ")
    assert outside(demo.root, cache) == before
