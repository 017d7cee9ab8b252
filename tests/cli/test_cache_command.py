"""``empty-migrate cache`` and ``cache clear`` on a real cache folder in tmp_path.

The folder holds a part of each kind the tool makes, beside entries it did not
make and symbolic links out of it, which clearing must leave alone.
"""

import json
import os

import pytest

from empty_migrate.cli.main import main
from empty_migrate.target.lock import repository_lock

OURS = {
    "inspect-evals-0.26.0/PKG-INFO": "Version: 0.26.0\n",
    "target-env-0.26.0/bin/python": "#!\n",
    "ruff-0.15.1/bin/ruff": "binary\n",
    "scan/0123.kept": "digest\npayload\n",
    "lint-clean/4567.kept": "digest\npayload\n",
    ".fetch-0.27.0-x1/download/part": "half\n",
}
THEIRS = {"notes.txt": "mine\n", "photos/cat.jpg": "jpeg\n"}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder with each kind of part, entries not ours, and links out."""
    folder = tmp_path / "cache"
    for path, text in {**OURS, **THEIRS}.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("not the cache's\n")
    (folder / "inspect-evals-0.26.0" / "link").symlink_to(outside)
    (folder / "linked").symlink_to(outside)
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(folder))
    return folder


def test_cache_says_where_it_is_and_its_size_by_part(cache, capsys):
    assert main(["cache"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{cache}: ") and lines[0].endswith(" KB")
    kinds = {line.split("  ")[1].strip(): line for line in lines[1:-1]}
    assert set(kinds) == {
        "release download",
        "target environment",
        "ruff install",
        "kept results",
        "lint results",
        "unfinished download",
        "not empty-migrate's: left alone",
    }
    assert kinds["not empty-migrate's: left alone"].endswith(
        "linked, notes.txt, photos"
    )
    assert lines[-1].startswith("`empty-migrate cache clear` empties it")


def test_the_json_lists_every_entry_with_its_size_on_disk(cache, capsys):
    assert main(["cache", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["folder"] == str(cache)
    sizes = {part["name"]: part["size"] for part in report["parts"]}
    assert sizes["notes.txt"] == os.lstat(cache / "notes.txt").st_blocks * 512
    assert report["size"] == sum(sizes.values())
    kinds = {part["name"]: part["kind"] for part in report["parts"]}
    assert kinds["scan"] == "kept results" and kinds["linked"].startswith("not ")


def test_clear_removes_its_parts_and_leaves_the_rest(cache, tmp_path, capsys):
    assert main(["cache", "clear"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{cache}: removed 6 part(s), ")
    assert "left 3 entries that are not empty-migrate's: linked, notes.txt" in out
    assert sorted(path.name for path in cache.iterdir()) == [
        "linked",
        "notes.txt",
        "photos",
    ]
    assert (tmp_path / "outside" / "keep.txt").read_text() == "not the cache's\n"
    assert (cache / "photos" / "cat.jpg").is_file()


def test_clear_is_refused_while_a_run_holds_a_lock_in_the_cache(
    cache, tmp_path, capsys
):
    plain = tmp_path / "plain"  # not a git checkout: its lock is in the cache
    plain.mkdir()
    with repository_lock(plain):
        assert main(["cache", "clear"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("empty-migrate: a run (pid ") and err.count("\n") == 1
    assert "let that run finish, then clear the cache" in err
    assert (cache / "scan" / "0123.kept").is_file()
    assert main(["cache", "clear"]) == 0  # the run is over
    assert not (cache / "locks").exists()


def test_a_cache_not_made_yet_is_empty(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "none"))
    assert main(["cache"]) == 0
    assert capsys.readouterr().out.startswith(f"{tmp_path / 'none'}: 0 B\n")
    assert main(["cache", "clear"]) == 0
    assert not (tmp_path / "none").exists()
