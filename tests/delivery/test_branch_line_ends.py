"""A branch commits a CRLF or BOM file as a write would leave it, not as LF."""

import shutil
import subprocess

import pytest

from empty_migrate.cli.main import main
from tests.delivery.campaigns import TODAY, campaign
from tests.demo import DemoTree, choice_entry, choice_task

TASK = "src/inspect_evals/gamma/gamma.py"


@pytest.mark.parametrize("bom", [False, True], ids=["crlf", "bom-crlf"])
def test_a_branch_holds_the_bytes_a_write_gives(demo, tmp_path, monkeypatch, bom):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    demo.add_eval("gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma"))
    original = ("\ufeff" if bom else "") + choice_task("gamma").replace("\n", "\r\n")
    (demo.repo / TASK).write_bytes(original.encode())
    demo.commit()
    written = DemoTree(tmp_path / "written")
    shutil.copytree(demo.root, written.root, symlinks=True)

    assert campaign(demo.repo, demo.registry) == 0
    args = ["--all", "--repo", str(written.repo), "--registry", str(written.registry)]
    assert main([*args, *TODAY]) == 0

    committed = subprocess.run(
        ["git", "cat-file", "blob", f"empty-policy/gamma:{TASK}"],
        cwd=demo.repo,
        check=True,
        capture_output=True,
    ).stdout
    expected = (written.repo / TASK).read_bytes()
    assert committed == expected != original.encode()
    assert expected.startswith("\ufeff".encode()) == bom
    assert expected.count(b"\r\n") == expected.count(b"\n")
