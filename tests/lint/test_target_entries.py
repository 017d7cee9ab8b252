"""``empty-migrate lint`` reads the registry entries kept beside the target's evals."""

import pytest

from empty_migrate.cli.main import main
from empty_migrate.entries.in_target import entry_path
from tests.demo import DEMO_SCORER, EVAL, SCORER_PATH, manual_entry
from tests.lint.test_lint import (  # noqa: F401 (tree: the fixture, asked for below)
    PRESETS_INCORRECT,
    codes,
    lint,
    tree,
)


@pytest.fixture
def migrated(request):
    """The migrated demo tree of ``test_lint`` (its `tree` fixture)."""
    return request.getfixturevalue("tree")


def test_a_target_entry_marking_an_eval_manual_makes_it_clean(migrated, capsys):
    migrated.write({SCORER_PATH: DEMO_SCORER})  # the wrap reverted
    code, lines, _ = lint(migrated, capsys=capsys)
    assert (code, codes(lines)) == (1, ["EM002"])

    reason = "the maintainers route this scorer by hand (demo/scorer.py::demo_scorer)"
    today = "x (demo/scorer.py::demo_scorer)"
    migrated.write({entry_path(EVAL): manual_entry(reason, today)})
    assert lint(migrated, capsys=capsys)[:2] == (0, [])


def test_a_new_eval_with_its_entry_only_in_the_target(migrated, capsys):
    migrated.add_eval("fresh", {"scorer.py": PRESETS_INCORRECT})
    assert lint(migrated, capsys=capsys)[0] == 1
    reason = "its own empty check is deliberate (fresh/scorer.py::fresh_scorer)"
    today = "x (fresh/scorer.py::fresh_scorer)"
    migrated.write({entry_path("fresh"): manual_entry(reason, today)})
    assert lint(migrated, capsys=capsys)[:2] == (0, [])


def test_a_malformed_target_entry_exits_2_with_one_file_line(migrated, capsys):
    migrated.write({entry_path(EVAL): "category: qa\ncategory: safety\n"})
    code = main(
        ["lint", "--repo", str(migrated.repo), "--registry", str(migrated.registry)]
    )
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"{migrated.repo / entry_path(EVAL)}:2: category: duplicate key "
        "(the first is on line 1)"
    ]
