"""``empty-migrate lint`` on the migrated 0.26.0 tree: clean, then each bypass."""

import json
import shutil

import pytest

from empty_migrate.cli.main import main
from tests.lint.test_lint import GRADED_UNWRAPPED, PRESETS_INCORRECT

pytestmark = pytest.mark.corpus


def test_lint_on_the_migrated_tree(migrated_tree, tmp_path, capsys):
    tree, _ = migrated_tree
    assert main(["lint", "--repo", str(tree)]) == 0
    copy = tmp_path / "inspect_evals"
    shutil.copytree(tree, copy)
    package = copy / "src/inspect_evals"
    for name, module, text in [
        ("fresh", "scorer.py", PRESETS_INCORRECT),
        ("graded", "graded.py", GRADED_UNWRAPPED),
    ]:
        (package / name).mkdir()
        (package / name / module).write_text(text)
    zerobench = package / "zerobench/scorer.py"
    zerobench.write_text(
        zerobench.read_text().replace(
            'return route_empty_responses(score, category="qa")', "return score"
        )
    )
    # a dead check in frontierscience's migrated scorer, whose entry lists
    # replace_dead_check (air_bench's scorer reads its judge's state.output)
    frontierscience = package / "frontierscience/frontierscience.py"
    score = "    async def score(state: TaskState, target: Target) -> Score | None:\n"
    assert score in frontierscience.read_text()
    frontierscience.write_text(
        frontierscience.read_text().replace(
            score,
            score + "        if not state.output:\n            return Score(value=0)\n",
        )
    )
    capsys.readouterr()
    assert main(["lint", "--repo", str(copy), "--format", "json"]) == 1
    found = {(f["eval"], f["code"]) for f in _json(capsys)["findings"]}
    assert {
        ("fresh", "EM001"),
        ("fresh", "EM003"),
        ("graded", "EM006"),
        ("zerobench", "EM002"),
        ("frontierscience", "EM004"),
    } == found
    assert main(["lint", "--repo", str(copy), "--fix"]) == 1
    capsys.readouterr()
    assert main(["lint", "--repo", str(copy), "--format", "json"]) == 1
    left = {f["eval"] for f in _json(capsys)["findings"]}
    # new evals need their entry first; the rest --fix migrates clean
    assert left == {"fresh", "graded"}
    assert "route_empty_responses(score" in zerobench.read_text()
    assert "if not state.output:" not in frontierscience.read_text()


def _json(capsys) -> dict:
    return json.loads(capsys.readouterr().out)


def test_lint_passes_on_the_next_release_migrated(
    next_release_tree, next_release_migrated
):
    assert main(["lint", "--repo", str(next_release_tree)]) == 1  # every bypass
    assert main(["lint", "--repo", str(next_release_migrated)]) == 0
