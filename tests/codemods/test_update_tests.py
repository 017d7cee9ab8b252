"""update_tests: a test is updated only where its text is exactly as recorded."""

import pytest

from empty_migrate.codemods import implementation
from empty_migrate.codemods.kit.base import Skip
from tests.codemods.golden import scorer_target

CODEMOD = implementation("update_tests")
TEST = "tests/demo/test_scorer.py"
SOURCE = "def demo_scorer():\n    pass\n"
REGISTRY = """\
category: qa
polarity: neutral
output: state.output
judge: none
today: "empty completion -> INCORRECT (demo/scorer.py:3)"
codemods: [wrap_router, update_tests]
scorers:
  - name: demo_scorer
    file: demo/scorer.py
    construct: factory
test_updates:
  - test: tests/demo/test_scorer.py::test_empty
    why: "an empty answer is now NOANSWER under the policy"
    edits:
      - old: "    assert score.value == INCORRECT\\n"
        new: "    assert score.value == NOANSWER\\n"
"""
PINNED = "def test_empty():\n    assert score.value == INCORRECT\n"
UPDATED = "def test_empty():\n    assert score.value == NOANSWER\n"


@pytest.fixture
def target(tmp_path):
    return scorer_target(tmp_path, SOURCE, REGISTRY)


def test_touches_only_the_listed_test_files(target):
    assert CODEMOD.files(target) == [TEST]


def test_applies_the_edit_once_and_then_changes_nothing(target):
    updated = CODEMOD.transform(PINNED, TEST, target)
    assert updated == UPDATED
    assert CODEMOD.transform(updated, TEST, target) == UPDATED


@pytest.mark.parametrize(
    "text",
    [
        "def test_empty():\n    assert score.value is INCORRECT\n",
        PINNED + PINNED.replace("test_empty", "test_blank"),
    ],
    ids=["changed", "ambiguous"],
)
def test_a_test_not_as_recorded_stops_the_eval(target, text):
    with pytest.raises(Skip, match="test changed since the registry was written"):
        CODEMOD.transform(text, TEST, target)
