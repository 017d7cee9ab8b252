"""Malformed registry files: one ``file:line: problem`` line each, never an exception.

Every case of `tests.malformed_yaml.REGISTRY_CASES` is a real file (or a
folder, a pipe, a dangling link) in a real registry folder; the commands that
read it are checked in ``tests/cli/test_registry_input.py``.
"""

import pytest

from empty_migrate.registry import folder_problem
from empty_migrate.registry.loader import (
    Registry,
    RegistryError,
    load_entry,
    load_registry,
)
from tests.demo import DEMO_ENTRY
from tests.malformed_yaml import ALIAS_BOMB, ALIASES_REFUSED, REGISTRY_CASES


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))


@pytest.mark.parametrize("case", REGISTRY_CASES)
def test_a_malformed_file_is_one_problem_line(tmp_path, case):
    path = tmp_path / "demo.yaml"
    REGISTRY_CASES[case].write(path)
    entry, [problem] = load_entry(path)
    assert entry is None
    assert problem.startswith(f"{path}{REGISTRY_CASES[case].problem}")
    assert "\n" not in problem


def test_the_alias_bomb_is_refused_at_its_first_alias_without_expanding_it(tmp_path):
    # expanding it (9**9 strings) took a minute and ran out of memory: this
    # test would not finish; refused, nothing of it is built
    path = tmp_path / "demo.yaml"
    path.write_text(DEMO_ENTRY + ALIAS_BOMB)
    with pytest.raises(RegistryError) as raised:
        load_registry(tmp_path)
    assert raised.value.problems == [
        f"{path}:14: (yaml): alias *lol0: {ALIASES_REFUSED}"
    ]


def test_even_a_harmless_alias_is_refused_where_it_is_written(tmp_path):
    text = DEMO_ENTRY.replace("judge: none", "judge: &j none") + "note: *j\n"
    path = tmp_path / "demo.yaml"
    path.write_text(text)
    assert load_entry(path) == (
        None,
        [f"{path}:13: (yaml): alias *j: {ALIASES_REFUSED}"],
    )


def test_an_asterisk_in_a_value_is_no_alias(tmp_path):
    today = 'today: "empty -> 0 * weight (demo/scorer.py::demo_scorer)"'
    path = tmp_path / "demo.yaml"
    path.write_text(DEMO_ENTRY.replace(DEMO_ENTRY.splitlines()[4], today))
    entry, problems = load_entry(path)
    assert problems == [] and entry is not None
    assert entry.today == "empty -> 0 * weight (demo/scorer.py::demo_scorer)"


def test_every_duplicate_key_is_named_where_it_is_nested(tmp_path):
    text = DEMO_ENTRY.replace(
        "    file: demo/scorer.py\n",
        "    file: demo/scorer.py\n    file: demo/other.py\n",
    )
    path = tmp_path / "demo.yaml"
    path.write_text(text + "polarity: neutral\n")
    assert load_entry(path)[1] == [
        f"{path}:12: scorers[0].file: duplicate key (the first is on line 11)",
        f"{path}:14: polarity: duplicate key (the first is on line 2)",
    ]


def test_a_malformed_file_the_run_does_not_use_is_not_read(tmp_path):
    (tmp_path / "good.yaml").write_text(DEMO_ENTRY)
    REGISTRY_CASES["alias_bomb"].write(tmp_path / "bomb.yaml")
    REGISTRY_CASES["pipe"].write(tmp_path / "pipe.yaml")
    registry = Registry(tmp_path)
    assert registry.get("good").scorers[0].name == "demo_scorer"
    # a cut read as text: the bomb's text names the file; the pipe is not opened
    assert registry.mentioning("demo/scorer.py") == ["bomb", "good"]


def test_a_file_that_cannot_be_read_mentions_nothing(tmp_path):
    REGISTRY_CASES["not_utf8"].write(tmp_path / "broken.yaml")
    REGISTRY_CASES["folder"].write(tmp_path / "folder.yaml")
    (tmp_path / "good.yaml").write_text(DEMO_ENTRY)
    assert Registry(tmp_path).mentioning("demo/scorer.py") == ["good"]


def test_what_keeps_a_folder_from_being_a_registry(tmp_path):
    assert folder_problem(tmp_path / "missing") == "no such folder"
    (tmp_path / "file").write_text(DEMO_ENTRY)
    assert folder_problem(tmp_path / "file") == "not a folder"
    (tmp_path / "empty").mkdir()
    assert folder_problem(tmp_path / "empty") == (
        "holds no <eval>.yaml registry entries"
    )
    (tmp_path / "empty" / "demo.yaml").write_text(DEMO_ENTRY)
    assert folder_problem(tmp_path / "empty") is None
