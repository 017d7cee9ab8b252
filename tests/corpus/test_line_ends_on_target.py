"""A real scorer file with CRLF line ends migrates line for line like its original."""

import shutil

import pytest

from empty_migrate.cli.main import main
from tests.corpus.conftest import TODAY

pytestmark = pytest.mark.corpus

SCORER = "src/inspect_evals/xstest/xstest.py"


def test_a_crlf_scorer_file_changes_only_where_its_lf_original_does(
    inspect_evals_tree, tmp_path, monkeypatch
):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    ignored = shutil.ignore_patterns(".git", "inspect_evals.egg-info")
    lf, crlf = tmp_path / "lf", tmp_path / "crlf"
    for copy in (lf, crlf):
        shutil.copytree(inspect_evals_tree, copy, ignore=ignored)
    original = (lf / SCORER).read_bytes()
    assert b"\r" not in original
    (crlf / SCORER).write_bytes(original.replace(b"\n", b"\r\n"))

    for copy in (lf, crlf):
        assert main(["--eval", "xstest", "--repo", str(copy), "--today", TODAY]) == 0

    migrated = (lf / SCORER).read_bytes()
    assert migrated != original
    # every line ends in CRLF: the unchanged ones as they were, the new ones
    # with the file's line end; nothing else differs
    assert (crlf / SCORER).read_bytes() == migrated.replace(b"\n", b"\r\n")
    for path in lf.rglob("*"):
        relative = path.relative_to(lf)
        if path.is_file() and relative.as_posix() != SCORER:
            assert (crlf / relative).read_bytes() == path.read_bytes(), relative
