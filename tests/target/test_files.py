"""Writing whole or not at all, never through a link, and clearing a killed write."""

import os
from pathlib import Path

import pytest

from empty_migrate.target import files
from empty_migrate.target.files import (
    Journal,
    WriteError,
    linked_part,
    recover,
    unwritable,
    write_files,
)


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "tree"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/a.py").write_text("a = 1\n")
    return root


@pytest.fixture
def outside(tmp_path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "b.py").write_text("b = 1\n")
    return folder


def staging_files(root: Path) -> list[Path]:
    return sorted(root.rglob(f"{files.STAGING_PREFIX}*"))


def test_the_first_linked_part_of_a_path_is_named(tree, outside):
    (tree / "linked").symlink_to(outside)
    (tree / "pkg/b.py").symlink_to(outside / "b.py")
    assert linked_part(tree, "linked/b.py") == "linked"
    assert linked_part(tree, "pkg/b.py") == "pkg/b.py"
    assert linked_part(tree, "pkg/a.py") is None
    assert linked_part(tree, "pkg/new/deeper/c.py") is None
    assert linked_part(tree, "../outside/b.py") == "../outside/b.py"


def test_nothing_is_written_through_a_linked_folder(tree, outside):
    (tree / "linked").symlink_to(outside)
    with pytest.raises(WriteError, match="linked is a symbolic link"):
        write_files(tree, {"pkg/a.py": "a = 2\n", "linked/b.py": "b = 2\n"})
    assert (outside / "b.py").read_text() == "b = 1\n"
    assert (tree / "pkg/a.py").read_text() == "a = 1\n"
    assert staging_files(tree) == [] and staging_files(outside) == []


def test_a_linked_file_is_neither_written_through_nor_replaced(tree, outside):
    (tree / "pkg/b.py").symlink_to(outside / "b.py")
    with pytest.raises(WriteError, match="pkg/b.py is a symbolic link"):
        write_files(tree, {"pkg/b.py": "b = 2\n"})
    assert (tree / "pkg/b.py").is_symlink()
    assert (outside / "b.py").read_text() == "b = 1\n"


def test_a_folder_where_a_file_must_go_is_refused_before_anything_is_staged(tree):
    (tree / "pkg/c.py").mkdir()
    assert unwritable(tree, "pkg/c.py") == "pkg/c.py is a folder where a file must go"
    with pytest.raises(WriteError):
        write_files(tree, {"pkg/a.py": "a = 2\n", "pkg/c.py": "c = 1\n"})
    assert (tree / "pkg/a.py").read_text() == "a = 1\n"
    assert staging_files(tree) == []


def test_a_file_where_a_folder_must_go_is_named(tree):
    assert unwritable(tree, "pkg/a.py/inner.py") == (
        "pkg/a.py is a file where a folder must go (for pkg/a.py/inner.py)"
    )


def test_a_failed_rename_puts_back_the_files_already_renamed(tree, monkeypatch):
    replace = os.replace
    renames: list[str] = []

    def failing_second_rename(source, destination):
        renames.append(str(destination))
        if len(renames) == 2:
            raise OSError(28, "No space left on device", str(destination))
        replace(source, destination)

    monkeypatch.setattr(files.os, "replace", failing_second_rename)
    journal = Journal(tree.parent / "journal.json")
    with pytest.raises(OSError, match="No space left"):
        write_files(
            tree,
            {"pkg/a.py": "a = 2\n", "pkg/new/b.py": "b = 1\n", "pkg/z.py": "z\n"},
            journal,
        )
    assert (tree / "pkg/a.py").read_text() == "a = 1\n"
    assert sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*")) == [
        "pkg",
        "pkg/a.py",
    ]
    assert not journal.path.exists()


def test_a_killed_write_that_was_staging_leaves_nothing_after_recovery(tree):
    journal = Journal(tree.parent / "journal.json")
    temp = tree / "pkg/.em-1234abcd-a.py"
    temp.write_text("a = 2\n")
    journal.record("staging", tree, [(temp, tree / "pkg/a.py")])
    assert recover(journal, tree) == (
        f"removed 1 staging file(s) a stopped run (pid {os.getpid()}) left"
    )
    assert staging_files(tree) == [] and not journal.path.exists()
    assert (tree / "pkg/a.py").read_text() == "a = 1\n"
    assert recover(journal, tree) is None


def test_a_killed_write_that_was_renaming_is_finished_by_recovery(tree):
    journal = Journal(tree.parent / "journal.json")
    (tree / "pkg/b.py").write_text("b = 2\n")  # renamed before the kill
    temp = tree / "pkg/.em-1234abcd-a.py"
    temp.write_text("a = 2\n")
    journal.record(
        "renaming",
        tree,
        [
            (tree / "pkg/.em-1234abcd-b.py", tree / "pkg/b.py"),
            (temp, tree / "pkg/a.py"),
        ],
    )
    note = recover(journal, tree)
    assert note == (
        f"finished writing 1 file(s) a stopped run (pid {os.getpid()}) was "
        "renaming into place: pkg/a.py"
    )
    assert (tree / "pkg/a.py").read_text() == "a = 2\n"
    assert staging_files(tree) == []


def test_recovery_touches_only_staging_files_inside_the_tree(tree, outside):
    journal = Journal(tree.parent / "journal.json")
    journal.path.write_text(
        '{"pid": 1, "phase": "staging", "files": ['
        '["pkg/a.py", "pkg/a.py"], ["../outside/.em-x-b.py", "../outside/b.py"]]}'
    )
    (outside / ".em-x-b.py").write_text("kept\n")
    assert recover(journal, tree) is None
    assert (tree / "pkg/a.py").read_text() == "a = 1\n"
    assert (outside / ".em-x-b.py").read_text() == "kept\n"


def test_an_unreadable_journal_is_set_aside_with_a_note(tree):
    journal = Journal(tree.parent / "journal.json")
    journal.path.write_text("{not json")
    assert recover(journal, tree) == (
        f"ignored an unreadable write journal at {journal.path}"
    )
    assert not journal.path.exists()
