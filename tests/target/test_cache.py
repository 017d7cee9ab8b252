"""The user cache: paths inside it only, from plain names and checked versions."""

from pathlib import Path

import pytest

import empty_migrate
from empty_migrate.target.cache import (
    CacheError,
    cache_path,
    cache_root,
    checked_version,
)

SOURCE = Path(empty_migrate.__file__).parent


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(root))
    return root


def test_plain_names_make_a_path_inside_the_cache(cache):
    assert cache_root() == cache
    assert cache_path("ruff-0.15.10") == cache / "ruff-0.15.10"
    assert cache_path("scan", "0123abcd.kept") == cache / "scan" / "0123abcd.kept"
    assert cache_path("target-env-1!2.0+local.7") == cache / "target-env-1!2.0+local.7"


@pytest.mark.parametrize(
    "name",
    ["..", ".", "", "a/b", "/etc", "ruff-/../..", ".hidden", "a\\b", "a\0b", "a b"],
)
def test_a_name_that_could_leave_the_cache_is_refused(tmp_path, cache, name):
    with pytest.raises(CacheError, match="not a plain name") as raised:
        cache_path("kind", name)
    assert "\n" not in str(raised.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("text", "version"),
    [("0.15.11", "0.15.11"), ("v0.26.0", "0.26.0"), ("1.0-RC1", "1.0rc1")],
)
def test_a_version_is_normalized(text, version):
    assert checked_version(text) == version


@pytest.mark.parametrize(
    "text",
    ["/../../x", "..", "0.15.11/../..", "0.1\n2", "0.1 ; rm -rf", "main", "", "1.0@x"],
)
def test_what_is_not_a_version_is_none(text):
    assert checked_version(text) is None


def test_no_module_builds_a_cache_path_of_its_own():
    users = [
        path.relative_to(SOURCE).as_posix()
        for path in SOURCE.rglob("*.py")
        if "cache_root" in path.read_text(encoding="utf-8")
    ]
    assert users == ["target/cache.py"]


@pytest.mark.parametrize(
    "environ",
    [
        {},
        {"XDG_CACHE_HOME": "/var/cache/someone"},
        {"XDG_CACHE_HOME": "relative/cache"},
        {"XDG_CACHE_HOME": ""},
        {"HOME": "/home/someone/"},
        {"HOME": "/home/someone", "XDG_CACHE_HOME": "/x/"},
    ],
)
def test_the_user_cache_is_platformdirs_own(monkeypatch, environ):
    import platformdirs

    monkeypatch.delenv("EMPTY_MIGRATE_CACHE", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    expected = platformdirs.user_cache_dir("empty-migrate", appauthor=False)
    assert cache_root() == Path(expected)
