"""Values kept in the user cache: read back whole, or computed again and said."""

import hashlib
import os
import pickle
import subprocess
import sys

import pytest

from empty_migrate.codemods.kit.generated import ruff_clean
from empty_migrate.target.kept import keep, key_of, recall
from tests.demo import choice_entry, choice_task

UNFORMATTED = "import sys\nimport os\nx = {  'a':1 }\n"
FORMATTED = 'import os\nimport sys\n\nx = {"a": 1}\n'
NOTE = "empty-migrate: note: the kept entry"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(root))
    return root


def entry(cache, kind="things"):
    (path,) = (cache / kind).iterdir()
    return path


def damage(path, how):
    """Damage a kept entry: cut it short, or change its value but not its digest."""
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:
        digest, _, payload = data.partition(b"\n")
        value = pickle.loads(payload)
        path.write_bytes(digest + b"\n" + pickle.dumps(value + "import os\n"))


def test_a_kept_value_is_read_back_under_its_digest(cache):
    key = key_of("text", "code")
    assert recall("things", key) is None
    keep("things", key, {"a": [1, 2]})
    assert recall("things", key) == {"a": [1, 2]}
    assert key_of("text", "code") == key != key_of("text", "other code")
    digest, _, payload = entry(cache).read_bytes().partition(b"\n")
    assert digest == hashlib.sha256(payload).hexdigest().encode()


@pytest.mark.parametrize("how", ["truncated", "tampered"])
def test_a_damaged_entry_is_computed_again_and_said_once(cache, capsys, how):
    keep("things", "k", "the value\n")
    damage(entry(cache), how)
    assert recall("things", "k") is None
    assert recall("things", "k") is None
    assert capsys.readouterr().err == (
        f"empty-migrate: note: the kept entry {cache / 'things/k.kept'} does not "
        "match its sha256: computing it again\n"
    )
    keep("things", "k", "the value\n")
    assert recall("things", "k") == "the value\n"
    assert capsys.readouterr().err == ""


def test_an_unreadable_entry_is_said(cache, capsys):
    (cache / "things/k.kept").mkdir(parents=True)
    assert recall("things", "k") is None
    err = capsys.readouterr().err
    assert err.startswith(f"empty-migrate: note: the kept entry {cache}/things/k.kept")
    assert err.endswith("cannot be read (Is a directory): computing it again\n")


def test_an_entry_without_a_digest_is_not_read(cache, capsys):
    (cache / "things").mkdir(parents=True)
    (cache / "things/k.pickle").write_bytes(pickle.dumps("old"))
    assert recall("things", "k") is None
    assert capsys.readouterr().err == ""


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    (tmp_path / "cache").write_text("a file where a folder should be")
    keep("things", "k", 1)
    assert recall("things", "k") is None
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".em-")]
    assert os.listdir(tmp_path) == ["cache"]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("how", ["truncated", "tampered"])
def test_a_damaged_generated_module_is_formatted_again(cache, capsys, how):
    assert ruff_clean(UNFORMATTED) == FORMATTED
    damage(entry(cache, "generated"), how)
    assert ruff_clean(UNFORMATTED) == FORMATTED
    assert "does not match its sha256" in capsys.readouterr().err
    assert ruff_clean(UNFORMATTED) == FORMATTED
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_a_run_over_damaged_entries_writes_what_a_fresh_run_writes(demo, cache):
    """Every kept entry damaged: registry entry, scans, generated modules, the
    formatter's batches and its version, compile checks, files' comments."""
    demo.add_eval("gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma"))
    command = [sys.executable, "-m", "empty_migrate", "--eval", "gamma", "--dry-run"]
    command += ["--repo", str(demo.repo), "--registry", str(demo.registry)]

    def run():
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        return done.stdout, done.stderr

    fresh, said = run()
    entries = sorted(cache.rglob("*.kept"))
    assert {p.parent.name for p in entries} == {
        "registry",
        "scan",
        "generated",
        "formatted",
        "ruff-version",
        "compiled",
        "comments",
    }
    for path in entries:
        damage(path, "tampered" if path.parent.name == "generated" else "truncated")
    diff, damaged_said = run()
    assert diff == fresh
    lines = damaged_said.splitlines()
    notes = [line for line in lines if line.startswith(NOTE)]
    assert [line for line in lines if line not in notes] == said.splitlines()
    assert sorted(notes) == [
        f"{NOTE} {path} does not match its sha256: computing it again"
        for path in entries
    ]
    assert run() == (fresh, said)
