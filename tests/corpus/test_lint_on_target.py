"""``empty-migrate lint`` on the migrated 0.26.0 tree: clean, then each bypass."""

import json
import shutil

import pytest

from empty_migrate.cli.main import main
from tests.corpus.conftest import run_json
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


EXTRA_SCORER = """

@scorer(metrics=[accuracy()])
def lab_bench_exact():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=state.output.completion.strip() == target.text)

    return score
"""


def test_a_drifted_eval_gets_one_answer_from_lint_fix_and_eval(
    inspect_evals_tree, tmp_path, capsys
):
    """lab_bench with a new @scorer its entry does not list, on the pristine tree."""
    copy = tmp_path / "inspect_evals"
    shutil.copytree(inspect_evals_tree, copy, ignore=shutil.ignore_patterns(".git"))
    scorer = copy / "src/inspect_evals/lab_bench/scorer.py"
    scorer.write_text(scorer.read_text() + EXTRA_SCORER)
    said = "new scorer: @scorer lab_bench_exact at lab_bench/scorer.py:"
    assert main(["lint", "--repo", str(copy), str(scorer)]) == 1
    out, err = capsys.readouterr()
    assert f"EM007 {said}" in out
    assert (
        "lab_bench: --fix leaves it as it is: code no longer matches its entry" in err
    )
    assert said in err and "--fix migrates" not in err
    before = scorer.read_text()
    for _ in range(2):
        assert main(["lint", "--repo", str(copy), "--fix", str(scorer)]) == 1
        assert capsys.readouterr().err == err and scorer.read_text() == before
    assert main(["--eval", "lab_bench", "--dry-run", "--repo", str(copy)]) == 0
    skipped = capsys.readouterr().err
    assert "lab_bench: skipped: code no longer matches its entry" in skipped
    assert said in skipped


def test_a_new_eval_is_named_by_every_run_until_its_entry_is_written(
    inspect_evals_tree, tmp_path, capsys, monkeypatch
):
    copy = tmp_path / "inspect_evals"
    shutil.copytree(inspect_evals_tree, copy, ignore=shutil.ignore_patterns(".git"))
    (copy / "src/inspect_evals/fresh").mkdir()
    (copy / "src/inspect_evals/fresh/scorer.py").write_text(PRESETS_INCORRECT)
    monkeypatch.chdir(copy / "src/inspect_evals/fresh")
    report = run_json(copy, "--all", "--dry-run")
    assert report["summary"]["not_in_registry"] == 1
    assert report["not_in_registry"] == [
        {
            "eval": "fresh",
            "write_entry": "empty-migrate registry scaffold fresh > "
            "src/inspect_evals/fresh/empty_response.yaml",
        }
    ]
    capsys.readouterr()
    assert main(["registry", "scaffold", "fresh"]) == 0
    entry = capsys.readouterr().out
    filled = {
        "category: TODO": "category: qa",
        "polarity: TODO": "polarity: neutral",
        "judge: TODO": "judge: none",
        "today: TODO": 'today: "empty -> INCORRECT (fresh/scorer.py::fresh_scorer)"',
        "codemods: TODO": "codemods: [wrap_router, replace_dead_check]",
    }
    lines = [
        next((new for old, new in filled.items() if line.startswith(old)), line)
        for line in entry.splitlines()
    ]
    target_entry = copy / "src/inspect_evals/fresh/empty_response.yaml"
    target_entry.write_text("\n".join(lines) + "\n")
    assert main(["registry", "show", "fresh"]) == 0
    assert capsys.readouterr().out.startswith(
        "fresh  (src/inspect_evals/fresh/empty_response.yaml)"
    )
    report = run_json(copy, "--eval", "fresh", "--dry-run")
    assert [e["status"] for e in report["evals"]] == ["rewritten"]
    assert run_json(copy, "--all", "--dry-run")["summary"]["not_in_registry"] == 0
