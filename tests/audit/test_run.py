"""Choosing the audit's interpreter: a tree's version names no path unchecked."""

import pytest

from empty_migrate.audit.run import AuditError, choose_python, tree_version


def test_the_version_of_a_tree_is_its_pkg_info_s(tmp_path):
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 2.4\nVersion: v0.26.0\n")
    assert tree_version(tmp_path) == "0.26.0"


def test_a_pkg_info_version_that_is_not_one_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("EMPTY_MIGRATE_TARGET_ENV", raising=False)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "PKG-INFO").write_text("Version: /../../outside\n")
    heard = []
    with pytest.raises(AuditError) as raised:
        choose_python(None, tree, heard.append)
    assert str(raised.value) == (
        f"{tree / 'PKG-INFO'} gives the version '/../../outside', which is not one: "
        "pass --python PATH to an environment with it installed"
    )
    assert heard == []
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["PKG-INFO", "tree"]
