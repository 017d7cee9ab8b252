"""Values kept in the user cache: read back whole, or computed again."""

import os

from empty_migrate.target.kept import keep, key_of, recall


def test_a_kept_value_is_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path))
    key = key_of("text", "code")
    assert recall("things", key) is None
    keep("things", key, {"a": [1, 2]})
    assert recall("things", key) == {"a": [1, 2]}
    assert key_of("text", "code") == key != key_of("text", "other code")


def test_a_broken_file_is_computed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path))
    (tmp_path / "things").mkdir()
    (tmp_path / "things" / "k.pickle").write_bytes(b"\x80\x04truncated")
    assert recall("things", "k") is None


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    (tmp_path / "cache").write_text("a file where a folder should be")
    keep("things", "k", 1)
    assert recall("things", "k") is None
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".em-")]
    assert os.listdir(tmp_path) == ["cache"]
