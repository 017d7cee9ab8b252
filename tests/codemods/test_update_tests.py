"""update_tests: a test is updated only where its text is exactly as recorded.

A test changed since the registry was written is a golden skip case:
``golden/update_tests/test_changed_since_it_was_recorded``.
"""

import pytest

from empty_migrate.codemods import implementation
from tests.codemods.check import CodemodCheck
from tests.demo import entry, scorer_target

TEST = "tests/demo/test_scorer.py"
SOURCE = "def demo_scorer():\n    pass\n"
REGISTRY = entry(
    codemods=["wrap_router", "update_tests"],
    today="empty completion -> INCORRECT (demo/scorer.py::demo_scorer)",
    tasks=[],
) + (
    "test_updates:\n"
    "  - test: tests/demo/test_scorer.py::test_empty\n"
    '    why: "an empty answer is now NOANSWER under the policy"\n'
    "    edits:\n"
    '      - old: "    assert score.value == INCORRECT\\n"\n'
    '        new: "    assert score.value == NOANSWER\\n"\n'
)
PINNED = "def test_empty():\n    assert score.value == INCORRECT\n"
UPDATED = "def test_empty():\n    assert score.value == NOANSWER\n"


@pytest.fixture
def check(tmp_path):
    target = scorer_target(tmp_path, SOURCE, REGISTRY)
    return CodemodCheck("update_tests", lambda _: target, path=TEST)


def test_touches_only_the_listed_test_files(tmp_path):
    target = scorer_target(tmp_path, SOURCE, REGISTRY)
    assert implementation("update_tests").files(target) == [TEST]


def test_applies_the_edit_once_and_then_changes_nothing(check):
    check.check_transformed(PINNED, UPDATED)


def test_a_test_recorded_twice_stops_the_eval(check):
    check.check_skipped(
        PINNED + PINNED.replace("test_empty", "test_blank"),
        "the text to update occurs 2 times, not once; the test changed since the "
        "registry was written",
    )
